"""dask.distributed as the scale-out engine of ``verify run --scheduler ADDRESS|local[:N]``.

Needs the ``[dask]`` extra (``dask[distributed]``); nothing here is imported by the rest of the engine
unless a scheduler is asked for.

* ``local`` / ``local:N`` starts a :class:`distributed.LocalCluster` of ``N`` worker *processes* (one
  thread each, loopback only: host 127.0.0.1, no dashboard); ``N`` defaults to the number of CPUs.
  Any other value is the address of a running scheduler (``tcp://HOST:8786``).
* Every worker gets the one-thread settings of the local pool (``OMP/MKL/OPENBLAS_NUM_THREADS=1``,
  ``torch.set_num_threads(1)``) from a :class:`OneThreadPlugin`, registered before any task is
  submitted (and applied to workers that join later).
* Tasks are the runner's own (:func:`verify._runner._run_task` with the seeds derived by the runner), so
  verdicts and evidence are those of the local pool for the same seed; only timings and host fields
  differ.
* The report records the scheduler: its address, kind, number of workers and each worker's package
  versions (gathered with ``client.run``).
* Interruption: :class:`DaskExecutor` futures cancel their dask task; :meth:`DaskSession.close` cancels
  whatever is left and closes the client and, for ``local``, the cluster (its worker processes end).
"""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from distributed import Client, LocalCluster, WorkerPlugin

__all__ = ["DaskExecutor", "DaskSession", "OneThreadPlugin", "parse_scheduler", "connect"]

_LOCAL_RE = re.compile(r"^local(?::(\d+))?$")


def parse_scheduler(spec: str) -> tuple[str, int | None]:
    """``"local"`` -> ("local", None); ``"local:3"`` -> ("local", 3); an address -> (address, None)."""
    spec = spec.strip()
    m = _LOCAL_RE.match(spec)
    if m:
        n = int(m.group(1)) if m.group(1) is not None else None
        if n is not None and n < 1:
            raise ValueError(f"--scheduler {spec!r}: the number of local workers must be >= 1")
        return "local", n
    if spec.startswith("local"):
        raise ValueError(f"--scheduler {spec!r}: write local or local:N (N workers)")
    if not spec:
        raise ValueError("--scheduler needs an address (tcp://HOST:PORT) or local[:N]")
    return spec, None


def one_thread(ignore_sigint: bool = False) -> None:
    """The local pool's worker settings: one BLAS/OpenMP/torch thread (torch imported later reads the
    environment; an imported torch is set directly)."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    if ignore_sigint:  # a local cluster's workers share the terminal: Ctrl-C is the client's business
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the worker process's main thread
            pass


class OneThreadPlugin(WorkerPlugin):
    """Applies :func:`one_thread` on every worker (present and future)."""

    name = "verify-one-thread"
    idempotent = True

    def __init__(self, ignore_sigint: bool = False) -> None:
        self.ignore_sigint = ignore_sigint

    def setup(self, worker: Any) -> None:
        one_thread(self.ignore_sigint)


def _worker_report() -> dict[str, Any]:
    """Run on each worker by ``client.run``: its package versions and thread settings."""
    from ._runner import _environment

    env = _environment()
    env["OMP_NUM_THREADS"] = os.environ.get("OMP_NUM_THREADS", "")
    torch = sys.modules.get("torch")
    if torch is not None:
        env["torch_threads"] = str(torch.get_num_threads())
    return env


class _DaskFuture(Future):
    """A ``concurrent.futures.Future`` mirroring a dask future; ``cancel()`` also cancels the dask task
    (the future itself reports running from submission, so, as for a running task of a process pool,
    ``cancel()`` returns False)."""

    def __init__(self, dfut: Any) -> None:
        super().__init__()
        self._dfut = dfut

    def cancel(self) -> bool:
        try:
            self._dfut.cancel()
        except Exception:  # noqa: BLE001 - a closed client: nothing left to cancel
            pass
        return super().cancel()


class DaskExecutor(Executor):
    """A ``concurrent.futures.Executor`` on a dask ``Client`` (tasks are never deduplicated: pure=False).

    ``scheduler_info`` is recorded in the run's report by :func:`verify.run_claims`.
    """

    def __init__(self, client: Client, scheduler_info: dict[str, Any] | None = None) -> None:
        self.client = client
        self.scheduler_info = scheduler_info
        self._futures: set[_DaskFuture] = set()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        key = f"{getattr(fn, '__name__', 'task')}-{uuid.uuid4().hex}"
        dfut = self.client.submit(fn, *args, key=key, pure=False, **kwargs)
        fut = _DaskFuture(dfut)
        fut.set_running_or_notify_cancel()
        self._futures.add(fut)

        def done(d: Any) -> None:  # on the client's event loop thread
            self._futures.discard(fut)
            if fut.done():
                return
            try:
                if d.status == "finished":
                    fut.set_result(d.result(timeout=60))
                elif d.status == "cancelled":
                    fut.set_exception(RuntimeError(f"dask task {key} was cancelled"))
                else:
                    fut.set_exception(d.exception(timeout=60))
            except BaseException as e:  # noqa: BLE001 - hand any failure to the waiting runner
                if not fut.done():
                    fut.set_exception(e)

        dfut.add_done_callback(done)
        return fut

    def cancel_all(self) -> None:
        futs = [f._dfut for f in list(self._futures)]
        self._futures.clear()
        if futs:
            try:
                self.client.cancel(futs, force=True)
            except Exception:  # noqa: BLE001 - a closed client
                pass

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            self.cancel_all()


class DaskSession:
    """A client (and, for ``local``, its cluster) with the worker plugin registered; a context manager."""

    def __init__(self, client: Client, cluster: LocalCluster | None, info: dict[str, Any]) -> None:
        self.client = client
        self.cluster = cluster
        self.info = info
        self.executor = DaskExecutor(client, info)

    @property
    def workers(self) -> int:
        return int(self.info["workers"])

    def close(self) -> None:
        """Cancel what is left, close the client, then the local cluster (its processes end)."""
        self.executor.cancel_all()
        for closer in (self.client, self.cluster):
            if closer is None:
                continue
            try:
                closer.close(timeout=10) if closer is self.client else closer.close()
            except Exception:  # noqa: BLE001 - closing is best effort; the processes die with us
                pass

    def __enter__(self) -> DaskSession:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def local_cluster(n_workers: int, **kw: Any) -> LocalCluster:
    """A loopback-only cluster of ``n_workers`` processes with one thread each and no dashboard.

    The scheduler's HTTP endpoints (health, metrics) still listen; they get a free loopback port, not
    the fixed 8787 another cluster on this machine may hold.
    """
    sk = {"dashboard_address": "127.0.0.1:0", **kw.pop("scheduler_kwargs", {})}
    return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.ERROR, scheduler_kwargs=sk, **kw)


def connect(spec: str, *, timeout: float = 30.0) -> DaskSession:
    """Start (``local[:N]``) or join (an address) a cluster, register :class:`OneThreadPlugin` and
    gather the workers' package versions."""
    address, n = parse_scheduler(spec)
    cluster = None
    if address == "local":
        n = n or os.cpu_count() or 1
        cluster = local_cluster(n)
        client = Client(cluster, timeout=timeout)
    else:
        client = Client(address, timeout=timeout)
    try:
        client.register_plugin(OneThreadPlugin(ignore_sigint=cluster is not None))
        client.wait_for_workers(n or 1, timeout=timeout)
        envs = client.run(_worker_report)
        info = {
            "address": str(client.scheduler.address),
            "kind": "local" if cluster is not None else "remote",
            "workers": len(envs),
            "worker_environments": {str(w): {k: str(v) for k, v in e.items()}
                                    for w, e in sorted(envs.items())},
        }
    except BaseException:
        client.close()
        if cluster is not None:
            cluster.close()
        raise
    return DaskSession(client, cluster, info)
