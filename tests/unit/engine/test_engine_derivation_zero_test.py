"""Issue 14 (speed): ``_reduced(..., zero_test=True)`` answers ``== 0`` exactly as ``_reduced`` does.

With ``zero_test`` a rational function with rational coefficients whose ``cancel`` form is nonzero is
answered "not 0" without ``simplify`` (cancel decides zero-ness in Q(x_1..x_n)); every other
expression (functions, irrational constants, floats, non-integer powers) still reaches ``simplify``.
"""

from __future__ import annotations

import sympy as sp

from verify._derivation import _in_rational_field, _reduced

x, y = sp.symbols("x y", positive=True)
n = sp.Symbol("n", integer=True)
t = sp.Symbol("t", real=True)

#: (expression, in Q(symbols)?)
CASES = [
    (x / (x + y) - 1, True),
    (n ** 2 - n, True),
    ((x ** 2 - y ** 2) / (x - y) - x - y, True),  # zero after cancel
    ((x + 1) ** 3 - x ** 3 - 3 * x ** 2 - 3 * x - 1, True),  # zero after expand
    (sp.Rational(1, 3) * x * y - y, True),
    (sp.sin(t) ** 2 + sp.cos(t) ** 2 - 1, False),  # zero for simplify only
    (-sp.sqrt(2) - 1 + 1 / (sp.sqrt(2) - 1), False),  # zero for simplify only (sqrt(2)^2 = 2)
    (sp.sqrt(t ** 2) - t, False),
    (sp.sqrt(x + 1) - x, False),
    (sp.exp(x) - 1, False),
    (sp.pi * x - x, False),
    (sp.Float(0.5) * x + y, False),
    (sp.I * x + y, False),
]


def test_zero_test_answers_as_the_full_reduction():
    for e, _ in CASES:
        assert (_reduced(e, zero_test=True)[0] == 0) == (_reduced(e)[0] == 0), e


def test_rational_field_classification():
    for e, rational in CASES:
        assert _in_rational_field(sp.sympify(e)) is rational, e
