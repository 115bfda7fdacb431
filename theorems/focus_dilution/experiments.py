"""Experiments of the focus-and-dilution spec (§5): E1, the E2 delta sweep, the E3 ablation, E4 (attention
entropy and concentration curves on the E1 and E2 runs), the E5 Zipf surrogate and its sampled mode.
Prints tables and writes figures (matplotlib, Agg) to ``--out``.

    python -m theorems.focus_dilution.experiments [--profile quick|thorough] [--out figures]
                                                  [--only e1,e2,e3,e4,e5,e5s] [--e5-sampled]

quick: E1 to T = 3e4 (m = m_k = 8); E2 with delta in {0.01, 0.02} and the delta = 0 stall to 3000 plus the
lam = 0.7 escape; E3 with m = m_k = 4 to T = 1500; E4 on the E1 run and the E2 delta = 0.01 run; E5 (d = 32) to
T = 400.  thorough: the spec's horizons (E2 delta in {0, 0.005, 0.01, 0.02} to 3e4..8e3, E4 also on
delta = 0.005 and 0.02, E5 to 3000) and the sampled E5 mode.

E5s (the sampled mode, ``--only e5s`` or ``--e5-sampled``; part of the thorough default): the finite-context
model of :mod:`.markov_model` trained by full-batch gradient descent (lr 0.05, time t = lr * steps, one torch
thread) on N = 2000 fixed sequences of s = 128 tokens of the Zipf chain (d = 32, lam = 1/2, m = m_k = 8,
eps = 1e-3, seed 0), to T = 1000 (20000 steps, about a minute) in quick and T = 3000 (60000 steps, about three
minutes) in thorough, compared with the population flow to the same T, tolerances x5.  The loss is evaluated by
the exact count regrouping of spec §2.4 (the same value as markov_model.finite_context_loss, O(N d^2) a step).

The E1 and E2 trajectories are shared between E1/E2 and E4 (and the population E5 run between E5 and E5s)
through :func:`.flow.cached_flow`.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from numerics.flows import first_time, geometric_grid
from numerics.markov import (MarkovChain, entropy, lazy_anti_mixture, metropolis, symmetric_rare, zipf)

from .._figures import pyplot, save
from .flow import Shapes, Trajectory, cached_flow, events, init_params, pack, unpack, run_flow
from .markov_model import context_counts, regrouped_loss
from .population import lumped_loss, reference_quantities

E1_PI = ("0.75", "0.19", "0.05", "0.01")
E2_C = (1, -1, Fraction(1, 2), Fraction(-1, 2))
E2_HORIZON = {0.005: 2e4, 0.01: 1.2e4, 0.02: 8e3}

# E4, expected shape in E1 (spec §5.4).  The values are the successive turning points of the curves (start,
# alternating local maxima / minima, end); spec §4.11 locates those of D-bar at t = 313, 436, 656, 741, 5395.
E4_DBAR_EXPECTED = (0.0, 0.286, 0.273, 0.316, 0.176, 1.045, 1.035)
E4_DBAR_TIMES = (None, 313.0, 436.0, 656.0, 741.0, 5395.0, None)
E4_KL1_EXPECTED = (0.0, 0.2875, 0.062, 0.993)
E4_S = 256  # context length of the reported positional entropy
E4_SWING = 0.005  # zigzag threshold of the D-bar / KL turning points
ROW_SWING = 0.10  # relative swing of a row-norm turning point
FLIP_WINDOW = 1.25  # a row-norm minimum within this factor in t of a sign flip is "at" the flip

# E5 and its sampled mode (spec §5.5)
E5_D = 32
E5_FLOW = dict(method="DOP853", rtol=1e-8, atol=1e-11, per_decade=500)  # spec §5: >= 500 per decade
E5S_N, E5S_S, E5S_LR = 2000, 128, 0.05
E5S_T = {"quick": 1000.0, "thorough": 3000.0}
TOL_FACTOR = 5.0  # "tolerances x5"
TOL_TIME_REL = 0.20  # base tolerance of event times: the spec's regression anchors, +-20 %
TOL_ABS = 0.02  # base tolerance of losses and attention values: the spec's |L - H(pi)| <= 0.02


def e1_trajectory() -> Trajectory:
    """The E1 reference run (T = 3e4, m = m_k = 8, eps = 1e-3, seed 0), cached per process."""
    return cached_flow("lazy", (E1_PI, "1/2"), T=3e4, eps=1e-3, seed=0)


def e2_trajectory(delta: float) -> Trajectory:
    """The E2 run at delta (d = 5, pi = (0.6, 0.1 x 4) + delta c, lam = 1/2, seed 0), cached per process."""
    df = Fraction(delta).limit_denominator(10**6)
    return cached_flow("perturbed_rare", (5, Fraction(3, 5), Fraction(1, 2), E2_C, df), T=E2_HORIZON[delta],
                       per_decade=100)


def e5_trajectory(T: float) -> Trajectory:
    """The population E5 run (Zipf d = 32, lam = 1/2, DOP853), cached per process."""
    return cached_flow("zipf", (E5_D,), T=T, **E5_FLOW)


# -- E4 observables (pure functions) --------------------------------------------------------------------
def kl_rows(A: Any, pi: Any) -> np.ndarray:
    """KL(A_q || pi) for every row q of A (shape (..., d, d)); returns shape (..., d).  0 log 0 = 0."""
    A = np.asarray(A, dtype=np.float64)
    pi = np.asarray(pi, dtype=np.float64)
    if A.ndim < 2 or A.shape[-1] != pi.shape[-1] or pi.ndim != 1:
        raise ValueError(f"A must be (..., d, d) and pi (d,), got {A.shape} and {pi.shape}")
    if np.any(pi <= 0):
        raise ValueError("pi must be entrywise > 0")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(A > 0, A * (np.log(A) - np.log(pi)), 0.0)
    return terms.sum(axis=-1)


def positional_entropy(A: Any, pi: Any, s: int) -> np.ndarray:
    """Entropy of the attention over s positions when token k fills s pi_k of them: log s - KL(A_q || pi).

    (Each of the s pi_k positions holding k gets weight A_qk / (s pi_k).)
    """
    if s < 1:
        raise ValueError(f"s must be >= 1, got {s}")
    return math.log(s) - kl_rows(A, pi)


def pca_explained(X: Any, *, center: bool = True) -> np.ndarray:
    """Explained-variance ratios (descending, min(n, p) entries, summing to 1) of the PCA of the n rows of
    X (shape (..., n, p)); the rows are centred unless ``center=False``.  All zeros if the rows coincide."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim < 2:
        raise ValueError(f"X must be (..., n, p), got shape {X.shape}")
    if center:
        X = X - X.mean(axis=-2, keepdims=True)
    v = np.linalg.svd(X, compute_uv=False) ** 2
    tot = v.sum(axis=-1, keepdims=True)
    return np.divide(v, tot, out=np.zeros_like(v), where=tot > 0)


def turning_points(t: Any, y: Any, min_swing: float, *, log: bool = False) -> list[tuple[str, float, float]]:
    """Zigzag filter: [("start", t0, y0), alternating ("max" | "min", t, y) ..., ("end", T, y(T))].

    An extremum is kept once the curve has moved ``min_swing`` away from it (on log y if ``log``); the first
    direction is set by the first move of ``min_swing`` away from the start value.
    """
    t = np.asarray(t, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if t.ndim != 1 or t.shape != y.shape or len(t) < 2:
        raise ValueError("t and y must be 1-d arrays of the same length >= 2")
    if not min_swing > 0:
        raise ValueError(f"min_swing must be > 0, got {min_swing}")
    if log and np.any(y <= 0):
        raise ValueError("log=True needs y > 0")
    v = np.log(y) if log else y
    out: list[tuple[str, float, float]] = [("start", float(t[0]), float(y[0]))]
    direction, ext = 0, 0
    for i in range(1, len(v)):
        if direction == 0:
            if abs(v[i] - v[0]) >= min_swing:
                direction, ext = (1 if v[i] > v[0] else -1), i
        elif direction > 0:
            if v[i] >= v[ext]:
                ext = i
            elif v[ext] - v[i] >= min_swing:
                out.append(("max", float(t[ext]), float(y[ext])))
                direction, ext = -1, i
        else:
            if v[i] <= v[ext]:
                ext = i
            elif v[i] - v[ext] >= min_swing:
                out.append(("min", float(t[ext]), float(y[ext])))
                direction, ext = 1, i
    out.append(("end", float(t[-1]), float(y[-1])))
    return out


def merge_close(values: Sequence[float], tol: float) -> list[float]:
    """Drop each value within ``tol`` of its predecessor (consecutive plateaus with the same reading)."""
    out: list[float] = []
    for x in values:
        if not out or abs(x - out[-1]) > tol:
            out.append(float(x))
    return out


def compare_sequence(measured: Sequence[float], expected: Sequence[float]) -> dict[str, Any]:
    """Element-wise measured - expected (over the common length) and whether the lengths agree."""
    dev = [float(m) - float(e) for m, e in zip(measured, expected)]
    rel = [abs(d) / abs(float(e)) for d, e in zip(dev, expected) if float(e) != 0]
    return {"measured": [float(x) for x in measured], "expected": [float(x) for x in expected],
            "same_length": len(measured) == len(expected), "deviation": dev,
            "max_abs_deviation": max((abs(d) for d in dev), default=None),
            "max_rel_deviation": max(rel, default=None)}


def sign_flip_times(tr: Trajectory) -> dict[int, list[float]]:
    """Per token k, the times after R1 at which gamma_k = (W0 alpha1)_k changes sign (alpha1 = v1(W0) at R1,
    oriented so that gamma . pi > 0 there) -- the construction of :func:`.flow.events`, all flips."""
    R1 = events(tr)["R1"]
    d = tr.chain.d
    if R1 is None:
        return {k: [] for k in range(d)}
    W0 = tr.params[0]
    i1 = tr.at(R1)
    a1 = np.linalg.svd(W0[i1])[2][0]
    g = W0 @ a1
    if g[i1] @ tr.chain.pi < 0:
        g = -g
    sg = np.sign(g)
    out = {}
    for k in range(d):
        idx = np.flatnonzero((sg[1:, k] != sg[:-1, k]) & (tr.t[1:] > R1))
        out[k] = [float(tr.t[j + 1]) for j in idx]
    return out


def row_norm_report(t: Any, norms: Any, flips: dict[int, list[float]], tokens: Sequence[int], *,
                    t_from: float = 0.0, swing: float = ROW_SWING, window: float = FLIP_WINDOW) -> dict[str, Any]:
    """Measured statement on the W0 row norms |W0_k| (n_t x d) of the given tokens from ``t_from`` on.

    Turning points on log |W0_k| with relative swing ``swing``; a sign flip "shrinks" the row if a norm
    minimum lies within a factor ``window`` in t of it.  Per flip: the minimum, its depth (min / preceding
    turning point) and the regrowth (following turning point / min).
    """
    t = np.asarray(t, dtype=np.float64)
    norms = np.asarray(norms, dtype=np.float64)
    sel = t >= t_from
    rows: dict[int, Any] = {}
    n_flips = n_shrunk = 0
    for k in tokens:
        tp = turning_points(t[sel], np.maximum(norms[sel, k], 1e-300), math.log1p(swing), log=True)
        mins = [j for j, p in enumerate(tp) if p[0] == "min"]
        per_flip = []
        for tf in flips.get(k, []):
            n_flips += 1
            rec: dict[str, Any] = {"t_flip": tf, "shrinks": False}
            if mins:
                j = min(mins, key=lambda j: abs(math.log(tp[j][1] / tf)))
                near = abs(math.log(tp[j][1] / tf)) <= math.log(window)
                rec.update(t_min=tp[j][1], norm_min=tp[j][2], shrinks=near,
                           depth=tp[j][2] / tp[j - 1][2], regrowth=tp[j + 1][2] / tp[j][2],
                           t_regrown=tp[j + 1][1])
                n_shrunk += int(near)
            per_flip.append(rec)
        rows[k] = {"turning_points": tp, "flips": per_flip, "cycles": len(mins),
                   "norm_from": float(norms[sel, k][0]), "norm_end": float(norms[-1, k])}
    return {"rows": rows, "flips": n_flips, "flips_with_shrink": n_shrunk,
            "cycles": {k: rows[k]["cycles"] for k in tokens}}


def plateau_observables(tr: Trajectory, s: int = E4_S) -> list[dict[str, Any]]:
    """E4 observables at the plateaus of ``tr.stages()`` (spec §5.4)."""
    pi = tr.chain.pi
    W0 = tr.params[0]
    out = []
    for k, p in enumerate(tr.stages().plateaus):
        i = min(tr.at(p.t_value), len(tr.t) - 1)
        A = tr.A[i]
        kl = kl_rows(A, pi)
        out.append({
            "plateau": k, "t": float(tr.t[i]), "L": float(tr.loss[i]), "F": float(tr.focus_mass[i]),
            "Dbar": float(tr.concentration[i]), "KL": kl.tolist(),
            "H_pos": positional_entropy(A, pi, s).tolist(), "A_q1": A[:, 0].tolist(), "A_qq": np.diag(A).tolist(),
            "row_norms": np.linalg.norm(W0[i], axis=1).tolist(), "pca": pca_explained(W0[i]).tolist(),
            "sv_W0": tr.sv_W0[i].tolist(), "sv_W1": tr.sv_W1[i].tolist(), "sv_QK": tr.sv_QK[i].tolist()})
    return out


def _fmt(v: float | None, spec: str = ".1f") -> str:
    return "-" if v is None else format(v, spec)


def _vec(v: Sequence[float], spec: str = "7.4f") -> str:
    return " ".join(format(x, spec) for x in v)


def _e4_run(title: str, tr: Trajectory) -> dict[str, Any]:
    pi = tr.chain.pi
    d = tr.chain.d
    rows = plateau_observables(tr)
    print(f"\n-- E4 on {title}: observables at the detected plateaus (Trajectory.stages())")
    print(f"{'plateau':>7} {'t':>9} {'L':>9} {'F':>7} {'D-bar':>7} {'KL(A1|pi)':>9} "
          f"{'Hpos256(1)':>10} {'A_11':>7}")
    for r in rows:
        print(f"{r['plateau']:>7} {r['t']:>9.1f} {r['L']:>9.5f} {r['F']:>7.4f} {r['Dbar']:>7.4f} "
              f"{r['KL'][0]:>9.4f} {r['H_pos'][0]:>10.4f} {r['A_qq'][0]:>7.4f}")
    print(f"per query (log {E4_S} = {math.log(E4_S):.4f}):")
    print(f"{'plateau':>7} {'q':>2} {'pi_q':>6} {'A_q1':>7} {'A_qq':>7} {'KL(Aq|pi)':>9} {'Hpos256':>8}")
    for r in rows:
        for q in range(d):
            print(f"{r['plateau']:>7} {q + 1:>2} {pi[q]:>6.3f} {r['A_q1'][q]:>7.4f} {r['A_qq'][q]:>7.4f} "
                  f"{r['KL'][q]:>9.4f} {r['H_pos'][q]:>8.4f}")
    print("per-token W0 row norms | PCA explained-variance ratios of the (centred) W0 rows:")
    for r in rows:
        print(f"{r['plateau']:>7} |W0_k| = {_vec(r['row_norms'])}   PCA = {_vec(r['pca'][:3], '6.3f')}")
    print("singular values: W0 | W1 | W_Q W_K^T (top 4):")
    for r in rows:
        print(f"{r['plateau']:>7} {_vec(r['sv_W0'][:4], '7.4f')} | {_vec(r['sv_W1'][:4], '7.4f')} | "
              f"{_vec(r['sv_QK'][:4], '8.2e')}")
    kl1 = kl_rows(tr.A, pi)[:, 0]
    tp_D = turning_points(tr.t, tr.concentration, E4_SWING)
    tp_K = turning_points(tr.t, kl1, E4_SWING)
    print(f"turning points (swing >= {E4_SWING}):")
    print("  D-bar:       " + " -> ".join(f"{v:.4f} ({k} t={tt:.0f})" for k, tt, v in tp_D))
    print("  KL(A_1|pi):  " + " -> ".join(f"{v:.4f} ({k} t={tt:.0f})" for k, tt, v in tp_K))
    flips = sign_flip_times(tr)
    R1 = events(tr)["R1"] or 0.0
    rare = [k for k in range(d) if k != int(np.argmax(pi))]
    norms = np.linalg.norm(tr.params[0], axis=-1)
    rep = row_norm_report(tr.t, norms, flips, rare, t_from=R1)
    print(f"rare rows (from R1 = {R1:.1f}; sign flips of gamma_k = (W0 alpha1)_k; norm turning points with "
          f"swing >= {ROW_SWING:.0%}):")
    for k in rare:
        rr = rep["rows"][k]
        tps = " ".join(f"{kind[:3]}({tt:.0f})={v:.3g}" for kind, tt, v in rr["turning_points"])
        print(f"  token {k + 1}: flips at {[round(x, 1) for x in flips[k]]}; {tps}")
        for f in rr["flips"]:
            if "t_min" in f:
                ratio = max(f['t_min'], f['t_flip']) / min(f['t_min'], f['t_flip'])
                print(f"    flip {f['t_flip']:.1f}: nearest norm minimum {f['norm_min']:.3g} at "
                      f"t = {f['t_min']:.1f} (x{ratio:.2f} in t: {'at' if f['shrinks'] else 'NOT at'} the flip), "
                      f"depth x{f['depth']:.3g} of the preceding turning point, regrows x{f['regrowth']:.3g} "
                      f"by t = {f['t_regrown']:.0f}")
            else:
                print(f"    flip {f['t_flip']:.1f}: the norm has no minimum from R1 on")
    print(f"  measured: {rep['flips_with_shrink']}/{rep['flips']} sign flips of rare rows coincide with a norm "
          f"minimum; shrink-and-regrow cycles per rare row (from R1): "
          + ", ".join(f"token {k + 1}: {c}" for k, c in rep["cycles"].items()))
    return {"plateaus": rows, "turning_points": {"Dbar": tp_D, "KL1": tp_K}, "flips": flips, "rows": rep}


def e4(out: str, profile: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    tr1 = e1_trajectory()
    print(f"\n== E4: attention entropy and concentration curves (E1 run {time.perf_counter() - t0:.1f} s; "
          "cached and shared with e1)")
    res: dict[str, Any] = {"E1": _e4_run(f"E1 (pi = {E1_PI}, lam = 1/2)", tr1)}
    r1 = res["E1"]
    # expected shape (spec §5.4)
    print("\nE4 expected shape in E1 (spec §5.4), measured vs expected:")
    pd = merge_close([r["Dbar"] for r in r1["plateaus"]], E4_SWING)
    pk = merge_close([r["KL"][0] for r in r1["plateaus"]], E4_SWING)
    cmp_pd = compare_sequence(pd, E4_DBAR_EXPECTED)
    cmp_pk = compare_sequence(pk, E4_KL1_EXPECTED)
    for name, c in (("D-bar", cmp_pd), ("KL(A_1|pi)", cmp_pk)):
        print(f"  {name} at the detected plateaus (repeats within {E4_SWING} merged): "
              f"{_vec(c['measured'], '.4f')} vs {_vec(c['expected'], '.4f')}: "
              + ("deviations " + _vec(c["deviation"], '+.4f') if c["same_length"] else
                 f"{len(c['measured'])} vs {len(c['expected'])} values, no element-wise match"))
    tpD = [v for _, _, v in r1["turning_points"]["Dbar"]]
    tpK = [v for _, _, v in r1["turning_points"]["KL1"]]
    cmp_D = compare_sequence(tpD, E4_DBAR_EXPECTED)
    cmp_K = compare_sequence(tpK, E4_KL1_EXPECTED)
    print(f"  turning points (start, local maxima / minima with swing >= {E4_SWING}, end; spec §4.11 times):")
    print(f"  {'curve':>11} {'kind':>5} {'t':>8} {'t spec':>7} {'measured':>9} {'expected':>9} {'deviation':>10}")
    for name, tp, c, times in (("D-bar", r1["turning_points"]["Dbar"], cmp_D, E4_DBAR_TIMES),
                               ("KL(A_1|pi)", r1["turning_points"]["KL1"], cmp_K, (None,) * 4)):
        for j, (kind, tt, v) in enumerate(tp):
            e = c["expected"][j] if j < len(c["expected"]) else None
            ts = times[j] if j < len(times) else None
            print(f"  {name:>11} {kind:>5} {tt:>8.0f} {_fmt(ts, '.0f'):>7} {v:>9.4f} {_fmt(e, '.4f'):>9} "
                  f"{_fmt(None if e is None else v - e, '+.4f'):>10}")
        print(f"  {name}: {len(tp)} measured vs {len(c['expected'])} expected values; max |deviation| = "
              f"{_fmt(c['max_abs_deviation'], '.4f')}")
    res["expected_shape"] = {"plateaus": {"Dbar": cmp_pd, "KL1": cmp_pk},
                             "turning_points": {"Dbar": cmp_D, "KL1": cmp_K}}
    deltas = (0.01,) if profile == "quick" else (0.005, 0.01, 0.02)
    e2runs = []
    for delta in deltas:
        tr2 = e2_trajectory(delta)
        res[f"E2 delta={delta}"] = _e4_run(f"E2 (d = 5, delta = {delta}, T = {E2_HORIZON[delta]:g})", tr2)
        e2runs.append((delta, tr2))
    _e4_figures(out, tr1, e2runs)
    res["wall"] = time.perf_counter() - t0
    return res


def _e4_figures(out: str, tr1: Trajectory, e2runs: list[tuple[float, Trajectory]]) -> None:
    plt = pyplot()
    runs = [("E1", tr1)] + [(f"E2 delta = {dl}", tr) for dl, tr in e2runs[:1]]
    fig, ax = plt.subplots(len(runs), 3, figsize=(16, 4.2 * len(runs)), squeeze=False)
    for r, (name, tr) in enumerate(runs):
        t = tr.t[1:]
        kl = kl_rows(tr.A, tr.chain.pi)[1:]
        ax[r, 0].semilogx(t, tr.concentration[1:], "k", label="D-bar")
        for kind, tt, v in turning_points(tr.t, tr.concentration, E4_SWING)[1:-1]:
            ax[r, 0].plot(tt, v, "v" if kind == "max" else "^", color="C3")
        if name == "E1":
            for v, tt in zip(E4_DBAR_EXPECTED[1:-1], E4_DBAR_TIMES[1:-1]):
                ax[r, 0].plot(tt, v, "o", mfc="none", color="C0")
            ax[r, 0].plot([], [], "o", mfc="none", color="C0", label="spec §5.4/§4.11 turning points")
        ax[r, 0].legend(fontsize=7)
        ax[r, 0].set_title(f"{name}: concentration D-bar = sum_q pi_q KL(A_q||pi)")
        for q in range(tr.chain.d):
            ax[r, 1].semilogx(t, kl[:, q], label=f"KL(A_{q + 1}||pi)")
        ax[r, 1].legend(fontsize=7)
        ax[r, 1].set_title(f"{name}: KL per query (positional entropy = log s - KL)")
        ax[r, 2].semilogx(t, tr.focus_mass[1:], "k", label="F")
        for q in range(tr.chain.d):
            ax[r, 2].semilogx(t, tr.A[1:, q, 0], lw=0.8, label=f"A_{q + 1}1")
        ax[r, 2].axhline(tr.chain.pi[0], color="gray", lw=0.6)
        ax[r, 2].legend(fontsize=7)
        ax[r, 2].set_title(f"{name}: focus mass F and A_q1")
    save(fig, out, "e4_concentration.png")
    fig, ax = plt.subplots(len(runs), 3, figsize=(16, 4.2 * len(runs)), squeeze=False)
    for r, (name, tr) in enumerate(runs):
        t = tr.t[1:]
        norms = np.linalg.norm(tr.params[0], axis=-1)[1:]
        for k in range(tr.chain.d):
            ax[r, 0].loglog(t, norms[:, k], label=f"|W0_{k + 1}| (pi = {tr.chain.pi[k]:.3f})")
        for k, fl in sign_flip_times(tr).items():
            for tf in fl:
                ax[r, 0].axvline(tf, color=f"C{k}", lw=0.6, ls=":")
        ax[r, 0].legend(fontsize=7)
        ax[r, 0].set_title(f"{name}: W0 row norms (dotted: sign flips of gamma_k)")
        for i in range(tr.sv_W0.shape[1]):
            ax[r, 1].loglog(t, tr.sv_W0[1:, i], color="C0", lw=1.2 - 0.2 * i, label="W0" if i == 0 else None)
        for i in range(tr.sv_W1.shape[1]):
            ax[r, 1].loglog(t, tr.sv_W1[1:, i], color="C1", ls="--", lw=1.2 - 0.2 * i,
                            label="W1" if i == 0 else None)
        for i in range(min(4, tr.sv_QK.shape[1])):
            ax[r, 1].loglog(t, tr.sv_QK[1:, i], color="k", ls=":", lw=1.2 - 0.2 * i,
                            label="W_Q W_K^T" if i == 0 else None)
        ax[r, 1].set_ylim(1e-7, None)
        ax[r, 1].legend(fontsize=7)
        ax[r, 1].set_title(f"{name}: singular values")
        pca = pca_explained(tr.params[0])[1:]
        for i in range(min(3, pca.shape[1])):
            ax[r, 2].semilogx(t, pca[:, i], label=f"PC{i + 1}")
        ax[r, 2].legend(fontsize=7)
        ax[r, 2].set_title(f"{name}: PCA of the W0 rows, explained-variance ratios")
    save(fig, out, "e4_rows.png")


# -- the experiments ----------------------------------------------------------------------------------------
def e1(out: str, profile: str) -> dict[str, Any]:
    ch = MarkovChain.lazy(E1_PI, "1/2")
    q = reference_quantities(ch, dps=30)
    t0 = time.process_time()
    tr = e1_trajectory()
    cpu = time.process_time() - t0
    st = tr.stages()
    ev = events(tr)
    print(f"\n== E1: pi = {E1_PI}, lam = 1/2, m = m_k = 8, eps = 1e-3, seed 0 (CPU {cpu:.1f} s)")
    print(f"log d = {float(q.logd):.6f}  H(pi) = {float(q.H):.6f}  H(Y|X) = {float(q.HYX):.6f}  "
          f"mu0 = {float(q.mu0):.6f}  c = {float(q.c):.6f}")
    print(f"{'plateau':>8} {'t':>10} {'L':>10}  reference")
    for k, p in enumerate(st.plateaus):
        ref = {0: f"log d {float(q.logd):.5f}", 1: f"H(pi) {float(q.H):.5f} (gap {p.value - float(q.H):.2e})"}.get(
            k, f"H(Y|X) {float(q.HYX):.5f} (gap {p.value - float(q.HYX):.2e})" if k == len(st.plateaus) - 1 else "")
        print(f"{k:>8} {p.t_value:>10.1f} {p.value:>10.5f}  {ref}")
    print("events:", ", ".join(f"{k} {v:.1f}" if v is not None else f"{k} -" for k, v in ev.items()))
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    ax[0].semilogx(tr.t[1:], tr.loss[1:], label="L(t)")
    for val, name in ((q.logd, "log d"), (q.H, "H(pi)"), (q.HYX, "H(Y|X)")):
        ax[0].axhline(float(val), ls="--", lw=0.8, color="gray")
        ax[0].text(tr.t[1], float(val), name, va="bottom", fontsize=8)
    ax[0].set_title("E1 loss and predicted plateaus")
    ax[1].semilogx(tr.t[1:], tr.A[1:, 0, 0], label="A_11")
    ax[1].semilogx(tr.t[1:], tr.focus_mass[1:], label="F")
    ax[1].semilogx(tr.t[1:], tr.concentration[1:], label="D-bar")
    for qq in range(1, 4):
        ax[1].semilogx(tr.t[1:], tr.A[1:, qq, 0], lw=0.8, label=f"A_{qq + 1}1")
    ax[1].legend(fontsize=7)
    ax[1].set_title("attention concentration")
    for i in range(4):
        ax[2].loglog(tr.t[1:], tr.sv_W0[1:, i], label=f"sigma_{i + 1}(W0)")
    ax[2].loglog(tr.t[1:], tr.sv_QK[1:, 0], "k--", label="sigma_1(W_Q W_K^T)")
    ax[2].legend(fontsize=7)
    ax[2].set_title("singular values")
    save(fig, out, "focus_e1.png")
    return {"plateaus": st.plateau_values, "events": ev, "cpu": cpu}


def e2(out: str, profile: str) -> dict[str, Any]:
    deltas = [0.01, 0.02] if profile == "quick" else [0.005, 0.01, 0.02]
    print("\n== E2: d = 5, pi = (0.6, 0.1 x 4), c = (1, -1, 1/2, -1/2), lam = 1/2 (seed 0)")
    rows = []
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for delta in deltas:
        tr = e2_trajectory(delta)
        te = first_time(tr.t, tr.sv_W0[:, 1] > 0.1)
        rows.append((delta, te, float(tr.loss[-1])))
        ax[0].loglog(tr.t[1:], tr.sv_W0[1:, 1], label=f"delta = {delta}")
        ax[1].semilogx(tr.t[1:], tr.loss[1:], label=f"delta = {delta}")
    T0 = 3000.0 if profile == "quick" else 3e4
    for lam, T in ((Fraction(1, 2), T0), (Fraction(7, 10), 1000.0)):
        tr = run_flow(symmetric_rare(5, Fraction(3, 5), lam), T=T, per_decade=100)
        te = first_time(tr.t, tr.sv_W0[:, 1] > 0.1)
        print(f"delta = 0, lam = {lam}: t_esc = {te}, sigma2(W0) max after 300 = "
              f"{tr.sv_W0[tr.t >= 300, 1].max():.4g}, L_lump = {lumped_loss(0.6, float(lam), 5):.10f}, "
              f"L(T) = {tr.loss[-1]:.10f}")
        ax[0].loglog(tr.t[1:], tr.sv_W0[1:, 1], "--", label=f"delta = 0, lam = {lam}")
    print(f"{'delta':>7} {'t_esc':>10} {'delta t_esc':>12} {'L(T)':>10}")
    for d_, te, L in rows:
        print(f"{d_:>7} {te if te is None else round(te, 1):>10} {'' if te is None else round(d_ * te, 2):>12} {L:>10.5f}")
    ok = [(d_, te) for d_, te, _ in rows if te is not None]
    slope = None
    if len(ok) >= 2:
        slope = float(np.polyfit(np.log([x for x, _ in ok]), np.log([y - 300 for _, y in ok]), 1)[0])
        print(f"log-log slope of (t_esc - 300) against delta: {slope:.3f} (Lyapunov-Schmidt: -1)")
    ax[0].axhline(0.1, color="gray", lw=0.8)
    ax[0].legend(fontsize=7)
    ax[0].set_title("E2: sigma_2(W0), escape from theta_c2")
    ax[1].legend(fontsize=7)
    ax[1].set_title("E2: loss")
    save(fig, out, "focus_e2.png")
    return {"rows": rows, "slope": slope}


def e3(out: str, profile: str) -> dict[str, Any]:
    T = 1500.0 if profile == "quick" else 8000.0
    m = 4 if profile == "quick" else 8
    chains = [(f"F1 lam={lam}", MarkovChain.lazy(E1_PI, lam)) for lam in ("3/10", "1/2", "9/10")]
    chains += [(f"P(theta={th})", lazy_anti_mixture(E1_PI, "1/2", th)) for th in ("0", "1/5", "3/5", "1")]
    F = Fraction
    Q = [[0, F(3, 10), F(2, 10), F(1, 10)], [F(3, 10), 0, F(3, 10), F(1, 10)], [F(2, 10), F(3, 10), 0, F(3, 10)],
         [F(1, 10), F(1, 10), F(3, 10), 0]]
    chains.append(("F2 metropolis", metropolis(E1_PI, Q)))
    print(f"\n== E3: ablation over P with pi = {E1_PI} (m = m_k = {m}, T = {T:g})")
    print(f"{'chain':>16} {'K2':>9} {'c':>9} {'R1':>7} {'onset':>7} {'focus':>7} {'new dir':>8} {'sign kappa':>10}")
    rows = []
    for name, ch in chains:
        q = reference_quantities(ch, dps=20)
        tr = run_flow(ch, T=T, m=m, mk=m, per_decade=100)
        ev = events(tr)
        W0 = tr.params[0]
        i = int(np.argmax(tr.sv_QK[:, 0] > 1e-2))
        a1 = np.linalg.svd(W0[i])[2][0]
        kap = float(a1 @ (tr.params[2][i] @ tr.params[3][i].T) @ a1)
        fmt = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
        print(f"{name:>16} {float(q.K2):>9.5f} {float(q.c):>9.5f} {fmt(ev['R1']):>7} {fmt(ev['onset']):>7} "
              f"{fmt(ev['focus']):>7} {fmt(ev['new_direction']):>8} {np.sign(kap):>10.0f}")
        rows.append({"chain": name, "K2": float(q.K2), "c": float(q.c), **ev, "sign_kappa": float(np.sign(kap))})
    return {"rows": rows}


def e5(out: str, profile: str) -> dict[str, Any]:
    ch = zipf(E5_D)
    q = reference_quantities(ch, dps=20)
    T = 400.0 if profile == "quick" else 3000.0
    t0 = time.process_time()
    tr = e5_trajectory(T)
    cpu = time.process_time() - t0
    print(f"\n== E5: Zipf surrogate d = {E5_D}, lam = 1/2, T = {T:g} (CPU {cpu:.1f} s)")
    print(f"mu0 = {float(q.mu0):.6f}  c = {float(q.c):.6f}  H(pi) = {float(q.H):.6f}  H(Y|X) = {float(q.HYX):.6f}")
    o = e5_observables(tr)
    _print_e5_observables(o)
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    ax[0].semilogx(tr.t[1:], tr.loss[1:])
    ax[0].axhline(float(q.H), ls="--", color="gray")
    ax[0].axhline(float(q.HYX), ls=":", color="gray")
    ax[0].set_title(f"E5 Zipf d = {E5_D}: loss (H(pi) dashed, H(Y|X) dotted)")
    for rank in (1, 2, 9, 17, 32):
        ax[1].semilogx(tr.t[1:], tr.A[1:, rank - 1, 0], label=f"A_q1, q = {rank}")
    ax[1].axhline(float(ch.pi[0]), color="gray", lw=0.8)
    ax[1].legend(fontsize=7)
    ax[1].set_title("attention on the most frequent token")
    save(fig, out, "focus_e5.png")
    return {"cpu": cpu, **o}


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

    from .population import model_matrices

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


EXPERIMENTS = {"e1": e1, "e2": e2, "e3": e3, "e4": e4, "e5": e5, "e5s": e5s}
DEFAULT = {"quick": "e1,e2,e3,e4,e5", "thorough": "e1,e2,e3,e4,e5,e5s"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--only", default=None,
                    help="comma-separated subset of " + ",".join(EXPERIMENTS) + " (default: " + DEFAULT["quick"]
                         + "; thorough adds e5s)")
    ap.add_argument("--e5-sampled", action="store_true", help="also run the sampled E5 mode (e5s)")
    args = ap.parse_args(argv)
    names = [n.strip() for n in (args.only or DEFAULT[args.profile]).split(",") if n.strip()]
    bad = [n for n in names if n not in EXPERIMENTS]
    if bad:
        ap.error(f"unknown experiment(s) {bad}; choose from {list(EXPERIMENTS)}")
    if args.e5_sampled and "e5s" not in names:
        names.append("e5s")
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        w0 = time.perf_counter()
        EXPERIMENTS[name](args.out, args.profile)
        print(f"[{name}: wall {time.perf_counter() - w0:.1f} s]")
    print(f"\nfigures written to {os.path.abspath(args.out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
