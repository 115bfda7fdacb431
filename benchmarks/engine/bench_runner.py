"""Runner throughput: the same claims in-process (baseline) and on a process pool, in one run.

    python benchmarks/engine/bench_runner.py [PATTERN ...] [--workers 2] [--profile quick]

Prints a table of wall times with the ratio to the in-process baseline measured in the same process.
The verdicts of both runs must agree (the seeds are derived the same way).
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from verify import catalogue, run_claims


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", default="quick")
    args = ap.parse_args(argv)
    claims, _ = catalogue().select(args.patterns)
    rows = []
    verdicts = None
    for label, workers in (("in-process (baseline)", 1), (f"process pool x{args.workers}", args.workers)):
        t0 = time.perf_counter()
        res = run_claims(claims, profile=args.profile, workers=workers)
        dt = time.perf_counter() - t0
        v = [(o.claim_id, o.verdict, o.passed) for o in res.outcomes]
        if verdicts is None:
            verdicts = v
        elif v != verdicts:
            raise SystemExit("verdicts differ between executors: " + repr((verdicts, v)))
        rows.append((label, dt, sum(c.evidence.wall_time for o in res.outcomes for c in o.checks + o.controls)))
    base = rows[0][1]
    t = Table(title=f"runner: {len(claims)} claims, profile {args.profile}")
    for col in ("executor", "wall s", "sum of check s", "ratio to baseline"):
        t.add_column(col, justify="right")
    for label, dt, cpu in rows:
        t.add_row(label, f"{dt:.1f}", f"{cpu:.1f}", f"{dt / base:.2f}")
    Console().print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
