"""Statements of the softmax claims (spec §4.4, §4.5, §4.10): lazy builders.

The softmax -> hardmax bound, Theorem S's exactness below a certified temperature, and its block and
parameter counts, each as relations between observables the checks compute from the product.  The AllOf
labels are the sub-check names the controls target.
"""

from __future__ import annotations

from typing import Any

from ._statements_hardmax import DOMAIN


def row_symbols() -> dict[str, Any]:
    import sympy as sp

    return {"n": sp.Symbol("n", positive=True, integer=True), "c": sp.Symbol("c", positive=True, integer=True),
            "D": sp.Symbol("D", nonnegative=True), "Delta": sp.Symbol("Delta", positive=True),
            "tau": sp.Symbol("tau", positive=True),
            "dev": sp.Symbol(r"\left|\sum_l \pi_l x_l - \bar{x}_C\right|", nonnegative=True)}


def softmax_statement():
    """For one attention row (scores s_l, values x_l, maximiser set C, c = |C| < n, gap Delta > 0) and every
    tau > 0: |sum_l pi_l x_l - xbar_C| <= ((n - c)/c) D exp(-Delta/tau), D = max_l |x_l - xbar_C| (spec
    §4.10): softmax tends to the tie-averaging hardmax at the rate exp(-Delta/tau)."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = row_symbols()
    n, c, D, gap, tau, dev = s["n"], s["c"], s["D"], s["Delta"], s["tau"], s["dev"]
    row = sp.Symbol("row")
    return ForAll((row, tau), "attention rows (rational scores, values in Q^d) with 1 <= c < n, and tau > 0",
                  AllOf(bound=sp.Le(dev, (n - c) / c * D * sp.exp(-gap / tau))))


def softmax_derivation():
    """The bound on the row n = 3, C = {1, 2} (weights W, W on C and w_3 = W exp(-Delta t) off C, t = 1/tau):
    the identity out - xbar_C = pi_3 (x_3 - xbar_C), then |x_3 - xbar_C| <= D and pi_3 <= w_3/(2W)."""
    import sympy as sp

    from verify import Derivation, Step

    W, w3, t, gap = sp.symbols("W w_3 t Delta", positive=True)
    x1, x2, x3 = sp.symbols("x_1 x_2 x_3", real=True)
    D = sp.Symbol("D", nonnegative=True)
    e = sp.Symbol("e", nonnegative=True)
    Z = 2 * W + w3
    xbar = (x1 + x2) / 2
    return Derivation(
        Step("|out - xbar_C| with softmax weights W/Z, W/Z, w_3/Z", sp.Abs((W * x1 + W * x2 + w3 * x3) / Z - xbar)),
        Step("identity: only the key outside C remains (the weights sum to 1)", sp.Abs(w3 / Z * (x3 - xbar))),
        Step("w_3/Z > 0", w3 / Z * sp.Abs(x3 - xbar)),
        Step("|x_3 - xbar_C| <= D", w3 / Z * D, relation="<=", subs={D: sp.Abs(x3 - xbar) + e}),
        Step("Z = 2W + w_3 >= 2W = c W", w3 / (2 * W) * D, relation="<="),
        Step("w_3 = W exp(-Delta t): ((n - c)/c) D exp(-Delta/tau) at n = 3, c = 2",
             sp.Rational(1, 2) * D * sp.exp(-gap * t), subs={w3: W * sp.exp(-gap * t)}),
    )


def softmax_exact_statement():
    """Exists tau* > 0 and ONE set of weights theta (the builder takes no tau) with set(T_{theta,tau}(X^j))
    = set(Y^j) for every j and every 0 < tau < tau*; witnessed by the certified tau_c (arb, spec §3.5):
    tau_c > 0, and d_H^2 <= 10^-(p-12) at precision p on the grid tau <= tau_c (at p = dps and 2 dps)."""
    import sympy as sp

    from verify import AllOf, Exists, ForAll

    tau_c = sp.Symbol("tau_c", positive=True)
    dH = sp.Symbol("d_H", nonnegative=True)
    tol = sp.Symbol("epsilon_p", positive=True)  # 10^-(p-12) at precision p (spec §3.7)
    theta = sp.Symbol("theta")
    return ForAll(sp.Symbol("D"), DOMAIN + " (softmax: tie-free S1 rows ensured by the builder)",
                  Exists((theta, tau_c), "one weight set theta and a certified temperature tau_c",
                         AllOf(certificate=sp.Gt(tau_c, 0), exact=sp.Le(dH, tol))))


def softmax_blocks_statement():
    """L_S <= 2M + 3N with L_S = R + 2M + 1, widths <= 4, P_S = P_sep + M(14d+13) + 4d + 5 + kappa <=
    (24d+20) M (spec §3.6), and identity padding to exactly 2M + 3N blocks leaving the outputs unchanged."""
    import sympy as sp

    from verify import AllOf, ForAll

    from ._statements_hardmax import symbols

    s = symbols()
    N, M, R, d, w, k = s["N"], s["M"], s["R"], s["d"], s["w"], s["kappa"]
    L = sp.Symbol("L_S", positive=True, integer=True)
    P = sp.Symbol("P_S", positive=True, integer=True)
    return ForAll(s["D"], DOMAIN, AllOf(
        block_bound=sp.Le(L, 2 * M + 3 * N),
        structure=sp.And(sp.Eq(L, R + 2 * M + 1), sp.Le(w, 4),
                         sp.Eq(P, s["P_sep"] + M * (14 * d + 13) + 4 * d + 5 + k), sp.Le(P, (24 * d + 20) * M)),
        padding=sp.And(sp.Eq(s["L_pad"], 2 * M + 3 * N), sp.Eq(s["n_pad"], 0)),
        closed_form=sp.Le(_closed_form_S(s), (24 * d + 20) * M)))


def _closed_form_S(s: dict[str, Any]) -> Any:
    """The §3.6 unpadded softmax count R(10d+7) + M(14d+13) + 4d + 5 + kappa, in the statement's symbols."""
    M, R, d, k = s["M"], s["R"], s["d"], s["kappa"]
    return R * (10 * d + 7) + M * (14 * d + 13) + 4 * d + 5 + k


def softmax_blocks_derivation():
    """The softmax stages summed (spec §3.6: separation, placement with the collapse, line map, M snap
    moves), then R <= N - 1 <= M - 1 and kappa <= 4d (substitutions R = N - 1 - b, kappa = 4d - c,
    M = N + a): P_S <= (24d + 20) M - 2d - 2."""
    import sympy as sp

    from verify import Derivation, Step

    from ._statements_hardmax import symbols

    s = symbols()
    M, N, R, d, k = s["M"], s["N"], s["R"], s["d"], s["kappa"]
    a, b, c = sp.symbols("a b c", nonnegative=True, integer=True)
    per_stage = (R * (10 * d + 7) + (8 * d + 7) + (M - 1) * (6 * d + 6) + k   # separation, placement + S2
                 + (2 * d + 4)                                               # line map (width 1, eta = 0) + S0
                 + M * (8 * d + 7))                                          # snap moves (width 4) + S0
    return Derivation(
        Step("P_S: the §3.6 table summed over the stages", per_stage),
        Step("collect", _closed_form_S(s)),
        Step("R <= N - 1", (N - 1) * (10 * d + 7) + M * (14 * d + 13) + 4 * d + 5 + k, relation="<=",
             subs={R: N - 1 - b}),
        Step("kappa <= 4d", (N - 1) * (10 * d + 7) + M * (14 * d + 13) + 8 * d + 5, relation="<=",
             subs={k: 4 * d - c}),
        Step("N <= M", (M - 1) * (10 * d + 7) + M * (14 * d + 13) + 8 * d + 5, relation="<=", subs={M: N + a}),
        Step("expand", (24 * d + 20) * M - 2 * d - 2),
        Step("<= (24d + 20) M", (24 * d + 20) * M, relation="<="),
        concludes="closed_form")
