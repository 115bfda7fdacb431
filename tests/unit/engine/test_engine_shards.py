"""Sharded checks (issue 14): a long check runs as independent tasks whose merged evidence equals the
unsharded one (timings aside); the longest tasks go first; timings are remembered per profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verify import Check, CheckError, Claim, Source, Verdict, run_claims
from verify._timings import load_timings, save_timings, shipped_hints

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
    assert load_timings("ci") == shipped_hints("ci")  # an unreadable cache is no hint of its own


def test_remembered_timings_override_the_shipped_hints(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    hints = shipped_hints("thorough")
    label = max(hints, key=hints.get)  # the longest task a first run must start early
    assert load_timings("thorough")[label] == hints[label]
    (tmp_path / "timings-thorough.json").write_text(json.dumps({label: 0.5, "toy.x y": 2.0}))
    got = load_timings("thorough")
    assert got[label] == 0.5 and got["toy.x y"] == 2.0
    save_timings(run_claims([_claim(3)], profile="thorough"))
    saved = json.loads((tmp_path / "timings-thorough.json").read_text())
    assert set(saved) == {label, "toy.x y", "toy.shards.squares exact"}  # the hints stay in the package


def test_the_shipped_hints_name_tasks_of_the_catalogue():
    # stale labels are harmless to a run but mean the hints no longer describe the catalogue:
    # refresh them with benchmarks/engine/timing_hints.py from a run's report
    from verify._registry import discover
    from verify._runner import claim_checks

    labels = {f"{c.id} {k.name}" for c in discover() for k in (*claim_checks(c), *c.controls)}
    for profile in ("quick", "ci", "thorough"):
        hints = shipped_hints(profile)
        assert hints, f"no shipped hints for {profile}"
        assert set(hints) <= labels, sorted(set(hints) - labels)[:5]
        assert all(s >= 0 for s in hints.values())


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


def test_the_hints_script_writes_the_labels_the_runner_remembers(tmp_path, monkeypatch):
    import importlib.util

    from verify._report import to_json

    spec = importlib.util.spec_from_file_location(
        "timing_hints", Path(__file__).resolve().parents[3] / "benchmarks" / "engine" / "timing_hints.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(script, "HINTS", tmp_path / "hints.json")
    result = run_claims([_claim(3)], profile="ci")
    (tmp_path / "report.json").write_text(json.dumps(to_json(result)))
    assert script.main([str(tmp_path / "report.json")]) == 0
    save_timings(result)
    hints = json.loads((tmp_path / "hints.json").read_text())
    remembered = json.loads((tmp_path / "timings-ci.json").read_text())
    assert set(hints) == {"ci"} and set(hints["ci"]) == set(remembered) == {"toy.shards.squares exact"}
