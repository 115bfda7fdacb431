"""Command line of the focus experiments: ``python -m theorems.focus_dilution.experiments``."""

from __future__ import annotations

import argparse
import os
import time

from ._drivers import e1, e2, e3, e5
from ._e4 import e4
from ._e5 import e5s

USAGE = """Experiments of the focus-and-dilution spec (§5): E1, the E2 delta sweep, the E3 ablation, E4 (attention
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

EXPERIMENTS = {"e1": e1, "e2": e2, "e3": e3, "e4": e4, "e5": e5, "e5s": e5s}
DEFAULT = {"quick": "e1,e2,e3,e4,e5", "thorough": "e1,e2,e3,e4,e5,e5s"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m theorems.focus_dilution.experiments", description=USAGE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
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

