"""dask.distributed as the scale-out engine (``verify run --scheduler``): a real LocalCluster of two
one-thread worker processes on the loopback interface gives the same verdicts and evidence as the
process pool for the same seed (timings and host fields aside), and the report records the scheduler.

Skipped when dask is not importable (it is the ``[dask]`` extra; CI installs it).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from tests.unit.engine._slow_catalogue import write_slow_catalogue  # noqa: E402
from verify import catalogue, run_claims  # noqa: E402
from verify._cli import EXIT_OK, EXIT_USAGE, main  # noqa: E402
from verify._dask import DaskExecutor, OneThreadPlugin, connect, local_cluster, parse_scheduler  # noqa: E402
from verify._report import to_json, validate  # noqa: E402

# fast claims (< 1 s each at quick on one core: `verify run ID`), 8 tasks in all
FAST = ["ddcl.pruning.force_kept", "ddcl.lyapunov.full_gradient", "ddcl.growth.spectral_order",
        "ddcl.growth.only_minimal_structure"]
TIMING_OR_HOST = {"wall_time", "started", "environment", "scheduler", "workers"}


def _strip(obj):
    """The report without timings and host fields (recursively)."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in TIMING_OR_HOST}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client

    cl = local_cluster(2)  # processes=True, threads_per_worker=1, 127.0.0.1, dashboard_address=None
    client = Client(cl)
    client.register_plugin(OneThreadPlugin())
    client.wait_for_workers(2, timeout=60)
    yield cl, client
    client.close()
    cl.close()


def test_local_cluster_settings(cluster):
    cl, client = cluster
    assert cl.scheduler_address.startswith("tcp://127.0.0.1:")
    assert len(cl.workers) == 2 and all(w.startswith("tcp://127.0.0.1:")
                                        for w in client.scheduler_info()["workers"])
    assert set(client.nthreads().values()) == {1}
    envs = client.run(lambda: {v: os.environ.get(v) for v in
                               ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")})
    assert all(set(e.values()) == {"1"} for e in envs.values())


def test_dask_run_matches_the_process_pool(cluster):
    """Same seed, same verdicts and evidence field by field (timings and host fields aside)."""
    cl, client = cluster
    claims, _ = catalogue().select(FAST)
    assert [c.id for c in claims] and len(claims) == len(FAST)
    info = {"address": cl.scheduler_address, "kind": "local", "workers": 2, "worker_environments": {}}
    on_dask = run_claims(claims, workers=2, seed=3, executor=DaskExecutor(client, info))
    on_pool = run_claims(claims, workers=2, seed=3)
    assert on_dask.passed and on_pool.passed
    a, b = to_json(on_dask), to_json(on_pool)
    validate(a)
    assert a["scheduler"]["address"] == cl.scheduler_address and "scheduler" not in b
    assert _strip(a) == _strip(b)
    for oa, ob in zip(on_dask.outcomes, on_pool.outcomes):
        for ca, cb in zip(oa.checks + oa.controls, ob.checks + ob.controls):
            assert ca.seed == cb.seed and ca.evidence.seeds == cb.evidence.seeds


def test_a_derivation_fact_reaches_a_dask_worker_as_built(cluster):
    # the scheduler unpickles a task's arguments and pickles them again: a seal opened at the first
    # unpickling let Eq(0, 0, evaluate=False) of this claim's derivation arrive as True (UNKNOWN: crashed)
    cl, client = cluster
    claims, _ = catalogue().select(["interp.tikhonov.linear_scaling"])
    info = {"address": cl.scheduler_address, "kind": "local", "workers": 2, "worker_environments": {}}

    def derivation(result):
        (ev,) = [c.evidence for c in result.outcomes[0].checks if c.name == "derivation"]
        return ev

    on_dask = derivation(run_claims(claims, workers=2, executor=DaskExecutor(client, info)))
    here = derivation(run_claims(claims))
    assert here.level.name == "PROVED", here.notes
    assert (on_dask.level, on_dask.notes, on_dask.details) == (here.level, here.notes, here.details)


def test_cli_scheduler_address_records_workers_and_versions(cluster, tmp_path):
    cl, _ = cluster
    out = tmp_path / "r.json"
    code = main(["run", *FAST, "--scheduler", cl.scheduler_address, "--no-progress", "--json", str(out)])
    assert code == EXIT_OK
    rep = json.loads(out.read_text())
    validate(rep)
    sch = rep["scheduler"]
    assert sch["kind"] == "remote" and sch["address"] == cl.scheduler_address
    assert sch["workers"] == 2 == rep["workers"]
    assert len(sch["worker_environments"]) == 2
    for env in sch["worker_environments"].values():
        assert env["torch"] == rep["environment"]["torch"] and env["OMP_NUM_THREADS"] == "1"


def test_parse_scheduler():
    assert parse_scheduler("local") == ("local", None)
    assert parse_scheduler("local:3") == ("local", 3)
    assert parse_scheduler("tcp://10.0.0.1:8786") == ("tcp://10.0.0.1:8786", None)
    for bad in ("local:0", "local:x", "locals", ""):
        with pytest.raises(ValueError):
            parse_scheduler(bad)
    assert main(["run", FAST[0], "--scheduler", "local:0", "--no-progress"]) == EXIT_USAGE


def test_connect_local_records_the_cluster_and_closes_it():
    session = connect("local:1")
    try:
        assert session.info["kind"] == "local" and session.workers == 1
        assert session.info["address"].startswith("tcp://127.0.0.1:")
    finally:
        session.close()
    assert session.cluster.status.name == "closed"


def test_one_thread_plugin_sets_the_environment(monkeypatch):
    import torch

    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(var, raising=False)
    before = torch.get_num_threads()
    try:
        OneThreadPlugin().setup(None)
        assert torch.get_num_threads() == 1
        assert all(os.environ[v] == "1" for v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                                  "OPENBLAS_NUM_THREADS"))
    finally:
        torch.set_num_threads(before)





@pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc/self/stat").exists(),
                    reason="POSIX process groups and /proc")
def test_ctrl_c_on_a_local_cluster_cancels_and_closes(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a --scheduler local:2
    run: exit 130 promptly, the finished claim reported, and no cluster process left behind."""
    import dataclasses

    from verify import Claim

    if "strength" not in {f.name for f in dataclasses.fields(Claim)}:
        pytest.skip("this checkout's Claim has no strength field")
    env, log = write_slow_catalogue(tmp_path, "slowdask_pkg")
    cmd = [sys.executable, "-m", "verify", "--catalogue", "slowdask_pkg", "run", "--no-progress",
           "--scheduler", "local:2", "--json", str(tmp_path / "r.json")]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            lines = log.read_text().splitlines() if log.exists() else []
            if sum(ln.startswith("fast") for ln in lines) >= 2 and \
                    sum(ln.startswith("start") for ln in lines) >= 2:
                break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.1)
        else:
            pytest.fail("the slow checks never started")
        time.sleep(0.5)  # the fast claim's results reach the client
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("verify run did not stop within 60 s of Ctrl-C")
        elapsed = time.monotonic() - t0
        print(f"Ctrl-C on a local dask cluster: exited {proc.returncode} in {elapsed:.2f} s\n{stderr[-3000:]}")
        assert proc.returncode == 130, stderr[-2000:]
        assert elapsed < 20
        left = []
        for _ in range(40):  # the cluster's processes end with the client (loose bound: a busy machine)
            left = _group(proc.pid)
            if not left:
                break
            time.sleep(0.25)
        assert not left, f"processes left behind: {left}"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.communicate()
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["interrupted"] is True and [c["id"] for c in rep["claims"]] == ["slow.fast"]
    assert rep["scheduler"]["kind"] == "local" and rep["scheduler"]["workers"] == 2


def _group(pgid: int) -> list[int]:
    """Live (non-zombie) processes of process group ``pgid``."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(d.name))
    return out
