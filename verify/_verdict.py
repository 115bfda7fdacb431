"""Verdict levels, evidence and counterexamples.

A verdict is never a boolean.  The five levels, strongest first (ARCHITECTURE, "The claim model"):

``PROVED``      established symbolically for the whole parameter range in scope;
``CERTIFIED``   holds on every instance checked with rigorous arithmetic (exact rationals, balls);
``CONSISTENT``  holds on every instance within a recorded error budget (floats, simulations);
``UNKNOWN``     inconclusive (a ball straddles zero, a simulation did not settle, a budget ran out);
``REFUTED``     a counterexample, minimised and reproducible, with its margin.

Combination rule: REFUTED if any part refutes, otherwise the *weakest* level among the parts.
UNKNOWN is never coerced into anything else, and ``bool(verdict)`` raises, so that no code can
silently treat a verdict as a pass/fail flag.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

__all__ = ["Verdict", "combine", "Counterexample", "Evidence", "merge_shards"]


class Verdict(enum.Enum):
    """The five verdict levels; ``strength`` orders the non-refuting ones."""

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    CONSISTENT = "CONSISTENT"
    UNKNOWN = "UNKNOWN"
    REFUTED = "REFUTED"

    @property
    def strength(self) -> int:
        """4 for PROVED down to 0 for REFUTED."""
        return _STRENGTH[self]

    @property
    def holds(self) -> bool:
        """True for PROVED / CERTIFIED / CONSISTENT (the statement was supported)."""
        return self in (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONSISTENT)

    def __bool__(self) -> bool:  # pragma: no cover - exercised by tests via pytest.raises
        raise TypeError(
            "a Verdict is not a boolean; compare it with a level (v is Verdict.PROVED) "
            "or use v.holds"
        )

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Verdict:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"unknown verdict {text!r}; expected one of {', '.join(v.value for v in cls)}"
            ) from None


_STRENGTH = {
    Verdict.PROVED: 4,
    Verdict.CERTIFIED: 3,
    Verdict.CONSISTENT: 2,
    Verdict.UNKNOWN: 1,
    Verdict.REFUTED: 0,
}


def combine(verdicts: Iterable[Verdict]) -> Verdict:
    """REFUTED if any verdict is REFUTED, else the weakest one; UNKNOWN for an empty input.

    >>> combine([Verdict.PROVED, Verdict.CONSISTENT])
    <Verdict.CONSISTENT: 'CONSISTENT'>
    >>> combine([Verdict.PROVED, Verdict.REFUTED, Verdict.UNKNOWN])
    <Verdict.REFUTED: 'REFUTED'>
    """
    vs = list(verdicts)
    for v in vs:
        if not isinstance(v, Verdict):
            raise TypeError(f"combine() takes Verdict values, got {type(v).__name__}: {v!r}")
    if not vs:
        return Verdict.UNKNOWN
    if any(v is Verdict.REFUTED for v in vs):
        return Verdict.REFUTED
    return min(vs, key=lambda v: v.strength)


def _jsonable(value: Any) -> Any:
    """Best-effort conversion of evidence payloads to JSON-compatible values."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Verdict):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy / torch arrays and scalars
        return _jsonable(value.tolist())
    return str(value)


@dataclass(frozen=True)
class Counterexample:
    """A reproducible refuting instance.

    ``data`` holds what is needed to rebuild the instance (JSON-compatible after
    :func:`_jsonable`), ``margin`` how far the statement is violated (positive = violated by that
    much, in the units of the check), ``seed`` the seed that produced it, if any.
    """

    description: str
    data: Mapping[str, Any] = field(default_factory=dict)
    margin: float | None = None
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "data": _jsonable(dict(self.data)),
            "margin": _jsonable(self.margin),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Counterexample:
        return cls(
            description=obj["description"],
            data=dict(obj.get("data") or {}),
            margin=obj.get("margin"),
            seed=obj.get("seed"),
        )


@dataclass(frozen=True)
class Evidence:
    """What one check observed.

    Fields
    ------
    level:        the verdict of this check.
    instances:    number of instances examined (symbolic proofs count 1).
    margin_min:   the weakest margin seen (how close the statement came to failing; for a
                  refutation, the negative margin of the counterexample).
    margin_max:   the strongest margin seen.
    error:        the achieved error (e.g. max |lhs - rhs|), if a comparison was made.
    tolerance:    the tolerance the error was compared with, derived from ``precision``.
    precision:    arithmetic used: ``"symbolic"``, ``"exact"``, ``"dps=50"``, ``"arb 256 bits"``,
                  ``"float64"``, ...
    backend:      the engine that did the work (sympy, python-flint, mpmath, numpy, torch, ...).
    seeds:        every seed used.
    wall_time:    seconds spent in the check (filled in by the runner).
    counterexample: the refuting instance when ``level`` is REFUTED.
    notes:        free text for the report (why UNKNOWN, what was skipped, ...).
    details:      extra JSON-compatible figures (fitted slopes, anchors, ...).
    """

    level: Verdict
    instances: int = 0
    margin_min: float | None = None
    margin_max: float | None = None
    error: float | None = None
    tolerance: float | None = None
    precision: str = ""
    backend: str = ""
    seeds: tuple[int, ...] = ()
    wall_time: float = 0.0
    counterexample: Counterexample | None = None
    notes: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.level, Verdict):
            raise TypeError(f"Evidence.level must be a Verdict, got {self.level!r}")
        if self.level is Verdict.REFUTED and self.counterexample is None:
            raise ValueError("REFUTED evidence must carry a Counterexample")
        if self.instances < 0:
            raise ValueError("Evidence.instances must be >= 0")
        object.__setattr__(self, "seeds", tuple(int(s) for s in self.seeds))

    def _repr_html_(self) -> str:
        from ._display import evidence_html

        return evidence_html(self)

    def _repr_latex_(self) -> str:
        from ._display import evidence_latex

        return evidence_latex(self)

    def with_time(self, seconds: float) -> Evidence:
        return replace(self, wall_time=float(seconds))

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["level"] = self.level.value
        d["counterexample"] = self.counterexample.to_json() if self.counterexample else None
        d["seeds"] = list(self.seeds)
        d["details"] = _jsonable(dict(self.details))
        for key in ("margin_min", "margin_max", "error", "tolerance"):
            d[key] = _jsonable(d[key])
        return d

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Evidence:
        def num(x: Any) -> float | None:
            if x is None:
                return None
            return float(x)  # accepts 'inf' / 'nan' strings written by _jsonable

        ce = obj.get("counterexample")
        return cls(
            level=Verdict.parse(obj["level"]),
            instances=int(obj.get("instances", 0)),
            margin_min=num(obj.get("margin_min")),
            margin_max=num(obj.get("margin_max")),
            error=num(obj.get("error")),
            tolerance=num(obj.get("tolerance")),
            precision=obj.get("precision", ""),
            backend=obj.get("backend", ""),
            seeds=tuple(obj.get("seeds", ())),
            wall_time=float(obj.get("wall_time", 0.0)),
            counterexample=Counterexample.from_json(ce) if ce else None,
            notes=obj.get("notes", ""),
            details=dict(obj.get("details") or {}),
        )


def merge_shards(parts: Sequence[Evidence]) -> Evidence:
    """One check's evidence from its shards (disjoint instance sets, in shard order): the levels
    combine as for one check, instances add up, the weakest margin / largest error win, seeds are
    united in order, the first counterexample is kept (the least ``data["order"]`` when the shards'
    counterexamples carry their instance index there, as interleaved shards must; else the first
    refuting shard's); a detail that differs between
    shards becomes the list of the shards' values.  Wall time is the sum (CPU seconds spent)."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    # a shard that examined nothing (more shards than instances) is no verdict; a shard that crashed
    # (the runner's UNKNOWN with a traceback) is one: its instances were never examined, so the
    # check is not decided, exactly as the unsharded check that raises
    examined = [p for p in parts if p.instances > 0 or p.level is not Verdict.UNKNOWN
                or "traceback" in p.details]
    level = combine(p.level for p in examined) if examined else Verdict.UNKNOWN

    def pick(vals: list[Any], fn: Any) -> Any:
        vals = [v for v in vals if v is not None]
        return fn(vals) if vals else None

    seeds: list[int] = []
    for p in parts:
        seeds.extend(s for s in p.seeds if s not in seeds)
    keys: list[str] = []
    for p in parts:
        keys.extend(k for k in p.details if k not in keys)
    details: dict[str, Any] = {}
    for k in keys:
        vals = [p.details[k] for p in parts if k in p.details]
        # a detail one shard alone records (its own seed's summary) is that shard's value
        details[k] = vals[0] if all(v == vals[0] for v in vals) else vals
    details["shards"] = len(parts)
    notes: list[str] = []
    for p in parts:
        if p.notes and p.notes not in notes:
            notes.append(p.notes)
    # the unsharded run keeps its first counterexample in instance order; shards that interleave the
    # instances restore that order through the counterexample's data["order"] (the instance index),
    # else the first refuting shard's wins
    refuting = [(i, p.counterexample) for i, p in enumerate(parts)
                if p.level is Verdict.REFUTED and p.counterexample is not None]

    def _order(item: tuple[int, Any]) -> tuple[float, int]:
        o = item[1].data.get("order") if isinstance(item[1].data, Mapping) else None
        return (float(o) if isinstance(o, (int, float)) and not isinstance(o, bool) else math.inf, item[0])

    ce = min(refuting, key=_order)[1] if refuting else None
    return Evidence(
        level=level, instances=sum(p.instances for p in parts),
        margin_min=pick([p.margin_min for p in parts], min),
        margin_max=pick([p.margin_max for p in parts], max),
        error=pick([p.error for p in parts], max),
        tolerance=pick([p.tolerance for p in parts], max),
        precision=parts[0].precision, backend=parts[0].backend, seeds=tuple(seeds),
        wall_time=sum(p.wall_time for p in parts),
        counterexample=ce if level is Verdict.REFUTED else None,
        notes="; ".join(notes), details=details)
