"""The per-head model of learnable temperatures (seed Theorem 3; spec §3.5), simulated in float64.

H heads, each with its own dictionary (K prototypes) on its own 1-D channel of exact variance lambda_h,
tau_h = tau_min + softplus(s_h), all tau_h(0) = tau_0, prototypes near collapse
(P_h(0) = 1e-3 sqrt(lambda_h) xi).  Joint gradient descent: prototypes in full (live q, c = 4) or
stopgrad (c = 2) mode, s_h through live q, driven by L_q (``drive="L_q"``) or F (``drive="F"``).

Several seeds run as one program: the heads are independent (every quantity is per head, a sum over
its prototypes or over its samples), so the heads of all seeds are one batch along the head axis.
Arrays are (K, heads, N): a sum over the prototypes is an add of contiguous slabs (k = 0, 1, ...), a
sum or mean over the samples numpy's pairwise sum of a contiguous row of N, so each head's trajectory
is the same bit for bit whatever the batch (tests/unit/ddcl_incrt/test_ddcl_temperature_sim.py
compares with a per-seed loop in the (heads, N, K) layout that sums in the same orders).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.errors import check_arg

from .dictionary import (
    gibbs,
    grad_detached,
    grad_live_Lq,
    math_inv_softplus,
    sample_tau_derivatives,
    sqdist_matrix,
)
from .hessian import critical_temperature

__all__ = ["simulate_heads", "simulate_heads_batch"]


def _ksum(X: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Sum over the leading (prototype) axis, k = 0, 1, ... in order (numpy's order on a short last
    axis, below 8 terms -- numpy sums 8 or more pairwise): numpy reduces a leading axis slab by slab,
    in order; into ``out`` when given.  2 <= K < 8."""
    return np.add.reduce(X, axis=0, out=out)


def _exp(X: np.ndarray) -> np.ndarray:
    """e^x entrywise, in place; returns X.  By torch's vectorised exp (SLEEF, within 1 ulp) on a zero-copy
    view: numpy's float64 exp is vectorised only with AVX-512 and otherwise calls libm entry by entry,
    2.6x slower on the step's (K, heads, N) arrays, where it took a third of an L_q step.  Each entry's
    result depends on its value alone, not on the array's size, strides or torch's thread count
    (tests/unit/ddcl_incrt/test_ddcl_temperature_sim.py), so the batched step and the per-seed loop
    agree bit for bit."""
    import torch

    t = torch.from_numpy(X)
    torch.exp(t, out=t)
    return X


def _log(X: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """log x entrywise (into ``out`` when given; X itself when ``out is X``), by torch's vectorised log
    as :func:`_exp` (numpy's float64 log is libm's, entry by entry, here)."""
    import torch

    if out is None:
        out = np.empty_like(X)
    torch.log(torch.from_numpy(X), out=torch.from_numpy(out))
    return out


def _qlogq(Q: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """q log q entrywise, 0 where q = 0 (its limit); into ``out`` when given."""
    pos = Q > 0
    if pos.all():
        return np.multiply(Q, _log(Q, out=out), out=out)
    return np.where(pos, Q * _log(np.where(pos, Q, 1)), 0)


def _sample_mean(X: np.ndarray) -> np.ndarray:
    """Per head, the mean over the samples of a (heads, N) array: numpy's (pairwise) mean of each head's
    contiguous row, as in the (heads, N) layout of the per-seed loop (``X.mean(1)`` is this sum divided
    by N, without its wrapper)."""
    return np.add.reduce(X, axis=1) / X.shape[1]


class _Stepper:
    """The gradients of every head at one step, on work arrays allocated once per run (a fresh array
    of this size per operation costs page faults that dominated the step).  Z: (heads, N) channels;
    arrays (K, heads, N), so that every elementwise operation runs over contiguous rows of N samples
    (with the head axis innermost numpy looped over 4-element rows, most of the step's time).  Each
    operation is the per-seed loop's, in its order: -D/tau as D/(-tau) (IEEE division is
    sign-symmetric, so the bits are those of -(D/tau)), q x as x q (products commute exactly); the sum
    over the prototypes adds contiguous slabs k = 0, 1, ... (:func:`_ksum`), and every sum over the
    samples -- the per-head sample mean (:func:`_sample_mean`) and the two sums of the prototype
    gradient, sum_i w_i and sum_i w_i z_i -- is numpy's pairwise sum of a contiguous row of N samples,
    so a head's numbers depend on its own row alone, not on the batch.  (The sample sums of the prototype
    gradient once ran i = 0, 1, ... in order, through a sample-major array written in transposed order;
    the strided writes and the reduction took 25-45 % of a step; the pairwise sum is no less accurate.)"""

    def __init__(self, Z: np.ndarray, K: int, mode: str, drive: str):
        Ht, N = Z.shape
        self.Z, self.mode, self.drive = Z, mode, drive
        self.D, self.Q, self.A = (np.empty((K, Ht, N)) for _ in range(3))
        self.m, self.r, self.e = np.empty((Ht, N)), np.empty((Ht, N)), np.empty((Ht, N))
        self.S = np.empty((2, K, Ht, N))       # w and w z
        self.L = np.empty((K, Ht, N)) if drive == "F" else None  # the exponents, kept for log q

    def assignments(self, P: np.ndarray, tau: np.ndarray) -> np.ndarray:
        """Distances D[k, h, i] = (z_hi - p_kh)^2 and Gibbs rows Q[:, h, i] = softmax_k(-D[:, h, i]/tau_h)
        by the max-subtracted exponential, q_k = e^(L_k) / r with L_k = -D_k/tau - max_j(-D_j/tau) and
        r = sum_k e^(L_k) (P: (K, heads), tau: (heads,)); returns Q, leaves r in ``self.r`` and (drive F)
        the exponents L in ``self.L``."""
        D, L, m = self.D, self.Q, self.m
        np.square(np.subtract(self.Z, P[:, :, None], out=D), out=D)
        np.divide(D, -tau[:, None], out=L)  # = -(D/tau): division is sign-symmetric
        np.maximum.reduce(L, axis=0, out=m)
        L -= m
        if self.L is not None:
            np.copyto(self.L, L)
        _exp(L)
        L /= _ksum(L, out=self.r)
        return L

    def gradients(self, P: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The prototype gradient (K, heads) (live weights omega = q [1 - (d - ell)/tau] in full mode,
        q in stopgrad mode), d(objective)/dtau (L_q: mean Var_q(d)/tau^2; F: -H) and the Gibbs rows Q.
        The same formulas as the product's ``grad_live_Lq``, ``grad_detached`` and
        ``sample_tau_derivatives``; :func:`_product_agreement` compares them."""
        N = self.Z.shape[1]
        Q = self.assignments(P, tau)
        D, A = self.D, self.A
        ell = _ksum(np.multiply(Q, D, out=A), out=self.m)
        np.subtract(D, ell, out=A)                          # d - ell
        if self.drive == "L_q":
            np.multiply(np.square(A, out=D), Q, out=D)      # q (d - ell)^2
            gt = _sample_mean(_ksum(D, out=self.r)) / tau ** 2
        else:  # sum_k q log q = sum_k q L_k - log r (log q_k = L_k - log r, sum_k q = 1): one log per sample
            x = _ksum(np.multiply(Q, self.L, out=self.L), out=self.e)  # each term q L_k <= 0: no cancellation
            gt = _sample_mean(np.subtract(x, _log(self.r, out=self.r), out=x))
        S = self.S
        if self.mode == "full":
            np.subtract(1, np.divide(A, tau[:, None], out=A), out=A)
            np.multiply(A, Q, out=S[0])                     # q [1 - (d - ell)/tau]
        else:
            np.copyto(S[0], Q)
        np.multiply(S[0], self.Z, out=S[1])
        sums = np.add.reduce(S, axis=-1)                    # sum_i w_i, sum_i w_i z_i: (2, K, heads)
        gP = (2.0 / N) * (sums[0] * P - sums[1])
        return gP, gt, Q

    def entropy_ratio(self, Q: np.ndarray) -> np.ndarray:
        """Per head, the mean assignment entropy over log K (1 = uniform/soft, 0 = one-hot/hard)."""
        return -_sample_mean(_ksum(_qlogq(Q))) / math.log(len(Q))


def _product_agreement(Z: np.ndarray, P: np.ndarray, tau: np.ndarray, mode: str, drive: str,
                       gP: np.ndarray, gt: np.ndarray) -> float:
    """Largest gap between the vectorised step and the product functions, head by head (Z: (heads, N),
    P and gP: (heads, K)), relative to each quantity's natural scale (as in ddcl.dictionary.gradients:
    (max|z| + max|p|)(1 + d_max/tau) for the prototype gradient, (d_max/tau)^2 for dL_q/dtau,
    1 + log K for dF/dtau = -H): ``grad_live_Lq`` / ``grad_detached(gibbs)`` for the prototypes,
    ``sample_tau_derivatives`` (per sample, averaged) for the temperature.  The simulation is evidence
    only if this is at rounding.

    The generic ``sample_tau_derivatives`` takes one column per prototype, all samples at once (its
    arithmetic is then numpy's elementwise IEEE operations, the same as on each sample's scalars;
    log stays ``math.log`` entry by entry), and the per-sample values are added i = 0, 1, ... from 0.0
    as the per-sample loop did (tests/unit/ddcl_incrt/test_ddcl_temperature_sim.py compares)."""
    worst = 0.0
    K = P.shape[1]
    for h in range(Z.shape[0]):
        z, p, t = Z[h][:, None], P[h][:, None], float(tau[h])
        Q, D = gibbs(z, p, t), sqdist_matrix(z, p)
        amp = 1.0 + float(D.max()) / t
        ref = grad_live_Lq(z, p, t) if mode == "full" else grad_detached(z, p, Q)["L_q"]
        scale = (float(np.abs(z).max() + np.abs(p).max())) * amp
        worst = max(worst, float(np.abs(ref[:, 0] - gP[h]).max()) / scale)
        a, b = sample_tau_derivatives(list(Q.T), list(D.T), t, _safe_log_columns)
        dLq, dF = _running_sum(a), _running_sum(b)
        ref_t = (dLq if drive == "L_q" else dF) / Z.shape[1]
        scale_t = amp ** 2 if drive == "L_q" else 1.0 + math.log(K)
        worst = max(worst, abs(ref_t - float(gt[h])) / scale_t)
    return worst


def _safe_log_columns(x: np.ndarray) -> np.ndarray:
    """math.log entry by entry, 0 where x = 0 (q log q -> 0 as q -> 0)."""
    return np.array([math.log(v) if v > 0 else 0.0 for v in x.tolist()])


def _running_sum(x: np.ndarray) -> np.float64:
    """0.0 + x_0 + x_1 + ... in this order (a cumulative sum is sequential)."""
    return np.cumsum(np.concatenate(([0.0], x)))[-1]


def _seed_channels(lam: np.ndarray, seed: int, mode: str, K: int, N: int
                   ) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """One seed's channels Z (heads, N) of exact variance lambda_h and mean 0, its initial prototypes
    (heads, K) near collapse, and each head's tau_c = c lambda_1 by the product's critical_temperature."""
    rng = np.random.default_rng(seed)
    Hh = len(lam)
    X = rng.standard_normal((Hh, N))
    X -= X.mean(1, keepdims=True)
    X /= X.std(1, keepdims=True)
    Z = X * np.sqrt(lam)[:, None]
    tau_c = [critical_temperature(Z[h][:, None], mode, certified=False).value for h in range(Hh)]
    xi = rng.standard_normal((Hh, K))
    return Z, 1e-3 * np.sqrt(lam)[:, None] * xi, tau_c


def simulate_heads_batch(lams: list[float], *, mode: str, drive: str, steps: int, seeds: Sequence[int],
                         K: int = 4, N: int = 512, tau0: float = 1.0, tau_min: float = 1e-3,
                         eta_p: float = 0.1, eta_s: float = 0.05,
                         record_every: Sequence[int] | int = 0,
                         keep: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """The per-head model for each seed of ``seeds`` (one run per seed, all heads of all seeds
    batched); ``record_every`` is one interval for all or one per seed (0: no trajectory).  Returns,
    per seed, what :func:`simulate_heads` returns for it alone (the same numbers bit for bit).

    ``keep`` prunes the model: each seed's channels and starting prototypes are drawn for every head of
    ``lams``, and only the heads in ``keep`` (indices into ``lams``, in increasing order) are trained;
    the returned per-head lists then hold the kept heads, in that order.

    Memoised per process, seed by seed, on the exact arguments (a seed's run is a deterministic
    function of them and of its own recording interval, whatever the batch): a claim's controls
    evaluate their false statements on the check's own runs (``Check.seed_of``), a sharded check's
    seeds serve its controls and ddcl.temperature.scale_specialisation's candidates, and only the
    seeds not yet run are simulated (as one batch).  Each call returns fresh copies, so a caller cannot
    alter what the next one gets."""
    def run(seeds_: Sequence[int], every_: Sequence[int] | int) -> list[dict[str, Any]]:
        return _simulate_heads_batch(lams, mode=mode, drive=drive, steps=steps, seeds=seeds_, K=K, N=N,
                                     tau0=tau0, tau_min=tau_min, eta_p=eta_p, eta_s=eta_s,
                                     record_every=every_, keep=keep)

    if not all(type(v) is int for v in (steps, K, N)):
        return run(seeds, record_every)  # the run names the bad argument (4000.0 == 4000 must not hit)
    try:  # the arguments as given: equal values (0.5 and np.float64(0.5)) give the same run
        seeds = list(seeds)
        every = [record_every] * len(seeds) if isinstance(record_every, int) else list(record_every)
        if len(every) != len(seeds):
            return run(seeds, record_every)  # the run names the mismatch
        base = (tuple(lams), mode, drive, steps, K, N, tau0, tau_min, eta_p, eta_s,
                None if keep is None else tuple(keep))
        keys = [base + (sd, e) for sd, e in zip(seeds, every)]
        have = {k: _SIM_MEMO[k] for k in keys if k in _SIM_MEMO}
    except TypeError:
        return run(seeds, record_every)  # unhashable, so not a memo key: the run names the bad argument
    todo = {k: (sd, e) for k, sd, e in zip(keys, seeds, every) if k not in have}
    if todo:
        outs = run([sd for sd, _ in todo.values()], [e for _, e in todo.values()])
        for k, out in zip(todo, outs):
            have[k] = out
            if len(_SIM_MEMO) >= _SIM_MEMO_SIZE:
                _SIM_MEMO.pop(next(iter(_SIM_MEMO)))  # the oldest entry
            _SIM_MEMO[k] = out
    return copy.deepcopy([have[k] for k in keys])


_SIM_MEMO: dict[tuple, dict[str, Any]] = {}
# one entry per (seed, arguments): a thorough shard holds 5 seeds per drive and mode, ci 1-3
_SIM_MEMO_SIZE = 48


def _simulate_heads_batch(lams: list[float], *, mode: str, drive: str, steps: int, seeds: Sequence[int],
                          K: int, N: int, tau0: float, tau_min: float, eta_p: float, eta_s: float,
                          record_every: Sequence[int] | int,
                          keep: Sequence[int] | None = None) -> list[dict[str, Any]]:
    check_arg(mode in ("full", "stopgrad"), "mode", "must be 'full' or 'stopgrad'", mode)
    check_arg(drive in ("L_q", "F"), "drive", "must be 'L_q' or 'F'", drive)
    check_arg(K >= 2, "K", "must be at least 2 (H is read relative to log K)", K)
    check_arg(K < 8, "K", "must be below 8 (the prototype sums add k = 0, 1, ... in order, numpy's order "
              "for a last axis of fewer than 8 terms: the runs then match the per-seed loop bit for bit)", K)
    seeds = list(seeds)
    every = [record_every] * len(seeds) if isinstance(record_every, int) else list(record_every)
    check_arg(len(every) == len(seeds), "record_every", "one interval, or one per seed", record_every)
    lam = np.asarray(lams, float)
    chans = [_seed_channels(lam, sd, mode, K, N) for sd in seeds]
    if keep is not None:  # pruned: the heads' draws as for every head of lams, then the kept rows
        keep = list(keep)
        check_arg(len(keep) > 0 and all(type(h) is int and 0 <= h < len(lam) for h in keep)
                  and all(a < b for a, b in zip(keep, keep[1:])),
                  "keep", f"increasing indices of heads in 0..{len(lam) - 1}", keep)
        chans = [(z[keep], p[keep], [tc[h] for h in keep]) for z, p, tc in chans]
        lam = lam[keep]
    Hh = len(lam)
    blocks = [slice(j * Hh, (j + 1) * Hh) for j in range(len(seeds))]
    Z = np.ascontiguousarray(np.concatenate([z for z, _, _ in chans]))  # (heads, N)
    P = np.ascontiguousarray(np.concatenate([p for _, p, _ in chans]).T)  # (K, heads)
    Ht = Z.shape[0]
    step = _Stepper(Z, K, mode, drive)
    s = np.full(Ht, math_inv_softplus(tau0 - tau_min))
    max_up = np.zeros(Ht)
    max_down = np.zeros(Ht)
    tau_prev = tau_min + np.logaddexp(0, s)
    traj: list[list[tuple[int, list[float]]]] = [[] for _ in seeds]
    ent_traj: list[list[tuple[int, list[float]]]] = [[] for _ in seeds]
    probe_at = {0, steps // 2, steps - 1}
    agreement: list[list[float]] = [[] for _ in seeds]
    for it in range(steps):
        tau = tau_prev  # tau_min + softplus(s) of the current s
        gP, gt, Q = step.gradients(P, tau)
        rec = [j for j, e in enumerate(every) if e and it % e == 0]
        if rec:
            ent = step.entropy_ratio(Q)
            for j in rec:
                traj[j].append((it, tau[blocks[j]].tolist()))
                ent_traj[j].append((it, ent[blocks[j]].tolist()))
        if it in probe_at:
            for j, b in enumerate(blocks):
                agreement[j].append(_product_agreement(chans[j][0], P[:, b].T, tau[b], mode, drive,
                                                       gP[:, b].T, gt[b]))
        sig = 1 / (1 + np.exp(-s))
        P = P - eta_p * gP
        s = s - eta_s * gt * sig
        tau_new = tau_min + np.logaddexp(0, s)
        max_up = np.maximum(max_up, tau_new - tau_prev)
        max_down = np.maximum(max_down, tau_prev - tau_new)
        tau_prev = tau_new
    tau = tau_min + np.logaddexp(0, s)
    ent = step.entropy_ratio(step.assignments(P, tau))
    return [{"lams": lam.tolist(), "tau": tau[b].tolist(), "P": P[:, b].T.tolist(),
             "H_over_logK": ent[b].tolist(),
             "max_up": max_up[b].tolist(), "max_down": max_down[b].tolist(), "trajectory": traj[j],
             "entropy_trajectory": ent_traj[j],
             "product_agreement": max(agreement[j]) if agreement[j] else 0.0, "tau_c": chans[j][2]}
            for j, b in enumerate(blocks)]


def simulate_heads(lams: list[float], *, mode: str, drive: str, steps: int, seed: int, K: int = 4,
                   N: int = 512, tau0: float = 1.0, tau_min: float = 1e-3, eta_p: float = 0.1,
                   eta_s: float = 0.05, record_every: int = 0, keep: Sequence[int] | None = None
                   ) -> dict[str, Any]:
    """The per-head model of spec §3.5 for one seed (numpy float64).  Returns the final tau_h and
    prototypes P_h (K each), H/log K, the largest per-step increase and decrease of each tau_h, each
    head's tau_c, the agreement with the product's gradients at three probe steps and
    (``record_every``) the trajectories of tau_h and H/log K; ``keep`` prunes heads
    (:func:`simulate_heads_batch`)."""
    return simulate_heads_batch(lams, mode=mode, drive=drive, steps=steps, seeds=[seed], K=K, N=N,
                                tau0=tau0, tau_min=tau_min, eta_p=eta_p, eta_s=eta_s,
                                record_every=record_every, keep=keep)[0]
