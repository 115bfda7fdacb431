"""Statements of the hardmax claims (Theorem H as read in spec §2.6; §4.1-4.3, §4.6): lazy builders.

Each statement is a :class:`verify.ForAll` over valid datasets whose body is an :class:`verify.AllOf`
of relations between observables that the checks compute from the product (counts read off the built
blocks, exact outputs of the evaluators).  The AllOf labels are the sub-check names the controls target.
The checks evaluate these statements (``tally.statement``); the formulas live here only.
"""

from __future__ import annotations

from typing import Any

DOMAIN = "valid datasets D = {(X^j, Y^j)}_{j<=N} in Q^d (A1-A4, d >= 2), M = sum_j m_j"


def symbols() -> dict[str, Any]:
    """The statement symbols by name (one place, so checks and derivations share them)."""
    import sympy as sp

    pos = {"positive": True, "integer": True}
    nonneg = {"nonnegative": True, "integer": True}
    return {
        "N": sp.Symbol("N", **pos), "M": sp.Symbol("M", **pos), "d": sp.Symbol("d", **pos),
        "R": sp.Symbol("R", **nonneg), "L_H": sp.Symbol("L_H", **pos), "L_pad": sp.Symbol("L_pad", **pos),
        "w": sp.Symbol("d'", **nonneg), "P_H": sp.Symbol("P_H", **pos), "P_sep": sp.Symbol("P_sep", **nonneg),
        "kappa": sp.Symbol("kappa", **pos), "D": sp.Symbol("D"),
        "dH2": sp.Symbol("d_H^2", nonnegative=True),
        "n_ref": sp.Symbol("n_{ref != fast}", **nonneg), "n_pad": sp.Symbol("n_{pad changed}", **nonneg),
        "L_plus": sp.Symbol("L(D^+)", **pos), "P_plus": sp.Symbol("P(D^+)", **pos),
        "dH2_plus": sp.Symbol("d_H^2(D^+)", nonnegative=True),
        "dL_dn": sp.Symbol("dL/dn", real=True), "dP_dn": sp.Symbol("dP/dn", real=True),
        "dw_dn": sp.Symbol("dd'/dn", real=True),
    }


def hardmax_exact_statement():
    """set(T_0(X^j)) = set(Y^j) for every j, read as d_H(T_0(X^j), Y^j)^2 = 0 (spec §2.4; exact
    rationals), and the fast exact evaluator agrees with the Fraction reference evaluator."""
    from verify import AllOf, ForAll

    s = symbols()
    import sympy as sp

    return ForAll(s["D"], DOMAIN + "; one instance per sequence j",
                  AllOf(outputs=sp.Eq(s["dH2"], 0), reference=sp.Eq(s["n_ref"], 0)))


def _closed_form_H(s: dict[str, Any]) -> Any:
    """The §3.6 unpadded count R(10d+7) + M(12d+12) + 2d + 1 + kappa, in the statement's symbols."""
    M, R, d, k = s["M"], s["R"], s["d"], s["kappa"]
    return R * (10 * d + 7) + M * (12 * d + 12) + 2 * d + 1 + k


def params_statement():
    """P_H = P_sep + M(12d+12) + 2d + 1 + kappa with the separation's cost P_sep <= R(10d+7), and
    P_H <= (22d+19) M (spec §3.6; P counted from the blocks' declared structure, §2.5); the closed form
    with the observed R, M, d, kappa is itself <= (22d+19) M (the derivation proves it for all
    R <= N - 1 <= M - 1, kappa <= 4d)."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = symbols()
    M, R, d, P, Ps, k = s["M"], s["R"], s["d"], s["P_H"], s["P_sep"], s["kappa"]
    return ForAll(s["D"], DOMAIN + "; kappa = 1 (A = I collapse) or 4d (rank 2)", AllOf(
        formula=sp.Eq(P, Ps + M * (12 * d + 12) + 2 * d + 1 + k),
        separation=sp.Le(Ps, R * (10 * d + 7)),
        dM_bound=sp.Le(P, (22 * d + 19) * M),
        closed_form=sp.Le(_closed_form_H(s), (22 * d + 19) * M)))


def params_derivation():
    """The §3.6 table summed over the stages, then R <= N - 1 <= M - 1 and kappa <= 4d: the closed form
    is <= (22d+19) M.  The hypotheses enter as substitutions R = N - 1 - b, kappa = 4d - c, M = N + a
    (a, b, c >= 0) in the step that uses them, so sympy decides each sign."""
    import sympy as sp

    from verify import Derivation, Step

    s = symbols()
    M, R, d, N, k = s["M"], s["R"], s["d"], s["N"], s["kappa"]
    a, b, c = sp.symbols("a b c", nonnegative=True, integer=True)
    per_stage = (R * (10 * d + 7)                          # separation rounds: FF width 4 (8d+5) + S1 (2d+2)
                 + (8 * d + 7) + (M - 1) * (6 * d + 6)     # placement: hat + translation, then hats (+ S0)
                 + k                                       # the collapse S2 replaces the last S0 (+1 or +4d)
                 + M * (6 * d + 6))                        # hardmax moves: one hat + S0 each
    return Derivation(
        Step("P_H: the §3.6 table summed over the stages", per_stage),
        Step("collect the stages", _closed_form_H(s), why="(8d+7) - (6d+6) = 2d + 1"),
        Step("R <= N - 1 (Bondy rounds)", (N - 1) * (10 * d + 7) + M * (12 * d + 12) + 2 * d + 1 + k,
             relation="<=", subs={R: N - 1 - b}),
        Step("kappa <= 4d", (N - 1) * (10 * d + 7) + M * (12 * d + 12) + 6 * d + 1, relation="<=",
             subs={k: 4 * d - c}),
        Step("N <= M (every m_j >= 1)", (M - 1) * (10 * d + 7) + M * (12 * d + 12) + 6 * d + 1,
             relation="<=", subs={M: N + a}),
        Step("expand", (22 * d + 19) * M - (4 * d + 6)),
        Step("drop -(4d + 6) < 0", (22 * d + 19) * M, relation="<="),
        concludes="closed_form")


def block_statement():
    """L_H <= 2M + 2N + 1 (seed 004 L73, read as a bound), with L_H = R + 2M, R <= N - 1 and FF width
    d' <= 4 on the construction; identity padding to exactly 2M + 2N + 1 blocks changes no output; and
    R + 2M <= 2M + 2N + 1 (the derivation proves it for every R <= N - 1)."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = symbols()
    N, M, R, L, w = s["N"], s["M"], s["R"], s["L_H"], s["w"]
    return ForAll(s["D"], DOMAIN, AllOf(
        block_bound=sp.Le(L, 2 * M + 2 * N + 1),
        structure=sp.And(sp.Eq(L, R + 2 * M), sp.Le(R, N - 1), sp.Le(w, 4)),
        padding=sp.And(sp.Eq(s["L_pad"], 2 * M + 2 * N + 1), sp.Eq(s["n_pad"], 0)),
        closed_form=sp.Le(R + 2 * M, 2 * M + 2 * N + 1)))


def block_derivation():
    """R + M + M blocks (separation, placement, moves) <= (N - 1) + 2M <= 2M + 2N + 1."""
    import sympy as sp

    from verify import Derivation, Step

    s = symbols()
    N, M, R = s["N"], s["M"], s["R"]
    b = sp.Symbol("b", nonnegative=True, integer=True)
    return Derivation(
        Step("L_H: R separation blocks + M placement blocks (collapse in the last) + M hat moves", R + M + M),
        Step("collect", R + 2 * M),
        Step("R <= N - 1 (Bondy)", N - 1 + 2 * M, relation="<=", subs={R: N - 1 - b}),
        Step("add N + 2 > 0", 2 * M + 2 * N + 1, relation="<="),
        concludes="closed_form")


def length_statement():
    """L(D+) = L(D), P(D+) = P(D) and D+ interpolated exactly, for D+ = D with fresh tokens appended
    (E(D) reused); along D_k (k fresh tokens per sequence, E recomputed) dL/dn = dP/dn = dd'/dn = 0."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = symbols()
    Lp, Pp = s["L_plus"], s["P_plus"]
    L, P = sp.Symbol("L(D)", positive=True, integer=True), sp.Symbol("P(D)", positive=True, integer=True)
    return ForAll(s["D"], DOMAIN + "; D^+ appends k_j >= 0 fresh tokens to X^j (targets unchanged)", AllOf(
        counts_unchanged=sp.And(sp.Eq(Lp, L), sp.Eq(Pp, P), sp.Eq(s["dH2_plus"], 0)),
        length_slope=sp.And(sp.Eq(s["dL_dn"], 0), sp.Eq(s["dP_dn"], 0), sp.Eq(s["dw_dn"], 0))))
