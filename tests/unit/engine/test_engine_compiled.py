"""numerics.compiled: kernels traced from generic code and compiled to float64 (issue 14, item 3).

The compiled kernel must compute what the numpy run of the same code computes, to the float evaluation
error of either: both are compared with a 40-digit mpmath run of that code, and the compiled error may
exceed the numpy error by at most a few ulps of the outputs' scale."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import compiled
from numerics.arithmetic import FloatArithmetic, MPArithmetic
from numerics.errors import InputError

EPS = np.finfo(np.float64).eps
needs_llvm = pytest.mark.skipif(not compiled.available(), reason="symengine without LLVM")


def _softmax_log(ar, x, w):
    """A small generic kernel: log-sum-exp of x (shifted by its max) weighted by w, and x * w."""
    from theorems.focus_dilution.population import _rowmax

    m = _rowmax(x[None, :], ar)[0, 0]
    s = sum(w[i] * ar.exp(x[i] - m) for i in range(len(x)))
    return [m + ar.log(s)] + [x[i] * w[i] for i in range(len(x))]


@needs_llvm
def test_a_kernel_is_the_traced_code_in_float64():
    k = compiled.compile_kernel(_softmax_log, [("x", (3,)), ("w", (3,))])
    x, w = np.array([0.5, -1.0, 2.0]), np.array([0.2, 0.3, 0.5])
    want = _softmax_log(FloatArithmetic(), x, w)
    assert np.allclose(k(x, w), want, rtol=4 * EPS, atol=0)
    assert k.out_size == 4 and k.names == ("x", "w")


@needs_llvm
def test_the_traced_max_shift_keeps_a_kernel_finite_where_exp_overflows():
    """exp(800) overflows float64; the shifted form the kernel traces does not (x - max <= 0)."""
    k = compiled.compile_kernel(_softmax_log, [("x", (3,)), ("w", (3,))])
    out = k(np.array([800.0, 799.0, 0.0]), np.array([0.2, 0.3, 0.5]))
    assert np.all(np.isfinite(out))
    assert abs(out[0] - (800 + np.log(0.2 + 0.3 * np.exp(-1.0)))) <= 4 * EPS * 800


@needs_llvm
def test_bind_and_batches_give_the_unbatched_values():
    k = compiled.compile_kernel(_softmax_log, [("x", (3,)), ("w", (3,))])
    w = np.array([0.2, 0.3, 0.5])
    X = np.random.default_rng(0).standard_normal((5, 3))
    g = k.bind(w)
    rows = np.array([k(x, w) for x in X])
    assert np.array_equal(k(X, w), rows)
    assert np.array_equal(g(X), rows)
    assert np.array_equal(g(X[2]), rows[2])


@needs_llvm
def test_bad_inputs_are_named():
    k = compiled.compile_kernel(_softmax_log, [("x", (3,)), ("w", (3,))])
    with pytest.raises(InputError, match="'w'"):
        k(np.zeros(3), np.zeros(4))
    with pytest.raises(InputError, match="'arrays'"):
        k(np.zeros(3))
    with pytest.raises(InputError, match="'x'"):
        k.bind(np.ones(3))(np.zeros(4))
    with pytest.raises(InputError, match="'x'"):
        k.bind(np.ones(3))(np.zeros((2, 4)))


def test_the_switch_turns_kernels_off(monkeypatch):
    monkeypatch.setenv(compiled.ENV_SWITCH, "0")
    assert not compiled.available()
    assert compiled.compile_kernel(_softmax_log, [("x", (3,)), ("w", (3,))]) is None


# -- the focus-dilution fields compiled from the population gradients -------------------------------
def _mp_field(ch, sh, y, variant, tau=1.0):
    from theorems.focus_dilution.flow import pack, unpack
    from theorems.focus_dilution.population import param_grads

    mp = MPArithmetic(40)
    c = mp.ctx
    obj = np.vectorize(lambda v: c.mpf(float(v)), otypes=[object])
    g = pack(*param_grads(obj(ch.pi), obj(ch.P), *unpack(obj(y), sh), c.mpf(tau), mp, variant=variant))
    return np.array([float(v) for v in -g])


@needs_llvm
@settings(max_examples=10, deadline=None)
@given(d=st.integers(2, 5), m=st.integers(1, 4), mk=st.integers(1, 4), seed=st.integers(0, 2**16),
       scale=st.sampled_from([1e-3, 0.3, 1.5]), variant=st.sampled_from(["statement", "drop_phiT_term"]),
       tau=st.sampled_from([1.0, 0.25, 3.0]))
def test_the_compiled_flow_field_has_the_numpy_fields_accuracy(d, m, mk, seed, scale, variant, tau):
    """full_rhs (compiled) and the numpy run of param_grads against 40 digits.  Error analysis: both
    evaluate the same expressions in another order; Phi_qk is a sum of K = m^2 m_k products of four
    entries (each <= |y|^4), so its float error is <= K u |y|^4 in either order, which moves the
    softmax A -- and every output -- by that much relative to the output's scale; the remaining sums
    add a few ulps.  Bound: 8 u |f| max(1, K |y|^4) (safety 8), and never more than 4x the numpy error
    above that (on the flows' own states the two errors are equal within a few ulps)."""
    from numerics.markov import MarkovChain
    from theorems.focus_dilution import flow

    rng = np.random.default_rng(seed)
    P = rng.random((d, d)) + 0.1
    ch = MarkovChain((P / P.sum(axis=1, keepdims=True)).tolist())
    sh = flow.Shapes(d, m, mk)
    y = scale * rng.standard_normal(sh.size)
    ref = _mp_field(ch, sh, y, variant, tau)
    fast = flow.full_rhs(ch, sh, tau, variant=variant)(0.0, y)
    from theorems.focus_dilution.population import FLOAT, param_grads

    slow = -flow.pack(*param_grads(ch.pi, ch.P, *flow.unpack(y, sh), tau, FLOAT, variant=variant))
    scale_f = max(float(np.max(np.abs(ref))), np.finfo(float).tiny)
    growth = max(1.0, m * m * mk * float(np.max(np.abs(y))) ** 4)
    assert np.max(np.abs(fast - ref)) <= 4 * np.max(np.abs(slow - ref)) + 8 * EPS * scale_f * growth


@needs_llvm
def test_the_variants_compile_to_different_fields():
    from numerics.markov import MarkovChain
    from theorems.focus_dilution import flow

    ch = MarkovChain([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]])
    sh = flow.Shapes(3, 2, 2)
    y = 0.5 * np.random.default_rng(1).standard_normal(sh.size)
    a = flow.full_rhs(ch, sh)(0.0, y)
    b = flow.full_rhs(ch, sh, variant="drop_phiT_term")(0.0, y)
    assert np.max(np.abs(a - b)) > 1e-3 * np.max(np.abs(a))
    assert np.allclose(a, _mp_field(ch, sh, y, "statement"), rtol=0, atol=64 * EPS * np.max(np.abs(a)))
    assert np.allclose(b, _mp_field(ch, sh, y, "drop_phiT_term"), rtol=0, atol=64 * EPS * np.max(np.abs(b)))


@needs_llvm
def test_the_compiled_reduced_field_and_jacobian_match_the_numpy_ones():
    from numerics.markov import MarkovChain
    from theorems.focus_dilution import flow
    from theorems.focus_dilution.population import FLOAT, param_grads

    ch = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
    z = flow.reduced_state(ch) + 0.05 * np.random.default_rng(2).standard_normal(2 * ch.d + 2)
    for tau in (1.0, 0.4):
        want = np.asarray(flow.reduced_field(ch.pi, ch.P, z, ch.d, tau, FLOAT))
        got = flow.reduced_rhs(ch, tau)(0.0, z)
        assert np.max(np.abs(got - want)) <= 64 * EPS * np.max(np.abs(want))
    sh = flow.Shapes(ch.d, 2, 3)
    y = 0.4 * np.random.default_rng(3).standard_normal(sh.size)
    h = 2.0**-26
    J = flow.full_jac(ch, sh, h=h)(0.0, y)

    def numpy_field(v):
        return -flow.pack(*param_grads(ch.pi, ch.P, *flow.unpack(v, sh), 1.0, FLOAT))

    f0 = numpy_field(y)
    Jn = np.empty_like(J)
    for i in range(sh.size):
        yi = y.copy()
        yi[i] += h
        Jn[:, i] = (numpy_field(yi) - f0) / (yi[i] - y[i])
    # two forward differences of fields that agree to ~1e-16 x |f|: they differ by <= ~1e-16 |f| / h
    assert np.max(np.abs(J - Jn)) <= 1e3 * EPS * np.max(np.abs(f0)) / h


def test_large_models_keep_the_numpy_field():
    """Above COMPILE_MAX_PARAMS the trace would cost more than it saves: no kernel, the numpy run."""
    from theorems.focus_dilution import flow

    d, m = 4, 24
    assert flow.Shapes(d, m, m).size > flow.COMPILE_MAX_PARAMS
    assert flow._field_kernel(d, m, m, "statement") is None
    assert flow._field_kernel(flow.COMPILE_MAX_D_FULL + 1, 1, 1, "statement") is None
    assert flow._reduced_kernel(flow.COMPILE_MAX_D_REDUCED + 1) is None


def test_a_subnormal_temperature_runs_the_numpy_field():
    """The compiled code forms 1/tau, which is inf for tau = 1e-310 (NaN fields); numpy's x/tau is finite
    there, so both right-hand sides fall back to it (found by review: FlowError where numpy integrates)."""
    from numerics.markov import MarkovChain
    from theorems.focus_dilution import flow
    from theorems.focus_dilution.population import FLOAT, param_grads

    two = MarkovChain([["1/2", "1/2"], ["1/4", "3/4"]])
    sh = flow.Shapes(2, 2, 2)
    y = flow.init_params(2, 2, 2, 1e-3, 0)
    with np.errstate(all="ignore"):
        want = -flow.pack(*param_grads(two.pi, two.P, *flow.unpack(y, sh), 1e-310, FLOAT))
        got = flow.full_rhs(two, sh, 1e-310)(0.0, y)
        z = flow.reduced_state(two)
        zr = flow.reduced_rhs(two, 1e-310)(0.0, z)
        zw = np.asarray(flow.reduced_field(two.pi, two.P, z, 2, 1e-310, FLOAT))
    assert np.array_equal(got, want) and np.all(np.isfinite(got))
    assert np.array_equal(zr, zw) and np.all(np.isfinite(zr))
