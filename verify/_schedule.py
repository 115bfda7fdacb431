"""Which worker runs which task: the runner's own process pool keeps related tasks together.

Checks of one part of a paper share expensive objects through per-process memos (critical points,
simulations, constructed models, symbolic derivations keyed by their exact inputs).  A process pool that
hands each task to whichever worker is free computes those objects once per worker; at two workers the
quick catalogue spent ~25 % more CPU than in one process for that reason alone.

:class:`AffinityQueues` gives every task a *group* (its claim's first two id components, e.g.
``focus.stage4``: the unit the memos are shared in; each shard of a sharded check is a group of its own,
so that shards spread) and assigns whole groups to workers by longest-processing-time (largest group to
the least loaded worker); each worker's queue holds its groups one after another, in that order, each
group's tasks longest first (its main check, which fills the memos, before the controls that then cost
~0 s).  A worker whose queue is empty takes work from the worker with the most queued seconds, so that
no worker idles while work is queued: a whole group that worker has not begun (its memos are not built
there yet, so nothing is computed twice), the one closest to half of its queued seconds; or, when it
has begun every queued group, its shortest queued task of at least :data:`MIN_STOLEN_SECONDS` (a
cheaper one would gain no balance and may be cheap only through a memo that the thief must recompute).  Before, a queue ran its tasks longest
first across groups, so every group was begun early and an idle worker took single ~0 s tasks of begun
groups: at thorough, ``ddcl.temperature.scale_specialisation`` took 34.7 s instead of 17.9 s.
Expected seconds are the
remembered timings (:mod:`verify._timings`); a task without a timing counts as the median of the known
ones (1 s when none is known).

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

#: an idle worker takes single tasks of a begun group only from this expected time on (seconds)
MIN_STOLEN_SECONDS = 1.0


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
        # largest group first to the least loaded worker (ties: the lower worker, the catalogue order);
        # a queue: its groups in that order, each longest task first (stable: catalogue order among equals)
        for g in sorted(by_group, key=lambda g: -sum(cost[t] for t in by_group[g])):
            w = min(range(workers), key=lambda i: (load[i], i))
            queues[w].extend(sorted(by_group[g], key=lambda t: -cost[t]))
            load[w] += sum(cost[t] for t in by_group[g])
        self._cost = cost
        self._groups = list(groups)
        self._begun: list[set[str]] = [set() for _ in range(workers)]  # groups each worker has started
        self._queues = queues
        self._queued = [sum(cost[t] for t in q) for q in self._queues]
        self.stolen = 0

    def __bool__(self) -> bool:
        return any(self._queues)

    def assignment(self) -> list[list[int]]:
        """The queued tasks of each worker, in order (for tests and reports)."""
        return [list(q) for q in self._queues]

    def take(self, busy: dict[int | None, int]) -> tuple[int, int | None] | None:
        """The next (task, worker) to submit: a worker with room takes its own queue's head, or else
        work from the worker with the most queued seconds (:meth:`_steal`)."""
        for w, q in enumerate(self._queues):
            if busy.get(w, 0) >= PER_WORKER:
                continue
            if not q:
                donors = [v for v in range(len(self._queues)) if self._queues[v]]
                for v in sorted(donors, key=lambda i: (-self._queued[i], i)):  # the fullest first
                    t = self._steal(v, w)
                    if t is not None:
                        return t, w
                    if q:  # a whole group moved here
                        break
                else:
                    continue
            t = q.pop(0)
            self._queued[w] -= self._cost[t]
            self._begun[w].add(self._groups[t])
            return t, w
        return None

    def _steal(self, v: int, w: int) -> int | None:
        """Move work from worker ``v``'s queue to the empty queue of ``w``: the group that ``v`` has not
        begun whose expected seconds are closest to half of ``v``'s queued seconds, whole (None: ``w``
        then takes its new queue's head; replayed on the shipped hints this balances better than the
        cheapest such group, benchmarks/engine/bench_schedule.py), or else ``v``'s shortest
        task of at least :data:`MIN_STOLEN_SECONDS`, returned to be run on ``w`` (None, nothing moved, if
        there is none: ``w`` waits for ``v``'s last cheap tasks)."""
        queue = self._queues[v]
        fresh: dict[str, float] = {}
        for t in queue:
            g = self._groups[t]
            if g not in self._begun[v]:
                fresh[g] = fresh.get(g, 0.0) + self._cost[t]
        if fresh:
            g = min(fresh, key=lambda k: abs(fresh[k] - self._queued[v] / 2))  # ties: the first queued
            self._queues[w].extend(t for t in queue if self._groups[t] == g)  # longest first, as queued
            self._queues[v] = [t for t in queue if self._groups[t] != g]
            self._queued[v] -= fresh[g]
            self._queued[w] += fresh[g]
            self.stolen += 1
            return None
        worth = [t for t in queue if self._cost[t] >= MIN_STOLEN_SECONDS]
        if not worth:
            return None
        t = min(reversed(worth), key=lambda u: self._cost[u])  # ties: the last queued
        queue.remove(t)
        self._queued[v] -= self._cost[t]
        self._begun[w].add(self._groups[t])
        self.stolen += 1
        return t


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
