"""A mutation: one small, plausible bug, and the checks that must notice it.

A :class:`Mutation` replaces one exact snippet of one file of the tree (the snippet must occur exactly
once, so a mutation never silently stops applying when the code moves) and names what must *kill* it:

* claim ids or patterns (``"ddcl.temperature.*"``): killed when ``verify run`` of those claims at the
  quick profile exits non-zero (a claim off its expected verdict, or a control not refuted);
* pytest node ids prefixed ``pytest:`` (``"pytest:tests/unit/engine/test_engine_rules.py"``): killed
  when that pytest selection fails.

``equivalent`` is set, with the reason, for a mutation shown to leave the mathematics unchanged; such a
mutation is reported but not counted in the kill rate.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Mutation"]


@dataclass(frozen=True)
class Mutation:
    """One seeded bug: in ``path`` replace ``old`` (occurring exactly once) by ``new``."""

    id: str
    path: str
    old: str
    new: str
    kills: tuple[str, ...]
    why: str
    family: str = ""  # what kind of bug: formula, bound, construction, check, engine, tolerance
    equivalent: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kills", tuple(self.kills))
        if not self.kills:
            raise ValueError(f"mutation {self.id}: names nothing that must kill it")
        if self.old == self.new:
            raise ValueError(f"mutation {self.id}: old and new are the same text")

    @property
    def claim_patterns(self) -> tuple[str, ...]:
        return tuple(k for k in self.kills if not k.startswith("pytest:"))

    @property
    def pytest_ids(self) -> tuple[str, ...]:
        return tuple(k[len("pytest:"):] for k in self.kills if k.startswith("pytest:"))

    def apply(self, text: str) -> str:
        """``text`` with the mutation applied; raises if the snippet is absent or ambiguous."""
        n = text.count(self.old)
        if n != 1:
            raise LookupError(f"mutation {self.id}: the snippet occurs {n} times in {self.path} "
                              f"(must be exactly once): {self.old!r}")
        return text.replace(self.old, self.new)
