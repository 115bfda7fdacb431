"""Exact covariances of float64 data through float matrix products (error-free splitting).

Every finite float is a dyadic rational, so an N x d float array is ``A = M 2**e`` with an integer
matrix M of at most ``B = 53 + (e_max - e)`` bits per entry.  Splitting M into slices of ``S = 21`` bits,
``M = sum_p M_p 2**(S p)`` with integer-valued float slices ``|M_p| < 2**S``, every product
``M_p^T M_q`` over at most ``2**(53 - 2 S)`` rows is computed *exactly* by a float matrix product (each
partial sum is an integer below 2**53, hence representable, whatever the summation order): this is the
error-free transformation of matrix multiplication of Ozaki, Ogita, Oishi and Rump ("Error-free
transformations of matrix multiplication by using fast routines of matrix multiplication and its
applications", Numer. Algorithms 59, 2012).  The slice products are summed in Python integers, so the
Gram matrix ``M^T M`` and the column sums are exact, at the cost of about ``(B / S)^2 / 2`` BLAS products
instead of a Python-integer product of the whole N x d matrix.

The covariance is then ``C = (N M^T M - s s^T) 4**e / N**2`` exactly (s the integer column sums).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["exact_covariance_of_floats", "fixed_point_format", "fixed_point_slices", "slices_of"]

_S = 21  # slice bits: 2 * 21 + 11 = 53, so 2**11 rows of slice products sum exactly in float64
_ROWS = 1 << (53 - 2 * _S)
_MAX_SLICES = 8  # beyond (a dynamic range of ~115 bits) the caller's integer route is cheaper


def _slices(X: np.ndarray, k: int) -> list[np.ndarray]:
    """Integer-valued float slices with ``X = sum_p slices[p] 2**(S p)`` exactly (X integer-valued,
    |X| < 2**(S k)); ``floor`` keeps every step exact (each result is representable)."""
    out = []
    rest = X
    for _ in range(k - 1):
        hi = np.floor(np.ldexp(rest, -_S))  # exact: power-of-two scaling, then floor of a float
        out.append(rest - np.ldexp(hi, _S))  # in [0, 2**S): exactly representable, so exact
        rest = hi
    out.append(rest)  # |top| < 2**S
    return out


def fixed_point_format(A: np.ndarray) -> tuple[int, int] | None:
    """``(k, sh)``: ``M = A 2**sh`` is an integer matrix with ``|M| < 2**(S k)`` (A finite float64); ``None``
    when A is 0 or its dynamic range needs more than ``_MAX_SLICES`` slices."""
    a = np.abs(A)
    mx = float(a.max()) if a.size else 0.0
    return _format_of_range(mx, _smallest_nonzero(a) if mx else 0.0)


def _smallest_nonzero(a: np.ndarray) -> float:
    """The smallest non-zero entry of the non-negative array a (not all 0)."""
    mn = float(np.minimum.reduce(a, axis=None))  # one fast pass when no entry is 0 (the common case)
    return mn if mn else float(np.min(a, where=a != 0, initial=np.inf))


def _format_of_range(mx: float, mn: float) -> tuple[int, int] | None:
    """:func:`fixed_point_format` from the largest and the smallest non-zero ``|A_ij|`` (finite floats)."""
    if mx == 0:
        return None
    e_max, e_min = math.frexp(mx)[1], math.frexp(mn)[1] - 53  # every entry is an integer multiple of 2**e_min
    bits = e_max - e_min
    k = -(-(bits + 1) // _S)
    if k > _MAX_SLICES or bits > 1000:
        return None
    return k, -e_min


def slices_of(A: np.ndarray, k: int, sh: int) -> list[np.ndarray]:
    """The slices of ``M = A 2**sh`` (see :func:`fixed_point_format`): ``M = sum_p parts[p] 2**(S p)``."""
    return _slices(np.ldexp(A, sh), k)  # integer-valued: exact (a power-of-two scaling, no overflow)


def fixed_point_slices(A: np.ndarray) -> tuple[list[np.ndarray], int] | None:
    """``(parts, sh)`` with ``A = 2**-sh sum_p parts[p] 2**(S p)`` exactly: the finite float64 array A
    as the integer matrix ``M = A 2**sh`` cut into integer-valued float slices (all but the last in
    ``[0, 2**S)``, ``|last| < 2**S``); ``None`` when A is 0 or its dynamic range needs more than
    ``_MAX_SLICES`` slices."""
    A = np.asarray(A, dtype=float)
    f = fixed_point_format(A)
    if f is None:
        return None
    return slices_of(A, *f), f[1]


def exact_covariance_of_floats(A: np.ndarray) -> list[list[Fraction]] | None:
    """The exact empirical covariance ``(1/N) sum_i (a_i - mu)(a_i - mu)^T`` of a finite float64 N x d
    array (its entries read as the dyadic rationals they are), as Fractions; ``None`` when the data's
    dynamic range needs more than ``_MAX_SLICES`` slices (the caller then takes its integer route)."""
    A = np.asarray(A, dtype=float)
    N, d = A.shape
    if not np.any(A):
        return [[Fraction(0)] * d for _ in range(d)]
    fs = fixed_point_slices(A)
    if fs is None:
        return None
    parts, sh = fs
    k = len(parts)
    import flint

    G = flint.fmpz_mat(d, d)
    s = [0] * d
    for r0 in range(0, N, _ROWS):
        blk = [P[r0:r0 + _ROWS] for P in parts]
        for p in range(k):
            for j, v in enumerate(blk[p].sum(axis=0).tolist()):  # |sum| < 2**(S + 11): exact
                s[j] += int(v) << (_S * p)
            for q in range(p, k):
                # partial sums < 2**53: exact
                P = flint.fmpz_mat((blk[p].T @ blk[q]).astype(np.int64).tolist())
                if p != q:
                    P = P + P.transpose()  # M_q^T M_p = (M_p^T M_q)^T
                G += P * (1 << (_S * (p + q)))
    Gl = G.tolist()
    up, den = (0, N * N << (2 * sh)) if sh >= 0 else (-2 * sh, N * N)  # A = M 2**-sh
    return [[Fraction((N * int(Gl[a][b]) - s[a] * s[b]) << up, den) for b in range(d)] for a in range(d)]


def _check_bits() -> None:  # pragma: no cover - a guard on the constants, run at import
    assert 2 * _S + int(math.log2(_ROWS)) <= 53


_check_bits()
