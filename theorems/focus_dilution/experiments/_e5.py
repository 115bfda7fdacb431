"""E5 observables (spec §5.5), shared by the population run and the sampled mode, and the sampled mode
itself: the finite-context model trained by full-batch gradient descent (e5s).
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

from numerics.flows import first_time, geometric_grid
from numerics.markov import MarkovChain, entropy, zipf

from ..._figures import pyplot, save
from ..flow import Shapes, Trajectory, init_params, pack, unpack
from ..markov_model import context_counts, regrouped_loss
from ._e4 import _fmt
from ._runs import E5_D, E5S_LR, E5S_N, E5S_S, E5S_T, TOL_ABS, TOL_FACTOR, TOL_TIME_REL, e5_trajectory


# -- E5 observables, shared by the population run and the sampled mode ------------------------------------
def e5_observables(tr: Trajectory, *, margin: float = 0.01) -> dict[str, Any]:
    """The phase observables of spec §5.5 on a trajectory (population flow or sampled GD run).

    A is the population attention of the trajectory's Phi and L its population loss.  Phases 1-3 of a query q
    (rank >= 2): A_q1 within ``margin`` of pi1 at t = 0, then above pi1 + margin, then (later) below
    pi1 - margin at a time with A_11 >= 0.95.
    """
    pi = tr.chain.pi
    d = tr.chain.d
    t = tr.t
    H = entropy(pi)
    o: dict[str, Any] = {"T": float(t[-1]), "H_pi": H}
    o["onset_1e-2"] = first_time(t, tr.sv_QK[:, 0] >= 1e-2)
    on = o["onset_0.13"] = first_time(t, tr.sv_QK[:, 0] >= 0.13)
    o["L_onset"] = None if on is None else float(tr.loss[tr.at(on)])
    o["gap_onset"] = None if on is None else abs(o["L_onset"] - H)
    a11 = tr.A[:, 0, 0]
    o["A11_max"] = float(a11.max())
    o["t_A11_max"] = float(t[int(np.argmax(a11))])
    o["t_A11_095"] = first_time(t, a11 >= 0.95)
    F = tr.focus_mass
    o["F_start"], o["F_max"], o["F_end"] = float(F[0]), float(F.max()), float(F[-1])
    o["t_F_max"] = float(t[int(np.argmax(F))])
    for rank in (9, 17):
        if rank <= d:
            a = tr.A[:, rank - 1, 0]
            o[f"A{rank}_1_max"] = float(a.max())
            o[f"t_A{rank}_1_max"] = float(t[int(np.argmax(a))])
            pk = first_peak(t, a, o["onset_1e-2"])
            o[f"A{rank}_1_peak"] = None if pk is None else pk[1]
            o[f"t_A{rank}_1_peak"] = None if pk is None else pk[0]
            o[f"A{rank}_1_end"] = float(a[-1])
    p1 = pi[0]
    phased = []
    for q in range(1, d):
        a = tr.A[:, q, 0]
        if abs(a[0] - p1) > margin or not np.any(a >= p1 + margin):
            continue
        i2 = int(np.argmax(a >= p1 + margin))
        if np.any((a[i2:] <= p1 - margin) & (a11[i2:] >= 0.95)):
            phased.append(q + 1)
    o["phases_1_3_ranks"] = phased
    ranks = (tr.sv_W0 >= 0.1).sum(axis=1)
    ch = np.flatnonzero(np.diff(ranks)) + 1
    o["rank_changes"] = [(float(t[i]), int(ranks[i])) for i in ch]
    o["rank_one_step"] = bool(np.all(np.diff(ranks) <= 1))
    o["rank_end"] = int(ranks[-1])
    o["t_sigma2_W0"] = first_time(t, tr.sv_W0[:, 1] >= 0.1)
    o["phase4_ranks_end"] = [q + 1 for q in range(1, d) if int(np.argmax(tr.A[-1, q])) == q]
    return o


def first_peak(t: Any, y: Any, after: float | None = None) -> tuple[float, float] | None:
    """(t, y) at the first strict local maximum of y at or after ``after`` (as the focus peak of
    :func:`.flow.events`); None if there is none (or ``after`` is None)."""
    t = np.asarray(t, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if after is None:
        return None
    for i in range(max(int(np.searchsorted(t, after)), 1), len(y) - 1):
        if y[i] >= y[i - 1] and y[i] > y[i + 1]:
            return float(t[i]), float(y[i])
    return None


def _print_e5_observables(o: dict[str, Any]) -> None:
    if o["onset_0.13"] is not None:
        print(f"attention onset sigma1(QK) >= 1e-2 at t = {_fmt(o['onset_1e-2'])}, >= 0.13 at t = "
              f"{o['onset_0.13']:.1f}: L = {o['L_onset']:.4f} (|L - H(pi)| = {o['gap_onset']:.4f}; spec <= 0.02)")
    print(f"A_11 max = {o['A11_max']:.4f} at t = {o['t_A11_max']:.1f} (A_11 >= 0.95 from t = "
          f"{_fmt(o['t_A11_095'])}); F: {o['F_start']:.3f} -> max {o['F_max']:.3f} (t = {o['t_F_max']:.1f}) -> "
          f"{o['F_end']:.3f}")
    for rank in (9, 17):
        if f"A{rank}_1_max" in o:
            print(f"rank-{rank} query A_q1: first peak {_fmt(o[f'A{rank}_1_peak'], '.3f')} (t = "
                  f"{_fmt(o[f't_A{rank}_1_peak'])}), max {o[f'A{rank}_1_max']:.3f} "
                  f"(t = {o[f't_A{rank}_1_max']:.1f}) -> {o[f'A{rank}_1_end']:.3f} at T")
    print(f"phases 1-3 (A_q1 ~ pi1, > pi1, then < pi1 while A_11 >= 0.95) hold for query ranks "
          f"{o['phases_1_3_ranks'] or 'none'}")
    print(f"rank(W0) (threshold 0.1): changes {o['rank_changes']}, one step at a time: {o['rank_one_step']}, "
          f"at the end {o['rank_end']}; phase 4 (A_qq the largest entry of A_q) at T for ranks "
          f"{o['phase4_ranks_end'] or 'none (INCONCLUSIVE at this T)'}")


# -- E5 sampled mode: the finite-context model trained by full-batch GD ---------------------------------
def sampled_loss(params: Sequence[Any], q: Any, counts: Any, y: Any, tau: float = 1.0) -> Any:
    """Mean finite-context loss of the torch parameters (W0, W1, W_Q, W_K) on fixed sequences given as
    (q, counts, y): :func:`.markov_model.regrouped_loss` at (M, Phi) = model_matrices(W0, W1, W_Q, W_K)."""
    from numerics.arithmetic import TorchArithmetic

    from ..population import model_matrices

    M, Phi = model_matrices(*params, TorchArithmetic())
    return regrouped_loss(q, counts, y, M, Phi, tau)


def train_sampled(chain: MarkovChain, *, N: int = E5S_N, s: int = E5S_S, lr: float = E5S_LR, T: float = 1000.0,
                  m: int = 8, mk: int = 8, eps: float = 1e-3, seed: int = 0, data_seed: int = 0,
                  per_decade: int = 500, tau: float = 1.0, X: Any = None) -> Trajectory:
    """Full-batch gradient descent on the finite-context loss of N fixed sequences x_1..x_{s+1} of ``chain``
    (stationary start, ``numpy.random.default_rng(data_seed)``), from the spec §2.6 initialisation (seed),
    for round(T / lr) steps on one torch thread.  Time t = lr * steps; parameters are recorded at step 0 and on
    a geometric grid (``per_decade``).  Returns a :class:`.flow.Trajectory` (A, loss, ... are the population
    observables of the trained parameters); ``meta['train_loss']`` holds the training loss at the same steps.
    """
    import torch

    if lr <= 0 or T < lr:
        raise ValueError(f"need lr > 0 and T >= lr, got lr = {lr}, T = {T}")
    d = chain.d
    steps = int(round(T / lr))
    rec = np.arange(steps + 1) if steps < 3 else np.unique(np.concatenate(
        [[0], np.rint(geometric_grid(lr, steps * lr, per_decade)[1:] / lr)]).astype(np.int64))
    if X is None:
        X = chain.sample(N, s, np.random.default_rng(data_seed))
    q, counts, y = context_counts(X, d)
    sh = Shapes(d, m, mk)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        qt, yt = torch.as_tensor(q), torch.as_tensor(y)
        ct = torch.as_tensor(counts, dtype=torch.float64)
        params = [torch.tensor(w, dtype=torch.float64, requires_grad=True)
                  for w in unpack(init_params(d, m, mk, eps, seed), sh)]
        Y, train = [], []
        j = 0
        for step in range(steps + 1):
            L = sampled_loss(params, qt, ct, yt, tau)
            if step == rec[j]:
                Y.append(pack(*[p.detach().numpy().copy() for p in params]))
                train.append(float(L.detach()))
                j += 1
            if step == steps:
                break
            grads = torch.autograd.grad(L, params)
            with torch.no_grad():
                for p, g in zip(params, grads):
                    p.sub_(lr * g)
    finally:
        torch.set_num_threads(threads)
    meta = dict(seed=seed, eps=eps, N=X.shape[0], s=X.shape[1] - 1, lr=lr, steps=steps,
                train_loss=np.asarray(train), cpu=time.process_time() - c0, wall=time.perf_counter() - w0,
                target_entropy=entropy(np.bincount(y, minlength=d) / len(y)))
    return Trajectory(chain, sh, rec * lr, np.asarray(Y), tau, meta)


def tolerance_rows(pop: dict[str, Any], smp: dict[str, Any], factor: float = TOL_FACTOR) -> list[dict[str, Any]]:
    """Side-by-side rows (name, population, sampled, tolerance, ok) with the base tolerances x ``factor``:
    event times relative (base 20 %, the spec's anchors), values absolute (base 0.02)."""
    keys = [("onset_1e-2", "t"), ("onset_0.13", "t"), ("L_onset", "v"), ("t_A11_095", "t"), ("A11_max", "v"),
            ("F_max", "v"), ("t_F_max", "t"), ("F_end", "v"), ("A9_1_max", "v"), ("A9_1_end", "v"),
            ("A17_1_peak", "v"), ("t_A17_1_peak", "t"), ("A17_1_end", "v"), ("t_sigma2_W0", "t")]
    rows = []
    for k, kind in keys:
        if k not in pop:
            continue
        a, b = pop[k], smp.get(k)
        if a is None or b is None:
            rows.append(dict(name=k, pop=a, smp=b, tol=None, dev=None, ok=a is None and b is None))
            continue
        tol = factor * (TOL_TIME_REL * abs(a) if kind == "t" else TOL_ABS)
        rows.append(dict(name=k, pop=a, smp=b, tol=tol, dev=b - a, ok=abs(b - a) <= tol))
    return rows


def e5s(out: str, profile: str) -> dict[str, Any]:
    T = E5S_T[profile]
    ch = zipf(E5_D)
    w0 = time.perf_counter()
    pop = e5_trajectory(T)
    w_pop = time.perf_counter() - w0
    print(f"\n== E5 sampled mode: finite-context model, N = {E5S_N} sequences of s = {E5S_S}, full-batch GD lr "
          f"{E5S_LR}, T = {T:g} ({int(round(T / E5S_LR))} steps, t = lr * steps), d = {E5_D}, m = m_k = 8, "
          "eps = 1e-3, seed 0, one torch thread")
    tr = train_sampled(ch, N=E5S_N, s=E5S_S, lr=E5S_LR, T=T)
    print(f"GD: CPU {tr.meta['cpu']:.1f} s, wall {tr.meta['wall']:.1f} s; population flow to the same T: wall "
          f"{w_pop:.1f} s")
    op, osm = e5_observables(pop), e5_observables(tr)
    tl = tr.meta["train_loss"]
    ion = None if osm["onset_0.13"] is None else int(np.searchsorted(tr.t, osm["onset_0.13"]))
    mono = bool(np.all(np.diff(tl) <= 1e-12))
    print(f"H(pi) = {op['H_pi']:.4f}; empirical entropy of the N targets = {tr.meta['target_entropy']:.4f}; "
          f"train loss {tl[0]:.4f} -> {'-' if ion is None else f'{tl[ion]:.4f} (onset) ->'} {tl[-1]:.4f}; "
          f"(non-increasing at the recorded steps: {mono}); population loss at the GD parameters at T: "
          f"{tr.loss[-1]:.4f} (flow: {pop.loss[-1]:.4f})")
    rows = tolerance_rows(op, osm)
    print(f"{'observable':>14} {'population':>11} {'sampled':>9} {'deviation':>10} {'tol x5':>8} {'ok':>4}")
    for r in rows:
        print(f"{r['name']:>14} {_fmt(r['pop'], '.4g'):>11} {_fmt(r['smp'], '.4g'):>9} "
              f"{_fmt(r['dev'], '+.3g'):>10} {_fmt(r['tol'], '.3g'):>8} {'yes' if r['ok'] else 'NO':>4}")
    gap_ok = osm["gap_onset"] is not None and osm["gap_onset"] <= TOL_FACTOR * TOL_ABS
    print(f"spec checks x5: |L - H(pi)| at the onset {_fmt(osm['gap_onset'], '.4f')} <= {TOL_FACTOR * TOL_ABS:g}: "
          f"{gap_ok}; phases 1-3 for ranks population {op['phases_1_3_ranks'] or 'none'} / sampled "
          f"{osm['phases_1_3_ranks'] or 'none'}; rank(W0) one step at a time: {op['rank_one_step']} / "
          f"{osm['rank_one_step']} (at T: {op['rank_end']} / {osm['rank_end']})")
    print(f"{sum(r['ok'] for r in rows)}/{len(rows)} observables within tolerance x{TOL_FACTOR:g}")
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(16, 4))
    ax[0].semilogx(pop.t[1:], pop.loss[1:], "k", label="population flow")
    ax[0].semilogx(tr.t[1:], tr.loss[1:], "C0--", label="sampled GD: population loss")
    ax[0].semilogx(tr.t[1:], tl[1:], "C1:", label="sampled GD: train loss")
    ax[0].axhline(op["H_pi"], color="gray", lw=0.8)
    ax[0].legend(fontsize=7)
    ax[0].set_title(f"E5 sampled (N = {E5S_N}, s = {E5S_S}) vs population: loss")
    for j, (name, key) in enumerate((("A_11", 0), ("A_9,1", 8), ("A_17,1", 16))):
        ax[1].semilogx(pop.t[1:], pop.A[1:, key, 0], color=f"C{j}", label=f"{name} population")
        ax[1].semilogx(tr.t[1:], tr.A[1:, key, 0], "--", color=f"C{j}", label=f"{name} sampled")
    ax[1].semilogx(pop.t[1:], pop.focus_mass[1:], "k", label="F population")
    ax[1].semilogx(tr.t[1:], tr.focus_mass[1:], "k--", label="F sampled")
    ax[1].axhline(ch.pi[0], color="gray", lw=0.6)
    ax[1].legend(fontsize=6)
    ax[1].set_title("attention on the most frequent token")
    ax[2].loglog(pop.t[1:], pop.sv_QK[1:, 0], "k", label="sigma1(QK) population")
    ax[2].loglog(tr.t[1:], tr.sv_QK[1:, 0], "k--", label="sigma1(QK) sampled")
    for i in range(2):
        ax[2].loglog(pop.t[1:], pop.sv_W0[1:, i], color=f"C{i}", label=f"sigma{i + 1}(W0) population")
        ax[2].loglog(tr.t[1:], tr.sv_W0[1:, i], "--", color=f"C{i}", label=f"sigma{i + 1}(W0) sampled")
    ax[2].legend(fontsize=6)
    ax[2].set_title("singular values")
    save(fig, out, "focus_e5_sampled.png")
    return {"population": op, "sampled": osm, "rows": rows, "gap_ok": gap_ok, "monotone": mono,
            "cpu": tr.meta["cpu"], "wall": tr.meta["wall"], "T": T, "steps": tr.meta["steps"]}
