"""Statements (lazy sympy builders) of the faithful claims; see _claims_faithful.py."""

from __future__ import annotations


def hardmax_theorem_statement():
    import sympy as sp

    M, N, L, P, d, w = sp.symbols("M N L P d d'", positive=True, integer=True)
    return sp.And(sp.Eq(L, 2 * M + 2 * N + 1), sp.Le(w, 4), sp.Le(P, (22 * d + 28) * M),
                  sp.Eq(sp.Function("set")(sp.Function("T_0")(sp.Symbol("X^j"))),
                        sp.Function("set")(sp.Symbol("Y^j"))))


def softmax_theorem_statement():
    return ("exists tau* > 0 such that for all 0 < tau < tau* there exists T_tau with width <= 4, "
            "L = 2M + 3N, P <= (24d + 29) M = O(dM) and set(T_tau(X^j)) = set(Y^j) for all j")


def resnet_order_statement():
    import sympy as sp

    n, c = sp.symbols("n c", positive=True)
    P = sp.Function("P_TF")(sp.Symbol("N"), sp.Symbol("M"), sp.Symbol("d"))
    return sp.Eq(sp.Limit(P / (c * sp.Symbol("d") * sp.Symbol("N") * n), n, sp.oo), 0)
