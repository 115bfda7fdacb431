"""Which worker runs which task: the runner's own process pool keeps related tasks together.

Checks of one part of a paper share expensive objects through per-process memos (critical points,
simulations, constructed models, symbolic derivations keyed by their exact inputs).  A process pool that
hands each task to whichever worker is free computes those objects once per worker; at two workers the
quick catalogue spent ~25 % more CPU than in one process for that reason alone.

:class:`AffinityQueues` gives every task a *group* (its claim's first two id components, e.g.
``focus.stage4``: the unit the memos are shared in; each shard of a sharded check is a group of its own,
so that shards spread) and assigns whole groups to workers by longest-processing-time (largest group to
the least loaded worker), each worker's queue longest task first.  A worker whose queue is empty takes
the last (shortest) queued task of the worker with the most queued seconds, so that no worker idles
while work is queued.  Expected seconds are the remembered timings (:mod:`verify._timings`); a task
without a timing counts as the median of the known ones (1 s when none is known).

:class:`WorkerPool` is the pool those queues feed: one single-process executor per worker, so that a
task can be sent to a chosen worker.  Only the assignment depends on all this: every seed is derived
per check, so the evidence does not.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

__all__ = ["AffinityQueues", "InOrder", "WorkerPool", "group_of"]

#: tasks in flight per worker: one running, one queued in the executor (hides the round trip)
PER_WORKER = 2


def group_of(claim_id: str, shard: int | None = None) -> str:
    """The group of a task of ``claim_id`` (module docstring); a shard index makes its own group."""
    key = ".".join(claim_id.split(".")[:2])
    return key if shard is None else f"{key} [shard {shard}]"


class InOrder:
    """Tasks in the given order, at most ``limit`` in flight (any executor, no choice of worker)."""

    def __init__(self, count: int, limit: int) -> None:
        self._next, self._count, self._limit = 0, count, limit

    def __bool__(self) -> bool:
        return self._next < self._count

    def take(self, busy: dict[int | None, int]) -> tuple[int, int | None] | None:
        if self._next >= self._count or sum(busy.values()) >= self._limit:
            return None
        self._next += 1
        return self._next - 1, None


class AffinityQueues:
    """Per-worker queues of task indices (module docstring).

    ``groups[t]`` and ``seconds[t]`` (``None``: unknown) describe task ``t``; ``tasks`` is the order in
    which tasks of equal expected time are queued (stable)."""

    def __init__(self, groups: Sequence[str], seconds: Sequence[float | None], workers: int) -> None:
        known = [s for s in seconds if s is not None]
        fill = statistics.median(known) if known else 1.0
        cost = [fill if s is None else float(s) for s in seconds]
        by_group: dict[str, list[int]] = {}
        for t, g in enumerate(groups):
            by_group.setdefault(g, []).append(t)
        load = [0.0] * workers
        queues: list[list[int]] = [[] for _ in range(workers)]
        # largest group first to the least loaded worker (ties: the lower worker, the catalogue order)
        for g in sorted(by_group, key=lambda g: -sum(cost[t] for t in by_group[g])):
            w = min(range(workers), key=lambda i: (load[i], i))
            queues[w].extend(by_group[g])
            load[w] += sum(cost[t] for t in by_group[g])
        self._cost = cost
        self._queues = [sorted(q, key=lambda t: -cost[t]) for q in queues]  # stable: longest first
        self._queued = [sum(cost[t] for t in q) for q in self._queues]
        self.stolen = 0

    def __bool__(self) -> bool:
        return any(self._queues)

    def assignment(self) -> list[list[int]]:
        """The queued tasks of each worker, in order (for tests and reports)."""
        return [list(q) for q in self._queues]

    def take(self, busy: dict[int | None, int]) -> tuple[int, int | None] | None:
        """The next (task, worker) to submit: a worker with room takes its own queue's head, or else
        the shortest task queued for the worker with the most queued seconds."""
        for w, q in enumerate(self._queues):
            if busy.get(w, 0) >= PER_WORKER:
                continue
            if q:
                t = q.pop(0)
                self._queued[w] -= self._cost[t]
                return t, w
            donors = [v for v in range(len(self._queues)) if self._queues[v]]
            if donors:
                v = max(donors, key=lambda i: (self._queued[i], -i))
                t = self._queues[v].pop()
                self._queued[v] -= self._cost[t]
                self.stolen += 1
                return t, w
        return None


class WorkerPool(Executor):
    """``workers`` single-process executors: :meth:`submit_to` sends a task to a chosen worker.

    Exposes ``_processes`` (every worker process) as :class:`~concurrent.futures.ProcessPoolExecutor`
    does, so that the runner's interruption terminates and reaps them the same way."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        self._pools = [ProcessPoolExecutor(max_workers=1, initializer=initializer) for _ in range(workers)]
        self._rr = 0

    @property
    def workers(self) -> int:
        return len(self._pools)

    @property
    def _processes(self) -> dict[Any, Any]:
        procs: dict[Any, Any] = {}
        for p in self._pools:
            procs.update(getattr(p, "_processes", None) or {})
        return procs

    def submit_to(self, worker: int, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return self._pools[worker].submit(fn, *args, **kwargs)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        self._rr = (self._rr + 1) % len(self._pools)
        return self.submit_to(self._rr, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for p in self._pools:
            p.shutdown(wait=wait, cancel_futures=cancel_futures)
