"""Building one observation: the comparisons a check makes, as pure functions.

Each function decides one comparison on one instance and returns an :class:`~verify.Observation`
without recording it anywhere; :class:`~verify.Tally` records (``tally.close(...)`` is
``tally.add(observe.close(...))``).  Use these directly where an observation is needed before it is
recorded (an ``explore`` body, a per-instance combination) -- never a throwaway ``Tally``.

* :func:`exact`  -- an exactly decided bool: CERTIFIED (or the given level) / REFUTED;
* :func:`close`  -- ``|value - target| <= tol * scale``: CONSISTENT / REFUTED, NaN -> UNKNOWN;
* :func:`le`     -- ``value <= bound + tol``: CONSISTENT / REFUTED, NaN -> UNKNOWN;
* :func:`ball`   -- a three-valued ball decision (:class:`numerics.precision.Tri`): CERTIFIED /
  REFUTED / UNKNOWN (never coerced).

Exact and multiple-precision sides (int, Fraction, fmpz/fmpq, mpmath mpf of any context) are compared
through their exact difference; only the recorded error/margin is a float.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ._verdict import Counterexample, Verdict

__all__ = ["ball", "close", "exact", "le", "statement"]

CE = Callable[[], Counterexample] | Counterexample | None


def _observation(*args: Any, **kwargs: Any) -> Any:
    from ._tally import Observation

    return Observation(*args, **kwargs)


def _ce(ce: CE, default: str) -> Counterexample:
    if ce is None:
        return Counterexample(description=default)
    if isinstance(ce, Counterexample):
        return ce
    return ce()


def exact(holds: bool, *, margin: Any = None, level: Verdict = Verdict.CERTIFIED,
          counterexample: CE = None) -> Any:
    """An exactly decided statement (``holds`` must be a genuine bool)."""
    from ._tally import _f

    if not isinstance(holds, bool):
        raise TypeError(f"exact() needs a bool decided exactly, got {type(holds).__name__}")
    if holds:
        return _observation(level, margin=_f(margin))
    return _observation(Verdict.REFUTED, margin=_f(margin),
                        counterexample=_ce(counterexample, "exact check failed"))


def close(value: Any, target: Any, tol: float, *, counterexample: CE = None,
          scale: float = 1.0) -> Any:
    """|value - target| <= tol * scale  -> CONSISTENT, else REFUTED (float budget).

    The recorded error and margin are relative to ``scale`` (so they compare with ``tol``).  A NaN
    or infinite difference, or a NaN budget, decides nothing: UNKNOWN (never a pass).  When both
    sides are exact or multiple-precision numbers the difference is formed exactly and compared with
    the budget exactly; only the recorded error is a float (of the difference, never of each side).
    """
    from ._tally import _exact_difference

    budget = float(tol) * float(scale)
    diff = _exact_difference(value, target)
    if diff is not None:
        # the budget is a float, hence an exact dyadic rational
        if math.isnan(budget):
            return _observation(Verdict.UNKNOWN, error=None)
        try:
            err = float(abs(diff))
        except OverflowError:
            err = math.inf
        holds = budget == math.inf or (budget != -math.inf and abs(diff) <= Fraction(budget))
    else:
        err = abs(float(value) - float(target))
        if not math.isfinite(err) or math.isnan(budget):
            return _observation(Verdict.UNKNOWN, error=None)
        holds = err <= budget
    rel = err / scale if scale else err
    if holds:
        return _observation(Verdict.CONSISTENT, margin=tol - rel, error=rel)
    return _observation(
        Verdict.REFUTED, margin=tol - rel, error=rel,
        counterexample=_ce(counterexample, f"|{value} - {target}| = {err:.3g} > {budget:.3g}"))


def le(value: Any, bound: Any, tol: float, *, counterexample: CE = None) -> Any:
    """value <= bound + tol -> CONSISTENT (margin bound - value), else REFUTED; NaN -> UNKNOWN.

    Exact or multiple-precision sides are compared through their exact difference (``bound - value
    >= -tol`` decided exactly); only the recorded margin is a float.
    """
    from ._tally import _exact_difference

    diff = _exact_difference(bound, value)
    if diff is not None and not math.isnan(float(tol)):
        try:
            margin = float(diff)
        except OverflowError:
            margin = math.inf if diff > 0 else -math.inf
        holds = float(tol) == math.inf or diff >= -Fraction(float(tol))
        if holds:
            return _observation(Verdict.CONSISTENT, margin=margin)
        return _observation(
            Verdict.REFUTED, margin=margin,
            counterexample=_ce(counterexample, f"{value} > {bound} (+ tolerance {tol:.3g})"))
    v, b = float(value), float(bound)
    if math.isnan(v) or math.isnan(b) or math.isnan(float(tol)) or math.isnan(b - v):
        return _observation(Verdict.UNKNOWN)
    margin = b - v
    if margin >= -tol:
        return _observation(Verdict.CONSISTENT, margin=margin)
    return _observation(
        Verdict.REFUTED, margin=margin,
        counterexample=_ce(counterexample, f"{v:.6g} > {b:.6g} (+ tolerance {tol:.3g})"))


def ball(decision: Any, *, margin: Any = None, counterexample: CE = None) -> Any:
    """A three-valued decision from ball arithmetic (see numerics.precision.Tri)."""
    from ._tally import _f

    name = getattr(decision, "name", None)
    if name == "TRUE":
        return _observation(Verdict.CERTIFIED, margin=_f(margin))
    if name == "FALSE":
        return _observation(Verdict.REFUTED, margin=_f(margin), counterexample=_ce(
            counterexample, "ball arithmetic certifies the statement false"))
    if name == "UNKNOWN":
        return _observation(Verdict.UNKNOWN, margin=_f(margin))
    raise TypeError(f"ball() takes a three-valued decision, got {decision!r}")


def statement(statement: Any, values: Any, *, part: str | None = None, tol: float | None = None,
              counterexample: CE = None, **data: Any) -> Any:
    """One observation of the claim's statement (or its part) on one instance's observables, not
    recorded (:meth:`verify.Tally.statement` records it; semantics in :mod:`verify._evaluate`).

    A refutation names ``part`` as its sub-check (so a control targeting the part sees it, as when the
    tally records it inside ``tally.sub(part)``) and carries ``data`` (the instance) in its
    counterexample -- what an ``explore`` body needs before the observation is recorded."""
    from dataclasses import replace

    from ._evaluate import observe_statement
    from ._tally import SUB_CHECK

    obs = observe_statement(statement, values, part=part, tol=tol, counterexample=counterexample)
    ce = obs.counterexample
    if ce is None or (not data and part is None):
        return obs
    extra = {SUB_CHECK: part} if part is not None else {}
    return replace(obs, counterexample=replace(ce, data={**dict(ce.data), **data, **extra}))
