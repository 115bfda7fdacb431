"""Benchmark: locating the critical temperature, and the planted-task simulation (spec ddcl_incrt.md).

    python benchmarks/ddcl_incrt/bench_critical_temperature.py [--datasets 100] [--seed 0] [--planted-steps 300]
        [--rtol 1e-9] [--repeat 1]

1. 100 random data sets (d in [2, 32], N in [100, 2000], anisotropic covariance): tau_c = c lambda_1(C)
   by (a) the float estimate (numpy eigvalsh), the baseline; (b) the certified default
   (``critical_temperature(certified=True)``: numerics.rayleigh, the exact Rayleigh quotient of a refined
   float eigenvector by integer slice products and a Kato-Temple bound, relative radius <= 2**-132;
   the exact route -- exact covariance + refined Ostrowski-Gershgorin at 160 bits -- only where it does
   not apply);
   (b') the certified a-posteriori enclosure (``rtol=1e-9``: float Gram + eigh, rigorous residual
   bounds, numerics.aposteriori), which must contain (b); (c) the certified decision
   ``collapse_is_stable`` at tau = 1.01 tau_c (a posteriori, exact inertia only if undecided) on the
   data sets with N d <= 20 000.  Times are reported as ratios to (a), measured in the same run
   (``--repeat R``: each timing the minimum of R runs, against the noise of a shared machine).  The float
   estimate must lie inside the enclosure up to its float rounding; the exact decision must be TRUE.
2. The planted-task simulation (coupled model, r = 2): optimiser steps per second for the first
   ``--planted-steps`` steps, against a dictionary-free forward/backward of the same batch (baseline).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))


def measure(datasets: int = 100, seed: int = 0, planted_steps: int = 300, rtol: float = 1e-9,
            repeat: int = 1) -> dict:
    """Run the benchmark, print its tables, return the timings and ratios (``python -m benchmarks``)."""
    from numerics.dyadic import exact_covariance_of_floats
    from numerics.precision import Tri, arb_precision
    from theorems.ddcl_incrt import collapse_is_stable, critical_temperature
    from theorems.ddcl_incrt.hessian import _top_eigenvalue_enclosure

    import inspect

    from theorems.ddcl_incrt.dictionary import mode_constant

    bits = inspect.signature(critical_temperature).parameters["bits"].default  # the default's precision

    def exact_route(Z):  # the default before numerics.rayleigh: exact C + refined Ostrowski-Gershgorin
        top = _top_eigenvalue_enclosure(exact_covariance_of_floats(Z), bits)
        with arb_precision(bits):
            return top * mode_constant("full")

    Zw = np.random.default_rng(seed + 1).standard_normal((50, 3))  # warm-up: imports and first calls untimed
    critical_temperature(Zw, certified=False), critical_temperature(Zw), critical_temperature(Zw, rtol=rtol)
    collapse_is_stable(Zw, 4, 100.0, "full")
    rng = np.random.default_rng(seed)
    t_float = t_arb = t_post = t_exact = t_old = 0.0
    n_exact = n_post = n_kt = 0
    worst_gap = 0.0
    widths, post_widths, old_widths = [], [], []
    for k in range(datasets):
        d = int(rng.integers(2, 33))
        N = int(rng.integers(100, 2001))
        lam = np.exp(rng.uniform(-3, 3, d))
        Z = rng.standard_normal((N, d)) * np.sqrt(lam)
        dt = [math.inf] * 3
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            f = critical_temperature(Z, "full", certified=False)
            t1 = time.perf_counter()
            c = critical_temperature(Z, "full", certified=True)
            t2 = time.perf_counter()
            p = critical_temperature(Z, "full", certified=True, rtol=rtol)
            t3 = time.perf_counter()
            dt = [min(dt[0], t1 - t0), min(dt[1], t2 - t1), min(dt[2], t3 - t2)]
        t0 = time.perf_counter()
        old = exact_route(Z)
        t_old += time.perf_counter() - t0
        t_float += dt[0]
        t_arb += dt[1]
        t_post += dt[2]
        n_post += p.method == "a-posteriori"
        n_kt += c.method == "kato-temple"
        assert p.enclosure.contains(c.enclosure), (p.enclosure, c.enclosure)  # same tau_c, wider ball
        gap = abs(float(c.enclosure.mid()) - f.value) - float(c.enclosure.rad())
        worst_gap = max(worst_gap, gap / f.value)
        widths.append(float(c.enclosure.rad()) / f.value)
        old_widths.append(float(old.rad()) / f.value)
        with arb_precision(400):
            assert c.enclosure.overlaps(old) and c.enclosure.rad() <= old.rad()  # same tau_c, tighter
        post_widths.append(float(p.enclosure.rad()) / f.value)
        if N * d <= 20000:
            ts = math.inf
            for _ in range(max(1, repeat)):
                t3 = time.perf_counter()
                s = collapse_is_stable(Z, 4, Fraction(f.value) * Fraction(101, 100), "full")
                ts = min(ts, time.perf_counter() - t3)
            t_exact += ts
            n_exact += 1
            assert s.answer is Tri.TRUE, s.evidence
    per_float = t_float / datasets
    res = {"datasets": datasets, "seed": seed, "float_ms": 1e3 * per_float, "repeat": repeat,
           "certified_default_ratio": t_arb / t_float, "certified_aposteriori_ratio": t_post / t_float,
           "aposteriori_accepted": n_post, "kato_temple_accepted": n_kt, "rtol": rtol,
           "max_rel_radius_default": max(widths), "max_rel_radius_aposteriori": max(post_widths),
           "exact_route_ratio": t_old / t_float, "max_rel_radius_exact_route": max(old_widths)}
    print(f"critical temperature, {datasets} data sets (d <= 32, N <= 2000), seed {seed}")
    print(f"{'method':46s} {'total s':>10s} {'per set ms':>11s} {'ratio':>8s}")
    print(f"{'float estimate (numpy eigvalsh) [baseline]':46s} {t_float:10.3f} {1e3 * per_float:11.2f} {1.0:8.1f}")
    print(f"{'certified default (Rayleigh + Kato-Temple)':46s} {t_arb:10.3f} {1e3 * t_arb / datasets:11.2f} "
          f"{t_arb / t_float:8.1f}   ({n_kt}/{datasets} Kato-Temple)")
    print(f"{'exact route (the default before, single run)':46s} {t_old:10.3f} {1e3 * t_old / datasets:11.2f} "
          f"{t_old / t_float:8.1f}")
    print(f"{f'certified, a posteriori (rtol={rtol:g})':46s} {t_post:10.3f} {1e3 * t_post / datasets:11.2f} "
          f"{t_post / t_float:8.1f}   ({n_post}/{datasets} accepted)")
    if n_exact:
        per = t_exact / n_exact
        res["stability_ratio"] = per / per_float
        print(f"{'stability at 1.01 tau_c (certified), N d<=2e4':46s} {t_exact:10.3f} {1e3 * per:11.2f} "
              f"{per / per_float:8.1f}   ({n_exact} sets)")
    print(f"max relative enclosure radius: default {max(widths):.2e}, exact route {max(old_widths):.2e}, "
          f"a posteriori {max(post_widths):.2e}; "
          f"float estimate outside the default enclosure by at most {max(worst_gap, 0):.2e} (relative)")
    if planted_steps:
        res.update(_planted(planted_steps))
    return res


def _planted(steps: int) -> dict:
    import torch

    from theorems.ddcl_incrt.coupled import run_planted

    torch.set_num_threads(1)
    t0 = time.perf_counter()
    run_planted(2, seed=0, steps=steps)
    t_sim = time.perf_counter() - t0
    X = torch.randn(64, 32, 16, dtype=torch.float64)
    W = torch.randn(16, 16, dtype=torch.float64, requires_grad=True)
    t0 = time.perf_counter()
    for _ in range(steps):
        A = torch.softmax(X @ W @ X.transpose(1, 2) / 4, -1)
        (A @ X).pow(2).mean().backward()
    t_base = time.perf_counter() - t0
    print(f"\nplanted task (r = 2, batch 64 x 32 tokens, d = 16), {steps} steps")
    print(f"{'single attention forward/backward [baseline]':46s} {steps / t_base:9.1f} steps/s  ratio 1.0")
    print(f"{'coupled model with growth checks':46s} {steps / t_sim:9.1f} steps/s  ratio "
          f"{t_sim / t_base:.1f}x slower")
    print(f"estimated 30 000-step run: {30000 * t_sim / steps / 60:.1f} min")
    return {"planted_ratio": t_sim / t_base}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--planted-steps", type=int, default=300)
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    measure(args.datasets, args.seed, args.planted_steps, args.rtol, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
