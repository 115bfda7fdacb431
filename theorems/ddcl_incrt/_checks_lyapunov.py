"""Checks of ``ddcl.lyapunov.*`` (seed Theorem 8; spec §3.8).

Concrete model: head channels frozen between events; the dictionary on the M-cat input Y_H trains by
gradient descent on F_tau (stopgrad) with fixed tau and eta <= 1/2; growth appends a channel o and sets
every prototype's new coordinate to mean(o); pruning deletes a channel.  Candidate functional
F_rel = F_tau(P; Y_H) - tr C_H.

L1: F non-increasing on each piece (grad^2 F <= 2I, eta < 1).  L2: growth raises F by exactly
tr Cov(o), so F_rel is continuous.  L3: pruning changes F by a value in [-mean_i max_k delta_ik,
-mean_i min_k delta_ik], hence Delta F_rel <= eps_tr.  L5: F_rel never increases except at prunings.
Refuted for full-gradient training: Z = {-1, +1}, K = 2, tau = 3, p(0) = +-1e-3, eta = 0.05: F rises
from 1 - 3 ln 2 = -1.0794412 to -0.6610436 while L_q falls.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, refuted

from .dictionary import covariance, free_energy, gibbs, grad_detached, grad_live_Lq, sqdist_matrix


def _step(Z: np.ndarray, P: np.ndarray, tau: float, eta: float, mode: str) -> np.ndarray:
    if mode == "full":
        return P - eta * grad_live_Lq(Z, P, tau)
    return P - eta * grad_detached(Z, P, gibbs(Z, P, tau))["L_q"]


F_END_FULL = -0.6610436  # spec §3.8: F after 3000 full-gradient steps on the pinned two-point case


def pinned_two_point(*, seed: int, profile: Profile, mode: str = "stopgrad",
                     allowed_rise: float = 0.0) -> Evidence:
    """Z = {-1, +1}, K = 2, tau = 3, p(0) = +-1e-3, eta = 0.05, 3000 steps: F must never increase
    (budget 1e-12 |F| per step, float64 rounding of F).  ``allowed_rise > 0`` tests the weaker (false
    for full training) statement "F rises by at most ``allowed_rise`` in total".

    For ``mode="full"`` the spec's unbounded-trajectory case is recorded too (details only):
    Z = {-0.3, 0.3}, p(0) = (0, 2), tau = 0.5, eta = 0.5: p_2 after 2e3 steps (2.804 in the spec)."""
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    Z = np.array([[-1.0], [1.0]])
    P = np.array([[-1e-3], [1e-3]])
    tau = 3.0
    F0 = free_energy(Z, P, tau)
    Fprev = F0
    worst = 0.0
    for t in range(3000):
        P = _step(Z, P, tau, 0.05, mode)
        F = free_energy(Z, P, tau)
        worst = max(worst, F - Fprev)
        Fprev = F
    tol = 1e-12 * abs(F0)
    if mode == "full" and abs(Fprev - F_END_FULL) > 1e-7:
        # the regression value of the spec (7 decimals): a product change voids the evidence (UNKNOWN)
        # instead of hiding behind the expected refutation
        return Evidence(Verdict.UNKNOWN, notes=f"full training ends at F = {Fprev:.9f}, not the regression "
                        f"value {F_END_FULL}")
    if allowed_rise > 0:
        rise = Fprev - F0
        tally.le(rise, allowed_rise, 0.0, counterexample=lambda: refuted(
            f"{mode} training raises F by {rise:.6f} > {allowed_rise} in total", mode=mode, F_start=F0, F_end=Fprev))
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    if mode == "full":
        Z2 = np.array([[-0.3], [0.3]])
        P2 = np.array([[0.0], [2.0]])
        for _ in range(2000):
            P2 = _step(Z2, P2, 0.5, 0.5, "full")
        tally.details["unbounded_case_p2_after_2000"] = float(P2[1, 0])
    tally.le(worst, 0.0, tol, counterexample=lambda: refuted(
        f"{mode} training raises F: from {F0:.7f} (= 1 - 3 ln 2) to {Fprev:.7f} after 3000 steps "
        f"(largest one-step rise {worst:.3g})", Z=[-1, 1], K=2, tau=3, p0=[-1e-3, 1e-3], eta=0.05,
        mode=mode, F_start=F0, F_end=Fprev))
    tally.details.update({"F_start": F0, "F_end": Fprev, "p_end": P.ravel().tolist()})
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def _l3_bound(eps_tr: float) -> float:
    """L3: a pruning raises F_rel by at most eps_tr = tr Cov(pruned channel)."""
    return eps_tr


def _pruning_witness(tally: Tally, variant: str) -> None:
    """L3 is two-sided: Delta F_rel <= eps_tr holds and is approached.  Witness: Y = {(0, -1), (0, +1)},
    K = 2, P = Y (each sample on its own prototype), tau in {0.1, 0.01}; pruning the second coordinate
    (eps_tr = 1) gives Delta F_rel = 1 - tau ln 2 + tau ln(1 + e^(-4/tau)), so the bound is approached
    within tau ln 2.  ``variant="prune_free"`` claims pruning never raises F_rel (Delta F_rel <= 0)."""
    from numerics.precision import float_tolerance

    Y = np.array([[0.0, -1.0], [0.0, 1.0]])
    for tau in (0.1, 0.01):
        P = Y.copy()
        before = free_energy(Y, P, tau) - float(np.trace(covariance(Y)))
        after = free_energy(Y[:, :1], P[:, :1], tau) - float(np.trace(covariance(Y[:, :1])))
        rise = after - before
        eps_tr = float(covariance(Y)[1, 1])
        tol = float_tolerance(ops=64, scale=1.0)
        if variant == "prune_free":
            tally.le(rise, 0.0, tol, counterexample=lambda: refuted(
                f"pruning raises F_rel by {rise:.6g} (witness Y = {{(0, -1), (0, 1)}}, P = Y, tau = {tau})",
                tau=tau, rise=rise))
        else:
            tally.le(rise, _l3_bound(eps_tr), tol)
            tally.le(_l3_bound(eps_tr) - tau * math.log(2), rise, tol, counterexample=lambda: refuted(
                f"L3 witness: Delta F_rel = {rise:.6g} does not approach eps_tr = {eps_tr} within tau ln 2",
                tau=tau))
        tally.details[f"L3 witness tau={tau}"] = {"dF_rel": rise, "eps_tr": eps_tr}


def piecewise(*, seed: int, profile: Profile, mode: str = "stopgrad", variant: str = "statement") -> Evidence:
    """The simulation of spec §3.8: base input d = 4, spectrum (3, 1, 0.5, 0.2), P(0) ~ 0.01 N(0, 1),
    channels o1, o2, o3 of variance 1, 0.5, 1e-3 correlated 0.3 with the top direction; K = 6,
    tau = lambda_1(C_Y), eta = 0.25; 1000 checks of 5 steps (quick: 400 checks, N = 300); grow o1, o2, o3
    at checks 200, 400, 600 (quick: 80, 160, 240) and prune o3 at 800 (quick: 320).

    Asserted: F_rel non-increasing within 1e-12 |F_rel| at every step except at the pruning (L1, L5);
    the growth jump of F equals tr Cov(o) (L2, budget float_tolerance); the pruning jump lies in the
    L3 interval and Delta F_rel <= eps_tr, a bound approached by :func:`_pruning_witness`.

    Variants, each running only its own sub-check: ``prune_free`` (pruning never raises F_rel: the
    witness), ``jump_half`` (growth raises F by tr Cov(o)/2: the first growth event)."""
    from numerics.precision import float_tolerance

    from .dictionary import exact_covariance_sample

    if variant not in ("statement", "prune_free", "jump_half"):
        raise ValueError(f"unknown variant {variant!r}")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    if variant in ("statement", "prune_free"):
        with tally.sub("pruning_witness"):
            _pruning_witness(tally, variant)
        if variant == "prune_free":
            return tally.evidence(level_cap=Verdict.CONSISTENT)
    N = profile.pick(300, 1000, 1000)
    checks = profile.pick(400, 1000, 1000)
    grow_at = {checks // 5: 0, 2 * checks // 5: 1, 3 * checks // 5: 2}
    prune_at = 4 * checks // 5
    d = 4
    O, _ = np.linalg.qr(rng.standard_normal((d, d)))
    Y0 = exact_covariance_sample(O @ np.diag([3, 1, 0.5, 0.2]) @ O.T, N, rng)
    v1 = O[:, 0]
    s1 = (Y0 - Y0.mean(0)) @ v1 / math.sqrt(3)
    chans = []
    for var in (1.0, 0.5, 1e-3):
        e = rng.standard_normal(N)
        o = math.sqrt(var) * (0.3 * s1 + math.sqrt(1 - 0.09) * (e - e.mean()) / e.std())
        chans.append(o)
    Y = Y0.copy()
    tau = float(np.linalg.eigvalsh(covariance(Y))[-1])
    K = 6
    P = 0.01 * rng.standard_normal((K, d))
    eta = 0.25
    active: list[int] = []

    def frel(Y, P):
        return free_energy(Y, P, tau) - float(np.trace(covariance(Y)))

    Fr = frel(Y, P)
    rises = 0
    worst_rel = -math.inf
    for chk in range(checks):
        if chk in grow_at:
            o = chans[grow_at[chk]]
            F_before, Fr_before = free_energy(Y, P, tau), Fr
            Y = np.column_stack([Y, o])
            P = np.column_stack([P, np.full(K, o.mean())])
            active.append(grow_at[chk])
            jump = free_energy(Y, P, tau) - F_before
            var_o = float(o.var())
            claimed = var_o / 2 if variant == "jump_half" else var_o
            tally.named("growth_jump").close(
                jump, claimed, float_tolerance(ops=20 * N, scale=abs(F_before) + var_o),
                counterexample=lambda: refuted(
                    f"growth raised F by {jump:.9g}, claimed {claimed:.9g} (variant {variant})"))
            if variant == "jump_half":
                return tally.evidence(level_cap=Verdict.CONSISTENT)
            Fr = frel(Y, P)
            tally.named("growth_invariance").close(Fr, Fr_before,
                                                   float_tolerance(ops=20 * N, scale=abs(Fr_before) + var_o))
        if chk == prune_at:
            col = d + active.index(2)
            delta = (Y[:, [col]] - P[None, :, col]) ** 2
            delta = delta.reshape(N, K)
            F_before, Fr_before = free_energy(Y, P, tau), Fr
            eps_tr = float(Y[:, col].var())
            Y = np.delete(Y, col, axis=1)
            P = np.delete(P, col, axis=1)
            active.remove(2)
            dF = free_energy(Y, P, tau) - F_before
            lo, hi = -float(delta.max(1).mean()), -float(delta.min(1).mean())
            tol = float_tolerance(ops=20 * N, scale=abs(F_before) + 1)
            tally.named("pruning_bounds").le(lo, dF, tol)
            tally.named("pruning_bounds").le(dF, hi, tol)
            Fr = frel(Y, P)
            tally.named("pruning_bounds").le(Fr - Fr_before, _l3_bound(eps_tr), tol)
            tally.details["pruning"] = {"dF_rel": Fr - Fr_before, "eps_tr": eps_tr}
        for _ in range(5):
            P = _step(Y, P, tau, eta, mode)
            Fn = frel(Y, P)
            if Fn > Fr + 1e-12 * abs(Fr):
                rises += 1
                tally.named("descent").le(Fn - Fr, 0.0, 1e-12 * abs(Fr), counterexample=lambda: refuted(
                    f"{mode}: F_rel rose by {Fn - Fr:.3g} at check {chk} (not an event)", mode=mode,
                    check=chk, seed=seed))
                return tally.evidence(level_cap=Verdict.CONSISTENT)
            worst_rel = max(worst_rel, (Fn - Fr) / abs(Fr))
            Fr = Fn
    tally.named("descent").le(worst_rel, 0.0, 1e-12)  # every one of the 5 * checks steps, as one observation
    tally.details.update({"final_F_rel": Fr, "checks": checks, "N": N,
                          "largest relative one-step change of F_rel": worst_rel})
    return tally.evidence(level_cap=Verdict.CONSISTENT)
