"""Benchmark: construction + exact verification of the hardmax interpolator as N, n_j and d grow.

    python benchmarks/interpolation/bench_construction.py [--quick] [--json out.json]

For every size: build time (every post-condition asserted exactly while building), exact verification
time (a fresh exact run of the whole dataset, python-flint fmpq with the float filter), the same with
the Fraction backend, a float64 forward pass of the same model (torch export, padded batch with masks,
best of 3), their ratio, and the largest parameter denominator (bits).  Growth exponents are fitted on
log-log scales.  The issue's target row is N = 200, n_j <= 50, d = 8 (hardmax): built and verified in
under 120 s, exact verification within 20x of the float64 forward pass.  A straightforward
reference evaluation (every token through numerics.attention in Fractions, ``run_generic``) is timed on a
small instance as the baseline of the exact evaluator.

Separation: ``auto`` (the one-block mean shortcut of spec §3.2.10 under the exact post-check, with the
spec's Bondy separation as fallback); the Bondy separation is also timed on moderate sizes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from theorems.interpolation import Dataset, build_interpolator  # noqa: E402
from theorems.interpolation.blocks import run_generic  # noqa: E402
from theorems.interpolation.torch_export import pad_batch  # noqa: E402


def random_dataset(N: int, n: int, d: int, seed: int = 0, m_max: int = 3, coord: int = 20) -> Dataset:
    """N sequences of n/2..n tokens from a shared integer pool (tokens shared across sequences)."""
    rng = random.Random(seed)
    pool = list({tuple(rng.randint(-coord, coord) for _ in range(d)) for _ in range(max(N * n // 2, n + 5))})
    ins, outs, seen = [], [], set()
    while len(ins) < N:
        s = rng.sample(pool, rng.randint(max(1, n // 2), n))
        if frozenset(s) in seen:
            continue
        seen.add(frozenset(s))
        ins.append(s)
        ys = list(dict.fromkeys(tuple(rng.randint(-5, 5) for _ in range(d)) for _ in range(rng.randint(1, min(m_max, len(s))))))
        outs.append(ys)
    return Dataset(ins, outs)


def measure(D: Dataset, separation: str = "auto", fraction: bool = True) -> dict:
    t0 = time.perf_counter()
    m = build_interpolator(D, "hardmax", separation=separation)
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    outs = m.evaluate_dataset(backend="flint")
    t_exact = time.perf_counter() - t0
    ok = m.interpolates(outs)
    t_frac = None
    if fraction:
        t0 = time.perf_counter()
        m.evaluate_dataset(backend="fraction")
        t_frac = time.perf_counter() - t0
    net = m.to_torch()
    X, mask = pad_batch(D.inputs)
    best = math.inf
    with torch.no_grad():
        for _ in range(3):
            t0 = time.perf_counter()
            net(X, mask)
            best = min(best, time.perf_counter() - t0)
    return {"N": D.N, "n": D.n, "d": D.d, "M": D.M, "tokens": D.num_tokens, "L": m.num_blocks,
            "P": m.num_parameters, "sep": m.separation, "build_s": t_build, "exact_s": t_exact,
            "fraction_s": t_frac, "float_s": best, "exact/float": t_exact / best,
            "fraction/flint": (t_frac / t_exact) if t_frac else None, "den_bits": m.max_denominator_bits(),
            "exact": ok}


def slope(xs, ys) -> float:
    lx, ly = [math.log(x) for x in xs], [math.log(max(y, 1e-9)) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def table(rows: list[dict]) -> None:
    cols = ["N", "n", "d", "tokens", "M", "L", "P", "sep", "build_s", "exact_s", "fraction_s", "float_s",
            "exact/float", "fraction/flint", "den_bits", "exact"]
    print(" | ".join(cols))
    for r in rows:
        print(" | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    res: dict = {"torch": torch.__version__}
    sweeps = {
        "N (n<=8, d=8)": [random_dataset(N, 8, 8, seed=N) for N in ((10, 20, 40) if args.quick else (10, 20, 40, 80, 160))],
        "n (N=20, d=8)": [random_dataset(20, n, 8, seed=n) for n in ((8, 16, 32) if args.quick else (8, 16, 32, 50))],
        "d (N=20, n<=8)": [random_dataset(20, 8, d, seed=d) for d in ((2, 4, 8) if args.quick else (2, 4, 8, 16))],
    }
    for name, datasets in sweeps.items():
        rows = [measure(D) for D in datasets]
        key = {"N": "N", "n": "tokens", "d": "d"}[name[0]]
        xs = [r[key] for r in rows]
        fit = {f: slope(xs, [r[f] for r in rows]) for f in ("build_s", "exact_s", "float_s")}
        print(f"\n## sweep over {name}")
        table(rows)
        print("fitted exponents (log time / log " + key + "): " + ", ".join(f"{k} {v:.2f}" for k, v in fit.items()))
        res[name] = {"rows": rows, "exponents": fit}
    print("\n## Bondy separation (the spec's method) on moderate sizes")
    rows = [measure(random_dataset(N, 8, 8, seed=N), separation="bondy", fraction=False) for N in ((10, 20) if args.quick else (10, 20, 40))]
    table(rows)
    res["bondy"] = rows
    print("\n## baseline: reference evaluator (every token through numerics.attention, Fractions)")
    D = random_dataset(5 if args.quick else 20, 8, 8, seed=7)
    m = build_interpolator(D, "hardmax", separation="auto")
    t0 = time.perf_counter()
    for x in D.inputs:
        run_generic(m.blocks, x, "fraction")
    t_ref = time.perf_counter() - t0
    t0 = time.perf_counter()
    m.evaluate_dataset(backend="flint")
    t_fast = time.perf_counter() - t0
    print(f"N = {D.N}, tokens = {D.num_tokens}, L = {m.num_blocks}: reference {t_ref:.3g} s, fast exact {t_fast:.3g} s, "
          f"ratio {t_ref / t_fast:.1f}x")
    res["baseline"] = {"N": D.N, "tokens": D.num_tokens, "reference_s": t_ref, "fast_s": t_fast}
    if not args.quick:
        print("\n## target: N = 200, n_j <= 50, d = 8, hardmax")
        D = random_dataset(200, 50, 8, seed=200)
        r = measure(D)
        table([r])
        total = r["build_s"] + r["exact_s"]
        print(f"built + verified exactly in {total:.1f} s (target < 120 s): {'MET' if total < 120 else 'MISSED'}; "
              f"exact/float64 = {r['exact/float']:.2f} (target <= 20): {'MET' if r['exact/float'] <= 20 else 'MISSED'}; "
              f"largest denominator {r['den_bits']} bits")
        res["target"] = r
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1, default=str))
    return res


if __name__ == "__main__":
    main()
