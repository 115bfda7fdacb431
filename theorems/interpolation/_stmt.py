"""Evaluating a claim's statement inside ``explore`` bodies (which return one Observation per instance).

``tally.statement`` records directly; an explore body instead needs the Observation, and a refutation
must name the statement part as its sub-check (so ``Control(targets=...)`` keeps working).  This module
is that thin bridge over the engine's ``observe_statement``; it evaluates nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from verify import Observation, Verdict, refuted

__all__ = ["observe_part", "observe_parts"]


def observe_part(statement: Any, values: Mapping[str, Any], part: str | None, *, tol: float | None = None,
                 **data: Any) -> Observation:
    """One Observation of ``statement``'s part ``part`` on ``values``; a refutation carries
    ``sub_check=part`` and ``data`` (instance description) in its counterexample."""
    from verify._observe import statement as observe_statement

    def ce():
        shown = {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v)[:200])
                 for k, v in values.items()}
        return refuted(f"statement part {part!r} fails on this instance", sub_check=part or "statement",
                       values=shown, **data)

    return observe_statement(statement, values, part=part, tol=tol, counterexample=ce)


def observe_parts(statement: Any, parts: Mapping[str, Mapping[str, Any]], *, tol: float | None = None,
                  margin: Any = None, **data: Any) -> Observation:
    """Evaluate several parts on one instance: the first refutation, else the first UNKNOWN, else a pass
    at the weakest level among them (with ``margin`` when given)."""
    obs = [observe_part(statement, vals, part, tol=tol, **data) for part, vals in parts.items()]
    for o in obs:
        if o.level is Verdict.REFUTED:
            return o
    for o in obs:
        if o.level is Verdict.UNKNOWN:
            return o
    weakest = min(obs, key=lambda o: o.level.strength)
    return Observation(weakest.level, margin=weakest.margin if margin is None else margin)


def part(statement: Any, label: str) -> Any:
    """The relation labelled ``label`` in ``statement``'s AllOf body (quantifiers unwrapped)."""
    from verify._statement import select

    return select(statement, label)


def syms(expr: Any) -> dict[str, Any]:
    """The free symbols of ``expr`` by name (to substitute observables into a statement's formula)."""
    return {s.name: s for s in expr.free_symbols}


def record_proved(tally: Any, statement: Any, values: Mapping[str, Any], label: str, **data: Any) -> Observation:
    """Record ``statement``'s part ``label`` on exact values that are symbolic results over the whole range
    (limits, closed forms in a free parameter): a CERTIFIED evaluation is recorded as PROVED; a refutation
    or UNKNOWN as it is.  Inside ``tally.sub(label)``."""
    obs = observe_part(statement, values, label, **data)
    if obs.level is Verdict.CERTIFIED:
        obs = Observation(Verdict.PROVED, margin=obs.margin)
    with tally.sub(label):
        return tally.add(obs)
