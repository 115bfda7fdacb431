"""DDCL model checks on the Hessian of the user's loss at collapse (spec §3.3, §3.4, §3.7): the
critical temperature (relative-mode eigenvalues, sign change at tau_c = 4 lambda_1), seed Theorem 2's
amplification (a head's channel appended never lowers the unstable count) and seed Theorem 6's repaired
pruning safety (modes whose margin exceeds R2's bound stay unstable)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, statement_of

from ._model_common import SAFETY, _dtype, _tol, hessian_at_collapse


def critical_temperature(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.separation.critical_temperature on the model's loss (full training, c = 4): at collapse (every
    prototype at the data mean) the Hessian of the model's loss with respect to the prototypes
    (``torch.func.jacrev`` twice) has the Rayleigh quotient h_j = (2/K)(1 - 4 lambda_j / tau) along the
    relative mode (e_1 - e_2)/sqrt 2 (x) v_j (part ``relative_modes``), and negative eigenvalues exactly
    when tau < 4 lambda_1 (part ``negative_count``; tau = 4 lambda_1 (1 +- 3/10)); lambda_j, v_j from
    numpy's ``eigh`` of the data covariance (1/N)."""
    import torch

    st = statement_of("ddcl.separation.critical_temperature")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func",
                  seeds=(seed,))
    tau0 = model.tau
    rng = np.random.default_rng(seed + 2)
    try:
        for _ in range(profile.pick(4, 10, 40)):
            N, K, d = int(rng.integers(3, 9)), int(rng.integers(2, 4)), int(rng.integers(1, 4))
            Zn = rng.normal(size=(N, d)) * rng.uniform(0.5, 2.0, size=d)
            C = np.cov(Zn.T, bias=True).reshape(d, d)
            lams, vecs = np.linalg.eigh(C)
            lam1, v1 = float(lams[-1]), vecs[:, -1]
            Z = torch.tensor(Zn, dtype=dtype)
            xi = np.zeros(K)
            xi[0], xi[1] = 1 / np.sqrt(2), -1 / np.sqrt(2)
            w = torch.tensor(np.outer(xi, v1).reshape(-1), dtype=dtype)
            inst = {"Z": Zn.tolist(), "K": K}
            for tau in (4 * lam1 * 0.7, 4 * lam1 * 1.3):
                model.tau = tau
                H = hessian_at_collapse(model, Z, K)
                hj = float(w @ H @ w)
                ev = torch.linalg.eigvalsh(H.double())
                scale = max(1.0, float(H.abs().max()), 8 * lam1 / tau)
                tol = _tol(dtype, 4 * N * K * d, scale)
                tally.statement(st, {"h_j": hj, "lambda_j": lam1, "tau": tau, "K": K, "instance": inst},
                                part="relative_modes", tol=tol)
                tally.statement(st, {"n_-": int((ev < -tol).sum()), "tau": tau, "lambda_1": lam1,
                                     "instance": inst}, part="negative_count", tol=tol)
    finally:
        model.tau = tau0
    tally.details.update(safety=SAFETY, tolerance_rule="8 (4 N K d + 4) eps(dtype) max(1, max|H|, 8 lambda_1/tau)")
    return tally.evidence()



#: mode constant of the loss with live assignments (full training), spec §3.3
C_FULL = 4
#: a threshold tau is kept only at a relative distance >= GAP from every c lambda_j of the instance, so a
#: correct block's Hessian eigenvalues (2/K)(1 - c lambda_j/tau) stay >= GAP/(1 + GAP)(2/K) away from 0
GAP = 0.1


def _unstable_count(model: Any, Z: Any, tau: float, dtype: Any) -> tuple[int, int, float]:
    """(n_-, n_0, tol): the negative and the undecided (|ev| <= tol) eigenvalue counts of the Hessian of the
    model's loss at collapse with K = 2 prototypes at temperature tau; with K = 2 the theory's n_- is the
    number of unstable collapse directions n_u = #{j : c lambda_j > tau} itself ((K - 1) = 1 relative mode
    per direction, spec §2.5)."""
    import torch

    model.tau = tau
    H = hessian_at_collapse(model, Z, 2)
    N, d = Z.shape
    ev = torch.linalg.eigvalsh(H.double())
    tol = _tol(dtype, 8 * N * d, max(1.0, float(H.abs().max())))
    return int((ev < -tol).sum()), int((ev.abs() <= tol).sum()), tol


def _thresholds(*spectra: np.ndarray) -> list[float]:
    """Temperatures between the values c lambda_j of the given spectra (geometric midpoints of consecutive
    values at least 2 GAP apart, one below the smallest positive and one above the largest), each at a
    relative distance >= GAP from every c lambda_j."""
    vals = sorted({float(v) for s in spectra for v in C_FULL * np.asarray(s) if v > 1e-9})
    if not vals:
        return []
    cand = [vals[0] / 2, vals[-1] * 1.5] + [float(np.sqrt(a * b)) for a, b in pairwise(vals)]
    return sorted(t for t in cand if all(abs(t - v) >= GAP * v for v in vals))


def amplification(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.separation.amplification on the model (seed Theorem 2, M-cat reading; spec §3.4), part
    ``count``: appending a head's channel O to the features Y never lowers the number of unstable collapse
    directions.  n(C) and n(C_new) are read off the model's own loss: the negative eigenvalue counts of
    the Hessian of ``model.loss`` at collapse (K = 2, :func:`_unstable_count`) on Y and on [Y, O] at the
    same tau.  Instances: Y (N x d, d <= 3) with per-coordinate scales, O = s Y W + noise (1 or 2
    channels, s in {0, 0.3, 1}: uncorrelated to strongly correlated); thresholds tau between the values
    4 lambda_j of both covariances (:func:`_thresholds`; the spectra from numpy serve only to place tau).
    A pair whose Hessians have an eigenvalue within the tolerance of 0 is undecided: skipped and counted
    (``details["undecided_pairs"]``).  Tolerance 8 (8 N d + 4) eps(dtype) max(1, max|H|)."""
    import torch

    from ._statements_separation import N_NEW, N_OLD
    from .dictionary import covariance

    st = statement_of("ddcl.separation.amplification")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func",
                  seeds=(seed,))
    tau0 = model.tau
    rng = np.random.default_rng(seed + 5)
    undecided = raised = 0
    try:
        for _ in range(profile.pick(4, 10, 40)):
            N, d, do = int(rng.integers(4, 9)), int(rng.integers(1, 4)), int(rng.integers(1, 3))
            Y = rng.normal(size=(N, d)) * rng.uniform(0.5, 2.0, size=d)
            s = float(rng.choice([0.0, 0.3, 1.0]))
            O = s * Y @ rng.normal(size=(d, do)) + rng.uniform(0.1, 1.0) * rng.normal(size=(N, do))
            X = np.hstack([Y, O])
            inst = {"Z": Y.tolist(), "O": O.tolist(), "K": 2}
            Zy, Zx = torch.tensor(Y, dtype=dtype), torch.tensor(X, dtype=dtype)
            for tau in _thresholds(np.linalg.eigvalsh(covariance(Y)), np.linalg.eigvalsh(covariance(X))):
                n_old, u_old, tol_old = _unstable_count(model, Zy, tau, dtype)
                n_new, u_new, tol_new = _unstable_count(model, Zx, tau, dtype)
                if u_old or u_new:
                    undecided += 1
                    continue
                raised += int(n_new > n_old)
                tally.statement(st, {N_OLD: n_old, N_NEW: n_new, "instance": inst | {"tau": tau}},
                                part="count", tol=max(tol_old, tol_new))
                if tally.counterexample is not None:
                    break
            if tally.counterexample is not None:
                break
    finally:
        model.tau = tau0
    tally.details.update(safety=SAFETY, undecided_pairs=undecided, pairs_with_a_raised_count=raised,
                         tolerance_rule="8 (8 N d + 4) eps(dtype) max(1, max|H|) (Hessian eigenvalue signs)")
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def force_kept_with_margin(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.pruning.force_kept_with_margin on the model (seed Theorem 6 repaired, shared M-cat dictionary;
    spec §3.7), part ``margin_count``: pruning a head's channel(s) from [Y_sub, O] keeps every unstable mode
    j whose margin 4 lambda_j(C_full)/tau - 1 exceeds (4/tau)(eps + sqrt(lambda_1(C_sub) eps)) (R2's
    bound; eps = lambda_max(D), D the pruned channels' covariance): n_u(C_sub) >= j.  n_u(C_sub) is read off
    the model's own loss -- the negative eigenvalue count of its Hessian at collapse on the pruned data
    (K = 2, :func:`_unstable_count`); the spectra of the data covariances (numpy) enter the premise.
    Instances: data with an exact covariance C_full (lambda_1(C_full) in [1/20, 1/5], the pruned block
    shrunk by 1, 1/5 or 1/20) and tau = 4 lambda_1(C_full) u, u in [0.15, 0.6] (kept at a relative distance
    >= GAP from every 4 lambda_j(C_sub)), plus the pinned witness C_full = [[4, 1/10], [1/10, 1]]/20, tau =
    1/20 (premise met at j = 1; the product check's margin witness).  When no instance meets the premise
    the check is vacuous: UNKNOWN.  Tolerance 8 (8 N d + 4) eps(dtype) max(1, max|H|)."""
    import torch

    from verify._evaluate import decide
    from verify._statement import select

    from .dictionary import covariance, exact_covariance_sample

    st = statement_of("ddcl.pruning.force_kept_with_margin")
    premise = select(st, "margin_count").args[0]
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func",
                  seeds=(seed,))
    tau0 = model.tau
    rng = np.random.default_rng(seed + 6)
    cases = [(np.array([[4.0, 0.1], [0.1, 1.0]]) / 20, 1, 1 / 20)]
    for _ in range(profile.pick(4, 10, 40)):
        ds, dh = int(rng.integers(1, 4)), int(rng.integers(1, 3))
        A = rng.normal(size=(ds + dh, ds + dh + 1))
        A[ds:] *= float(rng.choice([1.0, 0.2, 0.05]))
        Cf = A @ A.T
        Cf *= rng.uniform(0.05, 0.2) / float(np.linalg.eigvalsh(Cf)[-1])
        cases.append((Cf, ds, None))
    met = undecided = 0
    try:
        for Cf, ds, tau in cases:
            N = Cf.shape[0] + int(rng.integers(2, 6))
            X = exact_covariance_sample(Cf, N, rng)
            lf = np.linalg.eigvalsh(covariance(X))[::-1]
            ls = np.linalg.eigvalsh(covariance(X[:, :ds]))[::-1]
            eps = float(np.linalg.eigvalsh(covariance(X[:, ds:]))[-1])
            if tau is None:
                for _try in range(20):
                    tau = C_FULL * float(lf[0]) * rng.uniform(0.15, 0.6)
                    if all(abs(tau - C_FULL * v) >= GAP * C_FULL * v for v in ls):
                        break
            n_sub, u_sub, tol = _unstable_count(model, torch.tensor(X[:, :ds], dtype=dtype), tau, dtype)
            if u_sub:
                undecided += 1
                continue
            inst = {"Z": X.tolist(), "kept": list(range(ds)), "K": 2, "c": C_FULL, "tau": tau}
            for j in range(1, ds + 1):
                vals = {"lambda_j": float(lf[j - 1]), "epsilon": eps, "lambda_1": float(ls[0]), "tau": tau,
                        "c": C_FULL, "j": j, "n_u_sub": n_sub, "instance": inst}
                tally.statement(st, vals, part="margin_count", tol=tol)
                # the statement's own premise, decided on the same values (the instance left out)
                met += decide(premise, {k: v for k, v in vals.items() if k != "instance"}, tol)[0] is True
            if tally.counterexample is not None:
                break
    finally:
        model.tau = tau0
    tally.details.update(safety=SAFETY, premise_met=met, undecided_instances=undecided,
                         tolerance_rule="8 (8 N d + 4) eps(dtype) max(1, max|H|) (Hessian eigenvalue signs)")
    if met == 0 and tally.counterexample is None:
        return Evidence(Verdict.UNKNOWN, instances=tally.instances,
                        notes="no instance met the margin condition: the implication was not exercised")
    return tally.evidence(level_cap=Verdict.CONSISTENT)
