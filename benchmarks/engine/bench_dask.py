"""dask.distributed as the engine: speed-up with 1 and 2 dask workers against the serial run, and the
per-task overhead (empty tasks), all measured in one run.

    python benchmarks/engine/bench_dask.py [PATTERN ...] [--profile quick] [--empty 200]

Needs the ``[dask]`` extra.  Each dask row uses a fresh loopback ``LocalCluster`` (one-thread worker
processes); its start-up (with the imports the checks need, on every worker) is timed apart from the
run.  The serial baseline runs after the same imports and one untimed claim.  The
verdicts of every run must agree with the serial run (the seeds are derived the same way).

The overhead rows run ``--empty`` synthetic claims whose check and control return at once: the wall
time per task is the cost of the engine's path (pickling the check, shipping it, returning evidence).
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from rich.console import Console
from rich.table import Table

from verify import Check, Claim, Control, Evidence, Source, Verdict, catalogue, refuted, run_claims


def empty(*, seed, profile, refute=False):
    if refute:
        return Evidence(Verdict.REFUTED, instances=1, counterexample=refuted("1 > 0"))
    return Evidence(Verdict.CERTIFIED, instances=1)


def warm() -> None:
    """Import what the checks use (run in the parent before the baseline, and on each dask worker as
    part of its start-up), so that no row pays the first imports inside its timing."""
    import flint  # noqa: F401
    import hypothesis  # noqa: F401
    import mpmath  # noqa: F401
    import scipy.optimize  # noqa: F401
    import sympy  # noqa: F401
    import torch  # noqa: F401

    catalogue()


def empty_claims(n_tasks: int) -> list[Claim]:
    kw = {"strength": "derived"} if "strength" in {f.name for f in dataclasses.fields(Claim)} else {}
    return [Claim(id=f"bench.empty{k}", title="empty", source=Source("0000.00000", "-", "-"),
                  statement="s", reading="r", checks=(Check("main", empty),),
                  controls=(Control("ctrl", "false", Check("main", empty, {"refute": True})),),
                  expected=Verdict.CERTIFIED, **kw)
            for k in range(max(1, n_tasks // 2))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("patterns", nargs="*", default=["ddcl.*"])
    ap.add_argument("--profile", default="quick")
    ap.add_argument("--empty", type=int, default=200, help="number of empty tasks (overhead rows)")
    args = ap.parse_args(argv)
    from distributed import Client

    from verify._dask import DaskExecutor, OneThreadPlugin, local_cluster

    claims, _ = catalogue().select(args.patterns)
    blanks = empty_claims(args.empty)
    n_tasks = sum(len(c.checks) + len(c.controls) for c in claims)
    n_empty = sum(len(c.checks) + len(c.controls) for c in blanks)
    rows: list[tuple[str, float | None, float, float, float]] = []

    def timed(label, workers, executor=None, startup=None):
        t0 = time.perf_counter()
        res = run_claims(claims, profile=args.profile, workers=workers, executor=executor)
        dt = time.perf_counter() - t0
        t0 = time.perf_counter()
        run_claims(blanks, workers=workers, executor=executor)
        de = time.perf_counter() - t0
        rows.append((label, startup, dt, de / n_empty * 1e3, sum(o.wall_time for o in res.outcomes)))
        return [(o.claim_id, o.verdict, o.passed) for o in res.outcomes]

    warm()
    run_claims(claims[:1], profile=args.profile)  # untimed: the first run pays lazy set-up
    ref = timed("serial, in-process (baseline)", 1)
    if timed("process pool x2", 2) != ref:
        raise SystemExit("verdicts differ: process pool")
    for n in (1, 2):
        t0 = time.perf_counter()
        cl = local_cluster(n)
        client = Client(cl)
        client.register_plugin(OneThreadPlugin())
        client.wait_for_workers(n)
        client.run(warm)
        startup = time.perf_counter() - t0
        try:
            if timed(f"dask LocalCluster x{n}", n, DaskExecutor(client), startup) != ref:
                raise SystemExit(f"verdicts differ: dask x{n}")
        finally:
            client.close()
            cl.close()
    base = rows[0][2]
    t = Table(title=f"dask engine: {len(claims)} claims ({n_tasks} tasks), profile {args.profile}; "
                    f"overhead from {n_empty} empty tasks")
    for col in ("engine", "cluster start s", "wall s", "speed-up vs serial", "sum of check s",
                "ms per empty task"):
        t.add_column(col, justify="right")
    for label, startup, dt, per, cpu in rows:
        t.add_row(label, "-" if startup is None else f"{startup:.1f}", f"{dt:.1f}", f"{base / dt:.2f}",
                  f"{cpu:.1f}", f"{per:.2f}")
    Console(width=160).print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
