"""Statements of the lemma claims (readings of Lemmas 4.1-4.3, spec §4.7-4.9) and of the necessity of
the assumptions (§4.11): lazy builders.

Hardmax layers with rho = 0, V = I.  Observables: the layer's outputs T_i (numerics.attention), squared
distances to the points the lemma names, and the scores; the lemmas' case splits are implications.
"""

from __future__ import annotations

from typing import Any


def rank_one_symbols() -> dict[str, Any]:
    import sympy as sp

    nn = {"nonnegative": True}
    return {"s": sp.Symbol("s_i", real=True),  # v . x_i
            "top": sp.Symbol("|T_i - xbar_argmax|^2", **nn), "bot": sp.Symbol("|T_i - xbar_argmin|^2", **nn),
            "mean": sp.Symbol("|T_i - xbar|^2", **nn),
            "u": sp.Symbol("u", nonnegative=True, integer=True),  # 1 iff no v.x = 0 and unique extremes
            "k": sp.Symbol("k_out", positive=True, integer=True)}  # number of distinct outputs


def rank_one_statement():
    """A = v v^T: x_i -> mean of argmax_l v.x_l if v.x_i > 0, of argmin if v.x_i < 0, the sequence mean
    if v.x_i = 0; with no token on v.x = 0 and unique extremes, at most two distinct outputs."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = rank_one_symbols()
    si = s["s"]
    return ForAll((sp.Symbol("X"), sp.Symbol("v"), sp.Symbol("i")),
                  "finite lists X of rational tokens, v != 0, token index i",
                  AllOf(prediction=sp.And(sp.Implies(sp.Gt(si, 0), sp.Eq(s["top"], 0)),
                                          sp.Implies(sp.Lt(si, 0), sp.Eq(s["bot"], 0)),
                                          sp.Implies(sp.Eq(si, 0), sp.Eq(s["mean"], 0))),
                        two_outputs=sp.Implies(sp.Eq(s["u"], 1), sp.Le(s["k"], 2))))


def box_statement():
    """A = I: tokens in [0, R]^d minus {0} plus a leader R'(1, ..., 1), R' > R, all map to the leader
    (max_i |T_i - leader|^2 = 0); the score gap t sum x_k - <x, z> to any box token z is > 0."""
    import sympy as sp

    from verify import AllOf, ForAll

    dist = sp.Symbol("max_i|T_i - leader|^2", nonnegative=True)
    return ForAll((sp.Symbol("R"), sp.Symbol("R'"), sp.Symbol("X")),
                  "R >= 1, R' > R, tokens in [0, R]^d minus {0}",
                  AllOf(to_leader=sp.Eq(dist, 0)))


def box_derivation():
    """The leader wins every row: t sum_k x_k - sum_k x_k z_k = sum_k x_k (t - z_k) > 0 (d = 2, t = R + s,
    z_k = R - w_k with s > 0, w_k in [0, R], x_1 > 0, x_2 >= 0)."""
    import sympy as sp

    from verify import Derivation, Step

    x1, s, R = sp.symbols("x_1 s R", positive=True)
    x2, w1, w2 = sp.symbols("x_2 w_1 w_2", nonnegative=True)
    t, z1, z2 = R + s, R - w1, R - w2
    return Derivation(
        Step("score against the leader minus score against z", t * (x1 + x2) - (x1 * z1 + x2 * z2)),
        Step("collect per coordinate", x1 * (t - z1) + x2 * (t - z2)),
        Step("t - z_k = s + w_k", x1 * (s + w1) + x2 * (s + w2)),
        Step("x_1 s > 0 and every other term >= 0", x1 * s, relation=">="),
        Step("positive", 0, relation=">"),
    )


def sphere_statement():
    """A = I: distinct s_1..s_k on the sphere |s| = R are their own unique maximisers (every other score
    <s_i, x_l> < R^2), hence fixed (|T_i - s_i|^2 = 0), also with extra tokens z, <s_i, z> < R^2."""
    import sympy as sp

    from verify import AllOf, ForAll

    other = sp.Symbol("max_{l != i}<s_i, x_l>", real=True)
    R2 = sp.Symbol("R^2", positive=True)
    dist = sp.Symbol("|T_i - s_i|^2", nonnegative=True)
    return ForAll((sp.Symbol("S"), sp.Symbol("Z"), sp.Symbol("i")),
                  "distinct points s_i with |s_i| = R, extra tokens z with <s_i, z> < R^2",
                  AllOf(fixed=sp.And(sp.Lt(other, R2), sp.Eq(dist, 0))))


def sphere_derivation():
    """Strict Cauchy-Schwarz on the sphere of radius R (d = 2 shown): with |s|^2 = |t|^2 = R^2,
    R^2 - <s, t> = (|s|^2 + |t|^2)/2 - <s, t> = |s - t|^2 / 2 >= 0, and = 0 only for t = s."""
    import sympy as sp

    from verify import Derivation, Step

    s1, s2, t1, t2 = sp.symbols("s_1 s_2 t_1 t_2", real=True)
    return Derivation(
        Step("R^2 - <s, t>, with R^2 = (|s|^2 + |t|^2)/2 on the sphere",
             (s1 ** 2 + s2 ** 2) / 2 + (t1 ** 2 + t2 ** 2) / 2 - (s1 * t1 + s2 * t2)),
        Step("= |s - t|^2 / 2", ((s1 - t1) ** 2 + (s2 - t2) ** 2) / 2),
        Step("a sum of squares", 0, relation=">="),
    )


def necessary_statement():
    """Every network of the class (any weights; hardmax or softmax): (E1) T(X o sigma) = T(X) o sigma;
    (E2) x_i = x_k implies T_i(X) = T_k(X); (E3) duplicate-free sequences equal as sets have equal output
    sets; (E4) |set T(X)| <= |set X| <= n."""
    import sympy as sp

    from verify import AllOf, ForAll

    # max-norm distances (exact for hardmax, mpmath for softmax); n_dup counts equal-token pairs split
    nn = {"nonnegative": True}
    e1 = sp.Symbol("max|T(X o sigma) - T(X) o sigma|", **nn)
    e2 = sp.Symbol("n_{dup differ}", **nn)
    e3 = sp.Symbol("d_H(T(X),T(X o sigma))", **nn)
    k_out = sp.Symbol("|set T(X)|", positive=True, integer=True)
    k_in = sp.Symbol("|set X|", positive=True, integer=True)
    return ForAll((sp.Symbol("T"), sp.Symbol("X"), sp.Symbol("sigma")),
                  "networks of the class (FF then SA, no positional encoding), sequences X, permutations sigma",
                  AllOf(E1=sp.Eq(e1, 0), E2=sp.Eq(e2, 0), E3=sp.Eq(e3, 0), E4=sp.Le(k_out, k_in)))
