"""The top eigenvalue of the exact covariance of float data: exact Rayleigh quotients and Kato-Temple.

For float64 data A (N x d; its entries the dyadic rationals they are), ``A = M 2**-sh`` with an integer
matrix M (numerics.dyadic.fixed_point_slices) and the exact covariance is ``C = X / (N**2 4**sh)`` with
the integer matrix ``X = N M^T M - s s^T`` (s the column sums of M), never formed.  For an integer
vector v only matrix-*vector* products are needed, all exact in integers:

    z = M v,   v^T X v = N |z|^2 - (s.v)^2,   X v = N M^T z - s (s.v),

computed with float BLAS on 21-bit slices whose partial sums stay below 2**53 (the error-free
transformation of Ozaki, Ogita, Oishi and Rump, Numer. Algorithms 59, 2012, applied to products with
a vector), then carried into Python integers.  So ``rho = v^T X v / v^T v`` and the residual norm

    eps^2 = |X v - rho v|^2 / |v|^2 = (|X v|^2 |v|^2 - (v^T X v)^2) / |v|^4     (X v - rho v is _|_ v)

are exact rationals.  **Kato-Temple** (T. Kato, J. Phys. Soc. Japan 4, 1949; B. Parlett, The Symmetric
Eigenvalue Problem, 1998, Thm 10.5.1): if ``lambda_2(X) <= alpha < rho`` then

    rho <= lambda_max(X) <= rho + eps^2 / (rho - alpha)

(from ``v^T (X - lambda_max)(X - alpha) v >= 0``, the operator being PSD when no eigenvalue lies in
``(alpha, lambda_max)``; the lower end is Courant-Fischer).  alpha comes from the a-posteriori clusters
of numerics.aposteriori (a float eigh with rigorous residual bounds: the top cluster must hold exactly
one eigenvalue, alpha is the upper end of the next one).  The bound is quadratic in the error of v: v
starts as the float eigenvector (error ~2**-53) and each refinement step
``v <- v - sum_{i != top} V_i V_i^T (X v - rho v) / (lambda_i - rho)`` (float eigenpairs, exact residual;
Rump, Acta Numerica 19, 2010, §13) gains ~53 bits, so one step already gives a relative radius near
2**-200.  The working precision is the caller's; a matrix whose top eigenvalue is not isolated, or whose
bound stays too wide, gets ``None`` (the caller's exact route decides).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .dyadic import _S, fixed_point_slices

__all__ = ["covariance_top_eigenvalue"]

_MASK = (1 << _S) - 1
_ROWS = 1 << (53 - 2 * _S)  # 21-bit by 21-bit products summed over 2**11 rows stay below 2**53: exact
_MAX_ROWS = 1 << 17  # int64 accumulators over row blocks: < 2**53 * 2**6 blocks * 8 slices < 2**63
_MAX_D = 1 << (53 - 2 * _S)  # M_p v_q: d products of 21-bit numbers, below 2**53


def _int_slices(v: list[int]) -> np.ndarray:
    """d x m float matrix of S-bit slices of the integers v (the last signed): ``v = sum_q V[:, q] 2**(S q)``."""
    m = max(1, -(-(max(abs(x) for x in v).bit_length() + 1) // _S))
    o = np.array(v, dtype=object)
    out = np.empty((len(v), m))
    for q in range(m - 1):
        out[:, q] = (o & _MASK).astype(float)  # in [0, 2**S): exact
        o = o >> _S  # floor: the remaining part stays exact
    out[:, m - 1] = o.astype(float)  # |top| < 2**S
    return out


def _carry(L: np.ndarray) -> np.ndarray:
    """Normalise int64 limbs (columns, weight 2**(S t)) in place: all but the last in [0, 2**S)."""
    for t in range(L.shape[1] - 1):
        c = L[:, t] >> _S
        L[:, t] &= _MASK
        L[:, t + 1] += c
    return L


class _Exact:
    """Exact products with ``X = N M^T M - s s^T`` for the fixed-point data M (see the module docstring)."""

    def __init__(self, parts: list[np.ndarray]):
        self.parts = parts
        self.N = parts[0].shape[0]
        self.s = np.zeros(parts[0].shape[1], dtype=object)
        for p, P in enumerate(parts):  # column sums of |slices| < 2**S over N < 2**32 rows: exact
            self.s += np.array([int(x) << (_S * p) for x in P.sum(axis=0).tolist()], dtype=object)
        self.bits = _S * len(parts)  # |M_ij| < 2**bits

    def apply(self, v: list[int]) -> list[int]:
        """``X v`` exactly for an integer vector v: ``N M^T (M v) - s (s.v)``."""
        parts, N = self.parts, self.N
        Vs = _int_slices(v)
        k, m = len(parts), Vs.shape[1]
        nl = (self.bits + max(abs(x) for x in v).bit_length() + 12) // _S + 2  # |z| < 2**(S (nl - 1))
        Z = np.zeros((N, nl), dtype=np.int64)
        for p in range(k):
            Z[:, p:p + m] += (parts[p] @ Vs).astype(np.int64)  # exact: d <= 2**11 products below 2**42
        Lf = _carry(Z).astype(float)  # z = M v as S-bit limbs, |limb| < 2**S
        W = np.zeros((len(v), k + nl), dtype=np.int64)
        for r0 in range(0, N, _ROWS):  # row blocks of 2**11: every float partial sum below 2**53
            B = Lf[r0:r0 + _ROWS]
            for p in range(k):
                W[:, p:p + nl] += (parts[p][r0:r0 + _ROWS].T @ B).astype(np.int64)
        pw = np.array([1 << (_S * t) for t in range(k + nl)], dtype=object)
        Mz = W.astype(object).dot(pw)  # M^T z in Python integers
        sv = self.s.dot(np.array(v, dtype=object))
        return [int(x) for x in N * Mz - self.s * sv]


def covariance_top_eigenvalue(A: np.ndarray, bits: int) -> Any | None:
    """An arb ball containing lambda_max of the exact covariance of the float array A (N x d, N >= 2),
    of relative radius at most ``2**-(bits + 32)`` (working precision ``bits + 64``), or ``None`` when
    this route does not apply (the caller takes its exact route): dynamic range beyond
    numerics.dyadic's slices, N > 2**17 or d > 2**11, a float route that cannot certify, a top
    eigenvalue not certainly simple, or a bound still too wide after the refinement steps.
    """
    import flint

    from .aposteriori import covariance_spectrum_and_vectors
    from .precision import arb_precision

    A = np.asarray(A, dtype=float)
    N, d = A.shape
    if not 2 <= N <= _MAX_ROWS or d > _MAX_D or int(bits) > 4096:
        return None
    fs = fixed_point_slices(A)
    sp = covariance_spectrum_and_vectors(A) if fs is not None else None
    if sp is None or sp[1] is None or sp[0][-1].multiplicity != 1:
        return None
    (clusters, (w, V)), (parts, sh) = sp, fs
    if not w[-1] > 0:
        return None
    prec = int(bits) + 64
    ex = _Exact(parts)
    with arb_precision(prec):
        den = flint.arb(N * N) * flint.arb(2) ** (2 * sh)  # C = X / den; exact (an integer times 2**k)
        alpha = clusters[-2].enclosure.upper() * den if len(clusters) > 1 else None  # >= lambda_2(X)
        goal = flint.arb(2) ** -(int(bits) + 32)
    v = [int(x) for x in np.rint(np.ldexp(V[:, -1], 53))]
    rest, ratio = V[:, :-1], w[:-1] / w[-1] - 1.0  # (lambda_i - rho) / rho for the other eigenpairs
    steps = 2 + -(-int(bits) // 50)
    for _ in range(steps):
        Xv = ex.apply(v)
        vXv = sum(x * y for x, y in zip(v, Xv))
        nv = sum(x * x for x in v)
        e2n = sum(x * x for x in Xv) * nv - vXv * vXv  # eps^2 |v|^4 >= 0 (Cauchy-Schwarz)
        if vXv <= 0:
            return None
        with arb_precision(prec):
            rho = flint.arb(flint.fmpq(vXv, nv))
            if e2n == 0:
                return rho / den  # v is an exact eigenvector
            if alpha is None or not rho > alpha:
                return None
            kt = flint.arb(flint.fmpq(e2n, nv * nv)) / (rho - alpha)  # Kato-Temple
            kt = flint.arb(kt.upper())
            if kt <= goal * rho:
                return rho.union(rho + kt) / den
        # refinement: g = (X v - rho v) / (rho 2**sc), exact integers divided once (correctly rounded);
        # the step solves (X - rho) dv = -r on the other float eigenvectors, dv in units of 2**sc
        sc = max(max(abs(x) for x in v).bit_length() - 53, 0)
        g = np.array([(nv * x - vXv * y) / (vXv << sc) for x, y in zip(Xv, v)])
        with np.errstate(all="ignore"):
            corr = np.rint(np.ldexp(rest @ ((rest.T @ g) / ratio), 53))
        if not np.all(np.isfinite(corr)):
            return None
        v = [(x << 53) - (int(c) << sc) for x, c in zip(v, corr)]
    return None
