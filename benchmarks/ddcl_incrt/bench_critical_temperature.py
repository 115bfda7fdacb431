"""Benchmark: locating the critical temperature, and the planted-task simulation (spec ddcl_incrt.md).

    python benchmarks/ddcl_incrt/bench_critical_temperature.py [--datasets 100] [--seed 0] [--planted-steps 300]

1. 100 random data sets (d in [2, 32], N in [100, 2000], anisotropic covariance): tau_c = c lambda_1(C)
   by (a) the float estimate (numpy eigvalsh), the baseline; (b) the certified arb enclosure
   (``critical_temperature(certified=True)``: ball covariance + acb eigen-enclosure); (c) the exact
   decision ``collapse_is_stable`` at tau = 1.01 tau_c (fmpq covariance + Descartes) on the data sets
   with N d <= 20 000.  Times are reported as ratios to (a), measured in the same run.  The float
   estimate must lie inside the enclosure up to its float rounding; the exact decision must be TRUE.
2. The planted-task simulation (coupled model, r = 2): optimiser steps per second for the first
   ``--planted-steps`` steps, against a dictionary-free forward/backward of the same batch (baseline).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--planted-steps", type=int, default=300)
    args = ap.parse_args()

    from numerics.precision import Tri
    from theorems.ddcl_incrt import collapse_is_stable, critical_temperature

    rng = np.random.default_rng(args.seed)
    t_float = t_arb = t_exact = 0.0
    n_exact = 0
    worst_gap = 0.0
    widths = []
    rows = []
    for k in range(args.datasets):
        d = int(rng.integers(2, 33))
        N = int(rng.integers(100, 2001))
        lam = np.exp(rng.uniform(-3, 3, d))
        Z = rng.standard_normal((N, d)) * np.sqrt(lam)
        t0 = time.perf_counter()
        f = critical_temperature(Z, "full", certified=False)
        t1 = time.perf_counter()
        c = critical_temperature(Z, "full", certified=True)
        t2 = time.perf_counter()
        t_float += t1 - t0
        t_arb += t2 - t1
        gap = abs(float(c.enclosure.mid()) - f.value) - float(c.enclosure.rad())
        worst_gap = max(worst_gap, gap / f.value)
        widths.append(float(c.enclosure.rad()) / f.value)
        if N * d <= 20000:
            t3 = time.perf_counter()
            s = collapse_is_stable(Z, 4, Fraction(f.value) * Fraction(101, 100), "full")
            t_exact += time.perf_counter() - t3
            n_exact += 1
            assert s.answer is Tri.TRUE, s.evidence
    print(f"critical temperature, {args.datasets} data sets (d <= 32, N <= 2000), seed {args.seed}")
    print(f"{'method':42s} {'total s':>10s} {'per set ms':>11s} {'ratio':>8s}")
    print(f"{'float estimate (numpy eigvalsh) [baseline]':42s} {t_float:10.3f} {1e3 * t_float / args.datasets:11.2f} {1.0:8.1f}")
    print(f"{'certified enclosure (arb ball + acb eig)':42s} {t_arb:10.3f} {1e3 * t_arb / args.datasets:11.2f} {t_arb / t_float:8.1f}")
    if n_exact:
        per = t_exact / n_exact
        print(f"{'exact stability (fmpq + Descartes), N d<=2e4':42s} {t_exact:10.3f} {1e3 * per:11.2f} "
              f"{per / (t_float / args.datasets):8.1f}   ({n_exact} sets)")
    print(f"max relative enclosure radius {max(widths):.2e}; float estimate outside the enclosure by at most "
          f"{max(worst_gap, 0):.2e} (relative)")

    import torch

    from theorems.ddcl_incrt.coupled import run_planted

    torch.set_num_threads(1)
    t0 = time.perf_counter()
    run_planted(2, seed=0, steps=args.planted_steps)
    t_sim = time.perf_counter() - t0
    X = torch.randn(64, 32, 16, dtype=torch.float64)
    W = torch.randn(16, 16, dtype=torch.float64, requires_grad=True)
    t0 = time.perf_counter()
    for _ in range(args.planted_steps):
        A = torch.softmax(X @ W @ X.transpose(1, 2) / 4, -1)
        (A @ X).pow(2).mean().backward()
    t_base = time.perf_counter() - t0
    print(f"\nplanted task (r = 2, batch 64 x 32 tokens, d = 16), {args.planted_steps} steps")
    print(f"{'single attention forward/backward [baseline]':46s} {args.planted_steps / t_base:9.1f} steps/s  ratio 1.0")
    print(f"{'coupled model with growth checks':46s} {args.planted_steps / t_sim:9.1f} steps/s  ratio "
          f"{t_sim / t_base:.1f}x slower")
    print(f"estimated 30 000-step run: {30000 * t_sim / args.planted_steps / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
