"""Run profiles: how much work a check does.

``quick``     seconds per claim, fixed seeds: what ``verify run`` and the default test suite use.
``ci``        modest example counts, derandomised (extends hypothesis' built-in ``ci`` profile).
``thorough``  many instances, higher precision, long simulations.

A check asks its profile for sizes with :meth:`Profile.pick`, so that the three sizes of every
check sit next to each other in the check's own code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from ._errors import UsageError

__all__ = ["Profile", "PROFILES", "get_profile"]

T = TypeVar("T")


@dataclass(frozen=True)
class Profile:
    """A named size class.  ``examples`` is the default hypothesis example budget per check."""

    name: str
    examples: int
    dps: int

    def pick(self, quick: T, ci: T | None = None, thorough: T | None = None) -> T:
        """Return the value for this profile (``ci`` defaults to ``quick``, ``thorough`` to ``ci``)."""
        if self.name == "quick":
            return quick
        ci_value = quick if ci is None else ci
        if self.name == "ci":
            return ci_value
        return ci_value if thorough is None else thorough

    def __str__(self) -> str:
        return self.name


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", examples=25, dps=50),
    "ci": Profile("ci", examples=60, dps=50),
    "thorough": Profile("thorough", examples=400, dps=80),
}


def get_profile(name: str | Profile) -> Profile:
    if isinstance(name, Profile):
        return name
    try:
        return PROFILES[name]
    except KeyError:
        raise UsageError(
            f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}"
        ) from None
