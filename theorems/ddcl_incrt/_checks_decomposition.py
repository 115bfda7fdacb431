"""Checks of ``ddcl.dictionary.decomposition`` (spec ddcl_incrt.md §3.1).

Statement R1: for any data Z, prototypes P and rows q_i on the simplex,
``L_q = L_OLS + V``, ``V_i = 1/2 sum_{k,l} q_ik q_il |p_k - p_l|^2 >= 0`` and, for K >= 2,
``1/2 dmin^2 (1 - |q_i|^2) <= V_i <= 1/2 dmax^2 (1 - |q_i|^2)``.

Variants (negative controls), each run through the *same* check:

* ``minus_v``          the wrong decomposition ``L_q = L_OLS - V``;
* ``variance_at_data`` V computed around z_i instead of the reconstruction zt_i;
* ``off_simplex``      rows scaled by 1 + 1/1000 (off the simplex);
* ``pairwise_no_half`` the pairwise form without its 1/2;
* ``sandwich_upper_half`` the sandwich's upper bound halved (only the sandwich sub-check runs).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from numerics.arithmetic import MPArithmetic
from numerics.precision import float_tolerance, tolerance_for
from numerics.strategies import dictionary_instances
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, observe, refuted, statement_of

from ._statements_dictionary import Q2
from .dictionary import dictionary_losses, pairwise_variance, sample_terms, sqdist

VARIANTS = ("statement", "minus_v", "variance_at_data", "off_simplex", "pairwise_no_half",
            "sandwich_upper_half")

# A minimal instance on which every false variant fails (pinned regression case): one sample at 0,
# two prototypes at -1 and +1, uniform assignment.  Then L_q = 1, L_OLS = 0, V = 1.
PINNED = (([(Fraction(0),)], [(Fraction(-1),), (Fraction(1),)], [[Fraction(1, 2), Fraction(1, 2)]]),
          # K = 3 at the vertices of a unit right isoceles triangle: dmin^2 = 1 < dmax^2 = 2, so the
          # sandwich is strict; q = (1/2, 1/4, 1/4): V = 1/2 (2 * 1/8 * 1 + 2 * 1/8 * 1 + 2 * 1/16 * 2)
          ([(Fraction(0), Fraction(0))], [(Fraction(0), Fraction(0)), (Fraction(1), Fraction(0)),
                                         (Fraction(0), Fraction(1))],
           [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]]))


_CLAIM = "ddcl.dictionary.decomposition"


def _variant_rows(Q: Any, variant: str) -> Any:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose from {VARIANTS}")
    if variant == "off_simplex":
        return [[q * Fraction(1001, 1000) if isinstance(q, Fraction) else q * 1.001 for q in row] for row in Q]
    return Q


def _losses(Z: Any, P: Any, Q: Any, variant: str) -> dict[str, Any]:
    """The identity's observables from the product: L_q, L_OLS, V (``minus_v`` presents -V as V,
    ``variance_at_data`` centres V at z_i)."""
    center = "data" if variant == "variance_at_data" else "reconstruction"
    L = dictionary_losses(Z, P, _variant_rows(Q, variant), variance_center=center)
    return {"L_q": L.L_q, "L_OLS": L.L_OLS, "V": -L.V if variant == "minus_v" else L.V}


def _sample_observables(z: Any, P: Any, q: Any, variant: str) -> dict[str, Any]:
    """One sample's observables: V_i (product ``sample_terms``), S_i = sum_{k,l} q_k q_l |p_k - p_l|^2
    (product ``pairwise_variance`` without its 1/2; ``pairwise_no_half`` presents twice that, i.e. the
    claim 'V_i = S_i'), the extreme squared pairwise distances (``sandwich_upper_half`` halves D_max)
    and |q_i|^2."""
    center = "data" if variant == "variance_at_data" else "reconstruction"
    v = sample_terms(z, P, q, variance_center=center)[2]
    S = pairwise_variance(P, q, half=False) * (2 if variant == "pairwise_no_half" else 1)
    out = {"V_i": v, "S_i": S, Q2: sum(x * x for x in q)}
    K = len(P)
    if K >= 2:
        d2 = [sqdist(P[k], P[l]) for k in range(K) for l in range(k + 1, K)]
        out["D_min"], out["D_max"] = min(d2), max(d2) * (Fraction(1, 2) if variant == "sandwich_upper_half" else 1)
    return out


def exact_instances(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Exact rationals on hypothesis instances: the statement's parts ``identity`` (the product's
    L_q, L_OLS, V), ``pairwise`` and ``sandwich`` (per sample: V_i, S_i, D_min, D_max, |q_i|^2),
    decided exactly.  Variants (controls) perturb the observables (see :func:`_losses`,
    :func:`_sample_observables`); ``sandwich_upper_half`` evaluates the sandwich part alone."""
    st = statement_of(_CLAIM)
    tally = Tally(precision="exact", backend="fractions", tolerance=0.0, seeds=(seed,))
    parts = ("sandwich",) if variant == "sandwich_upper_half" else ("identity", "pairwise", "sandwich")

    def body(inst: Any) -> Observation:
        Z, P, Q = inst
        worst = None
        for part in parts:
            rows = [_losses(Z, P, Q, variant)] if part == "identity" else [
                _sample_observables(z, P, q, variant) for z, q in zip(Z, _variant_rows(Q, variant))]
            for vals in rows:
                if part == "sandwich" and "D_min" not in vals:  # K = 1: V_i = 0 is the whole claim
                    vals = {**vals, "D_min": 0, "D_max": 0}
                obs = observe.statement(st, vals, part=part, counterexample=lambda: refuted(
                    f"statement part {part!r} fails: {({k: str(v) for k, v in vals.items()})}", variant=variant,
                    **{k: str(v) for k, v in vals.items()}, sub_check=part))
                if obs.level is Verdict.REFUTED:
                    return obs
                worst = obs
        return worst

    explore(dictionary_instances(), body, tally, seed=seed,
            max_examples=profile.pick(60, 150, 1000), examples=PINNED,
            describe=lambda i: {"Z": [[str(x) for x in z] for z in i[0]],
                                "P": [[str(x) for x in p] for p in i[1]],
                                "Q": [[str(x) for x in q] for q in i[2]]})
    if variant == "statement" and tally.counterexample is None:
        # the sandwich cannot be tightened: both bounds are attained when all pairwise distances agree
        for Z, P, Q in PINNED:
            obs = _sample_observables(Z[0], P, Q[0], variant)
            lo, hi = obs["D_min"] * (1 - obs[Q2]) / 2, obs["D_max"] * (1 - obs[Q2]) / 2
            if len(P) == 2:
                tally.exact(obs["V_i"] == lo == hi, counterexample=lambda: refuted(
                    "an attained sandwich bound is not attained", sub_check="sandwich"))
    return tally.evidence()


def _symbolic_holds(rel: Any, subs: dict) -> bool | None:
    """An Eq / Ne part of the statement decided on sympy observables (exact polynomial identity)."""
    import sympy as sp

    r = sp.expand(sp.together((rel.lhs - rel.rhs).subs(subs)))
    if isinstance(rel, sp.Eq):
        return r == 0
    if isinstance(rel, sp.Ne):
        return r != 0
    return None


def symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy: the statement's parts ``identity`` and ``pairwise`` decided on symbolic observables (the
    product's per-sample ell, |z - zt|^2, V_i and pairwise sum, as polynomials) for K in {2, 3},
    d in {1, 2}, q_K = 1 - sum_{k<K} q_k: an exact polynomial identity in every variable."""
    import sympy as sp

    from verify._statement import select

    st = statement_of(_CLAIM)
    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    for K in (2, 3):
        for d in (1, 2):
            z = [sp.Symbol(f"z_{j}") for j in range(d)]
            P = [[sp.Symbol(f"p_{k}{j}") for j in range(d)] for k in range(K)]
            qs = list(sp.symbols(f"q1:{K}"))
            q = qs + [1 - sum(qs)]
            if variant == "off_simplex":
                q = [x * sp.Rational(1001, 1000) for x in q]
            center = "data" if variant == "variance_at_data" else "reconstruction"
            ell, ols, var = sample_terms(z, P, q, variance_center=center)
            pair = pairwise_variance(P, q, half=False) * (2 if variant == "pairwise_no_half" else 1)
            vals = {"identity": {"L_q": ell, "L_OLS": ols, "V": -var if variant == "minus_v" else var},
                    "pairwise": {"V_i": var, "S_i": pair}}
            for part, v in vals.items():
                rel = select(st, part)
                ok = _symbolic_holds(rel, {sp.Symbol(k, real=True): x for k, x in v.items()})
                if ok is None:
                    continue
                tally.exact(ok, level=Verdict.PROVED, counterexample=lambda: refuted(
                    f"the statement's part {part!r} is not an identity for K={K}, d={d}",
                    K=K, d=d, variant=variant, sub_check=part))
                if not ok:
                    return tally.evidence()
    tally.details["scope"] = "per sample (hence every N), K in {2,3}, d in {1,2}, rows on the simplex"
    return tally.evidence()


def _gibbs_mp(ar: MPArithmetic, Z: Any, P: Any, tau: Any) -> list[list[Any]]:
    rows = []
    for z in Z:
        dist = [sqdist(z, p) for p in P]
        m = min(dist)
        e = [ar.ctx.exp(-(x - m) / tau) for x in dist]
        s = ar.ctx.fsum(e)
        rows.append([x / s for x in e])
    return rows


def mp_gibbs(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """mpmath at the profile's dps with Gibbs rows: the statement's ``identity`` on the product's
    L_q, L_OLS, V within 10^-(dps-10) * s, s = L_q + mean |z_i|^2 + mean |p_k|^2."""
    import numpy as np

    dps = profile.dps
    ar = MPArithmetic(dps)
    rng = np.random.default_rng(seed)
    st = statement_of(_CLAIM)
    tally = Tally(precision=f"dps={dps}", backend="mpmath", tolerance=tolerance_for(dps), seeds=(seed,))
    for _ in range(profile.pick(40, 200, 1000)):
        N, K, d = (int(rng.integers(1, 9)), int(rng.integers(1, 6)), int(rng.integers(1, 5)))
        Z = [[ar.ctx.mpf(float(x)) for x in rng.uniform(-10, 10, d)] for _ in range(N)]
        P = [[ar.ctx.mpf(float(x)) for x in rng.uniform(-10, 10, d)] for _ in range(K)]
        tau = ar.ctx.mpf(float(np.exp(rng.uniform(-3, 3))))
        Q = _gibbs_mp(ar, Z, P, tau)
        vals = _losses(Z, P, Q, variant)
        scale = float(vals["L_q"] + sum(sqdist(z, [0] * d) for z in Z) / N + sum(sqdist(p, [0] * d) for p in P) / K)
        obs = tally.statement(st, vals, part="identity", tol=tolerance_for(dps) * scale)
        if obs.level is Verdict.REFUTED:
            break
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def float_gibbs(*, seed: int, profile: Profile) -> Evidence:
    """float64, N <= 64, K <= 12, d <= 16, coordinates in [-1e3, 1e3]: the statement's ``identity``
    within float_tolerance(ops = 4 K d + 8, scale = s) (the sandwich is decided exactly by
    :func:`exact_instances`)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    st = statement_of(_CLAIM)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    for _ in range(profile.pick(40, 150, 3000)):
        N, K, d = int(rng.integers(1, 65)), int(rng.integers(1, 13)), int(rng.integers(1, 17))
        Z = rng.uniform(-1e3, 1e3, (N, d))
        P = rng.uniform(-1e3, 1e3, (K, d))
        D2 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        tau = float(np.exp(rng.uniform(-6, 6))) * D2.mean()
        logits = -(D2 - D2.min(1, keepdims=True)) / tau
        Q = np.exp(logits)
        Q /= Q.sum(1, keepdims=True)
        vals = _losses(Z.tolist(), P.tolist(), Q.tolist(), "statement")
        scale = vals["L_q"] + float((Z**2).sum(1).mean()) + float((P**2).sum(1).mean())
        tol = float_tolerance(ops=4 * K * d + 8)
        tally.tolerance = tol
        obs = tally.statement(st, vals, part="identity", tol=tol * scale)
        if obs.level is Verdict.REFUTED:
            break
    return tally.evidence(level_cap=Verdict.CONSISTENT)
