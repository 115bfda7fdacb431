"""Checks of the three attention lemmas (readings of Lemmas 4.1-4.3, figure 4 panels; spec §4.7-4.9).

All layers are hardmax with ``rho = 0``, ``V = I`` (``lam = 1``), evaluated exactly by
:func:`numerics.attention.self_attention` over Fractions.  The checks compute observables only (outputs,
scores, squared distances to the points a lemma names) and evaluate the claim's own statement
(``_statements_lemmas``) on them; the lemma's case split lives in the statement.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from numerics.attention import AttentionMatrix, self_attention
from numerics.exact import dot
from numerics.strategies import token_lists
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, observe, refuted, statement_of

from ._stmt import observe_part
from .construction import sph, sph_neg

F = Fraction


def _score(A: AttentionMatrix, q, k) -> Fraction:
    """sc = k^T A q for A = alpha I + sum p q^T (spec §2.3): the score of query q against key k."""
    sc = F(A.alpha) * dot(q, k)
    for p_, q_ in A.factors:
        sc += dot(q_, q) * dot(p_, k)
    return sc


def _mean(X, idx):
    return tuple(sum((F(X[l][k]) for l in idx), F(0)) / len(idx) for k in range(len(X[0])))


def _fmt(X):
    return [[str(v) for v in t] for t in X]


def _attend(X, A) -> list[tuple]:
    return self_attention(X, A, kernel="hardmax", rho=0, lam=1, arith="fraction")


# -- Lemma 4.1 (reading): rank-one collapse ----------------------------------------------------------
RANK_ONE_PINNED = (
    # one token above, one below, none on v.x = 0 (refutes "everything goes to the top")
    ([(F(1),), (F(-2),)], (1,)),
    # tie at the top extreme, one token on v.x = 0, one below
    ([(F(2), F(0)), (F(2), F(5)), (F(0), F(1)), (F(-1), F(0))], (1, 0)),
    # all tokens on one side
    ([(F(1), F(1)), (F(2), F(3)), (F(3), F(-1))], (1, 1)),
    # every token on v.x = 0 (full tie: the sequence mean)
    ([(F(0), F(1)), (F(0), F(-3))], (1, 0)),
    # a token with v.x < 0 and one at 0 (refutes both controls)
    ([(F(1),), (F(-2),), (F(0),)], (1,)),
)


def _sq(u, v) -> Fraction:
    return sum(((F(a) - F(b)) ** 2 for a, b in zip(u, v)), F(0))


def rank_one_collapse(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """Lemma 4.1 (reading) evaluated as the claim's statement on the layer's exact outputs T_i: the
    observables are s_i = v.x_i and |T_i - m|^2 for the three points the lemma names (means of argmax,
    argmin, all).  Controls perturb an observable: ``all_top`` offers the argmax mean as the argmin mean,
    ``boundary_extreme`` offers it as the sequence mean."""
    tally = Tally(precision="exact", backend="fractions (numerics.attention)", seeds=(seed,))
    stmt = statement_of("interp.lemma.rank_one_collapse")
    reduced = [0]

    def body(inst) -> Observation:
        X, v = inst
        if all(c == 0 for c in v):
            from verify import reject

            reject()
        A = AttentionMatrix(factors=((tuple(F(c) for c in v), tuple(F(c) for c in v)),))
        got = _attend(X, A)
        p = [dot(v, x) for x in X]
        top = _mean(X, [l for l, s in enumerate(p) if s == max(p)])
        bot = _mean(X, [l for l, s in enumerate(p) if s == min(p)])
        mean = _mean(X, range(len(X)))
        if variant == "all_top":
            bot = top
        elif variant == "boundary_extreme":
            mean = top
        for i, g in enumerate(got):
            vals = {"s_i": F(p[i]), "|T_i - xbar_argmax|^2": _sq(g, top), "|T_i - xbar_argmin|^2": _sq(g, bot),
                    "|T_i - xbar|^2": _sq(g, mean)}
            obs = observe_part(stmt, vals, "prediction", token=i, tokens=_fmt(X), v=list(v), variant=variant)
            if obs.level is Verdict.REFUTED:
                return obs
        u = int(0 not in p and p.count(max(p)) == 1 and p.count(min(p)) == 1)
        reduced[0] += u
        return observe_part(stmt, {"u": u, "k_out": len(set(got))}, "two_outputs", tokens=_fmt(X))

    @st.composite
    def inst(dr):
        X = dr(token_lists(d_min=1, d_max=5, n_max=8))
        v = tuple(dr(st.integers(-3, 3)) for _ in range(len(X[0])))
        return X, v

    explore(inst(), body, tally, seed=seed, max_examples=profile.pick(60, 200, 2000),
            examples=RANK_ONE_PINNED, describe=lambda i: {"tokens": _fmt(i[0]), "v": list(i[1])})
    tally.details["instances_with_at_most_two_outputs_checked"] = reduced[0]
    return tally.evidence()


# -- Lemma 4.2 (reading): box to corner ---------------------------------------------------------------
def box_symbolic(*, seed: int, profile: Profile) -> Evidence:
    """sympy: t sum x_k - sum x_k z_k = sum x_k (t - z_k) > 0 for x >= 0, x != 0, z in [0, R]^d, t > R.
    With t = R + s (s > 0), z_k = R - w_k (w_k in [0, R]), x_1 > 0: a sum of nonnegative terms plus
    x_1 s > 0."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    for d in range(1, 6):
        x = sp.symbols(f"x1:{d + 1}", nonnegative=True)
        x1 = sp.Symbol("x1", positive=True)
        w = sp.symbols(f"w1:{d + 1}", nonnegative=True)
        s, R = sp.symbols("s R", positive=True)
        xs = (x1,) + x[1:]
        t = R + s
        expr = sp.expand(sum(xk * t for xk in xs) - sum(xk * (R - wk) for xk, wk in zip(xs, w)))
        tally.exact(bool(expr.is_positive), level=Verdict.PROVED, counterexample=refuted(
            f"sympy cannot show positivity for d = {d}", expr=str(expr)))
    return tally.evidence()


BOX_PINNED = (
    # the spec's control instance: R = 2, tokens (1, 0) and (2, 1/2), leader at R' (or R for the variant)
    (F(2), F(1, 4), [(F(1), F(0)), (F(2), F(1, 2))]),
    (F(1), F(1, 2), [(F(1), F(1)), (F(0), F(1)), (F(1, 2), F(0))]),
)


def box_to_corner(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """Tokens in [0, R]^d minus {0} plus the leader R' (1..1), R' > R, all map to the leader (A = I).
    Variants: ``closed_box`` (leader exactly at R, tokens in the closed box: refuted by a tie),
    ``include_zero`` (the token 0 admitted: it maps to the sequence mean)."""
    tally = Tally(precision="exact", backend="fractions (numerics.attention)", seeds=(seed,))
    stmt = statement_of("interp.lemma.box_to_corner")

    def body(inst) -> Observation:
        R, delta, toks = inst
        d = len(toks[0])
        toks = [tuple(min(max(c, F(0)), R) for c in t) for t in toks]
        if variant == "include_zero":
            toks = toks + [tuple(F(0) for _ in range(d))]
        else:
            toks = [t for t in toks if any(c != 0 for c in t)]
            if not toks:
                from verify import reject

                reject()
        Rp = R if variant == "closed_box" else R + delta
        leader = tuple(Rp for _ in range(d))
        X = toks + [leader]
        got = _attend(X, AttentionMatrix(alpha=1))
        dist = max(_sq(g, leader) for g in got)
        obs = observe_part(stmt, {"max_i|T_i - leader|^2": dist}, "to_leader", R=str(R), leader=str(Rp),
                           tokens=_fmt(X), variant=variant)
        if obs.level is Verdict.REFUTED:
            return obs
        return observe.exact(True, margin=float(Rp - R) if variant != "closed_box" else 0.0)

    @st.composite
    def inst(dr):
        R = F(dr(st.integers(1, 10)))
        k = dr(st.integers(0, 8))
        d = dr(st.integers(1, 4))
        n = dr(st.integers(1, 6))
        den = dr(st.sampled_from([1, 2, 3, 4]))
        toks = [tuple(F(dr(st.integers(0, int(R) * den)), den) for _ in range(d)) for _ in range(n)]
        # push some tokens onto the faces of the box
        if dr(st.booleans()):
            toks.append(tuple(R if i == 0 else F(dr(st.integers(0, int(R)))) for i in range(d)))
        return R, F(1, 2 ** k), toks

    explore(inst(), body, tally, seed=seed, max_examples=profile.pick(60, 200, 2000),
            examples=BOX_PINNED, describe=lambda i: {"R": str(i[0]), "delta": str(i[1]), "tokens": _fmt(i[2])})
    return tally.evidence()


# -- Lemma 4.3 (reading): sphere points are fixed -----------------------------------------------------
def sphere_symbolic(*, seed: int, profile: Profile) -> Evidence:
    """sympy: for unit s != s', |s - s'|^2 = 2 - 2<s, s'> > 0, so <s, s'> < 1 = <s, s> (strict Cauchy-Schwarz);
    scaled by R^2 for the sphere of radius R."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    for d in range(2, 6):
        s = sp.symbols(f"s1:{d + 1}", real=True)
        t = sp.symbols(f"t1:{d + 1}", real=True)
        R = sp.Symbol("R", positive=True)
        unit = {s[-1] ** 2: 1 - sum(c ** 2 for c in s[:-1]), t[-1] ** 2: 1 - sum(c ** 2 for c in t[:-1])}
        lhs = sp.expand(sum((a - b) ** 2 for a, b in zip(s, t))).subs(unit)
        rhs = sp.expand(2 - 2 * sum(a * b for a, b in zip(s, t)))
        gap = sp.expand(R ** 2 * (1 - sum(a * b for a, b in zip(s, t))) - R ** 2 * sp.Rational(1, 2) * lhs)
        ok = sp.simplify(lhs - rhs) == 0 and sp.simplify(gap) == 0
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=refuted(f"identity fails for d = {d}"))
    return tally.evidence()


def _sphere_points(k: int, d: int, R: F, negative: bool, shift: int) -> list[tuple]:
    pts = []
    for i in range(1, k + 1):
        u = F(i + shift, (d + 1) * (k + shift + 2))
        if negative:
            p = sph_neg(u, d, F)
        else:
            p = sph([u * (j + 1) * (-1) ** (i + j) for j in range(d - 1)], F)
        pts.append(tuple(R * c for c in p))
    return list(dict.fromkeys(pts))


SPHERE_PINNED = (
    (1, 2, F(1), False, 0, 0),   # k = 1
    (2, 2, F(3), False, 0, 0),   # includes an antipodal pair below
    (4, 3, F(2), True, 1, 2),
)


def sphere_fixed(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """Distinct points on the sphere of radius R are their own unique maximisers (A = I), also with
    extra tokens z with <s_i, z> < R^2 (inside the open ball, or in the opposite orthant).
    Variants: ``outer_point`` (z = 2 s_1 added: s_1 moves to z), ``rank_one`` (A = v v^T, k >= 3)."""
    tally = Tally(precision="exact", backend="fractions (numerics.attention)", seeds=(seed,))
    stmt = statement_of("interp.lemma.sphere_fixed")

    def body(inst) -> Observation:
        k, d, R, negative, shift, extra = inst
        S = _sphere_points(k, d, R, negative, shift)
        if inst == SPHERE_PINNED[1]:
            S = [tuple(R * c for c in (F(1), F(0))), tuple(R * c for c in (F(-1), F(0)))]
        Z = []
        for e in range(extra):
            if negative:  # the opposite (positive) orthant
                Z.append(tuple(F(e + 1 + j) for j in range(d)))
            else:  # inside the open ball: |z| < R
                Z.append(tuple(R * F(1, 2 * d + e) * (1 if j % 2 == 0 else -1) for j in range(d)))
        A = AttentionMatrix(alpha=1)
        if variant == "outer_point":
            Z.append(tuple(2 * c for c in S[0]))
        if variant == "rank_one":
            if len(S) < 3:
                S = _sphere_points(max(3, k), d, R, negative, shift)
            A = AttentionMatrix(factors=((tuple(F(1) for _ in range(d)), tuple(F(1) for _ in range(d))),))
        if any(dot(s, s) != R * R for s in S):  # the lemma's hypothesis |s_i| = R, on the product's Sph maps
            return observe.exact(False, counterexample=refuted(
                "generator: a Sph/Sph^- point is not on the sphere of radius R", R=str(R),
                norms2=[str(dot(s, s)) for s in S], sub_check="generator"))
        for z in Z[: extra]:  # the hypothesis <s_i, z> < R^2
            if any(dot(s, z) >= R * R for s in S):
                return observe.exact(False, counterexample=refuted("generator broke <s, z> < R^2",
                                                                      sub_check="generator"))
        X = S + Z
        got = _attend(X, A)
        for i, s in enumerate(S):
            sc = [_score(A, s, x) for x in X]
            other = max((c for l, c in enumerate(sc) if l != i), default=sc[i] - 1)
            obs = observe_part(stmt, {"max_{l != i}<s_i, x_l>": other, "R^2": sc[i] if variant == "rank_one" else R * R,
                                      "|T_i - s_i|^2": _sq(got[i], s)}, "fixed", point=_fmt([s])[0],
                               tokens=_fmt(X), variant=variant)
            if obs.level is Verdict.REFUTED:
                return obs
        return observe.exact(True)

    @st.composite
    def inst(dr):
        return (dr(st.integers(1, 12)), dr(st.integers(2, 5)), F(dr(st.integers(1, 5)), dr(st.integers(1, 3))),
                dr(st.booleans()), dr(st.integers(0, 3)), dr(st.integers(0, 3)))

    explore(inst(), body, tally, seed=seed, max_examples=profile.pick(30, 100, 1000),
            examples=SPHERE_PINNED, describe=lambda i: {"k": i[0], "d": i[1], "R": str(i[2]),
                                                        "negative": i[3], "extra": i[5]})
    return tally.evidence()
