"""numerics.arithmetic: log in every context, exact exp(0) / log(1), float64 over numpy arrays, torch and
sympy arithmetics (the population kernels of focus_dilution run against them)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
import torch

from numerics.arithmetic import (ArbArithmetic, ExactArithmetic, FloatArithmetic, MPArithmetic, SympyArithmetic,
                                 TorchArithmetic)


def test_exact_exp_and_log_only_where_rational():
    ar = ExactArithmetic("fraction")
    assert ar.exp(Fraction(0)) == 1 and isinstance(ar.exp(Fraction(0)), Fraction)
    assert ar.log(Fraction(1)) == 0
    with pytest.raises(TypeError):
        ar.exp(Fraction(1, 2))
    with pytest.raises(TypeError):
        ar.log(Fraction(2))


def test_float_log_scalar_and_array():
    ar = FloatArithmetic()
    assert ar.log(2.0) == pytest.approx(0.6931471805599453, abs=0)
    out = ar.log(np.array([1.0, np.e]))
    assert isinstance(out, np.ndarray) and np.array_equal(out, np.log(np.array([1.0, np.e])))
    assert np.array_equal(ar.exp(np.array([0.0, 1.0])), np.exp(np.array([0.0, 1.0])))


def test_mp_and_arb_log():
    mp = MPArithmetic(30)
    assert abs(mp.log(mp.convert(2)) - mp.ctx.mpf("0.693147180559945309417232121458")) < mp.ctx.mpf(10) ** -28
    with ArbArithmetic(128) as ar:
        ln2 = ar.log(ar.convert(2))
        assert ln2.rad() < 1e-35 and ln2.overlaps(mp_ball("0.69314718055994530941723212145817656807550"))


def mp_ball(s):
    import flint

    return flint.arb(s)


def test_torch_arithmetic_elementwise_and_dtype():
    ar = TorchArithmetic()
    x = ar.log(torch.tensor([1.0, 4.0], dtype=torch.float64))
    assert x.dtype == torch.float64 and torch.equal(x, torch.log(torch.tensor([1.0, 4.0], dtype=torch.float64)))
    assert ar.exp(Fraction(0)).item() == 1.0
    assert TorchArithmetic(torch.float32).tolerance() > ar.tolerance()
    with pytest.raises(TypeError):
        TorchArithmetic(torch.int64)


def test_sympy_arithmetic_keeps_logs_symbolic():
    ar = SympyArithmetic()
    assert ar.convert(Fraction(1, 3)) == sp.Rational(1, 3)
    assert ar.log(ar.convert(2)) == sp.log(2)
    assert ar.exp(ar.log(ar.convert(Fraction(1, 3)))) == sp.Rational(1, 3)
    assert ar.exact and ar.tolerance() == 0.0


def test_jet_arithmetic_runs_a_kernel_in_forward_mode():
    """A kernel written against an Arithmetic (exp/log elementwise) gives the exact Hessian on Jet2 values."""
    from numerics.krawczyk import JetArithmetic, hessian_forward

    def kernel(x, ar):  # log(exp(x0) + exp(x1)): the log-sum-exp of the population loss
        return ar.log(ar.exp(x[0]) + ar.exp(x[1]))

    with ArbArithmetic(128) as ar:
        v, g, H = hessian_forward(lambda x: kernel(x, JetArithmetic()), [ar.convert(0), ar.convert(0)], ar)
        assert v.overlaps(ar.log(ar.convert(2)))
        assert all(x.overlaps(ar.convert(Fraction(1, 2))) for x in g)
        assert H[0][0].overlaps(ar.convert(Fraction(1, 4))) and H[0][1].overlaps(ar.convert(Fraction(-1, 4)))
