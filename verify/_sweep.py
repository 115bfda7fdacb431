"""Parameter sweeps: scans that outgrow one claim run (``verify sweep``, :func:`run_sweep`).

A *sweep* maps a function over a grid of points -- the critical temperature over many datasets, the
interpolation construction over a grid of (N, n, d) -- on the runner's executors (in-process, a local
process pool, or dask with ``--scheduler``), and writes ONE JSON report::

    {"schema": "verify-sweep/1", "sweep", "description", "grid", "seed", "started", "wall_time",
     "workers", "scheduler" (dask only), "environment", "tasks", "points_per_task", "interrupted",
     "summary": {"points", "done", "failed"},
     "results": [{"index", "point", "seed", "wall_time", "result" | "error"}]}

* ``fn(point, seed) -> dict`` is a module-level function (it is pickled to the workers); ``point`` is
  a JSON dict, ``seed`` is derived from the run's base seed, the sweep's name and the point
  (:func:`~verify.derive_seed`), so a point's result does not depend on the sharding or the executor.
* Sharding: the first two points run in-process (the first pays for imports; the second is timed);
  the others are grouped into tasks of ``ceil(min_task_seconds / t_second)`` points, so that each task
  takes at least ~``min_task_seconds`` (100 ms by default) and the per-task overhead (pickling,
  scheduling) stays small -- but into at least 4 tasks per worker, since the points of a grid differ
  in cost (the last ones of an (N, n, d) grid are the largest) and one huge task would leave the
  other workers idle.
* Streaming: each finished task's results are appended to ``<out>.partial.jsonl`` as they are
  collected (a crash or Ctrl-C keeps what finished); the final report is written atomically and the
  partial file removed.  An interrupted sweep writes its report with ``"interrupted": true``.
* A point that raises is recorded with ``"error"`` (type, message), never dropped.

A catalogue may provide built-in sweeps as ``<catalogue>.sweeps.SWEEPS`` (a mapping name ->
:class:`Sweep`); ``verify sweep --list`` lists them.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ._claim import derive_seed

__all__ = ["SWEEP_SCHEMA", "Sweep", "SweepResult", "load_sweeps", "run_sweep"]

SWEEP_SCHEMA = "verify-sweep/1"


@dataclass(frozen=True)
class Sweep:
    """A named scan: ``fn(point, seed) -> dict`` over ``grids[name]()`` (lists of JSON dicts)."""

    name: str
    description: str
    fn: Callable[[Mapping[str, Any], int], Mapping[str, Any]]
    grids: Mapping[str, Callable[[], Sequence[Mapping[str, Any]]]]

    def points(self, grid: str) -> list[dict[str, Any]]:
        if grid not in self.grids:
            raise KeyError(f"sweep {self.name!r} has no grid {grid!r} (grids: {', '.join(self.grids)})")
        return [dict(p) for p in self.grids[grid]()]


@dataclass
class SweepResult:
    report: dict[str, Any]

    @property
    def results(self) -> list[dict[str, Any]]:
        return self.report["results"]

    @property
    def failed(self) -> int:
        return self.report["summary"]["failed"]


def _point_seed(base: int, name: str, point: Mapping[str, Any]) -> int:
    return derive_seed(base, "sweep", name, json.dumps(point, sort_keys=True, default=str))


def _run_shard(fn: Callable[..., Any], items: Sequence[tuple[int, dict[str, Any], int]]) -> list[dict[str, Any]]:
    """Run ``fn`` on each (index, point, seed); an exception becomes an ``error`` record."""
    out = []
    for index, point, seed in items:
        t0 = time.perf_counter()
        rec: dict[str, Any] = {"index": index, "point": point, "seed": seed}
        try:
            rec["result"] = _plain(fn(point, seed))
        except Exception as e:  # noqa: BLE001 - recorded, never dropped
            rec["error"] = {"type": type(e).__name__, "message": str(e)[:2000],
                            "traceback": traceback.format_exc(limit=4)}
        rec["wall_time"] = time.perf_counter() - t0
        out.append(rec)
    return out


def _plain(obj: Any) -> Any:
    """JSON-compatible copy (numpy scalars and arrays, tuples, non-finite floats as strings)."""
    if isinstance(obj, Mapping):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if hasattr(obj, "tolist"):
        return _plain(obj.tolist())
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


def _environment() -> dict[str, str]:
    from ._runner import _environment as env

    return env()


def run_sweep(name: str, fn: Callable[..., Any], points: Iterable[Mapping[str, Any]], *, seed: int = 0,
              workers: int = 1, executor: Executor | None = None, out: str | os.PathLike[str] | None = None,
              min_task_seconds: float = 0.1, description: str = "", grid: str = "",
              progress: Callable[[str, int, int], None] | None = None) -> SweepResult:
    """Run ``fn`` over ``points``; returns the report (and writes it to ``out`` when given).

    ``executor``: any ``concurrent.futures.Executor`` (e.g. ``verify._dask.connect(...).executor``);
    without one, ``workers > 1`` starts a process pool (one BLAS/torch thread per worker) and
    ``workers == 1`` runs in-process.  ``progress(label, done, total)`` is called per finished point.
    """
    from ._report import _atomic_write
    from ._runner import SerialExecutor, _init_worker, _stop

    pts = [dict(p) for p in points]
    items = [(k, p, _point_seed(seed, name, p)) for k, p in enumerate(pts)]
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    partial = Path(f"{os.fspath(out)}.partial.jsonl") if out is not None else None
    results: list[dict[str, Any]] = []
    sink = None
    if partial is not None:
        partial.parent.mkdir(parents=True, exist_ok=True)
        sink = open(partial, "w", encoding="utf-8")  # noqa: SIM115 - closed in finally

    def collect(recs: list[dict[str, Any]]) -> None:
        results.extend(recs)
        if sink is not None:
            sink.writelines(json.dumps(r) + "\n" for r in recs)
            sink.flush()
        if progress is not None:
            for r in recs:
                progress(f"{name} #{r['index']}", len(results), len(items))

    own = executor is None and workers > 1
    ex: Executor = executor or (ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) if own
                                else SerialExecutor())
    interrupted = False
    per_task = 1
    n_tasks = 0
    pending: dict[Future, int] = {}
    try:
        if items:  # time the second point in-process (the first pays for imports), shard the rest
            calib = items[:2]
            collect(_run_shard(fn, calib))
            n_tasks = 1
            per_point = max(results[-1]["wall_time"], 1e-4)
            rest = len(items) - len(calib)
            # >= min_task_seconds per task, but >= 4 tasks per worker (points of a grid differ in cost)
            per_task = max(1, min(math.ceil(min_task_seconds / per_point),
                                  math.ceil(rest / (4 * max(1, workers)))))
            shards = [items[k:k + per_task] for k in range(len(calib), len(items), per_task)]
            n_tasks += len(shards)
            queue = list(shards)
            # in-process: collect each task before the next one (streamed as it finishes)
            limit = 1 if isinstance(ex, SerialExecutor) else 2 * max(1, workers)
            while queue or pending:
                while queue and len(pending) < limit:
                    shard = queue.pop(0)
                    pending[ex.submit(_run_shard, fn, shard)] = shard[0][0]
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for fut in done:
                    pending.pop(fut)
                    collect(fut.result())
    except KeyboardInterrupt:
        interrupted = True
        for fut in pending:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                collect(fut.result())  # finished before the interrupt: keep it
            else:
                fut.cancel()
    finally:
        if own and interrupted:
            _stop(ex, True, pending)  # terminate and reap the pool's workers
        elif own:
            ex.shutdown(wait=True)
        if sink is not None:
            sink.close()
    results.sort(key=lambda r: r["index"])
    sched = getattr(executor, "scheduler_info", None)
    report: dict[str, Any] = {
        "schema": SWEEP_SCHEMA, "sweep": name, "description": description, "grid": grid, "seed": seed,
        "started": started, "wall_time": time.perf_counter() - t0,
        "workers": int(sched["workers"]) if sched else workers,
        **({"scheduler": _plain(sched)} if sched else {}),
        "environment": _environment(), "tasks": n_tasks, "points_per_task": per_task,
        "min_task_seconds": min_task_seconds, "interrupted": interrupted,
        "summary": {"points": len(items), "done": len(results),
                    "failed": sum("error" in r for r in results)},
        "results": results,
    }
    if out is not None:
        _atomic_write(out, json.dumps(report, indent=1) + "\n")
        if partial is not None and not interrupted:
            partial.unlink(missing_ok=True)
    return SweepResult(report)


def load_sweeps(package: str) -> dict[str, Sweep]:
    """The built-in sweeps of a catalogue package (``<package>.sweeps.SWEEPS``; {} if it has none)."""
    import importlib

    try:
        mod = importlib.import_module(f"{package}.sweeps")
    except ModuleNotFoundError as e:
        if e.name in (f"{package}.sweeps", package):
            return {}
        raise
    sweeps = getattr(mod, "SWEEPS", {})
    return {s.name: s for s in (sweeps.values() if isinstance(sweeps, Mapping) else sweeps)}


def command(args: Any, package: str) -> int:
    """``verify sweep``: list the catalogue's sweeps, or run one and write its report (exit codes of
    ``verify run``: 0 every point ran, 1 some point raised, 4 usage, 130 interrupted)."""
    import sys

    from ._errors import UsageError

    sweeps = load_sweeps(package)
    if args.list or not args.name:
        if not sweeps:
            print(f"verify: the catalogue {package!r} defines no sweep ({package}.sweeps.SWEEPS)")
        for s in sweeps.values():
            print(f"{s.name:32s} grids: {', '.join(s.grids):20s} {s.description}")
        return 0 if args.list or sweeps else 4
    if args.name not in sweeps:
        raise UsageError(f"unknown sweep {args.name!r}; sweeps: {', '.join(sweeps) or 'none'}")
    sw = sweeps[args.name]
    try:
        points = sw.points(args.grid)
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None
    if args.min_task_seconds <= 0 or not math.isfinite(args.min_task_seconds):
        raise UsageError("--min-task-seconds must be a positive number of seconds")
    session = None
    if args.scheduler:
        from ._cli import _dask_session

        session = _dask_session(args.scheduler)
    from ._cli import _progress

    prog = _progress(not args.no_progress, len(points))  # None unless stderr is a terminal
    try:
        with prog if prog is not None else contextlib.nullcontext():
            res = run_sweep(sw.name, sw.fn, points, seed=args.seed,
                            workers=session.workers if session is not None else args.workers,
                            executor=session.executor if session is not None else None, out=args.json,
                            min_task_seconds=args.min_task_seconds, description=sw.description,
                            grid=args.grid, progress=prog)
    finally:
        if session is not None:
            session.close()
    rep = res.report
    for r in rep["results"][:args.show]:
        body = r.get("result", r.get("error"))
        print(f"{json.dumps(r['point'])}  ->  {json.dumps(body)[:160]}")
    if len(rep["results"]) > args.show:
        print(f"... {len(rep['results']) - args.show} more in the report")
    sm = rep["summary"]
    print(f"sweep {sw.name} ({args.grid}): {sm['done']}/{sm['points']} points, {sm['failed']} failed, "
          f"{rep['tasks']} tasks of <= {rep['points_per_task']} points, {rep['workers']} worker(s), "
          f"{rep['wall_time']:.1f} s" + (f"; report: {args.json}" if args.json else ""),
          file=sys.stderr)
    if rep["interrupted"]:
        return 130
    return 1 if sm["failed"] else 0
