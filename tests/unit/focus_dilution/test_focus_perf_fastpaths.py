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
