"""Running claims: seeds, profiles, executors and the claim-level verdict.

* Every check and control gets its own seed, derived from the run's base seed, the claim id and the
  check name (:func:`~verify.derive_seed`), and recorded in its evidence.
* Work is submitted to any :class:`concurrent.futures.Executor`.  The default is in-process for one
  worker and a process pool (one torch thread per worker) otherwise; a dask ``Client.get_executor()``
  or any other executor can be passed instead.
* A check that raises is reported as UNKNOWN with the error in its notes: a crash is never a pass,
  and it is not a refutation either.

Claim verdict: REFUTED if any check refutes, otherwise the weakest level of the *decisive* checks
(:data:`~verify.ROLES`).  A claim *passes* when its verdict equals the expected verdict and every
negative control is REFUTED.
"""

from __future__ import annotations

import os
import platform
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ._claim import Check, Claim, derive_seed
from ._profile import Profile, get_profile
from ._verdict import Evidence, Verdict, combine

__all__ = [
    "CheckOutcome",
    "ClaimOutcome",
    "RunResult",
    "claim_verdict",
    "run_claims",
    "run_claim",
    "SerialExecutor",
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

    @property
    def passed(self) -> bool:
        """A control passes when REFUTED; a check when it supports the claim."""
        if self.kind == "control":
            return self.evidence.level is Verdict.REFUTED
        return self.evidence.level.holds


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

    @property
    def controls_refuted(self) -> bool:
        return all(c.passed for c in self.controls)

    @property
    def passed(self) -> bool:
        return self.verdict is self.expected and self.controls_refuted

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
        for c in self.controls:
            if not c.passed:
                note = f": {c.evidence.notes}" if c.evidence.notes else ""
                out.append(f"control {c.name} was not refuted (got {c.evidence.level}){note}")
        return out


@dataclass
class RunResult:
    outcomes: list[ClaimOutcome]
    profile: str
    seed: int
    workers: int
    wall_time: float
    started: str
    environment: Mapping[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    def by_id(self) -> dict[str, ClaimOutcome]:
        return {o.claim_id: o for o in self.outcomes}


# -- executors ----------------------------------------------------------------------------------
class SerialExecutor(Executor):
    """Runs each task immediately in the calling process (the one-worker executor)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(e)
        return fut


def _init_worker() -> None:
    """One torch (and BLAS) thread per worker process."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:  # pragma: no cover - torch is a dependency
        pass


def _run_task(check: Check, seed: int, profile_name: str) -> Evidence:
    """Run one check; a crash becomes UNKNOWN evidence with the traceback in its notes."""
    profile = get_profile(profile_name)
    t0 = time.perf_counter()
    try:
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


def run_claims(claims: Iterable[Claim], *, profile: str | Profile = "quick", seed: int = 0,
               workers: int = 1, executor: Executor | None = None,
               progress: Callable[[str, int, int], None] | None = None) -> RunResult:
    """Run every check and control of ``claims`` and return their outcomes.

    ``progress(label, done, total)`` is called after each finished task.
    """
    prof = get_profile(profile)
    claims = list(claims)
    if workers < 1:
        raise ValueError("workers must be >= 1")
    own = executor is None
    if own:
        executor = SerialExecutor() if workers == 1 else ProcessPoolExecutor(
            max_workers=workers, initializer=_init_worker)
    t0 = time.perf_counter()
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    plan: list[tuple[Claim, str, Any, int, Future]] = []
    try:
        for claim in claims:
            for kind, items in (("check", claim.checks), ("control", claim.controls)):
                for item in items:
                    chk = item if kind == "check" else item.check
                    s = derive_seed(seed, claim.id, item.name)
                    plan.append((claim, kind, item, s, executor.submit(_run_task, chk, s, prof.name)))
        total = len(plan)
        results: dict[int, Evidence] = {}
        for k, (claim, kind, item, s, fut) in enumerate(plan):
            results[k] = fut.result()
            if progress:
                progress(f"{claim.id} {item.name}", k + 1, total)
    finally:
        if own:
            executor.shutdown(wait=True)
    outcomes = []
    by_claim: dict[str, list[CheckOutcome]] = {}
    for k, (claim, kind, item, s, _) in enumerate(plan):
        chk = item if kind == "check" else item.check
        by_claim.setdefault(claim.id, []).append(CheckOutcome(
            name=item.name,
            kind=kind,
            role=chk.role if kind == "check" else "control",
            description=item.description,
            target=chk.target,
            seed=s,
            evidence=results[k],
        ))
    for claim in claims:
        cos = by_claim.get(claim.id, [])
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
        ))
    return RunResult(outcomes=outcomes, profile=prof.name, seed=seed, workers=workers,
                     wall_time=time.perf_counter() - t0, started=started,
                     environment=_environment())


def run_claim(claim: Claim, *, profile: str | Profile = "quick", seed: int = 0) -> ClaimOutcome:
    """Run one claim in-process (what ``verify show`` and the pytest plugin use)."""
    return run_claims([claim], profile=profile, seed=seed, workers=1).outcomes[0]
