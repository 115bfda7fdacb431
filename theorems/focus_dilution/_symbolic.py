"""Exact zero tests of rational expressions in sympy, shared by the symbolic checks (spec §4.2, §4.6, §4.13).

An expression built from symbols, exponentials (or opaque E-values) and rational operations is written by
``together`` as N / D with D a product of its denominators (nonzero); N expanded as a polynomial in its
atoms is 0 exactly when the expression is 0 as a rational function of those atoms.  This is several times
faster than ``cancel`` (which computes polynomial gcds to reduce N / D), and it is used only to PROVE zero:
when the expanded numerator is not 0, :func:`reduced_residual` falls back to ``cancel(together(expr))``,
the reduction the checks reported before, so a nonzero residual (and its printed form) is unchanged.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["rational_zero", "reduced_residual"]


def rational_zero(expr: Any) -> bool:
    """Whether ``expr`` is identically 0 as a rational function of its atoms: expand(numerator) == 0.

    True proves expr = 0 (expand and together are identities); False is not a disproof (atoms, e.g.
    E(a) and E(a') with equal but differently written arguments, may be related): see
    :func:`reduced_residual`."""
    import sympy as sp

    num, _ = sp.together(expr).as_numer_denom()
    return sp.expand(num) == 0


def reduced_residual(expr: Any) -> Any:
    """0 when :func:`rational_zero` proves it, else ``cancel(together(expr))`` (0 or the residual).

    Memoised per process on the expression itself (sympy expressions are immutable and compare
    structurally, symbols with their assumptions): about half of the symbolic checks' entries recur
    (symmetric entries, and a control's entries that its variant leaves unchanged)."""
    return _reduced_residual(expr)


@lru_cache(maxsize=512)
def _reduced_residual(expr: Any) -> Any:
    import sympy as sp

    return sp.Integer(0) if rational_zero(expr) else sp.cancel(sp.together(expr))
