"""E4 (spec §5.4): attention entropy and concentration observables (pure functions), the E4 tables and
figures on the E1 and E2 runs.
"""

from __future__ import annotations

import math
import time
from typing import Any, Sequence

import numpy as np

from ..._figures import pyplot, save
from ..flow import Trajectory, events
from ._runs import (
    E1_PI,
    E2_HORIZON,
    E4_DBAR_EXPECTED,
    E4_DBAR_TIMES,
    E4_KL1_EXPECTED,
    E4_S,
    E4_SWING,
    FLIP_WINDOW,
    ROW_SWING,
    e1_trajectory,
    e2_trajectory,
)


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
