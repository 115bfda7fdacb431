"""The catalogue: discovers every claim under ``theorems/`` and enforces the catalogue's rules.

Each paper package ``theorems/<paper>/`` has a module ``claims`` with a tuple ``CLAIMS``.  The registry
rejects (with :class:`~verify.RegistryError`):

* a duplicate id;
* a claim without a negative control (a check that cannot fail is a defect);
* a claim without an expected verdict;
* a claim without a check, or with two checks/controls of the same name;
* a ``uses`` entry naming an id that is not in the catalogue;
* a check or control whose ``seed_of`` names no check of its claim (or of the claim it names), or a
  check that itself takes its seed from another (a seed is borrowed from its owner, never relayed);
* a claim without a valid ``strength`` (as-stated, strengthened, repaired, code, derived), or an
  ``as-stated`` claim without ``quote`` and ``quote_source`` (also enforced when the Claim is built).
"""

from __future__ import annotations

import difflib
import fnmatch
import functools
import importlib
import pkgutil
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ._claim import Claim, strength_problems
from ._errors import RegistryError
from ._verdict import Verdict

__all__ = ["Registry", "catalogue", "discover"]


def _problems(claim: Claim) -> list[str]:
    out = []
    if not isinstance(claim, Claim):
        return [f"{claim!r} is not a Claim"]
    if claim.expected is None:
        out.append("has no expected verdict")
    elif not isinstance(claim.expected, Verdict):
        out.append(f"expected verdict {claim.expected!r} is not a Verdict")
    if not claim.controls:
        out.append("has no negative control")
    if not claim.checks:
        out.append("has no check")
    names = [c.name for c in claim.checks] + [c.name for c in claim.controls]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        out.append(f"has checks/controls with the same name: {dup}")
    if not any(c.role == "decisive" for c in claim.checks):
        out.append("has no decisive check")
    out.extend(strength_problems(claim))
    for chk in list(claim.checks) + [c.check for c in claim.controls]:
        if isinstance(chk.seed_of, str) and chk.seed_of:
            out.extend(_seed_of_problems(claim, chk, claim))
    return out


def _seed_of_problems(claim: Claim, chk: Any, owner: Claim) -> list[str]:
    """Why ``chk.seed_of`` (resolved in ``owner``, the claim it names) is not a check that owns its seed."""
    name = chk.seed_of if isinstance(chk.seed_of, str) else chk.seed_of[1]
    target = next((c for c in owner.checks if c.name == name), None)
    if target is None:
        return [f"check {chk.name!r} takes its seed from {owner.id!r} check {name!r}, which does not exist "
                f"(its checks: {[c.name for c in owner.checks]})"]
    if target.seed_of:
        return [f"check {chk.name!r} takes its seed from {owner.id!r} check {name!r}, which takes its own "
                f"from {target.seed_of!r}: name the owner of the seed"]
    return []


class Registry:
    """An immutable, validated collection of claims, in catalogue order."""

    def __init__(self, claims: Iterable[Claim]):
        claims = list(claims)
        errors = []
        seen: dict[str, Claim] = {}
        for c in claims:
            for p in _problems(c):
                errors.append(f"claim {getattr(c, 'id', c)!r} {p}")
            if isinstance(c, Claim):
                if c.id in seen:
                    errors.append(f"duplicate claim id {c.id!r}")
                seen[c.id] = c
        for c in seen.values():
            for u in c.uses:
                if u not in seen:
                    errors.append(f"claim {c.id!r} uses unknown id {u!r}")
            for chk in list(c.checks) + [k.check for k in c.controls]:
                if isinstance(chk.seed_of, tuple):
                    owner = seen.get(chk.seed_of[0])
                    if owner is None:
                        errors.append(f"claim {c.id!r} check {chk.name!r} takes its seed from unknown "
                                      f"claim {chk.seed_of[0]!r}")
                    else:
                        errors.extend(f"claim {c.id!r} {p}" for p in _seed_of_problems(c, chk, owner))
        if errors:
            raise RegistryError("invalid catalogue:\n  " + "\n  ".join(errors))
        self._claims = dict(seen)

    def __iter__(self) -> Iterator[Claim]:
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def __contains__(self, claim_id: object) -> bool:
        return claim_id in self._claims

    @property
    def ids(self) -> list[str]:
        return list(self._claims)

    def get(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            near = self.suggest(claim_id)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise KeyError(f"no claim {claim_id!r}{hint}") from None

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """The nearest ids to ``text`` (prefix matches first, then fuzzy matches)."""
        pref = [i for i in self._claims if i.startswith(text)]
        fuzzy = difflib.get_close_matches(text, list(self._claims), n=n, cutoff=0.5)
        out: list[str] = []
        for i in pref + fuzzy:
            if i not in out:
                out.append(i)
        return out[:n]

    def match(self, pattern: str) -> list[Claim]:
        """Claims whose id equals ``pattern`` or matches it as a glob (``interp.*``)."""
        if pattern in self._claims:
            return [self._claims[pattern]]
        return [c for i, c in self._claims.items() if fnmatch.fnmatchcase(i, pattern)]

    def select(self, patterns: Sequence[str] = (), paper: str | None = None) -> tuple[list[Claim], list[str]]:
        """Claims matching any pattern (all when none given), optionally one paper's.

        Returns ``(claims, unmatched_patterns)`` in catalogue order.
        """
        chosen: dict[str, Claim] = {}
        unmatched = []
        if patterns:
            for p in patterns:
                hits = self.match(p)
                if not hits:
                    unmatched.append(p)
                for c in hits:
                    chosen[c.id] = c
            claims = [c for c in self._claims.values() if c.id in chosen]
        else:
            claims = list(self._claims.values())
        if paper:
            claims = [c for c in claims if c.paper == paper or c.source.paper == paper]
        return claims, unmatched


def paper_modules(package: str, module: str) -> list[Any]:
    """``<package>.<paper>.<module>`` for every paper package that has one, in paper order (a paper
    without the module is skipped; an import error inside the module is not hidden)."""
    pkg = importlib.import_module(package)
    out = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        name = f"{package}.{info.name}.{module}"
        try:
            out.append(importlib.import_module(name))
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
    return out


def discover(package: str = "theorems") -> list[Claim]:
    """Import ``<package>.<paper>.claims`` for every paper package and collect ``CLAIMS``."""
    claims: list[Claim] = []
    for mod in paper_modules(package, "claims"):
        name = mod.__name__
        found = getattr(mod, "CLAIMS", None)
        if found is None:
            raise RegistryError(f"{name} defines no CLAIMS tuple")
        claims.extend(found)
    return claims


@functools.lru_cache(maxsize=None)
def catalogue(package: str = "theorems") -> Registry:
    """The validated catalogue of every claim under ``package`` (cached)."""
    return Registry(discover(package))
