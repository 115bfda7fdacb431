"""Running claims: seeds, profiles, executors and the claim-level verdict.

* Every check and control gets its own seed, derived from the run's base seed, the claim id and the
  check name (:func:`~verify.derive_seed`), and recorded in its evidence.
* Work is submitted to any :class:`concurrent.futures.Executor`.  The default is in-process for one
  worker and otherwise a :class:`verify._schedule.WorkerPool` (one torch thread per worker) whose
  queues keep the tasks of one part of a paper on one worker, so that the memos they share are built
  once (:mod:`verify._schedule`); a :class:`verify._dask.DaskExecutor` (``verify run --scheduler``) or
  any other executor can be passed instead.  Tasks are submitted lazily and collected as they
  complete; an in-process task is collected (and its progress reported) before the next one is
  submitted.
* A check that raises is reported as UNKNOWN with the error in its notes: a crash is never a pass,
  and it is not a refutation either.  ``KeyboardInterrupt`` and ``SystemExit`` are not crashes of a
  check: they stop the run (see *Interruption*).

Interruption: tasks are submitted lazily (a bounded number in flight) and collected as they complete.
A ``KeyboardInterrupt`` (Ctrl-C; the CLI turns SIGTERM into :class:`Interrupted`, a subclass) cancels the
queued tasks, terminates the worker processes of the runner's own pool (none is left behind), and
:func:`run_claims` returns a :class:`RunResult` with ``interrupted=True`` holding only the claims whose
every check and control finished; the others are listed in ``unfinished``.  A half-run claim is never
reported, so it can never be reported as passed; an interrupted run never passes.

A control that declares its target sub-check(s) (``Control.targets``) counts as refuted only when its
refutation names one of them (``counterexample.data["sub_check"]``); otherwise its evidence is voided
to UNKNOWN with the reason in its notes.

Claim verdict: REFUTED if any check refutes, otherwise the weakest level of the *decisive* checks
(:data:`~verify.ROLES`).  A claim *passes* when its verdict equals the expected verdict and every
negative control is REFUTED.
"""

from __future__ import annotations

import _thread
import os
import platform
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any

from ._claim import SOURCE_STRENGTHS, Check, Claim, Control, derive_seed
from ._derivation import derivation_check
from ._heap import after_task
from ._profile import Profile, get_profile
from ._schedule import AffinityQueues, InOrder, WorkerPool, group_of
from ._statement import running
from ._transport import exact, opened
from ._verdict import Evidence, Verdict, combine, merge_shards

__all__ = [
    "CheckOutcome",
    "ClaimOutcome",
    "Interrupted",
    "RunResult",
    "claim_verdict",
    "run_claims",
    "run_claim",
    "SerialExecutor",
    "stop_on_signals",
]


@dataclass(frozen=True)
class CheckOutcome:
    """One check or control as run: its role, description and evidence."""

    name: str
    kind: str  # "check" or "control"
    role: str  # "decisive" / "corroborating" for checks, "control" for controls
    description: str
    target: str
    seed: int
    evidence: Evidence
    #: a corroborating check's declared reason why it may be UNKNOWN at the run's profile ("" if none)
    inconclusive: str = ""

    @property
    def passed(self) -> bool:
        """A control passes when REFUTED; a check when it supports the claim, or when it is a
        corroborating check that is UNKNOWN for its declared reason (:attr:`inconclusive`)."""
        if self.kind == "control":
            return self.evidence.level is Verdict.REFUTED
        return self.evidence.level.holds or self.declared_inconclusive

    @property
    def _corroborating_unknown(self) -> bool:
        return (self.kind == "check" and self.role == "corroborating"
                and self.evidence.level is Verdict.UNKNOWN)

    @property
    def declared_inconclusive(self) -> bool:
        """A corroborating check that came out UNKNOWN for the reason it declares (:attr:`inconclusive`)."""
        return self._corroborating_unknown and bool(self.inconclusive)

    @property
    def undeclared_unknown(self) -> bool:
        """A corroborating check that came out UNKNOWN with no declared reason: it cannot lower the
        claim's level, so it fails the claim instead (:attr:`ClaimOutcome.passed`)."""
        return self._corroborating_unknown and not self.inconclusive


def claim_verdict(checks: Sequence[CheckOutcome]) -> Verdict:
    """REFUTED if any check refutes; else the weakest decisive level (UNKNOWN if none ran)."""
    levels = [c.evidence.level for c in checks if c.kind == "check"]
    if any(v is Verdict.REFUTED for v in levels):
        return Verdict.REFUTED
    return combine(c.evidence.level for c in checks if c.kind == "check" and c.role == "decisive")


@dataclass(frozen=True)
class ClaimOutcome:
    claim_id: str
    title: str
    source: str
    reading: str
    expected: Verdict
    verdict: Verdict
    checks: tuple[CheckOutcome, ...]
    controls: tuple[CheckOutcome, ...]
    condition: str = ""
    strength: str = ""  # the claim's strength (as-stated, strengthened, repaired, code, derived)
    model: str = ""  # a user's model checked against the claim (verify.check_model): its type's name

    @property
    def refuted_source(self) -> bool:
        """REFUTED, and the claim is the source's own statement (as-stated, or the authors' code)."""
        return self.verdict is Verdict.REFUTED and not self.model and self.strength in SOURCE_STRENGTHS

    @property
    def refuted_boundary(self) -> bool:
        """REFUTED, and the claim is not the source's statement (a strengthened or the toolkit's own
        reading): where the stronger reading stops, never the source's failure.  False when the
        strength is not recorded (a report written before strengths existed)."""
        return (self.verdict is Verdict.REFUTED and not self.model and bool(self.strength)
                and self.strength not in SOURCE_STRENGTHS)

    @property
    def refuted_model(self) -> bool:
        """REFUTED on a user's model (:func:`verify.check_model`): the model does not behave as the claim
        says -- a finding about the model, neither the source's failure nor a reading's boundary."""
        return self.verdict is Verdict.REFUTED and bool(self.model)

    @property
    def controls_refuted(self) -> bool:
        return all(c.passed for c in self.controls)

    def _repr_html_(self) -> str:
        from ._display import outcome_html

        return outcome_html(self)

    def _repr_latex_(self) -> str:
        from ._display import outcome_latex

        return outcome_latex(self)

    @property
    def corroboration_decided(self) -> bool:
        """No corroborating check came out UNKNOWN without a declared reason (:attr:`Check.inconclusive`)."""
        return not any(c.undeclared_unknown for c in self.checks)

    @property
    def passed(self) -> bool:
        """At the expected verdict, every control refuted, and every corroborating check decided or
        inconclusive for its declared reason."""
        return self.verdict is self.expected and self.controls_refuted and self.corroboration_decided

    @property
    def wall_time(self) -> float:
        return sum(c.evidence.wall_time for c in self.checks + self.controls)

    @property
    def instances(self) -> int:
        return sum(c.evidence.instances for c in self.checks)

    @property
    def margin(self) -> float | None:
        """The weakest margin among the decisive checks (None if none recorded one)."""
        ms = [c.evidence.margin_min for c in self.checks
              if c.role == "decisive" and c.evidence.margin_min is not None]
        return min(ms) if ms else None

    @property
    def counterexample(self) -> Any:
        for c in self.checks:
            if c.evidence.counterexample is not None:
                return c.evidence.counterexample
        return None

    def failures(self) -> list[str]:
        """Human-readable reasons why this claim did not pass (empty when it passed)."""
        out = []
        if self.verdict is not self.expected:
            out.append(f"verdict {self.verdict} differs from expected {self.expected}")
            for c in self.checks:
                if c.evidence.level is not self.expected:
                    note = f": {c.evidence.notes}" if c.evidence.notes else ""
                    out.append(f"  check {c.name} ({c.role}) -> {c.evidence.level}{note}")
        for c in self.checks:
            if c.undeclared_unknown:
                note = f": {c.evidence.notes}" if c.evidence.notes else ""
                out.append(f"corroborating check {c.name} is UNKNOWN and declares no reason why it may "
                           f"be inconclusive{note}")
        for c in self.controls:
            if not c.passed:
                note = f": {c.evidence.notes}" if c.evidence.notes else ""
                out.append(f"control {c.name} was not refuted (got {c.evidence.level}){note}")
        return out


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop by a signal (SIGINT or SIGTERM, see :class:`stop_on_signals`)."""


class stop_on_signals:  # noqa: N801 - used as a context manager, like contextlib's
    """While active (``verify run``), SIGINT and SIGTERM raise :class:`Interrupted` in the main thread,
    and the raise is repeated every 0.25 s until :func:`run_claims` has taken it.

    One raise is not enough: Python prints and drops an exception raised while it runs a gc callback, a
    ``__del__`` or a weakref callback (hypothesis installs a gc callback, so a Ctrl-C landing there used
    to be lost and the run went on).  Once the runner has taken the interruption, further signals are
    ignored until the reports of what finished are written (a bounded time).  Must be entered in the
    main thread (``signal.signal``'s rule); elsewhere it raises ``ValueError``.
    """

    _active: stop_on_signals | None = None

    def __init__(self) -> None:
        self.signum: int | None = None
        self.taken = threading.Event()
        self._old: dict[int, Any] = {}
        self._repeater: threading.Thread | None = None

    def __enter__(self) -> stop_on_signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._old[sig] = signal.signal(sig, self._handler)
        stop_on_signals._active = self
        return self

    def __exit__(self, *exc: Any) -> None:
        self.taken.set()
        if self._repeater is not None:
            self._repeater.join()
        for sig, old in self._old.items():
            signal.signal(sig, old)
        stop_on_signals._active = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.taken.is_set():
            return  # already stopping: let the reports be written
        if self.signum is None:
            self.signum = signum
            self._repeater = threading.Thread(target=self._repeat, name="verify-stop", daemon=True)
            self._repeater.start()
        raise Interrupted(f"signal {self.signum}")

    def _repeat(self) -> None:
        main = threading.main_thread().ident
        while not self.taken.wait(0.25):
            if hasattr(signal, "pthread_kill") and main is not None:
                signal.pthread_kill(main, signal.SIGINT)  # a real signal also cuts a sleep short
            else:  # pragma: no cover - Windows
                _thread.interrupt_main(signal.SIGINT)

    @classmethod
    def take(cls) -> None:
        """The runner has the interruption in hand: stop repeating it, ignore further signals."""
        if cls._active is not None:
            cls._active.taken.set()


@dataclass
class RunResult:
    """The outcomes of a run.

    ``interrupted`` is True when the run was stopped early; ``outcomes`` then holds only the claims
    whose every check and control finished, and ``unfinished`` the ids of the other selected claims.
    An interrupted run never passes.
    """

    outcomes: list[ClaimOutcome]
    profile: str
    seed: int
    workers: int
    wall_time: float
    started: str
    environment: Mapping[str, str] = field(default_factory=dict)
    interrupted: bool = False
    unfinished: list[str] = field(default_factory=list)
    #: for a run on dask: address, kind (local/remote), workers and each worker's package versions
    scheduler: Mapping[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return not self.interrupted and all(o.passed for o in self.outcomes)

    def by_id(self) -> dict[str, ClaimOutcome]:
        return {o.claim_id: o for o in self.outcomes}


# -- executors ----------------------------------------------------------------------------------
class SerialExecutor(Executor):
    """Runs each task immediately in the calling process (the one-worker executor).

    An ``Exception`` is handed to the caller through the future; ``KeyboardInterrupt`` and
    ``SystemExit`` propagate out of :meth:`submit`, so that Ctrl-C stops the run at once.
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(e)
        return fut


def _init_worker() -> None:
    """One torch (and BLAS) thread per worker process; signals are the parent's business.

    A worker ignores SIGINT (Ctrl-C reaches the whole process group: the parent decides) and takes the
    default action on SIGTERM (the parent terminates its workers; a handler inherited through fork
    must not turn that into an exception the worker survives).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    torch = sys.modules.get("torch")  # inherited through fork; imported later, torch reads the env
    if torch is not None:
        torch.set_num_threads(1)


def _run_task(check: Check, seed: int, profile_name: str, claim: tuple[str, Any, Any] | None = None,
              ) -> Evidence:
    """Run one check; a crash becomes UNKNOWN evidence with the traceback in its notes.

    ``claim`` is ``(claim id, statement, derivation)`` of the claim the check belongs to (sealed by
    :func:`verify._transport.exact` when the task runs in another process): the check reads the
    statement it evaluates from there (:func:`verify.statement_of`), so a claim run with a
    replaced statement is checked against that statement, in this process or in a worker."""
    profile = get_profile(profile_name)
    t0 = time.perf_counter()
    try:
        claim = opened(claim)  # sealed when shipped to a worker (verify/_transport.py)
        if claim is None:
            return check.run(seed=seed, profile=profile)
        with running(*claim):
            return check.run(seed=seed, profile=profile)
    except Exception as e:  # noqa: BLE001 - every crash is reported, never swallowed silently
        tb = traceback.format_exc(limit=6)
        return Evidence(
            level=Verdict.UNKNOWN,
            seeds=(seed,),
            wall_time=time.perf_counter() - t0,
            notes=f"check raised {type(e).__name__}: {e}",
            details={"traceback": tb},
        )
    finally:
        after_task()  # a task that imported a large library: its modules frozen too (verify/_heap.py)


def _through_target(control: Control, ev: Evidence) -> Evidence:
    """A control's evidence, voided (UNKNOWN) when it was refuted by a sub-check other than the one the
    control declares it targets (:meth:`Control.target_problem`): such a refutation says nothing about
    the variant, so the control is not refuted.  The rejected counterexample stays in the details."""
    problem = control.target_problem(ev)
    if problem is None:
        return ev
    details = dict(ev.details)
    details["rejected_counterexample"] = ev.counterexample.to_json() if ev.counterexample else None
    notes = "; ".join(x for x in (ev.notes, problem) if x)
    return replace(ev, level=Verdict.UNKNOWN, counterexample=None, notes=notes, details=details)


def _environment() -> dict[str, str]:
    """Versions of the numeric stack, read from package metadata (nothing is imported)."""
    from importlib.metadata import PackageNotFoundError, version

    env = {"python": platform.python_version(), "machine": platform.machine()}
    for dist in ("sympy", "mpmath", "numpy", "scipy", "torch", "hypothesis", "python-flint",
                 "symengine"):
        try:
            env[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover
            env[dist] = "missing"
    return env


def _stop(executor: Executor, own: bool, pending: Iterable[Future]) -> None:
    """Cancel queued work; for the runner's own process pool, terminate (and reap) its workers."""
    for fut in pending:
        fut.cancel()
    if not own:
        return
    procs = list((getattr(executor, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):  # pragma: no cover - already gone
            pass
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 1.0
    for p in procs:
        try:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(1.0)
        except (OSError, ValueError, AssertionError, AttributeError):  # pragma: no cover
            pass


def run_claims(claims: Iterable[Claim], *, profile: str | Profile = "quick", seed: int = 0,
               workers: int = 1, executor: Executor | None = None,
               progress: Callable[[str, int, int], None] | None = None,
               order: Mapping[str, float] | None = None) -> RunResult:
    """Run every check and control of ``claims`` and return their outcomes.

    ``progress(label, done, total)`` is called after each finished task, as soon as it is collected
    (at one worker after every task, not at the end); if ``progress`` also has a ``started(label)``
    method (:class:`verify._progress.ProgressBar`), that is called when a task begins: just before an
    in-process task runs, or when the executor first reports it running.  An executor with a
    ``scheduler_info`` mapping (:class:`verify._dask.DaskExecutor`) has it recorded in the result.
    ``order`` maps task labels (``"<claim id> <check name>"``) to expected seconds: the longest are
    submitted first (the evidence does not depend on the order: every seed is derived per check).
    A check with ``shards > 1`` at the profile runs as that many tasks, merged into one evidence.
    Ctrl-C (``KeyboardInterrupt``) stops the run and returns the finished claims with
    ``interrupted=True`` (module docstring).
    """
    prof = get_profile(profile)
    claims = list(claims)
    if workers < 1:
        raise ValueError("workers must be >= 1")
    t0 = time.perf_counter()
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    plan: list[tuple[Claim, str, Any, int]] = []
    context: dict[str, tuple[str, Any, Any]] = {}
    for claim in claims:
        context[claim.id] = (claim.id, claim.resolved_statement(), claim.resolved_derivation())
        checks = claim_checks(claim, context[claim.id][2])
        for kind, items in (("check", checks), ("control", claim.controls)):
            for item in items:
                chk = item if kind == "check" else item.check
                plan.append((claim, kind, item, derive_seed(seed, *chk.seed_key(claim.id, item.name))))
    # tasks: every (shard of a) check or control; a sharded check runs as independent tasks whose
    # evidence is merged afterwards (merge_shards), identical to one task's but for the timing
    tasks: list[tuple[int, Check, int]] = []  # (plan index, the check to run, shard index)
    for k, (claim, kind, item, s) in enumerate(plan):
        chk = item if kind == "check" else item.check
        n = chk.shard_count(prof.name)
        tasks.extend((k, chk if n == 1 else chk.shard(i, n), i) for i in range(n))
    def expected(t: tuple[int, Check, int]) -> float | None:
        """The task's remembered seconds (a hint from earlier runs), None when there is none."""
        claim, _, item, _ = plan[t[0]]
        n = t[1].params["shard"][1] if "shard" in t[1].params else 1
        secs = None if order is None else order.get(f"{claim.id} {item.name}")
        return None if secs is None else float(secs) / n

    if order is not None:  # longest first, so that no worker idles at the end behind a long task
        tasks.sort(key=lambda t: -(expected(t) or 0.0))  # stable: catalogue order among equals
    total = len(tasks)
    results: dict[int, Evidence] = {}  # by task index
    own = executor is None
    if own:
        if workers == 1:
            executor = SerialExecutor()
        elif os.environ.get("VERIFY_POOL") == "plain":  # the pool before affinity (benchmarks/engine)
            executor = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
        else:
            executor = WorkerPool(workers, initializer=_init_worker)
    if isinstance(executor, WorkerPool):  # related tasks to one worker (verify/_schedule.py)
        queue: InOrder | AffinityQueues = AffinityQueues(
            [group_of(plan[k][0].id, i if "shard" in chk.params else None) for k, chk, i in tasks],
            [expected(t) for t in tasks], executor.workers)
    else:  # bounded: queued work to cancel on interruption stays small
        queue = InOrder(total, 2 * workers)
    in_flight: dict[Future, tuple[int, int | None]] = {}  # future -> (task, worker or None)
    busy: dict[int | None, int] = {}  # tasks in flight per worker
    interrupted = False

    sync = isinstance(executor, SerialExecutor)  # runs each task inside submit()
    sealed: dict[str, Any] = {}  # claim id -> its context sealed for the workers
    on_start = getattr(progress, "started", None)
    seen: set[int] = set()

    def label(k: int) -> str:
        claim, _, item, _ = plan[k]
        return f"{claim.id} {item.name}"

    def task_label(t: int) -> str:
        k, chk, i = tasks[t]
        n = chk.params.get("shard", (0, 1))[1] if "shard" in chk.params else 1
        return label(k) if n == 1 else f"{label(k)} [{i + 1}/{n}]"

    def note_start(t: int) -> None:
        if on_start is not None and t not in seen:
            seen.add(t)
            on_start(task_label(t))

    def collect(fut: Future) -> None:
        t, w = in_flight.pop(fut)
        busy[w] -= 1
        results[t] = fut.result()
        if progress:
            progress(task_label(t), len(results), total)

    try:
        while queue or in_flight:
            while (item := queue.take(busy)) is not None:
                t, w = item
                k, chk, _ = tasks[t]
                claim, _, _, s = plan[k]
                if sync:
                    note_start(t)
                if sync:
                    ctx = context[claim.id]
                elif (ctx := sealed.get(claim.id)) is None:  # pickled as built, once per claim
                    ctx = sealed[claim.id] = exact(context[claim.id])
                args = (_run_task, chk, s, prof.name, ctx)
                fut = executor.submit(*args) if w is None else executor.submit_to(w, *args)
                in_flight[fut] = (t, w)
                busy[w] = busy.get(w, 0) + 1
                if fut.done():  # ran in-process: report it now, not after the next task
                    collect(fut)
            if not in_flight:
                continue
            if on_start is not None:
                for fut, (t, _) in in_flight.items():
                    if fut.running():
                        note_start(t)
            done, _ = wait(list(in_flight), timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in done:
                collect(fut)
    except KeyboardInterrupt:
        stop_on_signals.take()
        interrupted = True
        for fut, (t, _) in list(in_flight.items()):  # harvest what finished before the signal
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                results[t] = fut.result()
        _stop(executor, own, in_flight)
    except BaseException:  # a broken pool, SystemExit from a check: stop the workers, then re-raise
        _stop(executor, own, in_flight)
        raise
    else:
        if own:
            executor.shutdown(wait=True)
    by_task: dict[int, list[tuple[int, Evidence]]] = {}
    for t, ev in results.items():
        by_task.setdefault(tasks[t][0], []).append((tasks[t][2], ev))
    merged: dict[int, Evidence] = {}
    for k, (_, kind, item, _) in enumerate(plan):
        chk = item if kind == "check" else item.check
        parts = sorted(by_task.get(k, []), key=lambda p: p[0])
        if len(parts) == chk.shard_count(prof.name):  # an interrupted run may leave shards unfinished
            merged[k] = merge_shards([ev for _, ev in parts])
    by_claim: dict[str, list[CheckOutcome]] = {}
    for k, (claim, kind, item, s) in enumerate(plan):
        if k not in merged:
            continue
        chk = item if kind == "check" else item.check
        if kind == "control":
            merged[k] = _through_target(item, merged[k])
        by_claim.setdefault(claim.id, []).append(CheckOutcome(
            name=item.name,
            kind=kind,
            role=chk.role if kind == "check" else "control",
            description=item.description,
            target=chk.target,
            seed=s,
            evidence=merged[k],
            inconclusive=chk.inconclusive_at(prof.name) if kind == "check" else "",
        ))
    outcomes = []
    unfinished = []
    for claim in claims:
        cos = by_claim.get(claim.id, [])
        if len(cos) != check_count(claim) + len(claim.controls):
            unfinished.append(claim.id)  # only an interrupted run leaves a claim incomplete
            continue
        checks = tuple(c for c in cos if c.kind == "check")
        controls = tuple(c for c in cos if c.kind == "control")
        outcomes.append(ClaimOutcome(
            claim_id=claim.id,
            title=claim.title,
            source=f"{claim.source.spec} {claim.source.where}",
            reading=claim.reading,
            expected=claim.expected,
            verdict=claim_verdict(checks),
            checks=checks,
            controls=controls,
            condition=claim.condition,
            strength=claim.strength,
        ))
    return RunResult(outcomes=outcomes, profile=prof.name, seed=seed, workers=workers,
                     wall_time=time.perf_counter() - t0, started=started,
                     environment=_environment(), interrupted=interrupted, unfinished=unfinished,
                     scheduler=getattr(executor, "scheduler_info", None))


_UNRESOLVED: Any = object()

#: the derivation check's declared reason (rule (o)) for a derivation that has nothing to check
SHOWN_ONLY = ("the derivation has no step to check (notes and definitions, at most one chain expression): "
              "it is shown, not checked")


def _checks_nothing(derivation: Any) -> bool:
    """A derivation none of whose steps :func:`verify._derivation.check_derivation` can check: notes
    (older ``(label, expression)`` pairs) and definitions, with at most one chain expression."""
    if derivation is None:
        return False
    live = [st for st in derivation.steps if st.relation not in ("def", "note")]
    return not any(st.is_fact for st in live) and len(live) <= 1


def claim_checks(claim: Claim, derivation: Any = _UNRESOLVED) -> tuple[Check, ...]:
    """The checks the runner runs for ``claim``: its own, plus the corroborating ``derivation`` check
    (:mod:`verify._derivation`) when the claim has a derivation.  That check declares itself
    inconclusive (:data:`SHOWN_ONLY`) for a derivation with nothing to check, a display-only one;
    ``derivation`` is the claim's resolved derivation when the caller has it (else it is resolved
    here; :func:`check_count` counts without resolving)."""
    if not claim.derivation:
        return tuple(claim.checks)
    if derivation is _UNRESOLVED:
        derivation = claim.resolved_derivation()
    return tuple(claim.checks) + (Check(
        "derivation", derivation_check, {"claim_id": claim.id}, role="corroborating",
        description="each derivation step against the previous one (sympy, else 50-digit spot checks)",
        inconclusive=SHOWN_ONLY if _checks_nothing(derivation) else ""),)


def check_count(claim: Claim) -> int:
    """``len(claim_checks(claim))`` without resolving the claim's derivation."""
    return len(claim.checks) + (1 if claim.derivation else 0)


def run_claim(claim: Claim, *, profile: str | Profile = "quick", seed: int = 0) -> ClaimOutcome:
    """Run one claim in-process (what ``verify show`` and the pytest plugin use).

    Ctrl-C raises ``KeyboardInterrupt`` here (one claim has nothing partial worth returning).
    """
    result = run_claims([claim], profile=profile, seed=seed, workers=1)
    if result.interrupted:
        raise KeyboardInterrupt(f"interrupted while running {claim.id}")
    return result.outcomes[0]
