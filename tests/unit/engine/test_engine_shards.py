"""Sharded checks (issue 14): a long check runs as independent tasks whose merged evidence equals the
unsharded one (timings aside); the longest tasks go first; timings are remembered per profile."""

from __future__ import annotations

import pytest

from verify import Check, CheckError, Claim, Source, Verdict, run_claims
from verify._timings import load_timings, save_timings

from ._toy_sharded import no_shard_param, squares


def _claim(shards, bad=None):
    params = {} if bad is None else {"bad": bad}
    return Claim(id="toy.shards.squares", title="toy", source=Source("0000.00000", "toy", "§0"),
                 statement="v^2 = v^2", reading="toy", strength="derived", expected=Verdict.CERTIFIED,
                 checks=(Check("exact", squares, params, shards=shards),), controls=())


def _evidence(result):
    return result.outcomes[0].checks[0].evidence


@pytest.mark.parametrize("shards", [3, {"quick": 4}, {"*": 5, "ci": 1}])
def test_sharded_evidence_equals_unsharded(shards):
    one = _evidence(run_claims([_claim(1)]))
    many = _evidence(run_claims([_claim(shards)]))
    for field in ("level", "instances", "margin_min", "margin_max", "error", "seeds", "precision"):
        assert getattr(many, field) == getattr(one, field), field
    assert many.details["instances_planned"] == 12 and many.details["shards"] > 1


def test_sharded_refutation_is_the_first_refuting_shard():
    one = _evidence(run_claims([_claim(1, bad=7)]))
    many = _evidence(run_claims([_claim(4, bad=7)]))
    assert one.level is many.level is Verdict.REFUTED
    assert many.counterexample.data["k"] == one.counterexample.data["k"] == 7


def test_sharded_on_a_process_pool():
    many = _evidence(run_claims([_claim(3)], workers=2))
    assert many.level is Verdict.CERTIFIED and many.instances == 12


def test_a_sharded_check_needs_a_shard_parameter():
    with pytest.raises(CheckError, match="shard"):
        Check("x", no_shard_param, shards=2)
    with pytest.raises(CheckError, match="shards"):
        Check("x", squares, shards=0)


def test_longest_first_order_keeps_the_evidence(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    seen = []
    r1 = run_claims([_claim(3)], progress=lambda label, d, t: seen.append(label),
                    order={"toy.shards.squares exact": 10.0})
    assert len(seen) == 3 and all("[" in s for s in seen)
    save_timings(r1)
    assert load_timings("quick")["toy.shards.squares exact"] >= 0
    (tmp_path / "timings-ci.json").write_text("not json")
    assert load_timings("ci") == {}


def test_a_crashed_shard_leaves_the_check_undecided():
    # unsharded, a raising check is UNKNOWN; sharded, the other shards' CERTIFIED must not stand in for
    # the instances the crashed shard never examined
    c = _claim(3)
    crashed = c.checks[0].__class__("exact", squares, {"crash_shard": 1}, shards=3)
    from dataclasses import replace

    ev = _evidence(run_claims([replace(c, checks=(crashed,))]))
    assert ev.level is Verdict.UNKNOWN
    assert "crashed" in ev.notes


def test_an_empty_shard_is_no_verdict():
    ev = _evidence(run_claims([_claim(13)]))  # 13 shards, 12 instances: the last shard is empty
    assert ev.level is Verdict.CERTIFIED and ev.instances == 12


def test_interleaved_shards_keep_the_unsharded_first_counterexample():
    # k = 5 lies in shard 1 of 4, k = 2 in shard 2: the unsharded run meets k = 2 first
    one = _evidence(run_claims([_claim(1, bad=(2, 5))]))
    many = _evidence(run_claims([_claim(4, bad=(2, 5))]))
    assert one.counterexample.data["k"] == many.counterexample.data["k"] == 2


def test_a_detail_one_shard_records_keeps_its_value():
    from verify import Evidence
    from verify._verdict import merge_shards

    a = Evidence(Verdict.CERTIFIED, instances=1, details={"seed0": [1, 2], "common": 3})
    b = Evidence(Verdict.CERTIFIED, instances=1, details={"seed1": [4], "common": 3})
    m = merge_shards([a, b])
    assert m.details["seed0"] == [1, 2] and m.details["seed1"] == [4] and m.details["common"] == 3
