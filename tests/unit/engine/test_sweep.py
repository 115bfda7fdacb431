"""Parameter sweeps (``verify sweep``, :func:`verify._sweep.run_sweep`): sharding, seeds independent of
the executor, streaming, errors recorded, interruption, the CLI; the built-in sweeps on small grids."""

import json

import pytest

from theorems.sweeps import SWEEPS, ddcl_critical_temperature
from verify import SerialExecutor
from verify._cli import EXIT_OK, EXIT_USAGE, main
from verify._sweep import SWEEP_SCHEMA, run_sweep


def _strip(report):
    return [{k: v for k, v in r.items() if k != "wall_time"} for r in report["results"]]


def test_serial_and_process_pool_give_the_same_results(tmp_path):
    points = SWEEPS["ddcl.critical_temperature"].points("small")
    serial = run_sweep("ddcl.critical_temperature", ddcl_critical_temperature, points, seed=3)
    pooled = run_sweep("ddcl.critical_temperature", ddcl_critical_temperature, points, seed=3, workers=2,
                       min_task_seconds=1e-9, out=tmp_path / "r.json")
    assert _strip(serial.report) == _strip(pooled.report)
    assert pooled.report["tasks"] == len(points) - 1 and pooled.report["points_per_task"] == 1
    assert [r["index"] for r in pooled.results] == list(range(len(points)))
    saved = json.loads((tmp_path / "r.json").read_text())
    assert saved["schema"] == SWEEP_SCHEMA and saved["summary"] == {"points": 8, "done": 8, "failed": 0}
    assert not (tmp_path / "r.json.partial.jsonl").exists()
    # the results are the product's, and they vary with the point's seed
    for r in serial.results:
        res = r["result"]
        assert res["tau_c"] == pytest.approx(4 * res["lambda_1"], rel=1e-15)
        assert res["float_rel_diff"] < 1e-12 and res["tau_c_radius"] < 1e-30
    assert len({r["seed"] for r in serial.results}) == len(points)
    other = run_sweep("ddcl.critical_temperature", ddcl_critical_temperature, points, seed=4)
    assert _strip(other.report) != _strip(serial.report)


def test_shards_hold_enough_points_for_the_task_time():
    calls = []

    def fn(point, seed):
        calls.append(point["k"])
        return {"k2": point["k"] ** 2}

    res = run_sweep("toy", fn, [{"k": k} for k in range(50)], min_task_seconds=10.0)
    # long tasks wanted, but at least 4 per worker: 48 points after the calibration -> 4 tasks of 12
    assert res.report["tasks"] == 1 + 4 and res.report["points_per_task"] == 12
    assert [r["result"]["k2"] for r in res.results] == [k * k for k in range(50)]
    res = run_sweep("toy", fn, [{"k": k} for k in range(50)], min_task_seconds=10.0, workers=3,
                    executor=SerialExecutor())  # an executor of 3 workers (in-process here)
    assert res.report["tasks"] == 1 + 12 and res.report["points_per_task"] == 4


def test_a_failing_point_is_recorded_not_dropped():
    def fn(point, seed):
        if point["k"] == 2:
            raise ValueError("no good")
        return {"ok": True}

    res = run_sweep("toy", fn, [{"k": k} for k in range(4)])
    assert res.failed == 1
    err = res.results[2]["error"]
    assert err["type"] == "ValueError" and err["message"] == "no good"
    assert all("result" in r for k, r in enumerate(res.results) if k != 2)


def test_interrupted_sweep_keeps_what_finished(tmp_path):
    def fn(point, seed):
        if point["k"] == 3:
            raise KeyboardInterrupt
        return {"k": point["k"]}

    out = tmp_path / "s.json"
    res = run_sweep("toy", fn, [{"k": k} for k in range(6)], out=out, min_task_seconds=1e-9)
    assert res.report["interrupted"] is True and res.report["summary"]["done"] == 3
    assert json.loads(out.read_text())["interrupted"] is True
    lines = (tmp_path / "s.json.partial.jsonl").read_text().splitlines()
    assert [json.loads(x)["index"] for x in lines] == [0, 1, 2]


def test_cli_list_and_run(tmp_path, capsys):
    assert main(["sweep", "--list"]) == EXIT_OK
    listed = capsys.readouterr().out
    assert "interp.construction" in listed and "ddcl.critical_temperature" in listed
    assert main(["sweep", "interp.construction", "--json", str(tmp_path / "s.json")]) == EXIT_OK
    rep = json.loads((tmp_path / "s.json").read_text())
    assert rep["summary"]["failed"] == 0 and rep["summary"]["points"] == 4
    for r in rep["results"]:
        res = r["result"]
        assert res["exact"] is True and res["width"] <= 4
        assert res["blocks"] <= res["paper_blocks"] and res["parameters"] <= res["parameter_bound"]


@pytest.mark.parametrize("argv", [["sweep", "no.such.sweep"], ["sweep", "interp.construction", "--grid", "huge"],
                                  ["sweep", "interp.construction", "--workers", "0"],
                                  ["sweep", "interp.construction", "--min-task-seconds", "0"]])
def test_cli_usage_errors(argv, capsys):
    assert main(argv) == EXIT_USAGE
    assert "verify" in capsys.readouterr().err


def test_cli_unwritable_report_is_exit_4(tmp_path):
    assert main(["sweep", "interp.construction", "--json", str(tmp_path)]) == EXIT_USAGE


def test_dask_executor_gives_the_same_results():
    pytest.importorskip("distributed", reason="dask is not installed (pip install '.[dask]')")
    from verify._dask import connect

    points = SWEEPS["ddcl.critical_temperature"].points("small")
    serial = run_sweep("ddcl.critical_temperature", ddcl_critical_temperature, points)
    with connect("local:1") as session:
        on_dask = run_sweep("ddcl.critical_temperature", ddcl_critical_temperature, points,
                            executor=session.executor, min_task_seconds=1e-9)
    assert _strip(on_dask.report) == _strip(serial.report)
    assert on_dask.report["scheduler"]["kind"] == "local" and on_dask.report["workers"] == 1
