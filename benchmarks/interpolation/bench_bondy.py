"""Benchmark: the paper's Bondy separation at scale, built and verified exactly (issue #14 item 2).

    python benchmarks/interpolation/bench_bondy.py [--quick] [--json out.json] [--no-recheck]

Goal: N = 200, n_j <= 50, d = 8 (hardmax, ``separation="bondy"``, the builder's default) built and
verified exactly in under 30 s, with bounded denominators.  Before (spec §3.2 with independent dyadic
steps and sphere points): 506 s build + 141 s verification, denominators up to 7972 bits.

Rows: a sweep over N (so R grows) reporting R, build and exact verification times, the largest parameter
denominator and the largest token denominator after stage S (bits), and the ratio of build + verify to the
goal (<= 1 meets it).  Baseline in the same run: the one-block mean shortcut (``separation="mean"``) on
the same dataset, so ``bondy/mean`` is machine-independent.  The machine load (1-minute load average)
is printed with every row: two cores shared with other jobs make absolute seconds noisy.

``--no-recheck`` skips the re-check of the count claims on the target instance: their product functions
(``num_blocks`` against ``paper_block_count`` and ``R + 2M``, ``num_parameters`` against
``parameter_formula``, the exact outputs of the model and of its padding to the paper's count).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_construction import random_dataset  # noqa: E402

from theorems.interpolation import build_interpolator  # noqa: E402
from theorems.interpolation.blocks import ExactState  # noqa: E402
from theorems.interpolation.construction import paper_block_count, parameter_formula  # noqa: E402

GOAL_S = 30.0


def _bits(v) -> int:
    return int(v.q if hasattr(v, "q") else v.denominator).bit_length()


def measure(D, separation: str) -> dict:
    load = os.getloadavg()[0]
    c0, t0 = time.process_time(), time.perf_counter()
    m = build_interpolator(D, "hardmax", separation=separation)
    c1, t1 = time.process_time(), time.perf_counter()
    outs = m.evaluate_dataset()
    exact = m.interpolates(outs)
    c2, t2 = time.process_time(), time.perf_counter()
    t_build, t_verify = t1 - t0, t2 - t1
    st = ExactState([[tuple(t) for t in x] for x in D.inputs], m.Q).run(m.blocks[:m.R])
    tok_bits = max(_bits(v) for t in st.P for v in t)
    return {"N": D.N, "n": D.n, "d": D.d, "tokens": D.num_tokens, "M": D.M, "R": m.R, "L": m.num_blocks,
            "sep": m.separation, "build_s": t_build, "verify_s": t_verify, "total_s": t_build + t_verify,
            "cpu_build_s": c1 - c0, "cpu_verify_s": c2 - c1, "cpu_total_s": c2 - c0,
            "den_bits": m.max_denominator_bits(), "token_bits_S": tok_bits, "exact": exact,
            "load": load, "model": m}


def recheck_counts(m) -> dict:
    """The count claims' product functions on this instance (interp.hardmax.blocks / params / exact)."""
    D = m.dataset
    padded = m.pad_to_paper_count(seed=0)
    out = {
        "blocks: L <= 2M + 2N + 1": m.num_blocks <= paper_block_count(D.N, D.M, "hardmax"),
        "blocks: L = R + 2M, R <= N - 1, width <= 4": m.num_blocks == m.R + 2 * D.M and m.R <= D.N - 1
        and m.width <= 4,
        "blocks: padding to the paper's count": padded.num_blocks == m.paper_count,
        "params: P = formula (spec 3.6)": m.num_parameters == parameter_formula(m.R, D.M, D.d, "hardmax",
                                                                                 m.kappa, "bondy"),
        "exact: outputs = targets (as sets)": m.interpolates(),
        "exact: padded outputs identical": padded.evaluate_dataset() == m.evaluate_dataset(),
    }
    return out


def table(rows: list[dict]) -> None:
    cols = ["N", "tokens", "M", "R", "L", "sep", "build_s", "verify_s", "total_s", "cpu_total_s", "den_bits",
            "token_bits_S", "exact", "load"]
    print(" | ".join(cols + ["goal ratio (wall)", "goal ratio (cpu)"]))
    for r in rows:
        cells = [f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols]
        print(" | ".join(cells + [f"{r['total_s'] / GOAL_S:.2f}", f"{r['cpu_total_s'] / GOAL_S:.2f}"]))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", default=None)
    ap.add_argument("--no-recheck", action="store_true")
    args = ap.parse_args(argv)
    res: dict = {"goal_s": GOAL_S}
    sizes = (10, 20, 40) if args.quick else (10, 25, 50, 100, 200)
    print("## Bondy separation, N sweep (n_j <= 50, d = 8; n_j <= 8 with --quick)")
    rows = []
    for N in sizes:
        D = random_dataset(N, 8 if args.quick else 50, 8, seed=N)
        rows.append(measure(D, "bondy"))
    table(rows)
    bits = [(r["R"], r["token_bits_S"]) for r in rows]
    print("token denominator bits after stage S against R: " + ", ".join(f"R={a}: {b}" for a, b in bits))
    target = rows[-1]
    base = measure(random_dataset(target["N"], 8 if args.quick else 50, 8, seed=target["N"]), "mean")
    print("\n## baseline on the largest instance: the one-block mean shortcut")
    table([base])
    ratio = target["total_s"] / base["total_s"]
    print(f"\nbondy/mean (build + verify) = {ratio:.2f}")
    print(f"N = {target['N']}: built + verified exactly in {target['total_s']:.1f} s wall "
          f"({target['cpu_total_s']:.1f} s of CPU), goal {GOAL_S:.0f} s: ratio {target['total_s'] / GOAL_S:.2f} wall "
          f"({'MET' if target['total_s'] < GOAL_S else 'MISSED'}), {target['cpu_total_s'] / GOAL_S:.2f} CPU "
          f"({'MET' if target['cpu_total_s'] < GOAL_S else 'MISSED'}); load {target['load']:.1f} on "
          f"{os.cpu_count()} cores; largest denominator {target['den_bits']} bits "
          f"(was 7972), tokens after S {target['token_bits_S']} bits")
    if not args.no_recheck:
        checks = recheck_counts(target["model"])
        print("\n## count claims re-checked on this instance (their product functions)")
        for k, v in checks.items():
            print(f"  {'ok  ' if v else 'FAIL'} {k}")
        res["recheck"] = checks
    for r in rows + [base]:
        r.pop("model", None)
    res.update(rows=rows, baseline=base, bondy_over_mean=ratio, goal_ratio=target["total_s"] / GOAL_S)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1, default=str))
    return res


if __name__ == "__main__":
    main()
