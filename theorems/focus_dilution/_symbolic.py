"""Exact zero tests of rational expressions in sympy, shared by the symbolic checks (spec §4.2, §4.6, §4.13).

An expression built from symbols, exponentials (or opaque E-values) and rational operations is written by
``together`` as N / D with D a product of its denominators (nonzero); N expanded as a polynomial in its
atoms is 0 exactly when the expression is 0 as a rational function of those atoms.  This is several times
faster than ``cancel`` (which computes polynomial gcds to reduce N / D), and it is used only to PROVE zero:
when the expanded numerator is not 0, :func:`reduced_residual` falls back to ``cancel(together(expr))``,
the reduction the checks reported before, so a nonzero residual (and its printed form) is unchanged.

The same test is first run in symengine (sympy's C++ core, a declared dependency), about ten times faster
on the checks' expressions: the sympy expression is converted as it stands (symbols, opaque functions,
exp and log as atoms), ``as_numer_denom`` combines it over a common denominator and ``expand`` expands
the numerator as a polynomial in the atoms.  Both steps are identities, so an expanded numerator 0 proves
the expression 0, whichever library expanded it; anything else (a nonzero numerator, an expression
symengine cannot convert) goes to sympy: :func:`rational_zero` runs the sympy test, :func:`reduced_residual`
goes straight to ``cancel(together(expr))``, which is 0 whenever sympy's expanded numerator is.  A result
can only differ where symengine proves a zero that sympy missed -- never on the checks' expressions (the
catalogue's evidence is unchanged); :func:`sympy_rational_zero` keeps the sympy-only test.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["rational_zero", "reduced_residual", "symengine_rational_zero", "sympy_rational_zero"]


def rational_zero(expr: Any) -> bool:
    """Whether ``expr`` is identically 0 as a rational function of its atoms: expand(numerator) == 0.

    True proves expr = 0 (expand and together are identities); False is not a disproof (atoms, e.g.
    E(a) and E(a') with equal but differently written arguments, may be related): see
    :func:`reduced_residual`.  symengine first (:func:`symengine_rational_zero`), then sympy."""
    return symengine_rational_zero(expr) or sympy_rational_zero(expr)


def sympy_rational_zero(expr: Any) -> bool:
    """The test in sympy alone: together, numerator, expand."""
    import sympy as sp

    num, _ = sp.together(expr).as_numer_denom()
    return sp.expand(num) == 0


def symengine_rational_zero(expr: Any) -> bool:
    """The test in symengine: True only when the expanded numerator of ``as_numer_denom`` is 0; False
    when it is not, or when symengine cannot convert ``expr`` (then nothing is proved)."""
    import symengine as se

    try:
        x = se.sympify(expr)
    except Exception:  # noqa: BLE001 - whatever symengine cannot convert, it has not proved
        return False
    num, _ = x.as_numer_denom()
    return bool(se.expand(num) == 0)


def reduced_residual(expr: Any) -> Any:
    """0 when symengine's zero test proves it, else ``cancel(together(expr))`` (0 or the residual).

    Memoised per process on the expression itself (sympy expressions are immutable and compare
    structurally, symbols with their assumptions): about half of the symbolic checks' entries recur
    (symmetric entries, and a control's entries that its variant leaves unchanged)."""
    return _reduced_residual(expr)


@lru_cache(maxsize=512)
def _reduced_residual(expr: Any) -> Any:
    import sympy as sp

    # sympy's together/expand test is not repeated when symengine proves nothing: cancel(together(expr)) is
    # 0 whenever the expanded numerator is (cancel expands the same numerator over the same atoms)
    return sp.Integer(0) if symengine_rational_zero(expr) else sp.cancel(sp.together(expr))
