"""Experiments of arXiv:2502.02270: Tikhonov tables and figures, and the 2-D construction figure.

Usage::

    python -m theorems.interpolation.experiments [--profile quick|thorough] [--out figures]
                                                 [--only ridge,fig1a,fig1b,cold,construction]

* ``ridge``: the exact ridge sanity model (spec §5.2): min J_eps, min J_eps/eps -> |V_mn|^2 = 214/59, E/eps^2.
* ``fig1a``: the authors' Figure 1a (eps = 1e-4; 50,000 epochs thorough, 3,000 quick), the threshold
  eps |theta*|^2 and where the data loss crosses it.
* ``fig1b``: Figure 1b with the authors' warm-start protocol (eps 1e-1, 1e-2, 1e-3 with 5k/10k/50k
  epochs thorough; a tenth quick) from the authors' starting weights (the RNG state after the data draws,
  float32 draw): minima against the authors' (ratio; thorough within 1 %), local and end-to-end log-log
  slopes; then the same protocol from ``manual_seed(s)`` for every s of ``--seeds`` (default 0,1,2,3):
  the spread of the minima and of the end-to-end slope over starting points (``--seeds ''`` skips it).
* ``cold``: the cold-start variant (fresh model per eps, equal epochs: 50,000 thorough, 1,000 quick;
  explicit and coupled penalties): slopes of J_eps(theta_T) and E(theta_T) over the four smallest eps.
* ``construction``: the construction on a 2-D dataset with three sequences (tokens after each stage,
  targets marked).

Figures are written with matplotlib (Agg) to ``--out`` (default ./figures); numbers are printed and
saved as JSON next to them.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from fractions import Fraction
from typing import Any

from .._figures import pyplot, save

__all__ = ["main", "ridge_table", "construction_figure", "THREE_SEQUENCES"]

F = Fraction

#: the 2-D three-sequence dataset of the construction figure (tokens shared between sequences)
THREE_SEQUENCES = (
    [[(F(0), F(0)), (F(1), F(0)), (F(1), F(1))],
     [(F(0), F(0)), (F(0), F(1)), (F(1), F(1)), (F(-1), F(1))],
     [(F(1), F(0)), (F(0), F(1)), (F(-1), F(-1))]],
    [[(F(3), F(-2)), (F(-2), F(3))], [(F(4), F(4))], [(F(-3), F(-1)), (F(2), F(2)), (F(0), F(-3))]],
)


def ridge_table() -> list[dict[str, str]]:
    import sympy as sp

    from .training import ridge_E, ridge_min_J, ridge_minimiser, ridge_mn, ridge_reference

    X, Y = ridge_reference()
    Vmn = ridge_mn(X, Y)
    rows = []
    for e in (F(1, 10), F(1, 100), F(1, 1000), F(1, 10000)):
        eps = sp.Rational(e.numerator, e.denominator)
        mJ = sp.simplify(ridge_min_J(X, Y, eps))
        E = sp.simplify(ridge_E(ridge_minimiser(X, Y, eps), X, Y))
        rows.append({"eps": str(eps), "min_J": str(mJ), "min_J/eps": f"{float(mJ / eps):.6f}",
                     "E": f"{float(E):.4e}", "E/eps^2": f"{float(E / eps ** 2):.6f}"})
    rows.append({"eps": "->0", "min_J": "", "min_J/eps": f"{float(sum(v * v for v in Vmn)):.6f} (=|V_mn|^2 = "
                 f"{sp.simplify(sum(v * v for v in Vmn))})", "E": "", "E/eps^2": f"{4134 / 3481:.6f}"})
    return rows


def _print_table(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n## {title}")
    if not rows:
        return
    keys = list(rows[0])
    print(" | ".join(keys))
    for r in rows:
        print(" | ".join(str(r.get(k, "")) for k in keys))


def construction_figure(out: str) -> str:
    """Tokens of the three 2-D sequences after each stage of the hardmax construction."""
    plt = pyplot()

    from .construction import build_interpolator
    from .dataset import Dataset
    from .exact_state import ExactState

    D = Dataset(*THREE_SEQUENCES)
    m = build_interpolator(D, "hardmax")
    stages = [("input", 0)]
    idx = 0
    for name in ("S", "P", "I"):
        idx = max([i + 1 for i, b in enumerate(m.blocks) if b.stage == name], default=idx)
        stages.append(({"S": "after separation", "P": "after placement + collapse",
                        "I": "after interpolation"}[name], idx))
    fig, axes = plt.subplots(1, len(stages), figsize=(4 * len(stages), 4))
    colors = ["tab:blue", "tab:orange", "tab:green"]
    for ax, (title, upto) in zip(axes, stages):
        st = ExactState(D.inputs, m.Q).run(m.blocks[:upto])
        for j in range(D.N):
            pts = st.sequence(j)
            ax.scatter([float(p[0]) for p in pts], [float(p[1]) for p in pts], s=40, alpha=0.6,
                       color=colors[j], label=f"X^{j + 1}")
            ax.scatter([float(y[0]) for y in D.outputs[j]], [float(y[1]) for y in D.outputs[j]],
                       marker="x", s=80, color=colors[j])
        ax.set_title(f"{title} (block {upto}/{m.num_blocks})", fontsize=9)
        ax.set_aspect("equal", adjustable="datalim")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"hardmax construction, d = 2, N = 3, M = {D.M}: L = {m.num_blocks}, P = {m.num_parameters} "
                 "(x = targets)", fontsize=10)
    return save(fig, out, "interp_construction_2d.png", dpi=120)


def _fig1_plots(out: str, res: dict[str, Any]) -> list[str]:
    plt = pyplot()
    paths = []
    if "fig1a" in res:
        a = res["fig1a"]
        fig, ax = plt.subplots(figsize=(5, 3.2))
        ax.loglog(range(1, len(a["losses"]) + 1), a["losses"], label="training loss E")
        ax.axhline(a["threshold"], color="red", label="eps |theta*|^2")
        ax.set_xlabel("epoch")
        ax.set_ylabel("loss")
        ax.legend()
        paths.append(save(fig, out, "interp_fig1a.png", dpi=120))
    if "fig1b" in res or "cold" in res:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        if "fig1b" in res:
            b = res["fig1b"]
            ax.loglog(b["eps"], b["minima"], "o-", label="warm start: min E (authors)")
        if "cold" in res:
            for pen in ("explicit", "coupled"):
                if pen in res["cold"]:
                    rows = res["cold"][pen]["rows"]
                    ax.loglog([r["eps"] for r in rows], [r["J"] for r in rows], "s--", label=f"cold {pen}: J")
                    ax.loglog([r["eps"] for r in rows], [max(r["E"], 1e-16) for r in rows], "^:",
                              label=f"cold {pen}: E")
        ax.set_xlabel("eps")
        ax.legend(fontsize=7)
        paths.append(save(fig, out, "interp_fig1b.png", dpi=120))
    return paths


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m theorems.interpolation.experiments", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    ap.add_argument("--out", default="figures")
    ap.add_argument("--only", default="ridge,fig1a,fig1b,cold,construction")
    ap.add_argument("--cold-epochs", type=int, default=None,
                    help="epochs per eps of the cold-start sweep (default 1,000 quick, 50,000 thorough)")
    ap.add_argument("--seeds", default="0,1,2,3",
                    help="starting seeds of the Figure 1b spread (comma-separated; '' skips the spread)")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    parts = set(args.only.split(","))
    quick = args.profile == "quick"
    res: dict[str, Any] = {"profile": args.profile}
    if "ridge" in parts:
        res["ridge"] = ridge_table()
        _print_table("ridge sanity model (exact)", res["ridge"])
    if "construction" in parts:
        p = construction_figure(args.out)
        print(f"\nconstruction figure: {p}")
    if parts & {"fig1a", "fig1b", "cold"}:
        import torch

        torch.set_num_threads(1)
        from .training import cold_start_sweep, fig1_data, figure1a, figure1b

        data = fig1_data()
        res["theta_star_norm2"] = data.theta_star_norm2
        res["torch"] = torch.__version__
        print(f"\n|theta*|^2 = {data.theta_star_norm2:.4f} (spec: in [55, 70]; figure threshold 6.25e-3 -> 62.5)")
        if "fig1a" in parts:
            t = time.time()
            a = figure1a(data, epochs=3000 if quick else 50_000)
            a["seconds"] = time.time() - t
            cross = next((i + 1 for i, v in enumerate(a["losses"]) if v < a["threshold"]), None)
            res["fig1a"] = a
            print(f"\n## Figure 1a (eps = 1e-4, {len(a['losses'])} epochs, {a['seconds']:.0f} s)")
            for ep in (1, 100, 300, 1000, 3000, 10_000, 20_000, 30_000, 50_000):
                if ep <= len(a["losses"]):
                    print(f"epoch {ep}: E = {a['losses'][ep - 1]:.4g}")
            print(f"final E = {a['E']:.4g}; threshold eps|theta*|^2 = {a['threshold']:.4g}; first below at "
                  f"epoch {cross}; final below threshold: {a['E'] < a['threshold']}")
        if "fig1b" in parts:
            t = time.time()
            epochs = (500, 1000, 5000) if quick else (5000, 10_000, 50_000)
            b = figure1b(data, epochs=epochs)
            b["seconds"] = time.time() - t
            res["fig1b"] = b
            read = (3.26e-2, 1.32e-2, 4.96e-4)
            print(f"\n## Figure 1b, warm starts from the authors' starting weights (epochs {epochs}, "
                  f"{b['seconds']:.0f} s)")
            for e, mval, r in zip(b["eps"], b["minima"], read):
                print(f"eps = {e:g}: min E = {mval:.4g} (authors' code / figure: {r:.3g}; ratio {mval / r:.4f})")
            print(f"local slopes {[round(s, 2) for s in b['local_slopes']]}; end-to-end slope "
                  f"{b['slope_end_to_end']:.2f} (figure: 0.39, 1.43; 0.91)")
            seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
            if seeds:
                t = time.time()
                runs = [figure1b(data, epochs=epochs, seed=s) for s in seeds]
                spread = {"seeds": seeds, "minima": [r["minima"] for r in runs],
                          "slopes": [r["slope_end_to_end"] for r in runs], "seconds": time.time() - t}
                res["fig1b_seed_spread"] = spread
                print(f"\nstarting-point spread (manual_seed(s), float32 draw; s = {seeds}; {spread['seconds']:.0f} s):")
                for s_, r in zip(seeds, runs):
                    print(f"   seed {s_}: minima {[f'{v:.3g}' for v in r['minima']]}, end-to-end slope "
                          f"{r['slope_end_to_end']:.2f}")
                for i, e in enumerate(b["eps"]):
                    col = [r["minima"][i] for r in runs]
                    print(f"   eps = {e:g}: min E in [{min(col):.3g}, {max(col):.3g}]")
                print(f"   end-to-end slope in [{min(spread['slopes']):.2f}, {max(spread['slopes']):.2f}]: "
                      "no single run's slope is evidence for or against the linear law")
        if "cold" in parts:
            t = time.time()
            c = cold_start_sweep(data, epochs=args.cold_epochs or (1000 if quick else 50_000))
            c["seconds"] = time.time() - t
            res["cold"] = c
            print(f"\n## cold start (fresh model per eps, {c['epochs']} epochs each, {c['seconds']:.0f} s)")
            for pen in ("explicit", "coupled"):
                print(f"{pen}: slope J = {c[pen]['slope_J']:.3f}, slope E = {c[pen]['slope_E']:.3f}")
                for r in c[pen]["rows"]:
                    print(f"   eps {r['eps']:g}: E = {r['E']:.4g}, |theta|^2 = {r['norm2']:.4g}, J = {r['J']:.4g}, "
                          f"not a global minimiser: {r['not_global_min']}")
        for p in _fig1_plots(args.out, res):
            print(f"figure: {p}")
    with open(os.path.join(args.out, f"interp_experiments_{args.profile}.json"), "w") as fh:
        json.dump({k: v for k, v in res.items()}, fh, indent=1, default=str)
    return res


if __name__ == "__main__":
    main()
