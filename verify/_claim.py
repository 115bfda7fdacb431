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
from ._tally import SUB_CHECK
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
    "STRENGTHS",
    "SOURCE_STRENGTHS",
]

#: Provenance tags of a statement (the specs' vocabulary).
PROVENANCE_TAGS = frozenset(
    {"paper", "seed", "reading", "derived", "secondary", "companion", "extension"}
)

#: A decisive check sets the claim's level; a corroborating one (a float cross-check of an exact
#: result, say) can refute the claim but never lowers the level the decisive checks reached.
ROLES = ("decisive", "corroborating")

#: How a claim's statement relates to its source (required on every claim):
#:
#: * ``as-stated``: the source's own statement -- no hypothesis added or dropped, no quantifier widened
#:   (objects the source leaves undefined are filled from the paper's own method, and the reading says
#:   which); carries ``quote`` and ``quote_source``;
#: * ``strengthened``: the reading adds a quantifier or drops a condition (or swaps in an object the
#:   source does not use); its REFUTED marks where the stronger reading stops, never the source's failure;
#: * ``repaired``: a weakened or conditioned version that holds;
#: * ``code``: a statement about the authors' code, not the paper;
#: * ``derived``: the toolkit's own lemma, identity or reconstruction.
STRENGTHS = ("as-stated", "strengthened", "repaired", "code", "derived")

#: Strengths whose REFUTED verdict says "the source's statement does not hold" (the paper's, or the
#: authors' code's); a REFUTED claim of any other strength marks where a stronger (or the toolkit's own)
#: reading stops -- a boundary finding.
SOURCE_STRENGTHS = frozenset({"as-stated", "code"})

#: ``quote_source``: a seed file and the line label(s) of the quoted sentence, e.g.
#: ``seeds/004_4ff95cab01770f63.txt.en.md L27`` (the line-numbered English translation; the Korean file
#: with the same name minus ``.en.md`` is the source, and its line numbers are the labels); a quote of
#: consecutive lines names the range, ``L70-L75``.
_QUOTE_SOURCE_RE = re.compile(r"\S+ L\d+(-L\d+)?")

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

    ``shards=n`` (or ``{profile: n}``) runs it as ``n`` tasks, ``fn(..., shard=(i, n))`` examining
    disjoint parts of its instances with the same seed; :func:`verify._verdict.merge_shards` merges
    them.  Shards that interleave the instances put each counterexample's instance index in its
    ``data["order"]``, so the merged counterexample is the unsharded run's first.

    ``seed_of`` makes the task draw its instances from another check's seed instead of its own: the
    name of a check of the same claim, or ``(claim id, check name)`` of another claim (a check without
    ``seed_of`` of its own; the registry enforces both).  A control that re-runs a check's function
    with a false ``variant`` names that check, so that the variant is refuted on the very instances on
    which the statement was evaluated -- and an expensive variant-independent part (a simulation, a
    flow) memoised on its exact inputs runs once per process instead of once per task.

    ``inconclusive`` (corroborating checks only) says why the check may come out UNKNOWN: a reason
    string for every profile, or ``{profile: reason}`` (``"*"`` for the others; a profile mapped to
    ``""`` declares nothing there).  A corroborating UNKNOWN cannot lower the claim's level, so without
    a declaration it fails the claim instead (:attr:`verify.ClaimOutcome.passed`): a cross-check that
    silently stops deciding is a defect to see, not a green run.  With one, the reason is reported
    beside the check's UNKNOWN.
    """

    name: str
    fn: Callable[..., Evidence]
    params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""
    role: str = "decisive"
    shards: int | Mapping[str, int] = 1
    seed_of: str | tuple[str, str] = ""
    inconclusive: str | Mapping[str, str] = ""

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise CheckError(f"check {self.name!r}: role must be one of {ROLES}, got {self.role!r}")
        inc = self.inconclusive if isinstance(self.inconclusive, Mapping) else {"*": self.inconclusive}
        if not all(isinstance(k, str) and k and isinstance(v, str) for k, v in inc.items()):
            raise CheckError(f"check {self.name!r}: inconclusive must be a reason string or a mapping "
                             f"profile -> reason string, got {self.inconclusive!r}")
        if any(v.strip() for v in inc.values()) and self.role != "corroborating":
            raise CheckError(f"check {self.name!r}: only a corroborating check declares why it may be "
                             "inconclusive (a decisive UNKNOWN is the claim's verdict, and its expected "
                             "verdict says so)")
        if isinstance(self.inconclusive, Mapping):
            object.__setattr__(self, "inconclusive", MappingProxyType(dict(self.inconclusive)))
        sh = self.shards if isinstance(self.shards, Mapping) else {"*": self.shards}
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in sh.values()):
            raise CheckError(f"check {self.name!r}: shards must be an int >= 1 or a mapping profile -> "
                             f"int >= 1, got {self.shards!r}")
        if any(v > 1 for v in sh.values()):
            import inspect

            if "shard" not in inspect.signature(self.fn).parameters:
                raise CheckError(f"check {self.name!r}: a sharded check's function takes a 'shard' "
                                 "keyword ((index, count): run only the instances k with k % count == index)")
        if isinstance(self.shards, Mapping):
            object.__setattr__(self, "shards", MappingProxyType(dict(self.shards)))
        qn = getattr(self.fn, "__qualname__", "")
        if "<locals>" in qn or "<lambda>" in qn:
            raise CheckError(
                f"check {self.name!r}: {qn!r} is not a module-level function, so it cannot be "
                "shipped to a worker process"
            )
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        so = self.seed_of
        if not (isinstance(so, str) or (isinstance(so, tuple) and len(so) == 2
                                         and all(isinstance(x, str) and x for x in so))):
            raise CheckError(f"check {self.name!r}: seed_of must be a check name or a (claim id, check "
                             f"name) pair of non-empty strings, got {so!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # MappingProxyType does not pickle
        shards = dict(self.shards) if isinstance(self.shards, Mapping) else self.shards
        inc = dict(self.inconclusive) if isinstance(self.inconclusive, Mapping) else self.inconclusive
        return (Check, (self.name, self.fn, dict(self.params), self.description, self.role, shards,
                        self.seed_of, inc))

    def seed_key(self, claim_id: str, own: str) -> tuple[str, str]:
        """The (claim id, check name) whose derived seed this task uses (:func:`derive_seed`): its own
        ``(claim_id, own)`` -- ``own`` is the check's, or its control's, name -- unless ``seed_of``
        names another check."""
        if not self.seed_of:
            return (claim_id, own)
        return (claim_id, self.seed_of) if isinstance(self.seed_of, str) else tuple(self.seed_of)

    def shard_count(self, profile: str) -> int:
        """How many independent tasks this check runs as at ``profile`` (1: not sharded)."""
        if isinstance(self.shards, Mapping):
            return int(self.shards.get(profile, self.shards.get("*", 1)))
        return int(self.shards)

    def inconclusive_at(self, profile: str) -> str:
        """The declared reason why this check may be UNKNOWN at ``profile`` ("" when none)."""
        if isinstance(self.inconclusive, Mapping):
            return str(self.inconclusive.get(profile, self.inconclusive.get("*", ""))).strip()
        return self.inconclusive.strip()

    def shard(self, index: int, count: int) -> Check:
        """The task running shard ``index`` of ``count`` (the function gets ``shard=(index, count)``)."""
        return Check(self.name, self.fn, {**dict(self.params), "shard": (index, count)},
                     self.description, self.role, seed_of=self.seed_of, inconclusive=self.inconclusive)

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
    """A false variant of the statement; its check must return REFUTED.

    ``targets`` names the sub-check(s) the variant is about (a str or a tuple of str): the check names
    the sub-check that produced its refutation (``counterexample.data["sub_check"]``, recorded by
    :meth:`~verify.Tally.sub` or a :class:`~verify.Gate`), and the runner accepts the refutation only
    when that sub-check is one of the targets -- so a control can never pass because some other
    comparison, one that ignores the variant, failed.  Optional in the type (``()``: no target, no
    rule), but ``tests/unit/engine/test_control_targets.py`` requires one of every catalogue control.
    """

    name: str
    description: str
    check: Check
    targets: str | Sequence[str] = ()

    def __post_init__(self) -> None:
        t = (self.targets,) if isinstance(self.targets, str) else tuple(self.targets)
        if not all(isinstance(x, str) and x for x in t):
            raise CheckError(f"control {self.name!r}: targets must be non-empty sub-check names, "
                             f"got {self.targets!r}")
        object.__setattr__(self, "targets", t)

    def target_problem(self, evidence: Evidence) -> str | None:
        """Why a REFUTED ``evidence`` of this control does not count as refuted through its declared
        target (None when it does, when it is not REFUTED, or when no target is declared)."""
        if not self.targets or evidence.level is not Verdict.REFUTED or evidence.counterexample is None:
            return None
        sub = evidence.counterexample.data.get(SUB_CHECK)
        if sub is None:
            return (f"control {self.name!r} declares target(s) {list(self.targets)} but its refutation "
                    "names no sub-check (record the targeted comparison inside tally.sub(name) or a Gate)")
        if sub not in self.targets:
            return (f"control {self.name!r} was refuted by sub-check {sub!r}, not by its target(s) "
                    f"{list(self.targets)}: a comparison that ignores the variant refuted it")
        return None


StatementLike = Any  # a sympy object, a string, or a zero-argument callable returning either


@dataclass(frozen=True)
class Claim:
    """One claimed result, under one stated reading.

    ``statement`` and ``derivation`` may be given lazily as zero-argument callables (building sympy
    expressions at import time slows down ``verify list``).  ``derivation`` is a sequence of
    ``(label, expression)`` steps that ``verify show`` pretty-prints.

    ``condition`` states, for a claim expected REFUTED, the condition under which the repaired
    statement holds (and the id of the claim that checks it, if any), per the developers' guide.

    ``strength`` (required; one of :data:`STRENGTHS`) states how the statement relates to its source.
    An ``as-stated`` claim must carry ``quote`` (the source sentence, verbatim from the line-numbered
    English translation of the seed) and ``quote_source`` (``"seeds/<file>.txt.en.md L<n>"``); other
    strengths may carry them too (the sentence they strengthen, repair or support).
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
    strength: str = ""
    quote: str = ""
    quote_source: str = ""

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
        for problem in strength_problems(self):
            raise RegistryError(f"claim {self.id}: {problem}")

    # -- presentation -------------------------------------------------------------------------
    @property
    def is_source_statement(self) -> bool:
        """True if a REFUTED verdict of this claim means the source's statement does not hold
        (strength ``as-stated`` or ``code``); otherwise REFUTED marks a boundary of a stronger reading."""
        return self.strength in SOURCE_STRENGTHS

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    def resolved_statement(self) -> Any:
        s = self.statement
        return s() if callable(s) else s

    def resolved_derivation(self) -> Any:
        """The claim's :class:`~verify.Derivation` (an older ``(label, relation)`` sequence is read as
        fact steps), or None when the claim has none."""
        from ._derivation import as_derivation

        d = self.derivation
        d = d() if callable(d) else d
        return as_derivation(d) if d else None

    def statement_latex(self) -> str:
        from ._statement import statement_latex

        return statement_latex(self.resolved_statement())

    def _repr_latex_(self) -> str:
        from ._display import claim_latex

        return claim_latex(self)

    def _repr_html_(self) -> str:
        from ._display import claim_html

        return claim_html(self)

    def __repr__(self) -> str:
        return f"<Claim {self.id} expected={self.expected} checks={len(self.checks)} controls={len(self.controls)}>"


def strength_problems(claim: Any) -> list[str]:
    """The violations of the strength rules by ``claim`` (empty if none), each naming the rule."""
    strength = getattr(claim, "strength", None)
    quote = getattr(claim, "quote", None)
    qsrc = getattr(claim, "quote_source", None)
    out = []
    if strength not in STRENGTHS:
        out.append(f"strength {strength!r} is not one of {', '.join(STRENGTHS)} (rule: every claim "
                   "states how its statement relates to its source)")
    for name, value in (("quote", quote), ("quote_source", qsrc)):
        if not isinstance(value, str):
            out.append(f"{name} must be a string, got {type(value).__name__}")
    if out:
        return out
    if strength == "as-stated":
        if not quote.strip():
            out.append("is as-stated but has no quote (rule: an as-stated claim quotes the source "
                       "sentence verbatim)")
        if not qsrc.strip():
            out.append("is as-stated but has no quote_source (rule: an as-stated claim names the seed "
                       "file and line, e.g. 'seeds/<file>.txt.en.md L27')")
    if qsrc.strip() and not _QUOTE_SOURCE_RE.fullmatch(qsrc.strip()):
        out.append(f"quote_source {qsrc!r} names no line (rule: '<file> L<n>' or '<file> L<n>-L<m>', "
                   "e.g. 'seeds/<file>.txt.en.md L27')")
    if qsrc.strip() and not quote.strip():
        out.append("has a quote_source but no quote")
    return out


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
