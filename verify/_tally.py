"""Building evidence: a tally of per-instance observations, and hypothesis-driven exploration.

Checks compare numbers in three ways, and each has its own honest outcome:

* exact (rationals, sympy):          holds -> CERTIFIED, fails -> REFUTED;
* rigorous balls (arb):              certainly holds -> CERTIFIED, certainly fails -> REFUTED,
                                     straddles -> UNKNOWN (never coerced);
* floating point within a budget:    within the tolerance -> CONSISTENT, outside it -> REFUTED.

The tolerance of a floating-point comparison must come from the precision used (see
:func:`numerics.precision.tolerance_for`); it is recorded in the evidence.

:func:`explore` draws instances from a hypothesis strategy under a recorded seed.  When an instance
refutes the statement, hypothesis shrinks it, and the *minimal* refuting instance becomes the
counterexample.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from . import _observe
from ._verdict import Counterexample, Evidence, Verdict, combine

__all__ = ["SUB_CHECK", "Gate", "Observation", "Tally", "explore", "reject"]

#: the key of ``Counterexample.data`` naming the sub-check that produced a refutation (see
#: :meth:`Tally.sub`); a control declares the sub-check it targets (``Control.targets``)
SUB_CHECK = "sub_check"


class _Rejected(Exception):
    """Raised by :func:`reject` inside an :func:`explore` body."""


def reject() -> None:
    """Discard the current instance (it lies outside the hypotheses); use inside ``explore`` bodies."""
    raise _Rejected()


@dataclass(frozen=True)
class Observation:
    """The outcome on one instance: its level, margin (>= 0 means it holds), achieved error."""

    level: Verdict
    margin: float | None = None
    error: float | None = None
    counterexample: Counterexample | None = None

    def __post_init__(self) -> None:
        if self.level is Verdict.REFUTED and self.counterexample is None:
            raise ValueError("a refuting Observation needs a counterexample")


def _exact(x: Any) -> Any:
    """``x`` as an exact Fraction when it is an exact or multiple-precision number (int, Fraction,
    fmpz/fmpq, a finite mpmath mpf of any context), else None (floats, numpy, tensors, NaN/inf)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    mod = type(x).__module__ or ""
    if mod.startswith("flint"):
        name = type(x).__name__
        if name == "fmpz":
            return Fraction(int(x))
        if name == "fmpq":
            return Fraction(int(x.p), int(x.q))
        return None
    if mod.startswith("mpmath"):
        mpf_ = getattr(x, "_mpf_", None)
        if mpf_ is None:
            return None
        sgn, man, exp, _bc = mpf_
        if not man and exp:  # +-inf / nan (special values have a zero mantissa and exp != 0)
            return None
        v = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -v if sgn else v
    return None


def _exact_difference(value: Any, target: Any) -> Any:
    """``value - target`` exactly (a Fraction) when both sides are exact / mpmath numbers, else None.

    mpmath values are dyadic rationals, so their difference is formed without any rounding; a float
    conversion happens only afterwards, of the (small) difference -- never of each side, which would
    round 1 + 1e-30 to 1.0 and hide a discrepancy far above a 1e-35 tolerance.
    """
    a = _exact(value)
    if a is None:
        return None
    b = _exact(target)
    if b is None:
        return None
    return a - b


def _f(x: Any) -> float | None:
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


@dataclass
class Tally:
    """Accumulates observations and turns them into one :class:`Evidence`."""

    precision: str
    backend: str
    tolerance: float | None = None
    seeds: tuple[int, ...] = ()
    levels: list[Verdict] = field(default_factory=list)
    margin_min: float | None = None
    margin_max: float | None = None
    error: float | None = None
    counterexample: Counterexample | None = None
    notes: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    current_sub: str | None = field(default=None, repr=False, compare=False)

    # -- sub-checks --------------------------------------------------------------------------
    @contextlib.contextmanager
    def sub(self, name: str) -> Iterator[Tally]:
        """Tag what is recorded inside the block as sub-check ``name``.

        A refuting observation recorded inside (directly or through :func:`explore`) has its
        counterexample's ``data["sub_check"]`` set to ``name`` (an inner, already named sub-check
        wins), so the evidence says WHICH comparison refuted; a control declares the sub-check it
        targets (``Control(..., targets=name)``) and the runner accepts its refutation only from there.
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"a sub-check name must be a non-empty str, got {name!r}")
        prev, self.current_sub = self.current_sub, name
        try:
            yield self
        finally:
            self.current_sub = prev

    def named(self, name: str) -> Any:
        """This tally seen as sub-check ``name``: ``tally.named("rate").close(...)`` records like
        ``with tally.sub("rate"): tally.close(...)`` (recording methods only; other attributes are the
        tally's own)."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"a sub-check name must be a non-empty str, got {name!r}")
        return _SubView(self, name)

    # -- recording ---------------------------------------------------------------------------
    def add(self, obs: Observation) -> Observation:
        if (self.current_sub is not None and obs.counterexample is not None
                and SUB_CHECK not in obs.counterexample.data):
            ce = obs.counterexample
            obs = replace(obs, counterexample=replace(
                ce, data={**dict(ce.data), SUB_CHECK: self.current_sub}))
        self.levels.append(obs.level)
        m = _f(obs.margin)
        if m is not None and not math.isnan(m):
            self.margin_min = m if self.margin_min is None else min(self.margin_min, m)
            self.margin_max = m if self.margin_max is None else max(self.margin_max, m)
        e = _f(obs.error)
        if e is not None and not math.isnan(e):
            self.error = e if self.error is None else max(self.error, e)
        if obs.level is Verdict.REFUTED and self.counterexample is None:
            self.counterexample = obs.counterexample
        return obs

    def exact(self, holds: bool, *, margin: Any = None, level: Verdict = Verdict.CERTIFIED,
              counterexample: Callable[[], Counterexample] | Counterexample | None = None,
              ) -> Observation:
        """Record an exactly decided statement (:func:`verify.observe.exact`)."""
        return self.add(_observe.exact(holds, margin=margin, level=level, counterexample=counterexample))

    def close(self, value: Any, target: Any, tol: float, *,
              counterexample: Callable[[], Counterexample] | Counterexample | None = None,
              scale: float = 1.0) -> Observation:
        """Record ``|value - target| <= tol * scale`` (:func:`verify.observe.close`)."""
        return self.add(_observe.close(value, target, tol, counterexample=counterexample, scale=scale))

    def le(self, value: Any, bound: Any, tol: float, *,
           counterexample: Callable[[], Counterexample] | Counterexample | None = None) -> Observation:
        """Record ``value <= bound + tol`` (:func:`verify.observe.le`)."""
        return self.add(_observe.le(value, bound, tol, counterexample=counterexample))

    def ball(self, decision: Any, *, margin: Any = None,
             counterexample: Callable[[], Counterexample] | Counterexample | None = None,
             ) -> Observation:
        """Record a three-valued ball decision (:func:`verify.observe.ball`)."""
        return self.add(_observe.ball(decision, margin=margin, counterexample=counterexample))

    def statement(self, statement: Any, values: Mapping[str, Any], *, part: str | None = None,
                  tol: float | None = None,
                  counterexample: Callable[[], Counterexample] | Counterexample | None = None,
                  ) -> Observation:
        """Evaluate the claim's statement (or its AllOf part ``part``) on one instance's observables
        and record the outcome -- inside ``self.sub(part)`` when a part is named, so a control that
        targets that part sees its refutation (see :mod:`verify._statement` for the semantics:
        exact -> CERTIFIED/REFUTED, balls -> three-valued, floats/mpmath/torch within ``tol``)."""
        from ._evaluate import observe_statement

        obs = observe_statement(statement, values, part=part, tol=tol, counterexample=counterexample)
        if part is None:
            return self.add(obs)
        with self.sub(part):
            return self.add(obs)

    def figure(self, **spec: Any) -> None:
        """Attach figure data (:func:`verify.figure`) to this check's evidence."""
        from ._figure import figure

        self.details.setdefault("figures", []).append(figure(**spec))

    def note(self, text: str) -> None:
        self.notes.append(text)

    # -- result ------------------------------------------------------------------------------
    @property
    def instances(self) -> int:
        return len(self.levels)

    def evidence(self, *, level_cap: Verdict | None = None) -> Evidence:
        """Combine: REFUTED if any, else the weakest; no instance at all gives UNKNOWN.

        ``level_cap`` caps the level (e.g. a float cross-check cannot exceed CONSISTENT).
        """
        notes = list(self.notes)
        if not self.levels:
            level = Verdict.UNKNOWN
            notes.append("no instance was examined")
        else:
            level = combine(self.levels)
            if level_cap is not None and level.holds and level.strength > level_cap.strength:
                level = level_cap
        return Evidence(
            level=level,
            instances=self.instances,
            margin_min=self.margin_min,
            margin_max=self.margin_max,
            error=self.error,
            tolerance=self.tolerance,
            precision=self.precision,
            backend=self.backend,
            seeds=self.seeds,
            counterexample=self.counterexample if level is Verdict.REFUTED else None,
            notes="; ".join(notes),
            details=dict(self.details),
        )


_ce = _observe._ce


class _Refuted(Exception):
    def __init__(self, obs: Observation, example: Any):
        super().__init__(obs.counterexample.description if obs.counterexample else "refuted")
        self.obs = obs
        self.example = example


def explore(strategy: Any, body: Callable[[Any], Observation], tally: Tally, *, seed: int,
            max_examples: int, examples: Iterable[Any] = (),
            describe: Callable[[Any], Mapping[str, Any]] | None = None) -> None:
    """Run ``body`` on the explicit ``examples`` and then on instances drawn from ``strategy``.

    Instances are drawn by hypothesis under ``seed`` (reproducible; no example database).  The first
    refutation stops the search; hypothesis then shrinks it and the minimal refuting instance is
    recorded in ``tally`` (its counterexample gains ``instance = describe(example)``).
    """
    from hypothesis import HealthCheck, given, settings
    from hypothesis import reject as hreject
    from hypothesis import seed as hseed

    def attach(obs: Observation, example: Any) -> Observation:
        if obs.level is not Verdict.REFUTED:
            return obs
        ce = obs.counterexample
        data = dict(ce.data) if ce else {}
        data.setdefault("instance", describe(example) if describe else repr(example))
        return Observation(obs.level, obs.margin, obs.error,
                           Counterexample(ce.description if ce else "refuted", data,
                                          ce.margin if ce else obs.margin, seed))

    for ex in examples:
        try:
            obs = attach(body(ex), ex)
        except _Rejected:
            continue
        tally.add(obs)
        if obs.level is Verdict.REFUTED:
            return

    if max_examples <= 0:
        return

    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              print_blob=False)
    @hseed(seed)
    @given(strategy)
    def _search(example: Any) -> None:
        try:
            obs = body(example)
        except _Rejected:
            hreject()
        if obs.level is Verdict.REFUTED:
            raise _Refuted(obs, example)
        tally.add(obs)

    with _draws_from_the_seed_alone() as fixed:
        if not fixed:
            tally.note("hypothesis internals changed: its draws may depend on the modules loaded "
                       "before this check (local constants)")
        try:
            _search()
        except _Refuted as r:
            tally.add(attach(r.obs, r.example))


@contextlib.contextmanager
def _draws_from_the_seed_alone() -> Iterator[bool]:
    """Hypothesis (>= 6.131) sometimes draws a numeric literal found in the *local* source modules
    loaded in ``sys.modules`` (and caches that pool per choice type at its first use), so the same
    ``@seed`` drew different instances depending on which claims had run earlier in the process (or
    under pytest, whose test modules are local too): found as different 4th draws of focus.ext.anti_focus,
    focus.stage2.focus_as_stated and focus.stage3.opposite_motion_as_stated in a catalogue run in another
    order.  Inside this block the local pool is empty and the per-type cache fresh, so a draw depends on
    the seed and hypothesis' fixed global constants only.  Yields False (and changes nothing) if those
    internals are not where hypothesis 6.131-6.155 keeps them."""
    try:
        from hypothesis.internal.cache import LRUCache
        from hypothesis.internal.conjecture import providers as hp

        getter, cache, empty = hp._get_local_constants, hp.CONSTANTS_CACHE, type(hp.GLOBAL_CONSTANTS)
        blank = empty(integers=hp.SortedSet(), floats=hp.SortedSet(key=hp.float_to_int),
                      bytes=hp.SortedSet(), strings=hp.SortedSet())
    except (ImportError, AttributeError, TypeError):
        yield False
        return
    hp._get_local_constants = lambda: blank
    hp.CONSTANTS_CACHE = LRUCache(1024)
    try:
        yield True
    finally:
        hp._get_local_constants, hp.CONSTANTS_CACHE = getter, cache


class _SubView:
    """``tally`` seen through sub-check ``name``: every recording method runs inside ``tally.sub(name)``;
    every other attribute (details, notes, tolerance, ...) is the tally's own."""

    _RECORDING = frozenset({"add", "exact", "close", "le", "ball"})

    def __init__(self, tally: Tally, name: str):
        object.__setattr__(self, "_tally", tally)
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._tally, attr)
        if attr not in self._RECORDING:
            return value

        def recorded(*args: Any, **kwargs: Any) -> Any:
            with self._tally.sub(self._name):
                return value(*args, **kwargs)

        return recorded

    def __setattr__(self, attr: str, value: Any) -> None:
        setattr(self._tally, attr, value)


class Gate:
    """Routes the named sub-checks of one check function, and names them in its evidence.

    ``gate(name)`` is the tally sub-check ``name`` records into (a view that tags a refutation with
    ``data["sub_check"] = name``, see :meth:`Tally.sub`).  Under the statement (``variant ==
    "statement"``) every sub-check is asserted in ``tally``.  Under a control variant only the sub-checks
    listed for it in ``targets`` are; the others go to side tallies whose verdicts are recorded in
    ``details['recorded_only']`` (so an unrelated failing sub-check can never be what refutes a
    control).  A targeted sub-check that never ran is a programming error (the control would pass for no
    reason), and raises.
    """

    def __init__(self, tally: Tally, variant: str, targets: Mapping[str, Collection[str]]):
        if variant != "statement" and variant not in targets:
            raise ValueError(f"unknown variant {variant!r}; known: statement, {', '.join(targets)}")
        self.tally = tally
        self.variant = variant
        self.active = None if variant == "statement" else frozenset(targets[variant])
        self._side: dict[str, Tally] = {}
        self._asked: set[str] = set()

    def asserts(self, name: str) -> bool:
        return self.active is None or name in self.active

    def __call__(self, name: str) -> Any:
        self._asked.add(name)
        if self.asserts(name):
            return _SubView(self.tally, name)
        side = self._side.setdefault(name, Tally(precision=self.tally.precision, backend=self.tally.backend))
        return _SubView(side, name)

    def evidence(self, *, level_cap: Verdict | None = Verdict.CONSISTENT) -> Evidence:
        if self.active is not None:
            missing = self.active - self._asked
            if missing:
                raise RuntimeError(f"variant {self.variant!r}: targeted sub-check(s) {sorted(missing)} "
                                   "never ran")
            self.tally.details["variant"] = self.variant
            self.tally.details["asserted_sub_checks"] = sorted(self.active)
            self.tally.details["recorded_only"] = {n: t.evidence().level.name
                                                   for n, t in sorted(self._side.items())}
        return self.tally.evidence(level_cap=level_cap)

    def child(self) -> Gate:
        """A gate on a fresh per-instance tally (for ``explore`` bodies) that shares this gate's routing and
        its record of which sub-checks ran."""
        g = Gate.__new__(Gate)
        g.tally = Tally(precision=self.tally.precision, backend=self.tally.backend)
        g.variant, g.active, g._side, g._asked = self.variant, self.active, self._side, self._asked
        return g

    def observation(self) -> Observation:
        """For an ``explore`` body: the per-instance tally as one observation, at the combined level of its
        sub-checks (REFUTED if any refutes, UNKNOWN if any could not decide or none ran)."""
        t = self.tally
        if t.counterexample is not None:
            return Observation(Verdict.REFUTED, margin=t.margin_min, error=t.error,
                               counterexample=t.counterexample)
        return Observation(combine(t.levels), margin=t.margin_min, error=t.error)
