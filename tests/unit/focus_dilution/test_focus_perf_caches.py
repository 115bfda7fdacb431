"""The process-local caches and fast exact paths of the focus checks (issue 14): they return what the
uncached computation returns, and no caller can corrupt another's input."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from numerics.markov import MarkovChain, perturbed_rare, symmetric_rare
from theorems.focus_dilution import _checks_model as cm
from theorems.focus_dilution import _checks_stall as cs
from theorems.focus_dilution._symbolic import rational_zero, reduced_residual
from theorems.focus_dilution.critical_points import (
    _in_manifold_hessian,
    degenerate_point,
    in_manifold_hessian,
    perturbed_point,
)
from theorems.focus_dilution.population import FLOAT, param_grads

x, y, z = sp.symbols("x y z", positive=True)
E = sp.Function("E")


@pytest.mark.parametrize("expr", [
    x / (x + y) + y / (x + y) - 1,
    E(x) / (E(x) + E(y)) - 1 / (1 + E(y) / E(x)),
    sp.log(x) * (1 / (x + 1) - 1 / (x + 1)),
])
def test_rational_zero_proves_identities(expr):
    assert rational_zero(expr)
    assert reduced_residual(expr) == 0


@pytest.mark.parametrize("expr", [x / (x + y) - 1, E(x) / (E(x) + E(y)) - E(y), 1 / x + 1 / y])
def test_nonzero_residual_is_cancels_reduction(expr):
    """A nonzero rational function is never called 0, and its residual is cancel's reduction."""
    assert not rational_zero(expr)
    r = reduced_residual(expr)
    assert r != 0
    assert r == sp.cancel(sp.together(expr))


def test_symbolic_step_one_is_shared_and_immutable():
    """The variant-independent step 1 is computed once and returned as tuples of sympy expressions."""
    a = cm._gradient_residuals()
    assert a is cm._gradient_residuals()
    assert isinstance(a, tuple) and len(a) == 8 and all(r == 0 for _, _, r in a)
    *_, GM, GPhi = cm._symbolic_closed_forms()
    assert isinstance(GM, tuple) and isinstance(GPhi, tuple)
    rows = cm._sum_residuals(False)
    cols = cm._sum_residuals(True)
    assert all(r == 0 for _, _, r in rows) and len(rows) == 4
    assert cols[-1][2] != 0  # the false column sums: the first column already fails


def test_in_manifold_hessian_memo_returns_fresh_copies():
    """The memoised Hessian equals the uncached one, and mutating a returned copy changes nothing."""
    ch = symmetric_rare(5, F(3, 5), F(1, 2))
    pt, _ = degenerate_point(5, F(3, 5), F(1, 2), dps=30)
    H1 = in_manifold_hessian(ch, pt)
    H2 = in_manifold_hessian(ch, pt)
    assert H1 is not H2
    ref = _in_manifold_hessian(ch, pt)
    assert all(H1[i, j] == ref[i, j] == H2[i, j] for i in range(ref.rows) for j in range(ref.cols))
    H1[0, 0] = 12345
    H3 = in_manifold_hessian(ch, pt)
    assert H3[0, 0] == ref[0, 0]


def test_in_manifold_hessian_memo_is_keyed_by_the_chain():
    """Two chains at one point (a misuse, but possible) get their own Hessians."""
    C = (F(1), F(-1), F(1, 2), F(-1, 2))
    pt = perturbed_point(5, F(3, 5), F(1, 2), C, F(1, 1000), dps=20)
    a = in_manifold_hessian(perturbed_rare(5, F(3, 5), F(1, 2), C, F(1, 1000)), pt)
    b = in_manifold_hessian(symmetric_rare(5, F(3, 5), F(1, 2)), pt)
    assert any(a[i, j] != b[i, j] for i in range(a.rows) for j in range(a.cols))


def test_flow_07_is_computed_once():
    assert cs._flow_07() is cs._flow_07()
    assert all(isinstance(v, float) for v in cs._flow_07())


def test_layout_fast_path_matches_the_generic_one():
    """The numpy fast path of the layout helpers gives bit-identical gradients to the generic path
    (batched and unbatched)."""
    import theorems.focus_dilution.population as pop

    rng = np.random.default_rng(0)
    ch = MarkovChain.lazy(["0.5", "0.3", "0.2"], "1/2")
    W = (rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 2, 1)),
         rng.standard_normal((2, 2, 1)))
    fast = param_grads(ch.pi, ch.P, *W, 0.7, FLOAT)

    class Generic(type(FLOAT)):
        def T(self, x):
            return np.swapaxes(x, -1, -2)

        def rowsum(self, x):
            return x.sum(axis=-1, keepdims=True)

        def rowmax(self, x):
            return x.max(axis=-1, keepdims=True)

    slow = param_grads(ch.pi, ch.P, *W, 0.7, Generic())
    assert pop._ordered(Generic())
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)


def test_reduced_residual_memo_is_a_fresh_computation():
    """The per-process memo of reduced_residual returns what the uncached computation returns, and is
    keyed by the expression with its symbols' assumptions (x positive and a plain x are distinct keys)."""
    from theorems.focus_dilution._symbolic import _reduced_residual

    u = sp.Symbol("x")  # no assumptions: not the positive x above
    for expr in (x / (x + y) - 1, 1 / x + 1 / y, x / (x + y) + y / (x + y) - 1, u / (u + y) - 1):
        fresh = _reduced_residual.__wrapped__(expr)
        assert reduced_residual(expr) == fresh
        assert reduced_residual(expr) == fresh  # the second call reads the memo
    ra, rb = reduced_residual(u / (u + y) - 1), reduced_residual(x / (x + y) - 1)
    assert u in ra.free_symbols and x not in ra.free_symbols  # not the positive x's memo entry
    assert x in rb.free_symbols and u not in rb.free_symbols


def test_full_jac_is_forward_differences():
    """flow.full_jac (the n + 1 states built in one batched gradient call) is the forward difference of the
    flow field column by column, over the step actually taken: (f(y + h e_i) - f(y)) / ((y_i + h) - y_i)."""
    from theorems.focus_dilution.flow import Shapes, full_jac, full_rhs, init_params

    ch = MarkovChain.lazy(["0.5", "0.3", "0.2"], "1/2")
    sh, h = Shapes(3, 2, 2), 2.0**-26
    y = init_params(3, 2, 2, 0.5, 3)
    f = full_rhs(ch, sh)
    f0 = f(0.0, y)
    ref = np.empty((sh.size, sh.size))
    for i in range(sh.size):
        e = np.zeros(sh.size)
        e[i] = h
        ref[:, i] = (f(0.0, y + e) - f0) / ((y[i] + h) - y[i])
    J = full_jac(ch, sh, h=h)(0.0, y)
    assert J.shape == ref.shape
    # the same differences of one kernel's values, batched or not: equal to rounding of the division
    assert np.max(np.abs(J - ref)) <= 1e-12 * max(1.0, float(np.max(np.abs(ref))))
    assert np.array_equal(J, full_jac(ch, sh, h=h)(0.0, y))  # no state carried between calls
    # and it is the Jacobian: central differences at a smaller error agree to the forward error O(h + eps/h)
    hc = 1e-5
    cen = np.array([(f(0.0, y + hc * e) - f(0.0, y - hc * e)) / (2 * hc) for e in np.eye(sh.size)]).T
    assert np.max(np.abs(J - cen)) <= 1e-6 * max(1.0, float(np.max(np.abs(cen))))


def test_reduced_run_memo_is_read_only_and_fresh():
    """run_reduced's per-process memo returns read-only arrays equal to a fresh integration, keyed by the
    start (a different z0 is a different run)."""
    from numerics.flows import integrate
    from theorems.focus_dilution.flow import geometric_grid, reduced_rhs, reduced_state, run_reduced

    ch = symmetric_rare(5, F(3, 5), F(1, 2))
    z0 = reduced_state(ch)
    t, Z = run_reduced(ch, z0, 50.0, per_decade=20)
    t2, Z2 = run_reduced(ch, z0.copy(), 50.0, per_decade=20)
    assert t2 is t and Z2 is Z
    assert not Z.flags.writeable and not t.flags.writeable
    with pytest.raises(ValueError):
        Z[0, 0] = 1.0
    tf, Zf = integrate(reduced_rhs(ch), z0, geometric_grid(0.1, 50.0, 20), method="LSODA", rtol=1e-11, atol=1e-14)
    assert np.array_equal(t, tf) and np.array_equal(Z, Zf)
    _, Z3 = run_reduced(ch, reduced_state(ch, 2e-5), 50.0, per_decade=20)
    assert not np.array_equal(Z3, Z)


def test_perturbed_start_is_shared_across_dps():
    """theta^2_delta's float start is computed once for every dps and is read-only; the polish at each dps
    equals a polish from a freshly integrated start."""
    from theorems.focus_dilution import critical_points as cp

    args = (5, F(3, 5), F(1, 2), (F(1), F(-1), F(1, 2), F(-1, 2)), F(1, 700), 2000.0)
    z = cp._perturbed_start(*args)
    assert z is cp._perturbed_start(*args) and not z.flags.writeable
    fresh = cp._flow_to_point(perturbed_rare(*args[:5]), args[5], False)
    assert np.array_equal(z, fresh)
    pt = perturbed_point(5, "3/5", "1/2", [1, -1, "1/2", "-1/2"], "1/700", dps=20)
    ref = cp.polish_reduced(perturbed_rare(*args[:5]), fresh, dps=20)
    assert [str(x) for x in pt.gamma + pt.beta] == [str(x) for x in ref.gamma + ref.beta]
