"""One eigenvalue's (or one cluster's) certified enclosure: what every certified spectrum returns.

Its own module so that the exact route (:mod:`numerics.linalg`) and the a-posteriori route
(:mod:`numerics.aposteriori`) share it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .precision import Tri, tri_negative, tri_positive

__all__ = ["EigenCluster"]


@dataclass(frozen=True)
class EigenCluster:
    """An enclosure (an arb ball) of one eigenvalue, or of a cluster of ``multiplicity`` of them.

    ``exact_multiplicity`` is True when the multiplicity is proven (exact route), False when it only
    counts eigenvalues the enclosure could not separate (ball route).
    """

    enclosure: Any
    multiplicity: int
    exact_multiplicity: bool

    def sign(self) -> Tri:
        """TRUE if certainly positive, FALSE if certainly negative, UNKNOWN otherwise."""
        p = tri_positive(self.enclosure)
        if p is Tri.TRUE:
            return Tri.TRUE
        if tri_negative(self.enclosure) is Tri.TRUE:
            return Tri.FALSE
        return Tri.UNKNOWN
