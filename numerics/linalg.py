"""Certified spectra of symmetric matrices: exact inertia and eigenvalue enclosures.

Two routes, both rigorous:

* exact rational symmetric matrices: the characteristic polynomial is computed exactly
  (python-flint ``fmpq_mat.charpoly``); since it is real-rooted, Descartes' rule of signs gives the
  *exact* numbers of positive and negative eigenvalues (:func:`inertia`), and certified root isolation
  (``complex_roots``) gives enclosures with exact multiplicities (:func:`exact_spectrum`);
* matrices of balls (``arb_mat``) or floats: ``acb_mat.eig`` encloses every eigenvalue
  (:func:`ball_spectrum`); clusters that cannot be separated are reported as clusters.

Sign questions are answered three-valued (:class:`numerics.precision.Tri`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .exact import charpoly, rational_matrix
from .precision import Tri, arb_precision, tri_negative, tri_positive

__all__ = ["Inertia", "inertia", "EigenCluster", "exact_spectrum", "ball_spectrum", "is_symmetric"]


@dataclass(frozen=True)
class Inertia:
    """Exact counts of positive, zero and negative eigenvalues."""

    positive: int
    zero: int
    negative: int


def is_symmetric(rows: Sequence[Sequence[Any]]) -> bool:
    n = len(rows)
    return all(len(r) == n for r in rows) and all(
        rows[i][j] == rows[j][i] for i in range(n) for j in range(i + 1, n)
    )


def _sign_changes(coeffs: Sequence[Fraction]) -> int:
    signs = [c > 0 for c in coeffs if c != 0]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def inertia(rows: Sequence[Sequence[Any]]) -> Inertia:
    """Exact inertia of a rational symmetric matrix (Descartes' rule on the real-rooted charpoly)."""
    m = rational_matrix(rows)
    from .exact import matrix_rows

    fr = matrix_rows(m)
    if not is_symmetric(fr):
        raise ValueError("inertia() needs a symmetric matrix")
    n = len(fr)
    c = charpoly(m)  # lowest degree first, monic of degree n
    zero = next(i for i, v in enumerate(c) if v != 0) if any(v != 0 for v in c) else n
    pos = _sign_changes(c)
    return Inertia(positive=pos, zero=zero, negative=n - pos - zero)


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


def exact_spectrum(rows: Sequence[Sequence[Any]], *, bits: int = 128) -> list[EigenCluster]:
    """Certified enclosures, with exact multiplicities, of a rational symmetric matrix's eigenvalues.

    Sorted by midpoint, ascending.
    """
    import flint

    m = rational_matrix(rows, backend="flint")
    from .exact import matrix_rows

    if not is_symmetric(matrix_rows(m)):
        raise ValueError("exact_spectrum() needs a symmetric matrix")
    with arb_precision(bits):
        poly = m.charpoly()
        roots = poly.complex_roots()
        out = [EigenCluster(flint.arb(r.real), int(mult), True) for r, mult in roots]
    return sorted(out, key=lambda c: float(c.enclosure.mid()))


def ball_spectrum(rows: Sequence[Sequence[Any]], *, bits: int = 256) -> list[EigenCluster]:
    """Enclosures of the eigenvalues of a symmetric matrix of balls / floats / rationals.

    Uses ``acb_mat.eig(multiple=True)``; eigenvalues whose enclosures overlap are merged into one
    cluster whose multiplicity is a count, not a proof of a repeated eigenvalue.
    """
    import flint

    from .precision import to_arb

    n = len(rows)
    with arb_precision(bits):
        a = flint.acb_mat(n, n)
        for i in range(n):
            for j in range(n):
                a[i, j] = flint.acb(to_arb(rows[i][j]))
        eig = a.eig(multiple=True, algorithm="rump")
        reals = sorted((flint.arb(e.real) for e in eig), key=lambda b: float(b.mid()))
        clusters: list[list[Any]] = []
        for b in reals:
            if clusters and clusters[-1][-1].overlaps(b):
                clusters[-1].append(b)
            else:
                clusters.append([b])
        out = []
        for cl in clusters:
            u = cl[0]
            for b in cl[1:]:
                u = u.union(b)
            out.append(EigenCluster(u, len(cl), len(cl) == 1))
    return out
