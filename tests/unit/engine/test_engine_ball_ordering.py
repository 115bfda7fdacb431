"""Balls, rationals and mpf values are ordered and summarised without floats (issue "Trust").

``float(ball)`` underflows to 0 below 1e-308 and overflows beyond 1e308, and ``max``/``sorted``/``==``
on balls are not three-valued; these tests pin the rigorous replacements in numerics.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.arithmetic import ArbArithmetic
from numerics.attention import hardmax_weights
from numerics.errors import InputError, InputTypeError
from numerics.linalg import ascending_disjoint, ball_spectrum, exact_spectrum, symmetric_ball_spectrum
from numerics.precision import arb_precision, arb_to_float, mp_context, to_arb


@settings(deadline=None, max_examples=30)
@given(k=st.integers(-400, 400))
def test_spectra_are_ordered_at_every_scale(k):
    t = Fraction(10) ** k
    M = [[t, 0, 0], [0, 0, 0], [0, 0, -2 * t]]
    for spec in (exact_spectrum(M), ball_spectrum(M, bits=128), symmetric_ball_spectrum(M, bits=128)):
        encs = [cl.enclosure for cl in spec]
        assert len(encs) == 3 and encs[0] < 0 and encs[2] > 0 and encs[1].contains(0)
        with arb_precision(256):
            assert encs[2].contains(to_arb(t)) and encs[0].contains(to_arb(-2 * t))


def test_ball_spectrum_huge_dynamic_range():
    s = Fraction(10) ** 160  # covariance of [[s, 0], [-s, 1]]: eigenvalues s^2 + 1/4 and exactly 0
    C = [[s * s, -s / 2], [-s / 2, Fraction(1, 4)]]
    top = ball_spectrum(C, bits=128)[-1].enclosure  # acb_mat.eig failed to isolate at 128 bits before
    with arb_precision(600):
        assert top.contains(to_arb(s * s + Fraction(1, 4)))


def test_ascending_disjoint():
    assert ascending_disjoint([flint.arb(2), flint.arb(1), flint.arb(10) ** -400]) == [2, 1, 0]
    assert ascending_disjoint([flint.arb("1 +/- 0.5"), flint.arb("1.2 +/- 0.5")]) is None


def test_hardmax_on_balls_is_decided_or_refused():
    with ArbArithmetic(64) as ar:
        tiny = flint.arb(10) ** -400
        assert [float(w) for w in hardmax_weights([tiny, flint.arb(0), -tiny], ar)] == [1.0, 0.0, 0.0]
        assert [float(w) for w in hardmax_weights([flint.arb(3), flint.arb(1), flint.arb(3)], ar)] == [0.5, 0, 0.5]
        with pytest.raises(ArithmeticError, match="hardmax"):
            hardmax_weights([flint.arb("3 +/- 0.1"), flint.arb(3)], ar)


def test_arb_to_float_only_when_representable():
    assert arb_to_float(flint.arb(10) ** 400) is None
    assert arb_to_float(flint.arb(10) ** -400) is None
    assert arb_to_float(flint.arb("nan")) is None
    assert arb_to_float(flint.arb(0)) == 0.0
    assert arb_to_float(flint.arb(1) / 3) == pytest.approx(1 / 3, rel=1e-16)
    assert arb_to_float(flint.arb(2.0**-1022)) == 2.0**-1022


def test_to_arb_of_mpf_is_exact():
    ctx = mp_context(100)
    for x in (ctx.mpf(1) / 3, -ctx.mpf(2) ** -2000 / 7, ctx.mpf(10) ** 500 / 3, ctx.mpf(0)):
        b = to_arb(x)
        assert b.is_exact()
        assert ctx.mpf(b.mid().str(120, radius=False)) == x  # no rounding through 60 decimal digits
    with pytest.raises(ValueError):
        to_arb(mpmath.mpf("nan"))


@pytest.mark.parametrize("bad, err", [(0, InputError), (4, InputError), (4.5, InputTypeError),
                                      ("30", InputTypeError), (None, InputTypeError), (True, InputTypeError)])
def test_precision_arguments_validated(bad, err):
    with pytest.raises(err, match="'dps'"):
        mp_context(bad)
    with pytest.raises(InputError if bad in (0,) else (InputTypeError, InputError), match="'bits'"):
        with arb_precision(bad if bad != 4 else 1):
            pass
