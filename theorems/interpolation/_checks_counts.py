"""Checks of the counting claims: ``interp.hardmax.blocks`` (§4.2), ``interp.hardmax.params`` (§4.3),
``interp.softmax.blocks`` (§4.5) and ``interp.length_independence`` (§4.6).

Symbolic parts (sympy, PROVED) work on the formulas of :func:`.construction.paper_block_count` and
:func:`.construction.parameter_formula` -- the same functions the instance checks compare with.
Instance parts build the construction and count its blocks and declared parameters exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

from numerics.strategies import edge_case_datasets, interpolation_datasets
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted

from ._checks_exact import SOFTMAX_PINNED, describe
from .blocks import FF, SA, Block
from .construction import build_interpolator, distinguishing_points, paper_block_count, parameter_formula
from .dataset import Dataset

F = Fraction


def _scratch() -> Tally:
    return Tally(precision="", backend="")


# -- symbolic ----------------------------------------------------------------------------------------
def block_formulas_symbolic(*, seed: int, profile: Profile) -> Evidence:
    """sympy: (2M+3N) - (2M+2N+1) = N-1; 2M+2N+1 = 4N+1 at m_j = 1; R+2M <= 2M+N-1 <= 2M+2N+1 and
    R+2M+1 <= 2M+N <= 2M+3N for 0 <= R <= N-1, N >= 1."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    N, M, R = sp.symbols("N M R", integer=True, nonnegative=True)
    a, b = sp.symbols("a b", integer=True, nonnegative=True)  # N = a + 1, R = N - 1 - b
    H = paper_block_count(N, M, "hardmax")
    S = paper_block_count(N, M, "softmax")
    steps = [
        ("softmax minus hardmax", sp.simplify(S - H - (N - 1)) == 0),
        ("m_j = 1 gives 4N + 1 (v1's O(N))", sp.simplify(H.subs(M, N) - (4 * N + 1)) == 0),
    ]
    sub = {N: a + 1, R: a - b}  # R = N - 1 - b with b >= 0
    gaps_h = [(2 * M + N - 1) - (R + 2 * M), H - (2 * M + N - 1)]
    gaps_s = [(2 * M + N) - (R + 2 * M + 1), S - (2 * M + N)]
    for g in gaps_h + gaps_s:
        e = sp.expand(g.subs(sub))
        steps.append((f"{g} >= 0", bool(e.is_nonnegative)))
    for label, ok in steps:
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=refuted(f"sympy: {label} fails"))
    return tally.evidence()


def params_symbolic(*, seed: int, profile: Profile) -> Evidence:
    """sympy: (22d+19)M - P_H(N-1) = (M-N+1)(10d+7) - 2d - 1 - kappa >= 8d+6-kappa > 0 (M = N + a),
    and the softmax analogue (24d+20)M - P_S(N-1) >= 0, for d >= 2, kappa in {1, 4d}."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    N, a, d2 = sp.symbols("N a d2", integer=True, nonnegative=True)
    d = d2 + 2
    M = N + a
    for att, C in (("hardmax", 22 * d + 19), ("softmax", 24 * d + 20)):
        for kappa in (1, 4 * d):
            # N >= 1: substitute N = N1 + 1
            N1 = sp.Symbol("N1", integer=True, nonnegative=True)
            P = parameter_formula(N - 1, M, d, att, kappa)
            gap = sp.expand((C * M - P).subs(N, N1 + 1))
            ok = bool(gap.is_nonnegative)
            if att == "hardmax":
                closed = sp.expand((M - N + 1) * (10 * d + 7) - 2 * d - 1 - kappa - (C * M - P))
                ok = ok and closed == 0
            tally.exact(ok, level=Verdict.PROVED, counterexample=refuted(
                f"sympy: ({C})M - P_{att} is not >= 0 for kappa = {kappa}", gap=str(gap)))
    return tally.evidence()


# -- instances ---------------------------------------------------------------------------------------
def _pad_random(model, seed: int, bad: bool = False):
    """Pad to the paper's count at seeded random positions; ``bad`` pads with a W != 0 block."""
    if not bad:
        return model.pad_to_paper_count(seed=seed)
    d = model.d
    rng = random.Random(seed)
    blocks = list(model.blocks)
    for _ in range(max(1, model.paper_count - model.num_blocks)):
        blk = Block(FF(1, ((0,) * d,), (1,), ((F(1, 1000),) + (0,) * (d - 1),)), SA(1, 0),
                    label="padding with W != 0", stage="pad")
        blocks.insert(rng.randint(0, len(blocks)), blk)
    return model.with_blocks(blocks)


def hardmax_blocks(*, seed: int, profile: Profile, bound: str = "paper", pad: str = "identity") -> Evidence:
    """Per instance: L <= 2M+2N+1 (or the false 2M), R <= N-1, widths <= 4, and padding at random
    positions leaves the exact output lists identical."""
    tally = Tally(precision="exact", backend="python-flint fmpq", seeds=(seed,))

    def body(raw) -> Observation:
        D = Dataset(*raw)
        m = build_interpolator(D, "hardmax", seed=seed)
        lim = paper_block_count(D.N, D.M, "hardmax") if bound == "paper" else 2 * D.M
        if m.num_blocks > lim:
            return _scratch().exact(False, counterexample=refuted(
                f"L = {m.num_blocks} > {lim} ({bound} bound)", L=m.num_blocks, N=D.N, M=D.M, R=m.R))
        if m.R > D.N - 1 or m.width > 4 or m.num_blocks != m.R + 2 * D.M:
            return _scratch().exact(False, counterexample=refuted(
                "R > N-1, a width > 4, or L != R + 2M", R=m.R, width=m.width, L=m.num_blocks))
        padded = _pad_random(m, seed, bad=(pad == "nonzero_W"))
        if padded.num_blocks != m.paper_count and pad == "identity":
            return _scratch().exact(False, counterexample=refuted("padding missed the paper's count"))
        a, b = m.evaluate_dataset(), padded.evaluate_dataset()
        if a != b:
            return _scratch().exact(False, counterexample=refuted(
                "padding changed the output lists", padding=pad))
        return _scratch().exact(True, margin=lim - m.num_blocks)

    explore(interpolation_datasets(), body, tally, seed=seed, max_examples=profile.pick(10, 40, 300),
            examples=edge_case_datasets(), describe=describe)
    return tally.evidence()


def hardmax_params(*, seed: int, profile: Profile, variant: str | None = None,
                   collapse: str = "identity") -> Evidence:
    """Per instance: P = the §3.6 formula for the observed R and P <= (22d+19)M; the family N = 1,
    m_1 = n_1 = k (k = 1..20) has P/(dM) bounded.  Variants: ``per_N`` (the false P = O(dN): on that
    family P/(dN) must stay below its k = 1 value times 2, which sympy refutes: it grows without
    bound), ``dense_V`` (counting d^2 per V: P/(dM) <= 22 + 19/d fails along one dataset embedded in
    d = 2..10)."""
    import sympy as sp

    tally = Tally(precision="exact", backend="python-flint fmpq + sympy", seeds=(seed,))

    def count(m, dense: bool) -> int:
        P = m.num_parameters
        if dense:  # V = lam I counted as a dense d x d matrix in every SA
            P += m.num_blocks * (m.d * m.d - 1)
        return P

    if variant in (None, "per_N"):
        vals = []
        for k in range(1, profile.pick(21, 21, 41)):
            inp = [[(F(i), F(i * i % 7)) for i in range(k)]]
            out = [[(F(-i - 1), F(i)) for i in range(k)]]
            m = build_interpolator(Dataset(inp, out), "hardmax", seed=seed)
            P = m.num_parameters
            if P != m.parameter_formula():
                tally.exact(False, counterexample=refuted("P differs from the formula", k=k))
                return tally.evidence()
            vals.append(P)
        d = 2
        if variant == "per_N":
            kk = sp.Symbol("k", positive=True)
            ratio = parameter_formula(0, kk, d, "hardmax") / (d * 1)
            lim = sp.limit(ratio, kk, sp.oo)
            inc = all(b > a for a, b in zip(vals, vals[1:]))
            tally.exact(not (lim is sp.oo and inc), counterexample=refuted(
                "P/(dN) grows without bound on N = 1, m_1 = n_1 = k: not O(dN)",
                P_over_dN=[v / d for v in vals], limit=str(lim)))
            return tally.evidence()
        for k, P in enumerate(vals, start=1):
            tally.exact(P <= (22 * d + 19) * k, margin=(22 * d + 19) * k - P)
        tally.details["family_P"] = vals

    def body(raw) -> Observation:
        D = Dataset(*raw)
        m = build_interpolator(D, "hardmax", seed=seed, collapse=collapse)
        P = m.num_parameters
        if P != m.parameter_formula():
            return _scratch().exact(False, counterexample=refuted("P differs from the §3.6 formula",
                                                                  P=P, formula=m.parameter_formula()))
        bound = (D.N - 1) * (10 * D.d + 7) + D.M * (12 * D.d + 12) + 2 * D.d + 1 + m.kappa
        if not P <= bound <= (22 * D.d + 19) * D.M:
            return _scratch().exact(False, counterexample=refuted("P exceeds the O(dM) bound", P=P, bound=bound))
        return _scratch().exact(True, margin=(22 * D.d + 19) * D.M - P)

    if variant == "dense_V":
        base = ([[(F(0), F(0)), (F(1), F(0))], [(F(0), F(0)), (F(0), F(1))]],
                [[(F(2), F(3)), (F(1), F(1))], [(F(5), F(5))]])
        for d in range(2, 11):
            ins = [[t + (F(0),) * (d - 2) for t in s] for s in base[0]]
            outs = [[t + (F(0),) * (d - 2) for t in s] for s in base[1]]
            D = Dataset(ins, outs)
            m = build_interpolator(D, "hardmax", seed=seed)
            P = count(m, dense=True)
            ok = P <= (22 * d + 19) * D.M
            tally.exact(ok, margin=(22 * d + 19) * D.M - P, counterexample=refuted(
                f"dense-V count P = {P} > (22d+19)M = {(22 * d + 19) * D.M} at d = {d}", d=d, P=P,
                P_over_dM=P / (d * D.M)))
            if not ok:
                break
        return tally.evidence()
    explore(interpolation_datasets(), body, tally, seed=seed, max_examples=profile.pick(10, 40, 300),
            examples=edge_case_datasets(), describe=describe)
    return tally.evidence()


def softmax_blocks(*, seed: int, profile: Profile, bound: str = "paper") -> Evidence:
    """Per instance: L_S = R + 2M + 1 <= 2M + 3N (or the false 2M), widths <= 4, P_S = the formula and
    <= (24d+20)M; identity padding at random positions gives identical mpmath outputs at two tau."""
    from .softmax import softmax_outputs

    tally = Tally(precision="exact counts; mpmath dps=30 outputs", backend="python-flint, mpmath", seeds=(seed,))

    def body(raw) -> Observation:
        D = Dataset(*raw)
        m = build_interpolator(D, "softmax", seed=seed)
        lim = paper_block_count(D.N, D.M, "softmax") if bound == "paper" else 2 * D.M
        if m.num_blocks > lim:
            return _scratch().exact(False, counterexample=refuted(
                f"L_S = {m.num_blocks} > {lim} ({bound} bound)", L=m.num_blocks, N=D.N, M=D.M))
        ok = (m.num_blocks == m.R + 2 * D.M + 1 and m.width <= 4 and m.num_parameters == m.parameter_formula()
              and m.num_parameters <= (24 * D.d + 20) * D.M)
        if not ok:
            return _scratch().exact(False, counterexample=refuted(
                "softmax count mismatch", L=m.num_blocks, P=m.num_parameters, formula=m.parameter_formula()))
        padded = m.pad_to_paper_count(seed=seed)
        if padded.num_blocks != lim:
            return _scratch().exact(False, counterexample=refuted("padding missed 2M + 3N"))
        for tau in (F(1, 1000), F(1, 10)):
            a = softmax_outputs(m, tau, 30)
            b = softmax_outputs(padded, tau, 30)
            if a != b:
                return _scratch().exact(False, counterexample=refuted(
                    f"identity padding changed the mpmath outputs at tau = {tau}"))
        return _scratch().exact(True, margin=lim - m.num_blocks)

    explore(interpolation_datasets(d_max=3, N_max=3, n_max=4), body, tally, seed=seed,
            max_examples=profile.pick(4, 10, 40), examples=SOFTMAX_PINNED, describe=describe)
    return tally.evidence()


# -- length independence -------------------------------------------------------------------------------
def _extend(raw, ks: list[int], start: int) -> tuple[list, list]:
    ins, outs = raw
    d = len(ins[0][0])
    new = []
    c = start
    for s, k in zip(ins, ks):
        extra = []
        for _ in range(k):
            extra.append((F(c),) + tuple(F((c * (i + 3)) % 11 + 10) for i in range(d - 1)))
            c += 1
        new.append(list(s) + extra)
    return new, outs


def length_independence(*, seed: int, profile: Profile, builder: str = "construction") -> Evidence:
    """L(D+) = L(D) and P(D+) = P(D) when every X^j gets k_j fresh tokens (outside the pool's box),
    with E(D) reused; D+ is interpolated exactly; n_j scaled by 1, 2, 5, 10 keeps (L, P).  The
    ``naive`` builder (one hat per input token, L = sum n_j) is the negative control."""
    tally = Tally(precision="exact", backend="python-flint fmpq", seeds=(seed,))
    rng = random.Random(seed)

    def counts(D: Dataset, E):
        if builder == "naive":
            L = D.num_tokens
            return L, L * (6 * D.d + 6), True
        m = build_interpolator(D, "hardmax", seed=seed, distinguishing=E)
        return m.num_blocks, m.num_parameters, m.interpolates()

    def body(raw) -> Observation:
        D = Dataset(*raw)
        E = distinguishing_points(D.inputs)
        L0, P0, ok0 = counts(D, E)
        seen = []
        for scale in (1, 2, 5, 10):
            ks = [rng.randint(0, 20) if scale == 1 else (scale - 1) * n for n in D.lengths]
            Dp = Dataset(*_extend(raw, ks, 1000))
            L1, P1, ok1 = counts(Dp, E)
            seen.append((scale, L1, P1))
            if (L1, P1) != (L0, P0) or not ok1:
                return _scratch().exact(False, counterexample=refuted(
                    f"(L, P) changed from {(L0, P0)} to {(L1, P1)} when the inputs grew (scale {scale})",
                    builder=builder, counts=seen, interpolates=ok1))
        return _scratch().exact(True)

    explore(interpolation_datasets(N_max=4, n_max=5), body, tally, seed=seed,
            max_examples=profile.pick(6, 20, 100), examples=edge_case_datasets()[:4], describe=describe)
    if builder == "construction":  # sympy: the §3.6 bounds contain no n_j
        import sympy as sp

        R, M, d, n = sp.symbols("R M d n_j", positive=True)
        for att in ("hardmax", "softmax"):
            expr = parameter_formula(R, M, d, att)
            tally.exact(n not in expr.free_symbols, level=Verdict.PROVED)
    return tally.evidence()
