"""dask.distributed as the scale-out engine (``verify run --scheduler``): a real LocalCluster of two
one-thread worker processes on the loopback interface gives the same verdicts and evidence as the
process pool for the same seed (timings and host fields aside), and the report records the scheduler.

Skipped when dask is not importable (it is the ``[dask]`` extra; CI installs it).
"""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("distributed")

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
