"""Claims, checks and negative controls.

A :class:`Claim` is one claimed result of a paper, under a precisely stated reading: its statement (a
sympy expression where it is a formula), its hypotheses, the reading chosen, the checks that test it,
the negative controls that must be refuted by the same checks, and the verdict the catalogue expects.

A :class:`Check` is a pure function of (instance parameters, seed, profile) returning
:class:`~verify.Evidence`.  It is stored as a module-level function plus keyword parameters, so the
runner can pickle it and ship it to another process.

A :class:`Control` is a deliberately false variant (a wrong formula, a perturbed object).  It carries its
own :class:`Check` -- normally the *same* function as one of the claim's checks with a ``variant``
parameter -- and passes only when that check returns REFUTED.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ._errors import CheckError, RegistryError
from ._profile import Profile
from ._verdict import Counterexample, Evidence, Verdict

__all__ = [
    "Source",
    "Check",
    "Control",
    "Claim",
    "derive_seed",
    "refuted",
    "unknown_evidence",
    "PROVENANCE_TAGS",
    "ROLES",
]

#: Provenance tags of a statement (the specs' vocabulary).
PROVENANCE_TAGS = frozenset(
    {"paper", "seed", "reading", "derived", "secondary", "companion", "extension"}
)

#: A decisive check sets the claim's level; a corroborating one (a float cross-check of an exact
#: result, say) can refute the claim but never lowers the level the decisive checks reached.
ROLES = ("decisive", "corroborating")

_ID_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")


@dataclass(frozen=True)
class Source:
    """Where a claim comes from: paper (arXiv id), the result inside it, and the spec section."""

    paper: str
    where: str
    spec: str

    def __str__(self) -> str:
        return f"arXiv:{self.paper} {self.where} (spec {self.spec})"


def derive_seed(base: int, *parts: str) -> int:
    """A stable 32-bit seed for ``parts`` (claim id, check name) under the run's base seed.

    Stable across processes and Python versions (no ``hash()`` randomisation).
    """
    h = hashlib.sha256(repr((int(base),) + parts).encode()).digest()
    return int.from_bytes(h[:4], "little")


def _qualname(fn: Callable[..., Any]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


@dataclass(frozen=True)
class Check:
    """A pickle-able check: ``fn(seed=..., profile=..., **params) -> Evidence``.

    ``fn`` must be a module-level function (so that pickle stores it by reference).
    """

    name: str
    fn: Callable[..., Evidence]
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    role: str = "decisive"

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise CheckError(f"check {self.name!r}: role must be one of {ROLES}, got {self.role!r}")
        qn = getattr(self.fn, "__qualname__", "")
        if "<locals>" in qn or "<lambda>" in qn:
            raise CheckError(
                f"check {self.name!r}: {qn!r} is not a module-level function, so it cannot be "
                "shipped to a worker process"
            )
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __reduce__(self) -> tuple[Any, ...]:  # MappingProxyType does not pickle
        return (Check, (self.name, self.fn, dict(self.params), self.description, self.role))

    @property
    def target(self) -> str:
        return _qualname(self.fn)

    def run(self, *, seed: int, profile: Profile) -> Evidence:
        """Run the check and stamp its wall time; a non-Evidence return is a CheckError."""
        t0 = time.perf_counter()
        ev = self.fn(seed=seed, profile=profile, **self.params)
        dt = time.perf_counter() - t0
        if not isinstance(ev, Evidence):
            raise CheckError(
                f"check {self.name!r} ({self.target}) returned {type(ev).__name__}, not Evidence"
            )
        return ev.with_time(dt)


@dataclass(frozen=True)
class Control:
    """A false variant of the statement; its check must return REFUTED."""

    name: str
    description: str
    check: Check


StatementLike = Any  # a sympy object, a string, or a zero-argument callable returning either


@dataclass(frozen=True)
class Claim:
    """One claimed result, under one stated reading.

    ``statement`` and ``derivation`` may be given lazily as zero-argument callables (building sympy
    expressions at import time slows down ``verify list``).  ``derivation`` is a sequence of
    ``(label, expression)`` steps that ``verify show`` pretty-prints.

    ``condition`` states, for a claim expected REFUTED, the condition under which the repaired
    statement holds (and the id of the claim that checks it, if any), per the developers' guide.
    """

    id: str
    title: str
    source: Source
    statement: StatementLike
    reading: str
    checks: Sequence[Check]
    controls: Sequence[Control]
    expected: Verdict | None
    provenance: Sequence[str] = ("reading",)
    hypotheses: Sequence[str] = ()
    uses: Sequence[str] = ()
    derivation: Any = ()
    condition: str = ""

    def __post_init__(self) -> None:
        for name in ("checks", "controls", "provenance", "hypotheses", "uses"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not _ID_RE.match(self.id):
            raise RegistryError(
                f"claim id {self.id!r} is not of the form 'paper.group.name' "
                "(lower case, digits and underscores, dot separated)"
            )
        bad = set(self.provenance) - PROVENANCE_TAGS
        if bad:
            raise RegistryError(f"claim {self.id}: unknown provenance tag(s) {sorted(bad)}")

    # -- presentation -------------------------------------------------------------------------
    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    def resolved_statement(self) -> Any:
        s = self.statement
        return s() if callable(s) else s

    def resolved_derivation(self) -> tuple[tuple[str, Any], ...]:
        d = self.derivation
        d = d() if callable(d) else d
        return tuple((str(label), expr) for label, expr in d)

    def _repr_latex_(self) -> str:
        import sympy

        s = self.resolved_statement()
        body = sympy.latex(s) if isinstance(s, sympy.Basic) else r"\text{%s}" % s
        return rf"$\textbf{{{self.id}}}:\ {body}$"

    def __repr__(self) -> str:
        return f"<Claim {self.id} expected={self.expected} checks={len(self.checks)} controls={len(self.controls)}>"


def unknown_evidence(reason: str, *, seed: int | None = None) -> Evidence:
    """Evidence for a check that crashed or could not decide: UNKNOWN, never a pass or a fail."""
    return Evidence(
        level=Verdict.UNKNOWN,
        instances=0,
        notes=reason,
        seeds=(seed,) if seed is not None else (),
    )


def refuted(description: str, *, margin: float | None = None, seed: int | None = None,
            **data: Any) -> Counterexample:
    """Shorthand for a :class:`Counterexample`."""
    return Counterexample(description=description, data=data, margin=margin, seed=seed)
