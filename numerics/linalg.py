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

__all__ = ["Inertia", "inertia", "EigenCluster", "exact_spectrum", "ball_spectrum", "is_symmetric",
           "symmetric_ball_spectrum", "ball_cholesky_pd", "ascending_disjoint", "merge_intervals",
           "ostrowski_scale"]


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

    In certainly ascending order: the enclosures are refined (precision doubled) until they are
    pairwise disjoint, then ordered on their exact endpoints -- never through floats.
    """
    import flint

    m = rational_matrix(rows, backend="flint")
    from .exact import matrix_rows

    if not is_symmetric(matrix_rows(m)):
        raise ValueError("exact_spectrum() needs a symmetric matrix")
    poly = m.charpoly()
    b = int(bits)
    while True:
        with arb_precision(b):
            roots = poly.complex_roots()
            out = [EigenCluster(flint.arb(r.real), int(mult), True) for r, mult in roots]
            # distinct roots have disjoint enclosures once isolated finely enough: order them
            # rigorously (by lower endpoints, checking disjointness) -- never through floats, which
            # underflow.  Inside the precision block: lower()/upper() round outward to the *current*
            # precision, so at the default 53 bits two roots 1e-40 apart would never separate.
            ordered = ascending_disjoint([c.enclosure for c in out])
        if ordered is not None:
            return [out[i] for i in ordered]
        if b >= 64 * int(bits):  # pragma: no cover - distinct algebraic numbers separate eventually
            raise ArithmeticError(f"could not order the eigenvalue enclosures up to {b} bits")
        b *= 2


def ascending_disjoint(balls: Sequence[Any]) -> list[int] | None:
    """Indices that sort ``balls`` in certainly ascending order, or ``None`` when two overlap.

    The order is decided in exact arithmetic on the balls' endpoints (arb comparisons of exact
    numbers are exact); no float conversion, so a ball of size 1e-400 is not mistaken for 0.
    """
    idx = sorted(range(len(balls)), key=lambda i: balls[i].lower())
    for i, j in zip(idx, idx[1:]):
        if not balls[i].upper() < balls[j].lower():
            return None
    return idx


def ball_spectrum(rows: Sequence[Sequence[Any]], *, bits: int = 256) -> list[EigenCluster]:
    """Enclosures of the eigenvalues of a symmetric matrix of balls / floats / rationals.

    Uses ``acb_mat.eig(multiple=True)`` (retried at up to 16x the precision when it cannot isolate
    the eigenvalues, then the Ostrowski-Gershgorin enclosure of :func:`symmetric_ball_spectrum`);
    eigenvalues whose enclosures overlap are merged into one cluster whose multiplicity is a count,
    not a proof of a repeated eigenvalue.  The clusters are disjoint and returned in certainly
    ascending order (decided on exact endpoints, never through floats).
    """
    import flint

    from .precision import to_arb

    n = len(rows)
    eig = None
    b = int(bits)
    while eig is None and b <= 16 * int(bits):
        with arb_precision(b):
            a = flint.acb_mat(n, n)
            for i in range(n):
                for j in range(n):
                    a[i, j] = flint.acb(to_arb(rows[i][j]))
            try:
                eig = a.eig(multiple=True, algorithm="rump")
            except ValueError:  # "failed to isolate eigenvalues": retry at a higher precision
                b *= 2
    with arb_precision(bits):
        if eig is None:
            # acb_mat.eig could not isolate the spectrum (e.g. a huge dynamic range between a large
            # eigenvalue and an exact zero): the Ostrowski-Gershgorin enclosure with certified counts
            return symmetric_ball_spectrum(rows, bits=bits)
        # rigorous clusters: sort by the exact lower endpoints and merge every overlapping run (the
        # merged intervals are disjoint, hence certainly ordered) -- never sort balls by float(mid)
        ivs = merge_intervals([[e.real.lower(), e.real.upper(), 1] for e in eig])
        return [EigenCluster(flint.arb(lo).union(flint.arb(hi)), cnt, cnt == 1) for lo, hi, cnt in ivs]


def _ostrowski_gershgorin(A: Any, n: int, bits: int) -> list[list[Any]]:
    """[lo, hi, count] intervals (exact arb endpoints) for the eigenvalues of every symmetric matrix in
    the n x n arb_mat A (see :func:`symmetric_ball_spectrum`); call inside arb_precision(bits)."""
    import flint

    if n == 1:
        return [[A[0, 0].lower(), A[0, 0].upper(), 1]]
    from .aposteriori import refine_eigenvectors

    V = refine_eigenvectors(A, bits)  # float eigh + Ogita-Aishima refinement to ~bits
    if V is None:
        V = _mp_eigenvectors(A, n, bits)
    B = V.transpose() * A * V
    G = V.transpose() * V
    dsq = flint.arb(0)
    for i in range(n):
        for j in range(n):
            e = G[i, j] - (1 if i == j else 0)
            dsq += e * e
    delta = flint.arb(dsq.upper()).sqrt().upper()
    if not delta < 1:
        raise ArithmeticError(f"approximate eigenvectors too far from orthonormal (delta = {delta})")
    ivs = []
    for i in range(n):
        r = flint.arb(0)
        for j in range(n):
            if j != i:
                r += abs(B[i, j])
        r = r.upper()
        ivs.append([(B[i, i] - r).lower(), (B[i, i] + r).upper(), 1])
    return ostrowski_scale(merge_intervals(ivs), delta)


def ostrowski_scale(ivs: list[list[Any]], delta: Any) -> list[list[Any]]:
    """Gershgorin components [lo, hi, count] of V^T A V mapped to enclosures of A's eigenvalues.

    Ostrowski: lambda_k(V^T A V) = theta_k lambda_k(A) with theta_k in [1 - delta, 1 + delta] (delta >=
    ||V^T V - I||_2 < 1), so the k-th eigenvalue of A lies in [lo, hi] / [1 - delta, 1 + delta] (outward);
    overlapping images are merged with their counts added.  Exact arb endpoints in and out.
    """
    import flint

    one = flint.arb(1)
    out = []
    for lo, hi, cnt in ivs:
        lo_a = (lo / (one - delta)).lower() if lo < 0 else (lo / (one + delta)).lower()
        hi_a = (hi / (one + delta)).upper() if hi < 0 else (hi / (one - delta)).upper()
        out.append([lo_a, hi_a, cnt])
    return merge_intervals(out)


def _mp_eigenvectors(A: Any, n: int, bits: int) -> Any:
    """Eigenvectors of the midpoint of A by mpmath ``eigsy`` at about ``bits`` bits, as an exact arb_mat."""
    import flint

    from .precision import mp_context

    dps = max(20, int(bits * 0.30103))
    ctx = mp_context(dps)
    Amid = ctx.matrix(n, n)
    for i in range(n):
        for j in range(n):
            Amid[i, j] = ctx.mpf(A[i, j].mid().str(dps + 10, radius=False))
    _, Q = ctx.eigsy((Amid + Amid.T) / 2)

    def exact(x: Any) -> Any:  # an mpf as an arb (exact when its mantissa fits the working precision)
        if x == 0:
            return flint.arb(0)
        sgn, man, e, _ = x._mpf_
        v = flint.arb(int(man)) * flint.arb(2) ** int(e)
        return -v if sgn else v

    return flint.arb_mat([[exact(Q[i, j]) for j in range(n)] for i in range(n)])


def merge_intervals(ivs: list[list[Any]]) -> list[list[Any]]:
    """Merge overlapping [lo, hi, count] intervals (exact arb endpoints), adding the counts."""
    out: list[list[Any]] = []
    for lo, hi, cnt in sorted(ivs, key=lambda t: t[0]):  # exact arb endpoints: an exact order
        if out and lo <= out[-1][1]:
            if hi > out[-1][1]:
                out[-1][1] = hi
            out[-1][2] += cnt
        else:
            out.append([lo, hi, cnt])
    return out


def symmetric_ball_spectrum(rows: Sequence[Sequence[Any]], *, bits: int = 256) -> list[EigenCluster]:
    """Enclosures, with certified counts, of the eigenvalues of every symmetric matrix in a ball matrix.

    Robust to large multiple eigenvalues (a many-fold exact zero, where ``acb_mat.eig`` fails to
    isolate the cluster):

    * the index set splits into the connected components of the graph of entries that are not exactly
      zero (exact zeros are exact, so the matrix is exactly block diagonal after a permutation and its
      spectrum is the union of the blocks' spectra); on each block:
    * V := approximate eigenvectors of the midpoint (float ``eigh`` refined to about ``bits`` bits by
      numerics.aposteriori.refine_eigenvectors; mpmath ``eigsy`` if that fails), B := V^T A V
      and G := V^T V in ball arithmetic, delta := |G - I|_F (< 1);
    * Ostrowski: lambda_k(V^T A V) = theta_k lambda_k(A) with theta_k in [sigma_min(V)^2, sigma_max(V)^2]
      within [1 - delta, 1 + delta], for the k-th eigenvalues in increasing order;
    * Gershgorin on B: each connected component of the union of the intervals
      [B_ii -+ sum_{j != i} |B_ij|] holds exactly as many eigenvalues of B as it has intervals.

    So the k-th eigenvalue of every symmetric A in the ball lies in the k-th component divided by
    [1 - delta, 1 + delta], with exact counts (signs follow Sylvester's law of inertia).  Returns the
    clusters sorted ascending (overlapping ones merged, counts added); ``multiplicity`` is the certified
    number of eigenvalues inside, ``exact_multiplicity`` is False (a count, not a proof of a repeated
    eigenvalue).
    """
    import flint

    from .precision import to_arb

    n = len(rows)
    if n == 0:
        return []
    with arb_precision(bits):
        A = [[to_arb(rows[i][j]) for j in range(n)] for i in range(n)]
        parent = list(range(n))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(n):
            for j in range(i + 1, n):
                if not (A[i][j] == 0 and A[j][i] == 0):
                    parent[find(i)] = find(j)
        blocks: dict[int, list[int]] = {}
        for i in range(n):
            blocks.setdefault(find(i), []).append(i)
        ivs: list[list[Any]] = []
        for idx in blocks.values():
            sub = flint.arb_mat([[A[i][j] for j in idx] for i in idx])
            ivs.extend(_ostrowski_gershgorin(sub, len(idx), bits))
        return [EigenCluster(flint.arb(lo).union(flint.arb(hi)), cnt, False)
                for lo, hi, cnt in merge_intervals(ivs)]


def ball_cholesky_pd(rows: Sequence[Sequence[Any]], *, bits: int = 256) -> Tri:
    """Is every symmetric matrix in the ball positive definite?  Cholesky in ball arithmetic on the lower
    triangle: TRUE if every pivot is certainly > 0; FALSE if, after certainly positive pivots, a pivot
    is certainly <= 0 (a leading principal minor is <= 0 for every matrix in the ball); else UNKNOWN."""
    from .precision import to_arb

    n = len(rows)
    with arb_precision(bits):
        Lm = [[to_arb(rows[i][j]) for j in range(i + 1)] for i in range(n)]
        for k in range(n):
            piv = Lm[k][k] - sum((Lm[k][j] * Lm[k][j] for j in range(k)), to_arb(0))
            s = tri_positive(piv)
            if s is not Tri.TRUE:
                return Tri.FALSE if s is Tri.FALSE else Tri.UNKNOWN
            Lm[k][k] = piv.sqrt()
            for i in range(k + 1, n):
                Lm[i][k] = (Lm[i][k] - sum((Lm[i][j] * Lm[k][j] for j in range(k)), to_arb(0))) / Lm[k][k]
        return Tri.TRUE
