"""Sweeps (``verify sweep``): speed-up on 2 workers and what sharding saves.

    python benchmarks/engine/bench_sweep.py [--sweep interp.construction] [--grid default] [--dask]

Runs one built-in sweep serially (the baseline), on a process pool of 2 with one point per task
(``min_task_seconds`` ~ 0) and with the default sharding (tasks of >= 0.1 s), and with ``--dask`` on a
LocalCluster of 2; checks that every run gives the serial results, and prints wall times as ratios to
the serial run with the tasks submitted.
"""

from __future__ import annotations

import argparse
import time

from theorems.sweeps import SWEEPS
from verify import run_sweep


def _strip(rep):
    return [{k: v for k, v in r.items() if k != "wall_time"} for r in rep["results"]]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sweep", default="interp.construction", choices=sorted(SWEEPS))
    ap.add_argument("--grid", default="default")
    ap.add_argument("--dask", action="store_true", help="also a dask LocalCluster of 2 (the [dask] extra)")
    args = ap.parse_args()
    sw = SWEEPS[args.sweep]
    points = sw.points(args.grid)
    rows = []

    def one(label, **kw):
        t0 = time.perf_counter()
        rep = run_sweep(sw.name, sw.fn, points, **kw).report
        rows.append((label, time.perf_counter() - t0, rep))
        return rep

    sw.fn(points[0], 0)  # imports paid before any timing (forked pool workers inherit them; dask's do not)
    base = one("serial, in-process (baseline)")
    one("process pool x2, 1 point per task", workers=2, min_task_seconds=1e-9)
    one("process pool x2, tasks >= 0.1 s", workers=2)
    if args.dask:
        from verify._dask import connect

        t0 = time.perf_counter()
        with connect("local:2") as session:
            start = time.perf_counter() - t0
            one(f"dask LocalCluster x2 (start {start:.1f} s), 1 point per task", executor=session.executor,
                min_task_seconds=1e-9, workers=2)
            one("dask LocalCluster x2, tasks >= 0.1 s", executor=session.executor, workers=2)
    print(f"sweep {sw.name} ({args.grid}): {len(points)} points")
    print("| engine | wall s | speed-up vs serial | tasks | points per task | same results |")
    print("|---|---|---|---|---|---|")
    t_base = rows[0][1]
    for label, wall, rep in rows:
        print(f"| {label} | {wall:.2f} | {t_base / wall:.2f} | {rep['tasks']} | {rep['points_per_task']} | "
              f"{_strip(rep) == _strip(base)} |")


if __name__ == "__main__":
    main()
