"""``python -m benchmarks`` (issue 14, item 5): one command, every benchmark as a ratio against its goal.

Run at the tiny ``--quick`` size on one suite: the structure of the table and of the JSON is checked,
never a timing (timings belong to benchmarks, not tests).
"""

from __future__ import annotations

import json
import math
import sys

import pytest

_PATH = list(sys.path)
from benchmarks.__main__ import OPT_IN, SUITES, THOROUGH_GOAL_S, Entry, main, selected  # noqa: E402

sys.path[:] = _PATH  # the benchmark scripts put the repository root on sys.path for themselves


@pytest.fixture(autouse=True)
def _restore_sys_path():
    """A benchmark script run by a test puts the repository root on sys.path; take it off again (with it
    there, importlib.metadata finds the checkout's egg-info and in-process pytester runs try to
    assertion-rewrite the already imported toolkit)."""
    saved = list(sys.path)
    yield
    sys.path[:] = saved


def test_quick_run_writes_every_entry_with_its_ratio_to_the_goal(tmp_path, capsys):
    path = tmp_path / "bench.json"
    out = main(["--quick", "--only", "ddcl.critical*", "--json", str(path)])
    data = json.loads(path.read_text())
    assert data["quick"] is True and len(data["load_before"]) == 3
    names = [e["name"] for e in data["entries"]]
    assert "ddcl.critical_temperature.aposteriori/float" in names
    for e in data["entries"]:
        assert e["kind"] in ("max", "min") and math.isfinite(e["value"]) and e["value"] > 0
        if e["goal"] is None:  # informational: no stated goal
            assert e["met"] is None and e["vs_goal"] is None
        else:
            assert e["goal"] > 0 and e["met"] == (e["vs_goal"] <= 1)
    assert data["raw"]["ddcl.critical_temperature"]["aposteriori_accepted"] >= 1
    assert out["entries"] == data["entries"]
    assert "vs goal" in capsys.readouterr().out


def test_selection_and_goal_direction():
    assert selected(None) == [s for s in SUITES if s not in OPT_IN]
    assert selected("focus.*") == ["focus.saddle", "focus.sweep", "focus.full_flow"]
    assert selected("ddcl*,interp*") == ["ddcl.critical_temperature", "interpolation.construction",
                                         "interpolation.bondy"]
    assert Entry("a", 6.0, 3.0, "max").vs_goal == 2.0  # twice over a cost goal
    assert Entry("b", 5.0, 10.0, "min").vs_goal == 2.0  # half of a speed-up goal
    assert Entry("c", 5.0, None, "max").vs_goal is None  # no goal: no ratio (not NaN)
    assert main(["--list", "--only", "focus.saddle"]) == {"suites": ["focus.saddle"]}
    with pytest.raises(SystemExit):
        main(["--only", "no_such_benchmark"])


def test_batched_runs_smoke_reports_three_ratios(tmp_path):
    """The batched fast paths against the separate runs (each row also checks the paths agree)."""
    path = tmp_path / "bench.json"
    main(["--quick", "--only", "batched_runs", "--json", str(path)])
    data = json.loads(path.read_text())
    names = [e["name"] for e in data["entries"]]
    assert names == ["ddcl.descend_batch/separate", "ddcl.em_iterate/full_loop",
                     "interpolation.cold_start_ensemble/separate"]
    raw = data["raw"]["batched_runs"]
    assert raw["cold_start_ensemble"]["max_relative_E"] <= 1e-12 and raw["em_iterate"]["instances"] == 3


def test_schedule_replay_runs_every_task_and_keeps_begun_groups_together(tmp_path):
    """The two-worker schedule replayed on the shipped hints: every task runs once, balance near ideal."""
    path = tmp_path / "bench.json"
    main(["--quick", "--only", "engine.schedule", "--json", str(path)])
    data = json.loads(path.read_text())
    by_name = {e["name"]: e["value"] for e in data["entries"]}
    for profile in ("quick", "ci", "thorough"):
        assert 1.0 <= by_name[f"engine.schedule.{profile}.makespan/ideal"] < 1.05
        assert by_name[f"engine.schedule.{profile}.begun_group_moves"] <= 2


def test_schedule_replay_model_runs_each_task_once():
    from benchmarks.engine.bench_schedule import replay

    r = replay(["a", "a", "b"], [2.0, 1.0, 2.0], [2.0, 1.0, 2.0])
    assert r["ideal_s"] == 2.5 and r["makespan_s"] == 3.0 and r["begun_group_moves"] == 0


def test_catalogue_smoke_run_times_one_process_and_two_workers(tmp_path):
    path = tmp_path / "bench.json"
    main(["--quick", "--only", "engine.quick_catalogue", "--json", str(path)])
    data = json.loads(path.read_text())
    rows = data["raw"]["engine.quick_catalogue"]["rows"]
    assert [r["workers"] for r in rows] == [1, 2] and all(r["claims"] == 1 for r in rows)
    by_name = {e["name"]: e for e in data["entries"]}
    one = by_name["engine.quick_catalogue.one_process_s"]
    assert one["goal"] is None and one["value"] == rows[0]["wall_s"] > 0  # goals: the whole catalogue
    assert by_name["engine.quick_catalogue.two_workers_s"]["value"] == rows[1]["wall_s"]
    ref = data["raw"]["engine.quick_catalogue"]["reference"]
    mean = (ref["before"]["total_s"] + ref["after"]["total_s"]) / 2
    assert by_name["engine.quick_catalogue.one_process/reference"]["value"] == pytest.approx(
        rows[0]["wall_s"] / mean, rel=1e-12)


def _fake_runs(monkeypatch, reports):
    """bench_runner._run writing the given reports in turn instead of running verify."""
    from benchmarks.engine import bench_runner

    it = iter(reports)

    def run(patterns, profile, workers, env, out):
        report = next(it)
        if report is not None:  # None: the run wrote no report
            with open(out, "w") as f:
                json.dump(report, f)
        return 1.0, 1.0

    monkeypatch.setattr(bench_runner, "_run", run)
    return bench_runner.catalogue


def _report(verdict="CERTIFIED", passed=True, error=0.0):
    ev = {"level": verdict, "error": error, "wall_time": 0.1}
    return {"profile": "quick", "seed": 0, "passed": passed, "wall_time": 1.0,
            "claims": [{"id": "p.c", "verdict": verdict, "passed": passed, "wall_time": 1.0,
                        "checks": [{"name": "k", "kind": "check", "evidence": ev}], "controls": []}]}


def test_catalogue_refuses_a_failing_or_diverging_catalogue(monkeypatch):
    catalogue = _fake_runs(monkeypatch, [_report(), _report()])
    assert [r["workers"] for r in catalogue(["p.c"])["rows"]] == [1, 2]
    catalogue = _fake_runs(monkeypatch, [_report(passed=False)])
    with pytest.raises(SystemExit, match="not at the expected verdict.*p.c"):
        catalogue(["p.c"])
    catalogue = _fake_runs(monkeypatch, [_report(), _report(error=1e-3)])
    with pytest.raises(SystemExit, match="evidence differs"):
        catalogue(["p.c"])
    catalogue = _fake_runs(monkeypatch, [_report(), None])
    with pytest.raises(SystemExit, match="--workers 2: verify run wrote no report"):
        catalogue(["p.c"])


def test_the_thorough_catalogue_is_opt_in(capsys):
    """A plain run leaves the ~10-minute thorough catalogue out; --only and --list reach it."""
    assert "engine.thorough_catalogue" in SUITES and "engine.thorough_catalogue" in OPT_IN
    assert "engine.thorough_catalogue" not in selected(None)
    assert selected("engine.thorough*") == ["engine.thorough_catalogue"]
    assert selected("engine.*") == ["engine.schedule", "engine.quick_catalogue", "engine.thorough_catalogue"]
    assert main(["--list"])["suites"] == list(SUITES)
    assert "engine.thorough_catalogue  (opt-in: --only engine.thorough_catalogue)" in capsys.readouterr().out


def test_thorough_smoke_run_times_two_workers(tmp_path):
    path = tmp_path / "bench.json"
    main(["--quick", "--only", "engine.thorough_catalogue", "--json", str(path)])
    data = json.loads(path.read_text())
    raw = data["raw"]["engine.thorough_catalogue"]
    assert raw["profile"] == "thorough"
    (row,) = raw["rows"]
    assert row["workers"] == 2 and row["claims"] == 1
    by_name = {e["name"]: e for e in data["entries"]}
    wall = by_name["engine.thorough_catalogue.two_workers_s"]
    assert wall["goal"] is None and wall["value"] == row["wall_s"] > 0  # the goal is the whole catalogue's
    assert by_name["engine.thorough_catalogue.cpu_s"]["value"] == row["cpu_s"]
    busy = by_name["engine.thorough_catalogue.pool_busy"]
    assert busy["goal"] is None
    assert busy["value"] == pytest.approx(row["cpu_s"] / (2 * row["wall_s"]), rel=1e-12)


def test_the_full_thorough_entry_is_held_to_ten_minutes(monkeypatch):
    """Without --quick the wall time is judged against 600 s: over it is MISSED, as a number above 1."""
    import benchmarks.__main__ as bm
    from benchmarks.engine import bench_runner, machine_reference

    calls = []

    def fake(patterns, profile, workers):
        calls.append((patterns, profile, workers))
        return {"profile": profile, "patterns": [], "rows": [{"workers": 2, "wall_s": 645.0, "cpu_s": 1243.0,
                                                              "report_wall_s": 644.0, "claims": 84}]}

    refs = iter([{"total_s": 1.0}, {"total_s": 1.5}])  # the machine reference before and after the run
    monkeypatch.setattr(bench_runner, "catalogue", fake)
    monkeypatch.setattr(machine_reference, "reference", lambda: next(refs))
    entries, raw = bm._thorough(False)
    assert calls == [(None, "thorough", (2,))]
    by_name = {e.name: e for e in entries}
    wall = by_name["engine.thorough_catalogue.two_workers_s"]
    assert THOROUGH_GOAL_S == 600.0 and wall.goal == 600.0 and wall.vs_goal == pytest.approx(645 / 600)
    assert by_name["engine.thorough_catalogue.two_workers/reference"].value == pytest.approx(645 / 1.25)
    assert raw["reference"] == {"before": {"total_s": 1.0}, "after": {"total_s": 1.5}}


def test_the_machine_reference_times_torch_numpy_and_sympy_work():
    from benchmarks.engine.machine_reference import reference

    r = reference()
    assert set(r) == {"torch_s", "numpy_s", "sympy_s", "total_s"}
    assert all(v > 0 for v in r.values())
    assert r["total_s"] == pytest.approx(r["torch_s"] + r["numpy_s"] + r["sympy_s"], rel=1e-12)
