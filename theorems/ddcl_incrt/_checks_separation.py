"""Checks of the separation claims (spec §3.3 critical temperature, §3.4 amplification).

Critical temperature (R1): the collapsed state is stationary for every tau with the Hessian of §2.3; it
is linearly unstable iff tau < tau_c = c lambda_1(C) (c = 4 full, 2 stopgrad/F), with
(K - 1) #{j : c lambda_j > tau} negative eigenvalues.  R0 ("for every tau") is refuted at
Z = {-1, +1}, K = 2, full, tau = 5 (Hessian eigenvalues {1, 1/5}).

Variants through the same checks:
* ``c_wrong``        the constant c = 2 claimed for full training (refuted at tau = 3, Z = {-1, 1});
* ``unconditional``  R0: collapse has a negative Hessian eigenvalue for every tau;
* ``always_stable``  the opposite false statement: collapse is never unstable.

Amplification (Theorem 2): growth maps the dictionary input covariance C to C_new (M-cat:
[[C, B], [B^T, D]]; M-add: C + B + B^T + D).  Statement: the collapse instability (n_u, gamma_max,
tau_c) does not decrease.  Models ``cat`` (R1), ``add`` (R2 as stated, refuted) and
``add_uncorrelated`` (R2 with Cov(y, o) = 0, B = 0 exactly).  Variants ``strict`` (strict increase
always) and ``reversed`` (n_u never increases).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.linalg import exact_spectrum, inertia
from numerics.precision import Tri, float_tolerance, tri_contains
from verify import Evidence, Profile, Tally, Verdict, refuted

from .dictionary import covariance, grad_detached, grad_live_Lq, gibbs, mode_constant
from .hessian import (autograd_collapse_hessian, collapse_hessian, critical_temperature, exact_covariance,
                      relative_mode_eigenvalues, sympy_collapse_hessian)

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


class _ExactFns:
    """exp and log on exact rationals, only where their values are rational: exp(0) = 1, log(1) = 0.

    At collapse every exponent of the Gibbs weights (written through differences) is exactly 0 and the
    normalised partition sum is exactly 1, so the forward-mode jets below never need another value."""

    @staticmethod
    def exp(v: Any) -> Fraction:
        if v != 0:
            raise ArithmeticError(f"exp({v}) is not rational")
        return Fraction(1)

    @staticmethod
    def log(v: Any) -> Fraction:
        if v != 1:
            raise ArithmeticError(f"log({v}) is not rational")
        return Fraction(0)


def forward_collapse_hessian(Z: Any, K: int, tau: Fraction, mode: str) -> list[list[Fraction]]:
    """The exact Hessian at collapse by second-order forward-mode differentiation of the loss
    (:class:`numerics.krawczyk.Jet2` over Fractions), independent of the block formula and affordable for
    every instance (unlike :func:`sympy_collapse_hessian`).

    ``full``: L_q = (1/N) sum_i sum_k q_ik d_ik with the product's generic Gibbs row (exponent
    differences).  ``stopgrad``: F = (1/N) sum_i -tau log sum_k exp(-d_ik/tau), written as
    d_i0 - tau log K - tau log((1/K) sum_k exp(-(d_ik - d_i0)/tau)) -- the same function; its constant
    -tau log K has no derivative and is dropped -- so that exp is evaluated at 0 and log at 1 only.
    """
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

    _, _, H = hessian_forward(loss, [Fraction(0)] * (K * d), _ExactFns)
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
      UNKNOWN iff it is singular without one, TRUE otherwise; for dyadic data also on Z as a float
      array (the a-posteriori route of numerics.aposteriori);
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
    ans = collapse_is_stable(np.array([[float(x) for x in z] for z in Z]), K, tau, claimed).answer
    ok = ans is truth  # the float-array route: a-posteriori enclosures, exact inertia only if undecided
    tally.exact(ok, counterexample=lambda: refuted(
        f"collapse_is_stable on the data as a float array says {ans.name} ({claimed} constant) but the exact "
        f"Hessian has {H_neg} negative and {H_zero} zero eigenvalues", variant=variant, **inst,
        sub_check="product_stable_float"))
    if not ok:
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


def torch_hessian(*, seed: int, profile: Profile) -> Evidence:
    """float64: autograd Hessian at collapse equals the block formula, and its smallest eigenvalue has
    the sign of rho - 1 (rho = tau / (c lambda_1) in [0.3, 0.95] or [1.05, 3]).

    Budget: float_tolerance(ops = 32 N K d, scale = |H|max (1 + tr C / tau))."""
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="torch autograd", seeds=(seed,))
    for _ in range(profile.pick(6, 20, 100)):
        d, N, K = int(rng.integers(1, 5)), int(rng.integers(50, 200)), int(rng.integers(2, 5))
        Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d))
        mode = ("full", "stopgrad")[int(rng.integers(0, 2))]
        c = mode_constant(mode)
        C = covariance(Z)
        lam1 = float(np.linalg.eigvalsh(C)[-1])
        rho = float(rng.uniform(0.3, 0.95) if rng.random() < 0.5 else rng.uniform(1.05, 3))
        tau = rho * c * lam1
        Ha = autograd_collapse_hessian(Z, K, tau, mode)
        Hb = np.array(collapse_hessian(C.tolist(), K, tau, c), dtype=float)
        tol = float_tolerance(ops=32 * N * K * d, scale=float(np.abs(Hb).max()) * (1 + np.trace(C) / tau))
        tally.close(float(np.abs(Ha - Hb).max()), 0.0, tol)
        hmin = float(np.linalg.eigvalsh(Ha)[0])
        tally.exact(bool(np.sign(hmin) == np.sign(rho - 1)), level=Verdict.CONSISTENT,
                    counterexample=lambda: refuted(f"min Hessian eigenvalue {hmin} at rho = {rho}"))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def simulation(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Gradient descent (eta = 0.05) from collapse + a spread along v_1 (relative mode): the fitted
    per-step log-change of the spread equals log(1 - eta h_1) within 1 % (pass criterion fixed in the
    spec), final spread > 100x initial if rho <= 0.9, < 1/100 x initial if rho >= 1.1.

    ``variant="unconditional"`` tests R0 ("the spread always grows") on the pinned Z = {-1, 1},
    K = 2, full, tau = 5, from +-1e-3: the prototypes return to collapse (|p| < 1e-12)."""
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,), tolerance=0.01)
    eta = 0.05
    if variant == "unconditional":
        Z = np.array([[-1.0], [1.0]])
        P = np.array([[-1e-3], [1e-3]])
        for _ in range(3000):
            P = P - eta * grad_live_Lq(Z, P, 5.0)
        spread = float(np.abs(P).max())
        tally.exact(spread > 1e-3, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
            f"Z = {{-1, 1}}, K = 2, full, tau = 5: from +-1e-3 the prototypes return to collapse "
            f"(max |p| = {spread:.3g} after 3000 steps of eta = 0.05)", Z=[-1, 1], K=2, tau=5,
            p0=[-1e-3, 1e-3], final_spread=spread))
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    spectrum = [4, 2, 1, 0.5, 0.25, 0.1, 0.1, 0.1]
    configs = profile.pick(
        [(2, 2, "full", 0.5), (2, 2, "stopgrad", 2.0), (2, 4, "stopgrad", 0.8)],
        [(d, K, m, r) for d in (2,) for K in (2, 4) for m in ("full", "stopgrad") for r in (0.5, 0.9, 1.1, 2)],
        [(d, K, m, r) for d in (2, 8) for K in (2, 4, 8) for m in ("full", "stopgrad")
         for r in (0.5, 0.8, 0.9, 1.1, 1.25, 2)])
    N = profile.pick(300, 1000, 1000)
    for d, K, mode, rho in configs:
        from .dictionary import exact_covariance_sample

        lam = np.array(spectrum[:d], float)
        O, _ = np.linalg.qr(rng.standard_normal((d, d)))
        Z = exact_covariance_sample(O @ np.diag(lam) @ O.T, N, rng)
        C = covariance(Z)
        w, V = np.linalg.eigh(C)
        v1, lam1 = V[:, -1], w[-1]
        c = mode_constant(mode)
        # the product's tau_c and relative-mode eigenvalue h_1 = (2/K)(1 - c lambda_1/tau) (not restated)
        tau = rho * critical_temperature(Z, mode, certified=False).value
        h1 = float(relative_mode_eigenvalues([float(lam1)], K, tau, c)[0])
        xi = rng.standard_normal(K)
        xi -= xi.mean()
        s0 = (1e-8 if rho < 1 else 1e-3) * math.sqrt(lam1)
        P = Z.mean(0) + np.outer(xi / np.abs(xi).max() * s0, v1)
        lo, hi = ((1e-6, 1e-3) if rho < 1 else (1e-9, 1e-6))
        logs = []
        steps = profile.pick(4000, 20000, 20000)
        for t in range(steps):
            g = grad_live_Lq(Z, P, tau) if mode == "full" else grad_detached(Z, P, gibbs(Z, P, tau))["L_q"]
            P = P - eta * g
            spread = float(np.abs(P - P.mean(0)).max())
            if lo * math.sqrt(lam1) <= spread <= hi * math.sqrt(lam1):
                logs.append((t, math.log(spread)))
            if rho < 1 and spread > 1e-2 * math.sqrt(lam1) and len(logs) > 10:
                break
            if rho > 1 and spread < 1e-10 * math.sqrt(lam1):
                break
        if len(logs) < 5:
            tally.add(Tally(precision="", backend="").ball(Tri.UNKNOWN))
            tally.note(f"fit window not reached: d={d}, K={K}, {mode}, rho={rho}")
            continue
        ts, ls = np.array(logs).T
        slope = float(np.polyfit(ts, ls, 1)[0])
        pred = math.log(abs(1 - eta * h1))
        tally.close(slope, pred, 0.01, scale=abs(pred), counterexample=lambda: refuted(
            f"fitted log growth {slope:.6g} vs predicted {pred:.6g} (d={d}, K={K}, {mode}, rho={rho})"))
        tally.details[f"d{d}_K{K}_{mode}_rho{rho}"] = {"slope": slope, "predicted": pred}
        final_ratio = spread / s0
        if rho <= 0.9:
            tally.exact(final_ratio > 100, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                f"spread grew only {final_ratio:.3g}x at rho = {rho}"))
        elif rho >= 1.1:
            tally.exact(final_ratio < 1e-2, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                f"spread shrank only to {final_ratio:.3g}x at rho = {rho}"))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# =================================================================================================
# Amplification (Theorem 2)
# =================================================================================================
AMP_MODELS = ("cat", "add", "add_uncorrelated")

# Pinned: the points (+-2, +-1) (C = diag(4, 1)) and head output o = -1/2 (e1^T y) e1, so that under
# M-add y_new = (+-1, +-1), C_new = I; K = 3, c = 4, tau = 8: gamma_max drops from 2/3 to -1/3.
_PIN_Y = [[Fraction(s1 * 2), Fraction(s2)] for s1 in (-1, 1) for s2 in (-1, 1)]
_PIN_O_ADD = [[-y[0] / 2, Fraction(0)] for y in _PIN_Y]
# uncorrelated head output o = y1 y2 / 2 (Cov(y, o) = 0, Var o = 1): lambda_1 unchanged under M-cat.
_PIN_O_CAT = [[y[0] * y[1] / 2] for y in _PIN_Y]


def _decorrelate(Y: list[list[Fraction]], R: list[list[Fraction]]) -> list[list[Fraction]]:
    """Exactly remove from R its (centred) regression on Y: Cov(Y, result) = 0."""
    import sympy as sp

    N = len(Y)
    Ym = sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in r] for r in Y])
    Rm = sp.Matrix([[sp.Rational(x.numerator, x.denominator) for x in r] for r in R])
    one = sp.ones(N, 1)
    Yc = Ym - one * (one.T * Ym) / N
    Rc = Rm - one * (one.T * Rm) / N
    G = Yc.T * Yc
    if G.det() == 0:
        return [[Fraction(0)] * len(R[0]) for _ in R]
    out = Rc - Yc * (G.inv() * (Yc.T * Rc))
    return [[Fraction(int(sp.fraction(v)[0]), int(sp.fraction(v)[1])) for v in out.row(i)] for i in range(N)]


def _count_above(C: list[list[Fraction]], t: Fraction) -> int:
    """#{j : lambda_j(C) > t}, exactly."""
    d = len(C)
    return inertia([[C[a][b] - (t if a == b else 0) for b in range(d)] for a in range(d)]).positive


def top_eigenvalue_order(C: list[list[Fraction]], Cn: list[list[Fraction]]) -> int:
    """sign(lambda_1(Cn) - lambda_1(C)) for rational symmetric C, Cn, decided exactly.

    The distinct eigenvalues of diag(C, Cn) (the roots of charpoly(C) charpoly(Cn)) are isolated by
    pairwise disjoint enclosures in certainly ascending order (:func:`numerics.linalg.exact_spectrum`).
    A rational s strictly between the last two enclosures leaves exactly one distinct root above it,
    r = max(lambda_1(C), lambda_1(Cn)); the exact counts #{lambda_j(C) > s} and #{lambda_j(Cn) > s}
    (Descartes on rational matrices) say which of the two tops equal r.  No float, no midpoint.
    """
    d, e = len(C), len(Cn)
    B = [[Fraction(0)] * (d + e) for _ in range(d + e)]
    for a in range(d):
        for b in range(d):
            B[a][b] = C[a][b]
    for a in range(e):
        for b in range(e):
            B[d + a][d + b] = Cn[a][b]
    spec = exact_spectrum(B)
    top_lo, _ = _exact_endpoints(spec[-1].enclosure)
    if len(spec) > 1:
        _, below_hi = _exact_endpoints(spec[-2].enclosure)
        if not below_hi < top_lo:  # pragma: no cover - exact_spectrum returns disjoint enclosures
            raise ArithmeticError("exact_spectrum returned overlapping enclosures")
        s = (below_hi + top_lo) / 2
    else:
        s = top_lo - 1
    c_top = _count_above(C, s) > 0
    n_top = _count_above(Cn, s) > 0
    if c_top and n_top:
        return 0
    return 1 if n_top else -1


def amplification(*, seed: int, profile: Profile, model: str = "cat", variant: str = "statement") -> Evidence:
    """Exact: the collapse instability before (C) and after growth (C_new) on rational instances.

    For every sampled threshold t (t = tau/c for tau, c in the grid, and the exact top eigenvalue
    enclosure of C) #{j : lambda_j(C_new) > t} >= #{j : lambda_j(C) > t}: n_u and tau_c never
    decrease (and gamma_max, Phi with them).  ``variant="strict"``: lambda_1 strictly increases (count
    above lambda_1(C) is >= 1); ``variant="reversed"``: n_u never increases.
    """
    if model not in AMP_MODELS:
        raise ValueError(f"model must be one of {AMP_MODELS}")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="exact (fmpq)", backend="python-flint", seeds=(seed,))
    cases = []
    if model == "add":
        cases.append((_PIN_Y, _PIN_O_ADD, "pinned"))
    if model == "cat":
        cases.append((_PIN_Y, _PIN_O_CAT, "pinned"))
    for _ in range(profile.pick(20, 60, 400)):
        N, d = int(rng.integers(3, 8)), int(rng.integers(1, 4))
        do = d if model != "cat" else int(rng.integers(1, 3))
        Y = [[Fraction(int(rng.integers(-5, 6)), int(rng.integers(1, 4))) for _ in range(d)] for _ in range(N)]
        s = Fraction(int(rng.integers(-4, 5)), 4)
        Rm = [[Fraction(int(rng.integers(-3, 4)), 2) for _ in range(do)] for _ in range(N)]
        O = [[s * Y[i][j % d] + Rm[i][j] for j in range(do)] for i in range(N)]
        if model == "add_uncorrelated":
            O = _decorrelate(Y, O)
        cases.append((Y, O, "random"))
    taus = [Fraction(8)] + [Fraction(k, 4) for k in range(1, 41, 3)]  # tau = 8 first: the spec's pinned case
    cs = (4, 2)
    for Y, O, kind in cases:
        C = exact_covariance(Y)
        if model == "cat":
            Xn = [y + o for y, o in zip(Y, O)]
        else:
            Xn = [[a + b for a, b in zip(y, o)] for y, o in zip(Y, O)]
        Cn = exact_covariance(Xn)
        # the product's exact covariance against its float64 covariance of the same data: a disagreement
        # beyond rounding voids the evidence (UNKNOWN; the expected-REFUTED M-add reading would hide it)
        for X, Cx in ((Y, C), (Xn, Cn)):
            Cf = covariance(np.array([[float(v) for v in r] for r in X]))
            ref = np.array([[float(v) for v in r] for r in Cx])
            tol = float_tolerance(ops=8 * len(X), scale=float(np.abs(Cf).max()) + 1.0)
            if float(np.abs(Cf - ref).max()) > tol:
                return Evidence(Verdict.UNKNOWN, notes=f"exact_covariance and covariance disagree by "
                                f"{float(np.abs(Cf - ref).max()):.3g} (budget {tol:.3g})")
        inst = {"Y": [[str(x) for x in y] for y in Y], "O": [[str(x) for x in o] for o in O], "model": model}
        if variant == "strict":
            # sign(lambda_1(C_new) - lambda_1(C)) decided exactly (rational separators, Descartes), on
            # every instance: never from a rounded midpoint of lambda_1 (a 30-digit midpoint just below
            # an irrational lambda_1 counts lambda_1(C_new) = lambda_1(C) as a strict increase)
            order = top_eigenvalue_order(C, Cn)
            ok = order > 0
            tally.exact(ok, counterexample=lambda: refuted(
                f"lambda_1 {'unchanged' if order == 0 else 'lowered'} by growth "
                f"(lambda_1(C) in {exact_spectrum(C)[-1].enclosure}): no strict increase", **inst,
                sub_check="strict_increase"))
            if not ok:
                break
            continue
        for c in cs:
            for tau in taus:
                t = tau / c
                before, after = _count_above(C, t), _count_above(Cn, t)
                ok = after <= before if variant == "reversed" else after >= before
                tally.exact(ok, margin=after - before, counterexample=lambda: refuted(
                    f"#{{j : c lambda_j > tau}} goes from {before} to {after} (c = {c}, tau = {tau}): "
                    f"n_u = (K-1) x count {'increases' if variant == 'reversed' else 'decreases'} with growth",
                    **inst, c=c, tau=str(tau), before=before, after=after, sub_check="count"))
                if not ok:
                    break
            if tally.counterexample is not None:
                break
        if tally.counterexample is not None:
            break
    tally.details["cases"] = len(cases)
    return tally.evidence()


def amplification_float(*, seed: int, profile: Profile) -> Evidence:
    """float64 hypothesis-style sweep (corroborating): interlacing within 1e-10 lambda_1, monotone
    gamma_max and Phi for any tau and c in {2, 4}, strict increase of lambda_1 when |B^T v_1| > 1e-8."""
    from .dictionary import exact_covariance_sample
    from .hessian import gamma_max, total_unstable_rate

    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    strict = 0
    for _ in range(profile.pick(200, 600, 3000)):
        d, do, N = int(rng.integers(1, 6)), int(rng.integers(1, 4)), 200
        lam = np.exp(rng.uniform(-2, 2, d))
        O_, _ = np.linalg.qr(rng.standard_normal((d, d)))
        Y = exact_covariance_sample(O_ @ np.diag(lam) @ O_.T, N, rng)
        s = float(rng.choice([0, 1e-3, 0.3, 1]))
        Ob = s * Y @ rng.standard_normal((d, do)) + 0.5 * rng.standard_normal((N, do))
        C, Cn = covariance(Y), covariance(np.hstack([Y, Ob]))
        l, ln = np.linalg.eigvalsh(C)[::-1], np.linalg.eigvalsh(Cn)[::-1]
        tol = 1e-10 * l[0]
        tally.le(float((l - ln[:d]).max()), 0.0, tol)
        tau = float(np.exp(rng.uniform(-2, 3)))
        for c in (2, 4):
            tally.le(gamma_max(l[0], 3, tau, c) - gamma_max(ln[0], 3, tau, c), 0.0, tol * 4 / tau)
            tally.le(total_unstable_rate(l, 3, tau, c) - total_unstable_rate(ln, 3, tau, c), 0.0, d * tol * 4 / tau)
        B = Cn[:d, d:]
        v1 = np.linalg.eigh(C)[1][:, -1]
        if np.linalg.norm(B.T @ v1) > 1e-8 and l[0] - l[1 if d > 1 else 0] > 1e-6 * l[0] or (d == 1 and np.linalg.norm(B) > 1e-8):
            strict += 1
            tally.exact(bool(ln[0] > l[0]), level=Verdict.CONSISTENT)
    tally.details["strict_cases"] = strict
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def amplification_rates(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Dynamics corroboration of Theorem 2 (M-cat): dictionaries (K = 4, both modes) on Y and on [Y, O],
    same tau (= 0.5 c lambda_1(C_Y), so both are unstable) and seed, started at collapse + 1e-8 along
    their own top eigenvector (relative mode).  Each fitted per-step log growth must equal
    log(1 + eta gamma_max) within 1 % (pass criterion of the spec; the achieved relative error, about
    1e-7 - 1e-5, is recorded), and rate([Y, O]) >= rate(Y).

    Variants, each running only its own sub-check: ``lambda_2pct`` predicts the rate from 1.02
    lambda_1 (gamma_max then moves by about 4 % here: the 1 % criterion must resolve it);
    ``rate_not_raised`` claims growth never raises the rate (rate([Y, O]) <= rate(Y))."""
    from .hessian import gamma_max

    if variant not in ("statement", "lambda_2pct", "rate_not_raised"):
        raise ValueError(f"unknown variant {variant!r}")
    lam_factor = 1.02 if variant == "lambda_2pct" else 1.0
    achieved = []

    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,), tolerance=0.01)
    eta, K, N = 0.05, 4, 300
    for mode in ("full", "stopgrad"):
        c = mode_constant(mode)
        d, do = 3, 1
        from .dictionary import exact_covariance_sample

        O_, _ = np.linalg.qr(rng.standard_normal((d, d)))
        Y = exact_covariance_sample(O_ @ np.diag([2.0, 1.0, 0.5]) @ O_.T, N, rng)
        O = 0.7 * Y @ rng.standard_normal((d, do)) + 0.5 * rng.standard_normal((N, do))
        tau = 0.5 * c * float(np.linalg.eigvalsh(covariance(Y))[-1])
        rates = []
        for X in (Y, np.hstack([Y, O])):
            C = covariance(X)
            w, V = np.linalg.eigh(C)
            xi = np.array([1.0, -1.0, 0.5, -0.5])
            P = X.mean(0) + np.outer(1e-8 * xi, V[:, -1])
            logs = []
            for t in range(3000):
                g = grad_live_Lq(X, P, tau) if mode == "full" else grad_detached(X, P, gibbs(X, P, tau))["L_q"]
                P = P - eta * g
                sp = float(np.abs(P - P.mean(0)).max())
                if 1e-7 <= sp <= 1e-4:
                    logs.append((t, math.log(sp)))
                if sp > 1e-3:
                    break
            slope = float(np.polyfit(*np.array(logs).T, 1)[0])
            pred = math.log(1 + eta * gamma_max(lam_factor * float(w[-1]), K, tau, c))
            achieved.append(abs(slope - pred) / abs(pred))
            if variant != "rate_not_raised":
                tally.close(slope, pred, 0.01, scale=abs(pred), counterexample=lambda: refuted(
                    f"{mode}: fitted log growth {slope:.8g} vs predicted {pred:.8g} (variant {variant})",
                    sub_check="rate_fit"))
            rates.append(slope)
        if variant != "lambda_2pct":
            raised = rates[1] <= rates[0] if variant == "rate_not_raised" else rates[1] >= rates[0]
            tally.exact(bool(raised), level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                f"{mode}: growth rate after growth {rates[1]:.6g}, before {rates[0]:.6g} (variant {variant})",
                sub_check="rate_raised"))
        tally.details[mode] = {"rate_Y": rates[0], "rate_YO": rates[1]}
    tally.details["achieved relative error of the rate fits"] = max(achieved)
    return tally.evidence(level_cap=Verdict.CONSISTENT)
