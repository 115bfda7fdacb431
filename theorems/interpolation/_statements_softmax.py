"""Statements (lazy sympy builders) of the softmax claims; see _claims_softmax.py."""

from __future__ import annotations


def softmax_statement():
    import sympy as sp

    from .softmax_limit import deviation_bound

    n, c = sp.symbols("n c", positive=True, integer=True)
    D, gap, tau = sp.symbols("D Delta tau", positive=True)
    dev = sp.Symbol(r"\left|\sum_l \pi_l x_l - \bar{x}_C\right|", nonnegative=True)
    return sp.Le(dev, deviation_bound(n, c, D, gap, tau, exp=sp.exp))


def softmax_derivation():
    import sympy as sp

    W, w3, x1, x2, x3, t, gap = sp.symbols("W w_3 x_1 x_2 x_3 t Delta", positive=True)
    Z = 2 * W + w3
    lhs = (W * x1 + W * x2 + w3 * x3) / Z - (x1 + x2) / 2
    rhs = w3 / Z * (x3 - (x1 + x2) / 2)
    lim_expr = sp.exp(gap * t) * (x3 - (x1 + x2) / 2) * sp.exp(-gap * t) / (2 + sp.exp(-gap * t))
    return (
        ("weights on the maximiser set C are equal (pi_l = W/Z for l in C); n = 3, C = {1, 2}:",
         sp.Eq(sp.Symbol("out - x̄_C"), lhs)),
        ("subtracting sum_l pi_l xbar_C (the weights sum to 1) leaves only keys outside C:",
         sp.Eq(sp.Symbol("(out - x̄_C) - Σ_{l∉C} π_l (x_l - x̄_C)"),
               sp.simplify(lhs - rhs), evaluate=False)),
        ("each pi_l, l not in C, is at most exp(-Delta/tau)/c, and |x_l - xbar_C| <= D:",
         sp.Le(sp.Symbol("|out - x̄_C|"), sp.Symbol("(n-c)/c") * sp.Symbol("D") * sp.exp(-gap * t))),
        ("sharp rate (t = 1/tau -> oo): exp(Delta t)(out - xbar_C) ->",
         sp.Eq(sp.Limit(sp.simplify(lim_expr), t, sp.oo), sp.limit(sp.simplify(lim_expr), t, sp.oo))),
    )


def softmax_exact_statement():
    return ("exists tau* > 0 and ONE set of weights theta with set(T_{theta,tau}(X^j)) = set(Y^j) "
            "for all j and all 0 < tau < tau*; certified lower bound tau_c <= tau*")


def softmax_blocks_statement():
    import sympy as sp

    M, N, L = sp.symbols("M N L_S", positive=True, integer=True)
    return sp.Le(L, 2 * M + 3 * N)
