"""Exact checks of the critical temperature (spec §3.3): symbolic and certified inertia.

Critical temperature (R1): the collapsed state is stationary for every tau with the Hessian of §2.3; it
is linearly unstable iff tau < tau_c = c lambda_1(C) (c = 4 full, 2 stopgrad/F), with
(K - 1) #{j : c lambda_j > tau} negative eigenvalues.  R0 ("for every tau") is refuted at
Z = {-1, +1}, K = 2, full, tau = 5 (Hessian eigenvalues {1, 1/5}).

Variants through the same checks:
* ``c_wrong``        the constant c = 2 claimed for full training (refuted at tau = 3, Z = {-1, 1});
* ``unconditional``  R0: collapse has a negative Hessian eigenvalue for every tau;
* ``always_stable``  the opposite false statement: collapse is never unstable.

The float64 corroborations (autograd Hessian, gradient-descent growth rates) are in
``_checks_separation_dynamics``; seed Theorem 2's amplification in ``_checks_amplification``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from numerics.linalg import exact_spectrum, inertia
from numerics.precision import Tri
from verify import Evidence, Profile, Tally, Verdict, refuted

from .dictionary import mode_constant
from .hessian import collapse_hessian, exact_covariance, relative_mode_eigenvalues, sympy_collapse_hessian

SEP_VARIANTS = ("statement", "c_wrong", "unconditional", "always_stable")

# Pinned regression cases (spec §3.3 negative controls): (data, K, mode, tau)
PINNED_SEPARATION = (
    ([[-1], [1]], 2, "full", Fraction(5)),   # R0 refuted: Hessian {1, 1/5}
    ([[-1], [1]], 2, "full", Fraction(3)),   # wrong constant refuted: full Hessian {1, -1/3}
    ([[-1], [1]], 2, "stopgrad", Fraction(3)),  # F Hessian {1, 1/3}
    ([[-1], [1]], 2, "full", Fraction(1)),   # unstable: {1, -3}
)


def _claimed_c(mode: str, variant: str) -> int:
    c = mode_constant(mode)
    return 2 if (variant == "c_wrong" and c == 4) else c


def _predicted_negatives(lams_exact_counts: Any, K: int, c: int, tau: Fraction, C: Any) -> int:
    # (K - 1) #{j : c lambda_j > tau} = (K - 1) * #negative eigenvalues of (tau I - c C), exactly
    d = len(C)
    M = [[tau * (1 if a == b else 0) - c * C[a][b] for b in range(d)] for a in range(d)]
    return (K - 1) * inertia(M).negative


def _judge(tally: Tally, neg: int, zero: int, K: int, c: int, tau: Fraction, C: Any, variant: str,
           inst: dict, level: Verdict) -> bool:
    """Record whether the exact negative count agrees with the statement under ``variant``."""
    if variant == "unconditional":
        ok = neg >= 1
        what = f"collapse is a strict local minimum at tau = {tau} (no negative Hessian eigenvalue)"
    elif variant == "always_stable":
        ok = neg == 0
        what = f"collapse is unstable at tau = {tau}: {neg} negative Hessian eigenvalues"
    else:
        pred = _predicted_negatives(None, K, c, tau, C)
        ok = neg == pred
        what = f"{neg} negative Hessian eigenvalues, the statement predicts {pred} (c = {c})"
    tally.exact(ok, level=level, counterexample=lambda: refuted(
        what, variant=variant, **inst, negative=neg, zero=zero, sub_check="negative_count"))
    return ok


def symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy: Z = {-a, a}, K = 2, d = 1, symbolic a, tau > 0.  The Hessian at collapse, obtained by
    differentiating L_q (full) / F (stopgrad), has eigenvalues {1, 1 - c a^2/tau} (c = 4 / 2): the
    block formula's prediction with lambda_1 = a^2.  Variants claim c = 2 for full (c_wrong)."""
    import sympy as sp

    from .dictionary import gibbs_row, sample_free_energy

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    a, tau = sp.symbols("a tau", positive=True)
    u1, u2 = sp.symbols("u1 u2", real=True)
    for mode in ("full", "stopgrad"):
        total = 0
        for z in (-a, a):
            dist = [(z - u1) ** 2, (z - u2) ** 2]
            if mode == "full":
                q = gibbs_row(dist, tau, sp.exp)
                total += sum(qk * dk for qk, dk in zip(q, dist))
            else:
                total += sample_free_energy(dist, tau, sp.exp, sp.log)
        total = total / 2
        H = sp.hessian(total, (u1, u2)).subs({u1: 0, u2: 0})
        H = H.applyfunc(lambda x: sp.simplify(x))
        eig = sorted(H.eigenvals().keys(), key=lambda e: sp.count_ops(e))
        c = _claimed_c(mode, variant)
        pred = {sp.Integer(1), sp.simplify(relative_mode_eigenvalues([a ** 2], 2, tau, c)[0])}
        ok = {sp.simplify(e) for e in eig} == pred or all(
            any(sp.simplify(e - p) == 0 for p in pred) for e in eig)
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=lambda: refuted(
            f"{mode}: Hessian eigenvalues {eig} differ from the prediction {sorted(pred, key=str)}",
            mode=mode, variant=variant, hessian=str(H), sub_check="eigenvalues"))
        if not ok:
            break
    tally.details["scope"] = "Z = {-a, a}, K = 2, every a > 0 and tau > 0"
    return tally.evidence()


def forward_collapse_hessian(Z: Any, K: int, tau: Fraction, mode: str) -> list[list[Fraction]]:
    """The exact Hessian at collapse by second-order forward-mode differentiation of the loss
    (:class:`numerics.krawczyk.Jet2` over Fractions), independent of the block formula and affordable for
    every instance (unlike :func:`sympy_collapse_hessian`).

    ``full``: L_q = (1/N) sum_i sum_k q_ik d_ik with the product's generic Gibbs row (exponent
    differences).  ``stopgrad``: F = (1/N) sum_i -tau log sum_k exp(-d_ik/tau), written as
    d_i0 - tau log K - tau log((1/K) sum_k exp(-(d_ik - d_i0)/tau)) -- the same function; its constant
    -tau log K has no derivative and is dropped -- so that exp is evaluated at 0 and log at 1 only.
    """
    from numerics.arithmetic import ExactArithmetic
    from numerics.krawczyk import hessian_forward

    from .dictionary import gibbs_row

    rows = [[Fraction(x) for x in z] for z in Z]
    N, d = len(rows), len(rows[0])
    mu = [sum(r[a] for r in rows) / N for a in range(d)]
    t = Fraction(tau)
    full = mode_constant(mode) == 4
    n_inv, k_inv = Fraction(1, N), Fraction(1, K)  # Jet2 / int would compute 1 / int as a float

    def loss(u: list[Any]) -> Any:
        P = [[u[k * d + a] + mu[a] for a in range(d)] for k in range(K)]
        total: Any = 0
        for z in rows:
            dist = [sum(((p[a] - z[a]) * (p[a] - z[a]) for a in range(d)), 0) for p in P]
            if full:
                q = gibbs_row(dist, t, lambda v: v.exp())
                for qk, dk in zip(q, dist):
                    total = total + qk * dk
            else:
                part = 0
                for dk in dist:
                    part = part + (-(dk - dist[0]) / t).exp()
                total = total + dist[0] - t * (part * k_inv).log()
        return total * n_inv

    # exact exp/log: at collapse every exponent is exactly 0 and every log argument exactly 1
    _, _, H = hessian_forward(loss, [Fraction(0)] * (K * d), ExactArithmetic("fraction"))
    return [[Fraction(x) for x in r] for r in H]


def _grid(avals: list[Fraction]) -> list[list[Fraction]]:
    pts = [[]]
    for a in avals:
        pts = [p + [s * a] for p in pts for s in (-1, 1)]
    return pts


def _exact_endpoints(x: Any) -> tuple[Fraction, Fraction]:
    """The endpoints mid -+ rad of an arb ball as exact Fractions.  ``lower()`` / ``upper()`` round
    outward to the *current* arb precision (53 bits by default): still valid bounds, but ~1e-16 relative
    wider, which merges balls 1e-40 apart and swallows a 1e-18 shift of an enclosure."""

    def frac(v: Any) -> Fraction:
        m, e = v.man_exp()
        return Fraction(int(m)) * (Fraction(2) ** int(e))

    mid = frac(x.mid())
    r = x.rad()
    rad = Fraction(0) if r == 0 else frac(r)
    return mid - rad, mid + rad


def _dyadic(Z: Any) -> bool:
    return all(Fraction(float(x)) == Fraction(x) for z in Z for x in z)


def _product_subchecks(tally: Tally, Z: Any, K: int, mode: str, tau: Fraction, C: Any, H_neg: int,
                       H_zero: int, variant: str, inst: dict) -> bool:
    """The product's decisions against the exact Hessian (block formula, itself checked against sympy
    differentiation of the loss on the small cases):

    * ``collapse_is_stable(Z, K, tau, mode)`` is FALSE iff the Hessian has a negative eigenvalue,
      UNKNOWN iff it is singular without one, TRUE otherwise;
    * ``critical_temperature(Z, mode)`` (dyadic data only, the certified enclosure is for the data as
      floats): the Hessian at tau_lo = lower (1 - 1e-20) has a negative eigenvalue and at
      tau_hi = upper (1 + 1e-20) none and no zero one, i.e. the sign change lies in the enclosure
      widened by 1e-20 relative (the enclosures are exact or 1e-37 wide at 128 bits).

    ``variant="c_wrong"`` evaluates the claim "c = 2 for full training" through the product: the
    stability answer and tau_c of the c = 2 mode (``free_energy``) stand for full training."""
    from .hessian import collapse_is_stable, critical_temperature

    claimed = "free_energy" if (variant == "c_wrong" and mode == "full") else mode
    truth = Tri.FALSE if H_neg else (Tri.UNKNOWN if H_zero else Tri.TRUE)
    ans = collapse_is_stable(Z, K, tau, claimed).answer
    ok = ans is truth
    tally.exact(ok, counterexample=lambda: refuted(
        f"collapse_is_stable says {ans.name} ({claimed} constant) but the exact Hessian has {H_neg} negative "
        f"and {H_zero} zero eigenvalues", variant=variant, **inst, sub_check="product_stable"))
    if not ok or not _dyadic(Z):
        return ok
    tc = critical_temperature([[float(x) for x in z] for z in Z], claimed)
    lo, hi = _exact_endpoints(tc.enclosure)  # exact: lower()/upper() at 53 bits would widen by ~1e-16
    widen = Fraction(1, 10 ** 20)
    c_true = mode_constant(mode)
    below = inertia(collapse_hessian(C, K, lo * (1 - widen), c_true))
    above = inertia(collapse_hessian(C, K, hi * (1 + widen), c_true))
    ok = below.negative > 0 and above.negative == 0 and above.zero == 0
    tally.exact(ok, counterexample=lambda: refuted(
        f"critical_temperature({claimed}) = {tc.enclosure} does not bracket the Hessian's sign change: "
        f"negative eigenvalues {below.negative} just below, {above.negative} (zero {above.zero}) just above",
        variant=variant, **inst, sub_check="product_tc"))
    return ok


def certified(*, seed: int, profile: Profile, variant: str = "statement", part: str = "all") -> Evidence:
    """Exact and certified (fmpq + arb): grid data (+-a_1, ..., +-a_d) with rational a_j, so that
    C = diag(a_j^2); random rational data sets; rational tau including tau = c lambda_1 (1 +- 10^-30).

    The Hessian is built exactly from the block formula with the *exact* covariance of the data and,
    independently, by differentiating the loss: exact second-order forward mode on every instance
    (:func:`forward_collapse_hessian`) and, when N K d <= 24, sympy as well (each must equal the block
    formula, else UNKNOWN).  The differentiated Hessian's negative eigenvalues are counted exactly
    (Descartes on the charpoly) and compared with
    (K - 1) #{j : c lambda_j > tau}; every certified eigenvalue enclosure must exclude 0 and contain
    2/K or some (2/K)(1 - c lambda_j / tau).  tau = c lambda_1 exactly is reported as degenerate.
    Then the product's own decisions, ``collapse_is_stable`` and ``critical_temperature``, are held
    against that exact Hessian (:func:`_product_subchecks`).

    ``part`` selects the sub-checks (so that each control is refuted through its own quantity):
    ``"hessian"`` (negative count and enclosures), ``"product"`` (the product's decisions), ``"all"``.
    """
    if variant not in SEP_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if part not in ("all", "hessian", "product"):
        raise ValueError(f"part must be all, hessian or product, got {part!r}")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="exact (fmpq) + arb 256 bits", backend="python-flint, sympy", seeds=(seed,))
    cases: list[tuple[Any, int, str, Fraction, bool]] = [(z, K, m, t, True) for z, K, m, t in PINNED_SEPARATION]
    for _ in range(profile.pick(10, 30, 150)):
        d = int(rng.integers(1, 4))
        avals = [Fraction(int(rng.integers(1, 9)), int(rng.integers(1, 5))) for _ in range(d)]
        K = int(rng.integers(2, 4))
        mode = ("full", "stopgrad")[int(rng.integers(0, 2))]
        c = mode_constant(mode)
        lam1 = max(a * a for a in avals)
        eps = Fraction(1, 10 ** 30)
        kind = int(rng.integers(0, 3))
        tau = c * lam1 * (1 + eps if kind == 0 else 1 - eps) if kind < 2 else \
            c * lam1 * Fraction(int(rng.integers(1, 40)), 16)
        cases.append((_grid(avals), K, mode, tau, len(avals) * K * 2 ** len(avals) <= 8))
    for _ in range(profile.pick(4, 10, 40)):  # random rational data (non-diagonal C)
        d, N = int(rng.integers(1, 3)), int(rng.integers(3, 6))
        Z = [[Fraction(int(rng.integers(-6, 7)), int(rng.integers(1, 4))) for _ in range(d)] for _ in range(N)]
        K = int(rng.integers(2, 4))
        mode = ("full", "stopgrad")[int(rng.integers(0, 2))]
        tau = Fraction(int(rng.integers(1, 60)), 4)
        cases.append((Z, K, mode, tau, False))
    degenerate = 0
    n_sympy = 0
    n_forward = 0
    n_product = 0
    for Z, K, mode, tau, use_sympy in cases:
        c_true = mode_constant(mode)
        c = _claimed_c(mode, variant)
        C = exact_covariance(Z)
        d = len(C)
        H = collapse_hessian(C, K, tau, c_true)
        inst = {"Z": [[str(x) for x in z] for z in Z], "K": K, "mode": mode, "tau": str(tau)}
        # the Hessian of the loss itself, derived independently of the block formula on *every*
        # instance: exact second-order forward mode (all cases), and sympy differentiation on the small
        # ones.  The negative count below is that of the differentiated loss, so comparing it with the
        # prediction (K - 1) #{j : c lambda_j > tau} is not the block formula checked against itself.
        if use_sympy and len(Z) * K * d <= 24:
            Hs = sympy_collapse_hessian(Z, K, tau, mode)
            n_sympy += 1
            if Hs != H:
                # the product's two Hessians disagree: no verdict about the statement can rest on them
                # (UNKNOWN, so that the expected-REFUTED R0 reading cannot hide it behind a refutation)
                return Evidence(Verdict.UNKNOWN, instances=n_sympy, notes=(
                    f"sympy Hessian (differentiated loss) differs from the block formula: {inst}"))
        Hf = forward_collapse_hessian(Z, K, tau, mode)
        n_forward += 1
        if Hf != H:
            bad = next((i, j) for i in range(len(H)) for j in range(len(H)) if Hf[i][j] != H[i][j])
            return Evidence(Verdict.UNKNOWN, instances=n_forward, notes=(
                f"forward-mode Hessian (differentiated loss) differs from the block formula at entry "
                f"{bad}: {Hf[bad[0]][bad[1]]} vs {H[bad[0]][bad[1]]}: {inst}"))
        inn = inertia(Hf)
        if inn.zero:
            degenerate += 1
            tally.note(f"degenerate instance (tau = c lambda_j exactly): {inst}")
        if part in ("all", "product") and variant in ("statement", "c_wrong"):
            n_product += 1
            if not _product_subchecks(tally, Z, K, mode, tau, C, inn.negative, inn.zero, variant, inst):
                break
        if part == "product":
            continue
        if not _judge(tally, inn.negative, inn.zero, K, c, tau, C, variant, inst, Verdict.CERTIFIED):
            break
        if variant == "statement" and K * d <= 9:
            from numerics.precision import arb_precision

            spec = exact_spectrum(H, bits=256)
            cov_spec = exact_spectrum(C, bits=256)
            with arb_precision(256):
                preds = [_arb(Fraction(2, K))] + [2 * (1 - c_true * cl.enclosure / _arb(tau)) / K
                                                  for cl in cov_spec]
                for cl in spec:
                    if cl.sign() is Tri.UNKNOWN and inn.zero == 0:
                        # the enclosure straddles 0 although no eigenvalue is exactly 0: undecided at
                        # this precision, never coerced
                        tally.add(Tally(precision="", backend="").ball(Tri.UNKNOWN))
                        tally.note(f"enclosure {cl.enclosure} straddles 0 at 256 bits: {inst}")
                        continue
                    hit = any(cl.enclosure.overlaps(p) for p in preds)
                    tally.exact(bool(hit), counterexample=lambda: refuted(
                        f"Hessian eigenvalue enclosure {cl.enclosure} (multiplicity {cl.multiplicity}) "
                        f"matches no predicted eigenvalue", **inst, sub_check="enclosures"))
    tally.details.update({"cases": len(cases), "sympy_hessians": n_sympy, "forward_mode_hessians": n_forward,
                          "degenerate": degenerate, "product_decisions_checked": n_product})
    return tally.evidence()


def _arb(x: Fraction) -> Any:
    import flint

    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def hmin_curve(Z: Any, K: int, mode: str, taus: list[Fraction]) -> list[float]:
    """The smallest eigenvalue of the exact Hessian of the loss at collapse (forward mode, no block
    formula) at each tau, rounded once to float for plotting; it crosses zero at tau_c."""
    out = []
    for tau in taus:
        H = forward_collapse_hessian(Z, K, tau, mode)
        out.append(float(np.linalg.eigvalsh(np.array([[float(x) for x in r] for r in H]))[0]))
    return out
