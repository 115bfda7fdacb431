"""The runner's own pool keeps related tasks on one worker (verify/_schedule.py): whole groups assigned
longest-processing-time first, each queue its groups one after another (longest task first in each), an
idle worker taking from the fullest queue a whole group not begun there, else its shortest task worth
moving; the evidence does not depend on any of it."""

from __future__ import annotations

import pytest

from verify import Check, Claim, Source, Verdict, run_claims
from verify._schedule import MIN_STOLEN_SECONDS, PER_WORKER, AffinityQueues, InOrder, WorkerPool, group_of

from ._toy_sharded import squares


def _drain(q, workers, finish_order=None):
    """Take every task, finishing one in-flight task of each worker in turn (a deterministic pool)."""
    busy = {w: 0 for w in range(workers)}
    flight = {w: [] for w in range(workers)}
    got = []
    while q or any(flight.values()):
        while (item := q.take(busy)) is not None:
            t, w = item
            busy[w] += 1
            flight[w].append(t)
            got.append((t, w))
        for w in finish_order or range(workers):
            if flight[w]:
                flight[w].pop(0)
                busy[w] -= 1
                break
    return got


def test_group_is_the_claim_section_and_a_shard_its_own():
    assert group_of("focus.stage4.lyapunov_schmidt") == "focus.stage4"
    assert group_of("ddcl.temperature.divergence", 2) == "ddcl.temperature [shard 2]"
    assert group_of("a.b") == "a.b"


def test_whole_groups_go_to_the_least_loaded_worker():
    groups = ["a", "a", "b", "c", "c", "c"]
    q = AffinityQueues(groups, [4.0, 4.0, 5.0, 1.0, 1.0, 1.0], 2)
    # a = 8 s to worker 0, b = 5 s to worker 1, c = 3 s to worker 1 (5 < 8)
    assert q.assignment() == [[0, 1], [2, 3, 4, 5]]


def test_each_queue_runs_its_longest_task_first():
    q = AffinityQueues(["a", "a", "a"], [1.0, 3.0, 2.0], 1)
    assert q.assignment() == [[1, 2, 0]]


def test_an_idle_worker_takes_the_shortest_task_worth_moving_of_the_fullest_queue():
    q = AffinityQueues(["a"] * 6 + ["b"], [5.0, 4.0, 3.0, 2.0, 1.0, 0.5, 0.1], 2)
    assert q.assignment() == [[0, 1, 2, 3, 4, 5], [6]]
    got = _drain(q, 2, finish_order=[1, 0])
    # a is begun on worker 0: worker 1 takes its shortest task of >= MIN_STOLEN_SECONDS (4, 1 s), not the
    # 0.5 s one, which would gain no balance and may be cheap only through a's memo
    assert MIN_STOLEN_SECONDS == 1.0
    assert [t for t, w in got if w == 1][:2] == [6, 4] and q.stolen >= 1
    assert (5, 0) in got
    assert sorted(t for t, _ in got) == list(range(7))  # every task exactly once


def test_memo_warm_tasks_of_a_begun_group_stay_on_its_worker():
    q = AffinityQueues(["a"] * 4 + ["b"], [9.0, 0.0, 0.0, 0.2, 1.0], 2)
    assert q.assignment() == [[0, 3, 1, 2], [4]]
    got = _drain(q, 2, finish_order=[1, 0])
    assert [t for t, w in got if w == 1] == [4] and q.stolen == 0
    assert sorted(t for t, _ in got) == list(range(5))


def test_a_queue_holds_its_groups_one_after_another():
    # a = 10 s to worker 0, b = 8 s and c = 3 s to worker 1, d = 2 s to worker 0: d's 2 s task after a's
    # 1 s one (longest first across groups would begin d before a is done)
    q = AffinityQueues(["a", "a", "b", "c", "d"], [9.0, 1.0, 8.0, 3.0, 2.0], 2)
    assert q.assignment() == [[0, 1, 4], [2, 3]]


def test_an_idle_worker_takes_a_whole_group_the_other_has_not_begun():
    # b = 9 s to worker 0; a = 5.1 s, d = 2 s, c = 1.5 s to worker 1 (queued a0 a1 d c0 c1, 8.6 s)
    q = AffinityQueues(["a", "a", "b", "c", "c", "d"], [5.0, 0.1, 9.0, 1.0, 0.5, 2.0], 2)
    assert q.assignment() == [[2], [0, 1, 5, 3, 4]]
    got = _drain(q, 2)
    # worker 0 runs b and then all of a (not begun on worker 1, the group nearest half of its 8.6 s): a1,
    # ~0 s once a0 has filled a's memo, goes with a0; stealing the shortest task would have moved c1 alone
    assert [t for t, w in got if w == 0] == [2, 0, 1]
    assert [t for t, w in got if w == 1] == [5, 3, 4] and q.stolen == 1


def test_unknown_times_count_as_the_median_of_the_known():
    q = AffinityQueues(["a", "b", "c"], [None, 2.0, 4.0], 2)
    assert q._cost == [3.0, 2.0, 4.0]
    q = AffinityQueues(["a", "b"], [None, None], 2)  # nothing known: by count
    assert q._cost == [1.0, 1.0] and q.assignment() == [[0], [1]]


def test_at_most_per_worker_tasks_in_flight():
    q = AffinityQueues(["a"] * 5, [1.0] * 5, 1)
    busy = {0: 0}
    taken = []
    while (item := q.take(busy)) is not None:
        busy[0] += 1
        taken.append(item)
    assert len(taken) == PER_WORKER


def test_in_order_keeps_the_global_limit():
    q = InOrder(5, 3)
    busy = {None: 0}
    while q.take(busy) is not None:
        busy[None] += 1
    assert busy[None] == 3 and q


def _claim(i):
    return Claim(id=f"toy.sched{i % 3}.c{i}", title="toy", source=Source("0000.00000", "toy", "§0"),
                 statement="v^2 = v^2", reading="toy", strength="derived", expected=Verdict.CERTIFIED,
                 checks=(Check("exact", squares), Check("bad", squares, {"bad": 3})), controls=())


@pytest.mark.parametrize("order", [None, {"toy.sched1.c4 exact": 9.0, "toy.sched0.c0 bad": 3.0}])
def test_worker_pool_evidence_equals_in_process(order):
    claims = [_claim(i) for i in range(6)]
    one = run_claims(claims, order=order)
    two = run_claims(claims, workers=2, order=order)
    with WorkerPool(2) as pool:
        given = run_claims(claims, executor=pool, order=order)
    for r in (two, given):
        assert [o.claim_id for o in r.outcomes] == [o.claim_id for o in one.outcomes]
        for a, b in zip(one.outcomes, r.outcomes):
            for x, y in zip(a.checks, b.checks):
                assert (x.evidence.level, x.evidence.instances, x.evidence.counterexample, x.seed) == \
                       (y.evidence.level, y.evidence.instances, y.evidence.counterexample, y.seed)
