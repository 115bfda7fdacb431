"""Exact tools of the ridge checks (spec §5.1-5.2): one-sided limits of rational functions at 0, and the
reference instance's symbolic forms, computed once per process.

**Limits.**  Every quantity of the ridge model is a rational function of ``eps`` (entries of
``(G + N eps I)^{-1}`` are cofactors over a determinant).  Written in lowest terms ``p / q`` with
``p = eps^a (p_a + O(eps))`` and ``q = eps^b (q_b + O(eps))`` (``p_a, q_b != 0``), the limit as
``eps -> 0+`` is ``p_a / q_b`` when ``a = b``, ``0`` when ``a > b``, and ``sign(p_a / q_b) oo`` when
``a < b``: exact integer arithmetic on two polynomials' lowest coefficients, the value ``sympy.limit``
returns for these expressions (its Gruntz series expansion costs ~2 s per limit).  An expression that is
not a rational function of ``eps`` with rational coefficients goes to ``sympy.limit`` unchanged.

**Reference instance** (spec §5.2: d = 3, N = 2).  Its closed forms do not depend on the seed or on a
control's variant, so :func:`upper_bound_reference` and :func:`linear_reference` compute them once per
process (``functools.lru_cache`` on argument-free builders; everything returned is an immutable sympy
object or a tuple).
"""

from __future__ import annotations

import functools
from typing import Any

from .training import ridge_E, ridge_J, ridge_min_J, ridge_minimiser, ridge_mn, ridge_reference

__all__ = ["EPS_NAME", "finite_limit_at_zero", "limit_at_zero", "linear_reference", "upper_bound_reference"]

#: the name of the positive symbol eps of the ridge checks (sympy symbols are equal by name and assumptions)
EPS_NAME = "epsilon"


def _eps():
    import sympy as sp

    return sp.Symbol(EPS_NAME, positive=True)


def _lowest(poly) -> tuple[int, Any]:
    """(order, coefficient) of the lowest-degree nonzero term of a univariate Poly."""
    return min(((m[0], c) for m, c in poly.terms()), key=lambda t: t[0])


def limit_at_zero(expr, eps):
    """``lim_{eps -> 0+} expr`` for a rational function ``expr`` of ``eps`` (module docstring)."""
    import sympy as sp

    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    try:
        P, Q = sp.Poly(num, eps), sp.Poly(den, eps)
    except sp.PolynomialError:
        return sp.limit(expr, eps, 0)
    coeffs = P.all_coeffs() + Q.all_coeffs()
    if Q.is_zero or not all(c.is_Rational for c in coeffs):
        return sp.limit(expr, eps, 0)
    if P.is_zero:
        return sp.Integer(0)
    a, pa = _lowest(P)
    b, qb = _lowest(Q)
    if a > b:
        return sp.Integer(0)
    if a == b:
        return sp.Rational(pa) / sp.Rational(qb)
    return sp.oo if (pa > 0) == (qb > 0) else -sp.oo


def _is_zero(expr) -> bool:
    """Is the rational function ``expr`` identically 0?  ``cancel`` writes it in lowest terms ``p/q``
    (a normal form: ``p = 0`` iff the function is 0), ~10x cheaper here than ``simplify``; a nonzero
    form goes on to ``simplify`` as before, so nothing ``simplify`` proved zero is lost."""
    import sympy as sp

    r = sp.cancel(sp.together(expr))
    return r == 0 or sp.simplify(r) == 0


def finite_limit_at_zero(expr, x):
    """``lim_{x -> 0+} expr`` for a rational function ``expr`` of ``x`` whose coefficients may be rational
    functions of other symbols, when that limit is finite: ``p_a / q_b`` (in lowest terms) when the lowest
    orders agree, ``0`` when the numerator's is higher (module docstring; no sign of a coefficient is
    needed).  ``None`` when the limit is infinite (its sign may depend on the other symbols) or ``expr``
    is not such a rational function: the caller then asks ``sympy.limit``."""
    import sympy as sp

    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    try:
        P, Q = sp.Poly(num, x), sp.Poly(den, x)
    except sp.PolynomialError:
        return None
    coeffs = P.all_coeffs() + Q.all_coeffs()
    if Q.is_zero or not all(c.is_rational_function() and x not in c.free_symbols for c in coeffs):
        return None
    if P.is_zero:
        return sp.Integer(0)
    (a, pa), (b, qb) = _lowest(P), _lowest(Q)
    if a == b:
        return sp.cancel(pa / qb)
    return sp.Integer(0) if a > b else None


@functools.lru_cache(maxsize=1)
def _reference_min_J():
    """``(eps, X, Y, min J_eps)`` of the reference instance, ``min J_eps`` simplified (shared by both
    reference builders)."""
    import sympy as sp

    eps = _eps()
    X, Y = ridge_reference()
    return eps, X, Y, sp.simplify(ridge_min_J(X, Y, eps))


@functools.lru_cache(maxsize=1)
def upper_bound_reference() -> tuple[Any, Any, Any, Any, tuple[tuple[str, bool], ...]]:
    """``(min J_eps, V_mn, |V_mn|^2, V_alt, facts)`` of the reference instance (seed-free): the closed
    forms of spec §5.2 through the product's ridge functions, and the facts the upper-bound check
    records (label, holds)."""
    import sympy as sp

    eps, X, Y, mJ = _reference_min_J()
    Veps = ridge_minimiser(X, Y, eps)
    Vmn = ridge_mn(X, Y)
    n_mn = sp.simplify(sum(v * v for v in Vmn))
    Valt = Vmn + sp.Matrix([[1], [0], [0]]) * sp.Matrix([[-3, 7, 1]])
    facts = [
        ("min J closed form", _is_zero(mJ - 2 * eps * (23 * eps + 107) / (4 * eps ** 2 + 32 * eps + 59))),
        ("|V_mn|^2 = 214/59", n_mn == sp.Rational(214, 59)),
        ("min J_{1/7} = 1544/3119", sp.simplify(mJ.subs(eps, sp.Rational(1, 7))) == sp.Rational(1544, 3119)),
        ("J(V_eps) = min J", _is_zero(ridge_J(Veps, X, Y, eps) - mJ)),
        ("V_alt interpolates", Valt * X == Y),
        ("|V_alt|^2 = 3695/59", sp.simplify(sum(v * v for v in Valt)) == sp.Rational(3695, 59)),
    ]
    V = sp.Matrix(3, 3, sp.symbols("v1:10"))
    grad = [sp.diff(ridge_J(V, X, Y, eps), v) for v in V]
    sub = dict(zip(list(V), list(Veps)))
    facts.append(("zero gradient at V_eps", all(_is_zero(g.subs(sub)) for g in grad)))
    return (mJ, sp.ImmutableMatrix(Vmn), n_mn, sp.ImmutableMatrix(Valt),
            tuple((label, bool(ok)) for label, ok in facts))


@functools.lru_cache(maxsize=1)
def linear_reference() -> tuple[Any, Any, Any, tuple[tuple[str, bool], ...]]:
    """``(lim min J/eps, lim E/eps, |V_mn|^2, facts)`` of the reference instance (seed-free): spec §5.1
    items 4-6 through the product's ridge functions (limits by :func:`limit_at_zero`)."""
    import sympy as sp

    eps, X, Y, mJ = _reference_min_J()
    Veps = ridge_minimiser(X, Y, eps)
    E = sp.cancel(sp.together(ridge_E(Veps, X, Y)))  # lowest terms: what the limits and facts need
    lim_J = limit_at_zero(mJ / eps, eps)
    lim_E1 = limit_at_zero(E / eps, eps)
    n_mn = sp.simplify(sum(v * v for v in ridge_mn(X, Y)))
    nV = sp.cancel(sp.together(sum(v * v for v in Veps)))
    facts = [
        ("lim min J/eps = 214/59", lim_J == sp.Rational(214, 59)),
        ("lim E/eps^2 = 4134/3481", limit_at_zero(E / eps ** 2, eps) == sp.Rational(4134, 3481)),
        ("E closed form", _is_zero(E - 2 * eps ** 2 * (92 * eps ** 2 + 856 * eps + 2067)
                                   / (4 * eps ** 2 + 32 * eps + 59) ** 2)),
        ("|V_eps|^2 closed form", _is_zero(nV - 2 * (308 * eps ** 2 + 2714 * eps + 6313)
                                           / (4 * eps ** 2 + 32 * eps + 59) ** 2)),
    ]
    for label, expr, sign in (("|V_eps|^2 decreasing", nV, -1), ("E(V_eps) increasing", E, 1)):
        num, den = sp.fraction(sp.together(sp.diff(expr, eps)))
        coeffs = sp.Poly(sp.expand(sign * num), eps).coeffs()
        facts.append((label, all(c > 0 for c in coeffs) and bool(sp.expand(den).subs(eps, 1) > 0)
                      and all(c >= 0 for c in sp.Poly(sp.expand(den), eps).coeffs())))
    return lim_J, lim_E1, n_mn, tuple((label, bool(ok)) for label, ok in facts)
