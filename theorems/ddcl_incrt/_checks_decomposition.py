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
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted

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


def _residuals(Z: Any, P: Any, Q: Any, variant: str) -> tuple[Any, list[Any]]:
    """(L_q - decomposition, [V_i - pairwise_i for each sample]) under a variant of the statement."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose from {VARIANTS}")
    if variant == "off_simplex":
        Q = [[q * Fraction(1001, 1000) if isinstance(q, Fraction) else q * 1.001 for q in row]
             for row in Q]
    center = "data" if variant == "variance_at_data" else "reconstruction"
    L = dictionary_losses(Z, P, Q, variance_center=center)
    sign = -1 if variant == "minus_v" else 1
    main = L.L_q - (L.L_OLS + sign * L.V)
    half = variant != "pairwise_no_half"
    per = [sample_terms(z, P, q, variance_center=center)[2] - pairwise_variance(P, q, half=half)
           for z, q in zip(Z, Q)]
    return main, per


def _sandwich_bounds(P: Any, q: Any) -> tuple[Any, Any]:
    """(½ dmin² (1 - |q|²), ½ dmax² (1 - |q|²)) for K >= 2."""
    K = len(P)
    d2 = [sqdist(P[k], P[l]) for k in range(K) for l in range(k + 1, K)]
    s = 1 - sum(x * x for x in q)
    return min(d2) * s / 2, max(d2) * s / 2


def _sandwich(P: Any, q: Any, v: Any, upper_factor: Any = 1) -> bool:
    """½ dmin² (1 - |q|²) <= V_i <= ½ dmax² (1 - |q|²) for K >= 2 (exact), and both bounds attained
    when all pairwise distances are equal (K = 2 in particular): then V_i equals each bound exactly,
    so neither can be tightened (the two-sided check: the bound holds and a witness attains it).
    ``upper_factor`` scales the upper bound (the control ``sandwich_upper_half`` uses 1/2)."""
    K = len(P)
    if K < 2:
        return v == 0
    lo, hi = _sandwich_bounds(P, q)
    hi = hi * upper_factor
    equidistant = len({sqdist(P[k], P[l]) for k in range(K) for l in range(k + 1, K)}) == 1
    if equidistant:
        return v == lo and v == hi
    return lo <= v <= hi


def exact_instances(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Exact rationals on hypothesis instances: identity, pairwise form, V_i >= 0, sandwich bounds."""
    tally = Tally(precision="exact", backend="fractions", tolerance=0.0, seeds=(seed,))

    def body(inst: Any) -> Observation:
        Z, P, Q = inst
        main, per = _residuals(Z, P, Q, variant)
        if variant == "sandwich_upper_half":  # the sandwich sub-check alone, with half its upper bound
            vs = [sample_terms(z, P, q)[2] for z, q in zip(Z, Q)]
            ok = all(_sandwich(P, q, v, Fraction(1, 2)) for q, v in zip(Q, vs))
            main, per = 0, [0] * len(Z)
        else:
            ok = main == 0 and all(r == 0 for r in per)
        if ok and variant == "statement":
            vs = [sample_terms(z, P, q)[2] for z, q in zip(Z, Q)]
            ok = all(v >= 0 for v in vs) and all(_sandwich(P, q, v) for q, v in zip(Q, vs))
        if ok:
            return Observation(Verdict.CERTIFIED, margin=0.0, error=0.0)
        if main != 0:
            what = f"exact residual L_q - (L_OLS {'-' if variant == 'minus_v' else '+'} V) = {main}"
            worst = abs(float(main))
            sub = "identity"
        elif any(r != 0 for r in per):
            bad = next(r for r in per if r != 0)
            what = f"V_i differs from the pairwise form by {bad} (identity residual 0)"
            worst = abs(float(bad))
            sub = "pairwise"
        else:
            what = "V_i < 0 or outside the sandwich bounds"
            worst = 0.0
            sub = "sandwich"
        return Observation(Verdict.REFUTED, margin=-worst, counterexample=refuted(
            what, margin=-worst, variant=variant, identity_residual=str(main),
            pairwise_residuals=[str(r) for r in per], sub_check=sub))

    explore(dictionary_instances(), body, tally, seed=seed,
            max_examples=profile.pick(60, 150, 1000), examples=PINNED,
            describe=lambda i: {"Z": [[str(x) for x in z] for z in i[0]],
                                "P": [[str(x) for x in p] for p in i[1]],
                                "Q": [[str(x) for x in q] for q in i[2]]})
    return tally.evidence()


def symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy: the identities for K in {2, 3} and d in {1, 2} with q_K = 1 - sum_{k<K} q_k."""
    import sympy as sp

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
            sign = -1 if variant == "minus_v" else 1
            r1 = sp.expand(ell - ols - sign * var)
            r2 = sp.expand(var - pairwise_variance(P, q, half=variant != "pairwise_no_half"))
            ok = r1 == 0 and r2 == 0
            tally.exact(bool(ok), level=Verdict.PROVED, counterexample=lambda: refuted(
                f"symbolic residual is not zero for K={K}, d={d}",
                K=K, d=d, variant=variant, residual=str(r1 if r1 != 0 else r2),
                sub_check="identity" if r1 != 0 else "pairwise"))
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
    """mpmath at the profile's dps with Gibbs rows: |L_q - L_OLS - V| <= 10^-(dps-10) * s."""
    import numpy as np

    dps = profile.dps
    ar = MPArithmetic(dps)
    rng = np.random.default_rng(seed)
    tally = Tally(precision=f"dps={dps}", backend="mpmath", tolerance=tolerance_for(dps),
                  seeds=(seed,))
    for _ in range(profile.pick(40, 200, 1000)):
        N, K, d = (int(rng.integers(1, 9)), int(rng.integers(1, 6)), int(rng.integers(1, 5)))
        Z = [[ar.ctx.mpf(float(x)) for x in rng.uniform(-10, 10, d)] for _ in range(N)]
        P = [[ar.ctx.mpf(float(x)) for x in rng.uniform(-10, 10, d)] for _ in range(K)]
        tau = ar.ctx.mpf(float(np.exp(rng.uniform(-3, 3))))
        Q = _gibbs_mp(ar, Z, P, tau)
        main, _ = _residuals(Z, P, Q, variant)
        L = dictionary_losses(Z, P, Q)
        scale = float(L.L_q + sum(sqdist(z, [0] * d) for z in Z) / N + sum(sqdist(p, [0] * d) for p in P) / K)
        tally.close(main, 0, tolerance_for(dps), scale=scale, counterexample=lambda: refuted(
            f"residual {ar.ctx.nstr(main, 5)} exceeds 1e-{dps - 10} * {scale:.3g}", variant=variant))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def float_gibbs(*, seed: int, profile: Profile) -> Evidence:
    """float64, N <= 64, K <= 12, d <= 16, coordinates in [-1e3, 1e3]: the identity within budget."""
    import numpy as np

    rng = np.random.default_rng(seed)
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
        L = dictionary_losses(Z.tolist(), P.tolist(), Q.tolist())
        scale = L.L_q + float((Z**2).sum(1).mean()) + float((P**2).sum(1).mean())
        tol = float_tolerance(ops=4 * K * d + 8)
        tally.tolerance = tol
        tally.close(L.L_q, L.L_OLS + L.V, tol, scale=scale)
        tally.le(-L.V, 0.0, tol * scale)
    return tally.evidence(level_cap=Verdict.CONSISTENT)
