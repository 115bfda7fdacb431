"""The runner's two-worker schedule replayed on the shipped timing hints, without running any check.

    python benchmarks/engine/bench_schedule.py [--quick]

Each profile's tasks (``verify/_timing_hints.json``: claim, check and shard, expected seconds) go through
:class:`verify._schedule.AffinityQueues` and a model of the runner's pool: two workers, each running its
in-flight tasks one after another, :data:`~verify._schedule.PER_WORKER` in flight.  The tasks' actual
seconds are their hints times a seeded factor in [0.6, 1.6] (a run never takes its remembered times), so
that the stealing the noise calls for happens.  Per profile, over the seeds:

* ``makespan/ideal``: the model's wall over the perfect split (total / 2).  It leaves out what stealing
  costs: a task moved away from the worker whose memos it shares recomputes them there;
* ``begun_group_moves``: tasks run on another worker than the one holding their group's other tasks
  after that group was begun there -- the moves that may recompute a memo.

Before the group-aware stealing (queues longest task first across groups, an idle worker taking the
shortest queued task), this replay on the same hints gave makespan/ideal 1.0002 / 1.0003 / 1.0010 and
79 / 108 / 138 begun-group moves per run (quick / ci / thorough); now 1.0024 / 1.0032 / 1.0015 and
0 / 0 / 0.1: up to 0.3 % of balance (modelled) for the memo recomputations those moves could cost.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _tasks(profile: str) -> tuple[list[str], list[float]]:
    from verify._schedule import group_of

    hints = json.loads(Path(__file__).resolve().parents[2].joinpath("verify", "_timing_hints.json")
                       .read_text())[profile]
    labels = sorted(hints, key=lambda k: (-hints[k], k))
    groups = []
    for label in labels:
        shard = re.search(r"\[(\d+)/(\d+)\]", label)
        groups.append(group_of(label.split(" ")[0], int(shard.group(1)) - 1 if shard else None))
    return groups, [float(hints[k]) for k in labels]


def replay(groups: list[str], expected: list[float], actual: list[float], workers: int = 2) -> dict:
    """Run the queues against a pool model with the tasks' ``actual`` seconds: the makespan, the ideal
    split and the number of begun-group moves (module docstring)."""
    from verify._schedule import AffinityQueues

    q = AffinityQueues(groups, expected, workers)
    busy = {w: 0 for w in range(workers)}
    pending: dict[int, list[int]] = {w: [] for w in range(workers)}
    clock = [0.0] * workers
    started: dict[str, int] = {}  # group -> the worker that began it
    moves = 0

    def fill() -> None:
        nonlocal moves
        while (item := q.take(busy)) is not None:
            t, w = item
            busy[w] += 1
            pending[w].append(t)
            g = groups[t]
            if started.setdefault(g, w) != w:
                moves += 1

    fill()
    while any(pending.values()):
        end, w = min((clock[v] + actual[pending[v][0]], v) for v in range(workers) if pending[v])
        clock[w] = end
        pending[w].pop(0)
        busy[w] -= 1
        for v in range(workers):  # an idle worker's clock waits for the next task it gets
            if not pending[v]:
                clock[v] = max(clock[v], end)
        fill()
    return {"makespan_s": max(clock), "ideal_s": sum(actual) / workers, "begun_group_moves": moves,
            "stolen": q.stolen}


def measure(quick: bool = False, profiles: tuple[str, ...] = ("quick", "ci", "thorough")) -> dict:
    seeds = range(2 if quick else 20)
    out = {}
    for profile in profiles:
        groups, expected = _tasks(profile)
        rows = []
        for seed in seeds:
            rng = random.Random(seed)
            actual = [s * rng.uniform(0.6, 1.6) for s in expected]
            rows.append(replay(groups, expected, actual))
        out[profile] = {
            "tasks": len(groups), "seeds": len(rows),
            "makespan/ideal": sum(r["makespan_s"] / r["ideal_s"] for r in rows) / len(rows),
            "worst_makespan/ideal": max(r["makespan_s"] / r["ideal_s"] for r in rows),
            "begun_group_moves": sum(r["begun_group_moves"] for r in rows) / len(rows),
            "rows": rows}
    return out


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    r = measure("--quick" in argv)
    for profile, v in r.items():
        print(f"{profile:9s} {v['tasks']:4d} tasks  makespan/ideal {v['makespan/ideal']:.4f} (worst "
              f"{v['worst_makespan/ideal']:.4f})  begun-group moves {v['begun_group_moves']:.1f} per run")
    return r


if __name__ == "__main__":
    main()
