"""Statements of the faithful headline claims (the seed's Theorems 1.6 and 1.8 as stated, each on ONE
network; seed §3.4 and §5): lazy builders.

The theorems are ForAll datasets, Exists a network, of a conjunction whose labels are the sub-checks
the controls target (block_count, width, attention_rank, param_recount, param_bound, exactness, ...).
The checks supply the witness network (the construction padded to the paper's count) and evaluate the
conjunction on observables read off it.
"""

from __future__ import annotations

from ._statements_hardmax import DOMAIN


def _network_parts(blocks_formula, constant):
    import sympy as sp

    from ._statements_hardmax import symbols

    s = symbols()
    M, d, w = s["M"], s["d"], s["w"]
    L, P = sp.Symbol("L", positive=True, integer=True), sp.Symbol("P", positive=True, integer=True)
    rank = sp.Symbol("r_A", nonnegative=True, integer=True)  # largest low-rank part of any attention matrix
    P_re = sp.Symbol("P_recount", positive=True, integer=True)  # spec §2.5 count from the blocks' fields
    return {"block_count": sp.Eq(L, blocks_formula(s)), "width": sp.Le(w, 4), "attention_rank": sp.Le(rank, 1),
            "param_recount": sp.Eq(P, P_re), "param_bound": sp.Le(P, constant(d) * M)}


def _s():
    from ._statements_hardmax import symbols

    return symbols()


def _padded_count_H():
    """The construction's count padded to 2M + 2N + 1 blocks: the §3.6 closed form plus 3 parameters per
    identity block, 2N + 1 - R of them (spec §3.6)."""
    from ._statements_hardmax import _closed_form_H

    s = _s()
    return _closed_form_H(s) + 3 * (2 * s["N"] + 1 - s["R"])


def hardmax_theorem_derivation():
    """Padding costs at most 9M: P_pad <= (22d + 22) M - 4d <= (22d + 28) M, with R <= N - 1 <= M - 1 and
    kappa <= 4d entering as substitutions R = N - 1 - b, kappa = 4d - c, M = N + a (a, b, c >= 0)."""
    import sympy as sp

    from verify import Derivation, Step

    s = _s()
    M, N, R, d, k = s["M"], s["N"], s["R"], s["d"], s["kappa"]
    a, b, c = sp.symbols("a b c", nonnegative=True, integer=True)
    return Derivation(
        Step("P of the padded network: closed form + 3 per identity block (2N + 1 - R blocks)", _padded_count_H()),
        Step("collect", R * (10 * d + 4) + M * (12 * d + 12) + 2 * d + 6 * N + 4 + k),
        Step("R <= N - 1", (N - 1) * (10 * d + 4) + M * (12 * d + 12) + 2 * d + 6 * N + 4 + k, relation="<=",
             subs={R: N - 1 - b}),
        Step("kappa <= 4d", (N - 1) * (10 * d + 4) + M * (12 * d + 12) + 6 * d + 6 * N + 4, relation="<=",
             subs={k: 4 * d - c}),
        Step("N <= M", (M - 1) * (10 * d + 4) + M * (12 * d + 12) + 6 * d + 6 * M + 4, relation="<=",
             subs={M: N + a}),
        Step("expand: the witness chain's slope 22d + 22", (22 * d + 22) * M - 4 * d),
        Step("<= (22d + 28) M", (22 * d + 28) * M, relation="<="),
        concludes="padded_closed_form")


def hardmax_theorem_statement():
    """Theorem 1.6 (seed 004 L70-L75): for every dataset there is a hardmax transformer T_0 with width
    d' <= 4, L = 2M + 2N + 1 blocks, P <= (22d + 28) M = O(dM) parameters and T_0(X_j) = Y_j (as sets,
    d_H^2 = 0); attention alpha I + rank <= 1 (004 L27/L60)."""
    import sympy as sp

    from verify import AllOf, Exists, ForAll

    parts = _network_parts(lambda s: 2 * s["M"] + 2 * s["N"] + 1, lambda d: 22 * d + 28)
    parts["padded_closed_form"] = sp.Le(_padded_count_H(), (22 * _s()["d"] + 28) * _s()["M"])
    parts["exactness"] = sp.Eq(sp.Symbol("d_H^2", nonnegative=True), 0)
    parts["evaluator_agreement"] = sp.Eq(sp.Symbol("n_{ref != fast}", nonnegative=True, integer=True), 0)
    return ForAll(sp.Symbol("D"), DOMAIN, Exists(sp.Symbol("T_0"), "hardmax transformers (FF then SA blocks)",
                                                 AllOf(**parts)))


def softmax_theorem_statement():
    """Theorem 1.8 (seed 004 L79-L84): exists tau* > 0 such that for every 0 < tau < tau* a softmax
    transformer has width <= 4, L = 2M + 3N, P <= (24d + 29) M and T_tau(X_j) = Y_j; witnessed by one
    padded network with tau* := tau_c certified in arb (and d_H <= 10^-(p-12) on a grid below tau_c)."""
    import sympy as sp

    from verify import AllOf, Exists, ForAll

    parts = _network_parts(lambda s: 2 * s["M"] + 3 * s["N"], lambda d: 24 * d + 29)
    parts["certificate"] = sp.Gt(sp.Symbol("tau_c", positive=True), 0)
    parts["grid_exactness"] = sp.Le(sp.Symbol("d_H", nonnegative=True), sp.Symbol("epsilon_p", positive=True))
    return ForAll(sp.Symbol("D"), DOMAIN, Exists((sp.Symbol("tau^*"), sp.Symbol("T_tau")),
                                                 "tau* > 0 and, for tau < tau*, softmax transformers",
                                                 AllOf(**parts)))


def resnet_order_statement():
    """004 L92 at fixed (N, M, d): dP_TF/dn = 0, P_TF <= (22d + 19) M, and P_TF / (c d N n) -> 0 as
    n -> oo for any ResNet count P_Res >= c d N n; observed on built networks as P(n) constant and
    P/(dNn) decreasing."""
    import sympy as sp

    from verify import AllOf, ForAll

    dP, lim = sp.symbols("dP_TF/dn lim_{n->oo}P_TF/P_Res", real=True)
    return ForAll((sp.Symbol("N"), sp.Symbol("M"), sp.Symbol("d")), "N <= M, d >= 2, kappa in {1, 4d}",
                  AllOf(n_free=sp.Eq(dP, 0), ratio_limit=sp.Eq(lim, 0)))


def tikhonov_as_stated_statement():
    """The seed's sentence as a quantified predicate: for the training loss T in {J_eps, E} and the
    reading P of 'linearly proportional' in {Theta(eps), <= C eps} (the seed fixes neither), T(eps)
    is P-proportional to eps as eps -> 0.  A predicate, not a formula: the claim is undetermined
    (expected UNKNOWN) because the candidate readings disagree."""
    import sympy as sp

    from verify import ForAll

    T, P, eps = sp.Symbol("T"), sp.Symbol("P"), sp.Symbol("epsilon", positive=True)
    proportional = sp.Function("LinearlyProportional")
    return ForAll((T, P), "training losses T in {J_eps, E}, readings P in {Theta(eps), <= C eps} (undetermined)",
                  proportional(sp.Function("min_T")(eps), eps, P))
