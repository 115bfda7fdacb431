"""The fast paths of the focus product and checks (issue: quick catalogue in 30 s): each returns exactly
what the path it shortcuts returns."""

from __future__ import annotations

import pytest
import sympy as sp

from theorems.focus_dilution import _checks_model as cm
from theorems.focus_dilution._symbolic import (
    rational_zero,
    symengine_rational_zero,
    sympy_rational_zero,
)

x, y = sp.symbols("x y", positive=True)
E = sp.Function("E")


@pytest.mark.parametrize("expr, zero", [
    (x / (x + y) + y / (x + y) - 1, True),
    (E(x) / (E(x) + E(y)) - 1 / (1 + E(y) / E(x)), True),
    (sp.exp(x) * sp.exp(y) / (sp.exp(x) + 1) - sp.exp(x + y) / (1 + sp.exp(x)), True),
    (sp.log(x) * (1 / (x + 1) - 1 / (x + 1)), True),
    (x / (x + y) - 1, False),
    (E(x) / (E(x) + E(y)) - E(y), False),
    (1 / x + 1 / y, False),
    (sp.sqrt(x) * sp.sqrt(x) - x - 1, False),
])
def test_symengine_zero_test_agrees_with_sympy(expr, zero):
    assert symengine_rational_zero(expr) is zero
    assert sympy_rational_zero(expr) is zero
    assert rational_zero(expr) is zero


def test_symengine_zero_test_on_the_gradient_residuals():
    """The gradient check's own residuals dL/dM - G_M, dL/dPhi - G_Phi (zero) and the false column sums
    of its control (nonzero): symengine decides each as sympy does."""
    ms, fs, L, GM, GPhi = cm._symbolic_closed_forms()
    for s, G in zip(ms + fs, GM + GPhi):
        e = sp.diff(L, s) - G
        assert symengine_rational_zero(e) and sympy_rational_zero(e)
    cols = GM[0] + GM[2]
    assert not symengine_rational_zero(cols) and not sympy_rational_zero(cols)


def test_unconvertible_expression_is_not_proved():
    """What symengine cannot convert proves nothing (the sympy test decides)."""
    class Opaque(sp.Expr):
        pass

    assert symengine_rational_zero(Opaque()) is False


@pytest.mark.parametrize("expr", [
    x / (x + y) + y / (x + y) - 1,
    E(x) / (E(x) + E(y)) - 1 / (1 + E(y) / E(x)),
    x / (x + y) - 1,
    sp.log(2 * x) - sp.log(x) - sp.log(2),  # sympy's expand splits the logs; symengine does not
])
def test_reduced_residual_is_cancels_reduction(expr):
    """reduced_residual = cancel(together(expr)), whether symengine proved the zero or not."""
    from theorems.focus_dilution._symbolic import _reduced_residual

    assert _reduced_residual.__wrapped__(expr) == sp.cancel(sp.together(expr))


def test_polish_returns_the_equations_at_its_point():
    """polish_reduced's GM, GPhi and residual are those of a fresh mpmath evaluation at the returned point
    (converged, and stopped at max_iter; in both working arithmetics)."""
    from fractions import Fraction as F

    import numpy as np

    from numerics.arithmetic import MPArithmetic
    from numerics.markov import symmetric_rare
    from theorems.focus_dilution.critical_points import _critical_equations, _flow_to_point, polish_reduced
    from theorems.focus_dilution.population import chain_mp

    ch = symmetric_rare(5, F(3, 5), F(1, 2))
    z = _flow_to_point(ch, 1000.0, True)
    for arithmetic in ("arb", "mpmath"):
        for max_iter in (30, 1):
            pt = polish_reduced(ch, z, dps=20, max_iter=max_iter, arithmetic=arithmetic)
            ops = MPArithmetic(pt.ctx.dps)
            pi, P = chain_mp(ch, ops.ctx)
            Fr, GM, GPhi = _critical_equations(np.array(pi, dtype=object), np.array(P, dtype=object),
                                               pt.gamma, pt.beta, pt.kappa, ops)
            assert pt.residual == max(abs(f) for f in Fr)
            assert all(a == b for a, b in zip(pt.GM.flat, GM.flat))
            assert all(a == b for a, b in zip(pt.GPhi.flat, GPhi.flat))
            assert all(type(x) is pt.ctx.mpf for x in pt.gamma + pt.beta + list(pt.GM.flat) + [pt.loss])
        assert pt.iterations == 1


def test_in_manifold_eigenvalues_memo_is_a_fresh_computation():
    """The memoised spectrum is eigsy of the (fresh) in-manifold Hessian, per chain, and a tuple."""
    from fractions import Fraction as F

    from numerics.markov import symmetric_rare
    from theorems.focus_dilution.critical_points import (
        _in_manifold_hessian,
        degenerate_point,
        in_manifold_eigenvalues,
    )

    pt, _ = degenerate_point(5, F(3, 5), F(1, 2), dps=30)
    ch = symmetric_rare(5, F(3, 5), F(1, 2))
    ev = in_manifold_eigenvalues(ch, pt)
    fresh = pt.ctx.eigsy(_in_manifold_hessian(ch, pt), eigvals_only=True)
    assert isinstance(ev, tuple) and list(ev) == [fresh[i] for i in range(fresh.rows)]
    assert in_manifold_eigenvalues(ch, pt) is ev
    other = symmetric_rare(5, F(3, 5), F(11, 20))
    assert in_manifold_eigenvalues(other, pt) != ev  # keyed by the chain
