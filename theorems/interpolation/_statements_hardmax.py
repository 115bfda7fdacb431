"""Statements (lazy sympy builders) of the hardmax claims; see _claims_hardmax.py."""

from __future__ import annotations


def hardmax_exact_statement():
    import sympy as sp

    j = sp.Symbol("j", integer=True, positive=True)
    return sp.Eq(sp.Function("set")(sp.Function("T_0")(sp.Symbol("X^j"))), sp.Function("set")(sp.Symbol("Y^j")))


def block_statement():
    import sympy as sp

    M, N, L = sp.symbols("M N L_H", positive=True, integer=True)
    return sp.Le(L, 2 * M + 2 * N + 1)


def params_statement():
    import sympy as sp

    from .construction import parameter_formula

    N, M, d, kappa, P = sp.symbols("N M d kappa P_H", positive=True, integer=True)
    return sp.Le(P, parameter_formula(N - 1, M, d, "hardmax", kappa))
