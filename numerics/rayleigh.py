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

The cost is a few float estimates (numpy's eigvalsh of the float covariance), so the implementation counts
passes and calls: v cut into two 27-bit slices for d <= 32, as few limbs of z as its bit length needs and
two carry steps (:class:`_Exact`, bounds in its docstring), the slices cut from A in its own units, one
kept scratch buffer for |A|, the centred data and the slices, dot products of the refinement expanded by
bilinearity instead of vectors of big integers (:func:`_float_gram_step`), one ``np.errstate`` and one arb
precision per route.  None of it changes a value that reaches an enclosure: the floats are those of the
plain formulation and every integer is exact (tests/unit/engine/test_engine_rayleigh.py compares both).
"""

from __future__ import annotations

import functools
import math
import operator
import threading
from typing import Any

import numpy as np

from .aposteriori import _BITS, _covariance_core, _gamma_cached, _inv1m, _pow2, _scratch, _units
from .dyadic import _S, _format_of_range, _smallest_nonzero
from .precision import arb_precision

__all__ = ["covariance_top_eigenvalue", "magnitudes"]

_MASK = (1 << _S) - 1
_ROWS = 1 << (53 - 2 * _S)  # 21-bit by 21-bit products summed over 2**11 rows stay below 2**53: exact
_MAX_ROWS = 1 << 17  # int64 accumulators over row blocks: < 2**53 * 2**6 blocks * 8 slices < 2**63
_MAX_D = 1 << (53 - 2 * _S)  # M_p v_q: d products of 21-bit numbers, below 2**53


def _v_slices(v: list[int], vm: int, wide: int) -> tuple[np.ndarray, int]:
    """``(Vs, b)``: the d x m float matrix of b-bit slices of the integers v, ``v = sum_q V_q 2**(b q)``
    (slices below the top in ``[0, 2**b)``, the top signed with ``|top| <= 2**(b - 1)``), for
    ``vm = max |v_j|``: S-bit slices, ``Vs[:, q] = V_q``, or, when ``vm < 2**(2 wide - 1)``, two wide ones
    (``b = wide = S + r``) stored as ``Vs = [V_0, V_1 2**r]``, so that column q has weight ``2**(S q)``
    either way.  Every entry is an integer below 2**53 in magnitude: its float is exact."""
    if vm < 1 << (2 * wide - 1):
        mask, r = (1 << wide) - 1, wide - _S  # the high slice times 2**r (exact): weight 2**S, limb offset 1
        if len(v) < 8:
            return np.array([[x & mask, (x >> wide) << r] for x in v], dtype=float), wide
        vi = np.array(v, dtype=np.int64)  # |v| < 2**53: the same integers, in int64
        out = np.empty((len(v), 2))
        out[:, 0] = vi & mask
        out[:, 1] = (vi >> wide) << r
        return out, wide
    m = max(1, -(-(vm.bit_length() + 1) // _S))
    top = _S * (m - 1)
    rows = [[(x >> (_S * q)) & _MASK for q in range(m - 1)] + [x >> top] for x in v]
    return np.array(rows, dtype=float), _S


def _carry(L: np.ndarray, tmp: np.ndarray, rows: int) -> np.ndarray:
    """Carry int64 limbs (rows of weight 2**(S t), ``|L| < 2**59``, zero from row ``rows`` on) in place until
    every limb but the top lies in ``[-2**(S - 4), 2**S + 2**(S - 4)]`` (tmp: scratch of L[:-1]'s shape).  One
    parallel step maps limbs in ``[-B, B]`` to ``[-ceil(B / 2**S), 2**S - 1 + floor(B / 2**S)]`` (floor
    division: ``x = (x >> S) 2**S + (x & MASK)`` for negative x too), so two take 2**59 to 2**38 + 2**S and
    then to 2**S + 2**17 + 1 -- below 2**(S + 1), all that :class:`_Exact`'s second product needs.  Step j
    only touches the rows the carries have reached (``rows + j - 1``; a zero row stays zero and passes
    nothing on).  The last row is never masked: it holds the signed top."""
    top = L.shape[0] - 1
    for j in range(2):
        r = min(rows + j, top)
        lo, c = L[:r], tmp[:r]
        np.right_shift(lo, _S, out=c)
        np.bitwise_and(lo, _MASK, out=lo)
        L[1:r + 1] += c
    return L


_WS = threading.local()


def _workspace(n: int, slot: int = 0) -> np.ndarray:
    """A thread-local float scratch vector of at least n entries, kept between calls (up to 32 MB): fresh
    memory costs page faults, and memory last touched a data set ago cache misses.  Always written before
    read.  Slot 0 holds the slices, which stay resident between the products of one :class:`_Exact`; it is
    numerics.aposteriori's N x d scratch (|A| for :func:`magnitudes`, then the centred data), dead by the
    time the slices are cut, so one buffer serves the three.  Slot 1 holds the per-product temporaries."""
    if slot == 0:
        return _scratch((n,))
    if n > 1 << 22:  # beyond 32 MB: not kept
        return np.empty(n)
    buf = getattr(_WS, "buf", None)
    if buf is None or buf.size < n:
        buf = _WS.buf = np.empty(max(n, 1 << 16))
    return buf[:n]


@functools.lru_cache(maxsize=256)
def _scales(k: int, u: int) -> np.ndarray:
    """The factors ``2**(u - S p)`` (shape (k, 1, 1), read-only) that turn products with slice p, stored
    as a multiple of ``2**(S p - u)``, into integers."""
    out = np.array([2.0 ** (u - _S * p) for p in range(k)]).reshape(k, 1, 1)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=64)
def _powers(n: int) -> np.ndarray:
    """``2**(S t)`` for t < n as Python integers (an object array, read-only)."""
    out = np.array([1 << (_S * t) for t in range(n)], dtype=object)
    out.flags.writeable = False
    return out


class _Exact:
    """Exact products with ``X = N M^T M - s s^T`` for the fixed-point data ``M = A 2**sh`` (module
    docstring): the k slices of a block of <= 2**11 rows, a (k, n, d) array made in a scratch buffer
    (once when N <= 2**11, else again for every product).  Slice p is kept as ``M_p 2**(S p)``, cut top
    first by Rump's ExtractScalar (S. M. Rump, T. Ogita, S. Oishi, SIAM J. Sci. Comput. 31 (2008),
    Lemma 3.3: ``q = fl(fl(sigma + r) - sigma)`` is r rounded to a multiple of ``2**(S p)`` and ``r - q``
    is exact, for ``sigma = 1.5 * 2**(52 + S p)`` and ``|r| < 2**(51 + S p)``): three passes a slice.  As
    ``|M| < 2**mbits <= 2**(S k - 1)`` (numerics.dyadic's format), the rest before the cut at p is at most
    ``2**(S (p + 1) - 1)``, so every slice, the top and the last included, is an integer
    ``|M_p| <= 2**(S - 1)``; a product with it is a multiple of ``2**(S p)`` below ``2**(53 + S p)``, so
    exact, and is scaled back afterwards.

    Where ``|sh| <= 800`` the slices are cut from A itself, in its units: ExtractScalar with
    ``sigma 2**-sh`` (still a normal float) on ``A = M 2**-sh`` gives the same slices times ``2**-sh``,
    since rounding to nearest commutes with a power-of-two scaling in the normal range and the other
    steps are exact; every nonzero slice entry and partial sum of a product is then a multiple of
    ``2**(S p - sh) >= 2**-800`` below ``2**(53 + S p - sh) <= 2**1021`` in magnitude, a normal float, so
    the products stay exact, and the factor ``2**sh`` goes into their scaling (no pass over the data for
    ``A 2**sh``).

    The vector v is cut into slices of ``wide = min(27, 32 - ceil(log2 d))`` bits when two suffice (the
    float eigenvector, ``|v| <= 2**53``, for d <= 32), else of S bits: ``d 2**(S - 1) 2**wide <= 2**52``,
    so every partial sum of ``M_p v_q`` (over the d columns) is an integer of magnitude below 2**53,
    exact in any summation order.  With ``wide = S + r`` (r <= 6) the high slice, stored times ``2**r``
    (exact, a power of two), has weight ``2**S``: its products go to limb p + 1 of z and are below
    ``d 2**(S - 1) 2**(wide - 1) 2**r <= 2**57``, so every limb of z starts below ``2**52 + 2**57 < 2**59``
    (S-bit slices: at most 8 terms below 2**53 each) and :func:`_carry` applies.

    The slices live in the thread's shared scratch (:func:`_workspace`): resident between the products
    of one route, overwritten by the next user of that scratch.

    z needs ``nl = ceil((bz + 1) / S)`` limbs for ``|z| < 2**bz``, ``bz = mbits + bits(|v|) + ceil(log2 d)``:
    after the carries the limbs below the top lie in ``[-2**(S - 4), 2**S + 2**(S - 4)]``, so their sum is
    below ``2**(S (nl - 1)) (1 + 2**-3)`` in magnitude and the top limb below ``2**(S - 1) + 2``: every limb
    is below ``2**(S + 1)``, and a product of a limb with a slice below ``2**(2 S) = 2**42``, exact over
    ``2**11`` rows."""

    def __init__(self, A: np.ndarray, k: int, sh: int, prec: int, mbits: int | None = None):
        self.A, self.k, self.sh, self.prec = A, k, sh, prec
        self.N, self.d = A.shape
        # |M_ij| < 2**mbits: numerics.dyadic's format has S k >= mbits + 1, so S k - 1 always holds
        self.mbits = _S * k - 1 if mbits is None else mbits
        self.wide = min(27, 53 - _S - max(self.d - 1, 1).bit_length())  # d <= 2**(32 - wide)
        self.unit = sh if -800 <= sh <= 800 else 0  # slices kept as M_p 2**(S p - unit)
        self.s = None
        self._resident = None

    def _blocks(self):
        A, k, d, N, u = self.A, self.k, self.d, self.N, self.unit
        if self._resident is not None:
            yield self._resident
            return
        R = min(N, _ROWS)
        ws = _workspace(R * d * k)
        for r0 in range(0, N, R):
            n = min(R, N - r0)
            Mc = ws[:n * k * d].reshape(k, n, d)
            rest = A[r0:r0 + n]  # M 2**-u
            if u != self.sh:  # integer-valued: exact (power-of-two scaling)
                rest = np.ldexp(rest, self.sh, out=Mc[0])
            elif k == 1:
                np.copyto(Mc[0], rest)
            for p in range(k - 1, 0, -1):  # top slice first (Rump's ExtractScalar), the rest stays in slot 0
                sig = 1.5 * 2.0 ** (52 + _S * p - u)  # |rest| < 2**(51 + S p - u): keeps ulp 2**(S p - u)
                np.add(rest, sig, out=Mc[p])
                np.subtract(Mc[p], sig, out=Mc[p])  # rest rounded to a multiple of 2**(S p - u), exactly
                rest = np.subtract(rest, Mc[p], out=Mc[0])  # exact, |rest| <= 2**(S p - 1 - u)
            if n == N:
                self._resident = Mc
            yield Mc

    def apply(self, v: list[int]) -> list[int]:
        """``X v`` exactly for an integer vector v: ``N M^T (M v) - s (s.v)``."""
        N, k, d = self.N, self.k, self.d
        vm = max(max(v), -min(v))
        Vs, b = _v_slices(v, vm, self.wide)  # C-contiguous d x m: the fast gemm layout for M (v slices)
        m = Vs.shape[1]
        sw = _scales(k, self.unit)
        # |z| < 2**bz with bz = mbits + bits(|v|) + ceil(log2 d): nl limbs (class docstring); the slice
        # products M_p v_q (weight 2**(S (p + q))) fill limbs 0 .. k + m - 2
        nl = max((self.mbits + vm.bit_length() + (d - 1).bit_length() + _S) // _S, k + m)
        ones = self.s is None  # the first product also makes the column sums s, as a row of ones in Lf
        nr = nl + ones
        W = None
        for Mc in self._blocks():
            n = Mc.shape[1]
            ws = _workspace((2 * nl + nr + m * k) * n, 1)  # Z, the carries, the float limbs Lf, then P
            Z = ws[:nl * n].view(np.int64).reshape(nl, n)  # limbs of z = M v, one row each
            Lf = ws[2 * nl * n:(2 * nl + nr) * n].reshape(nr, n)
            P = ws[(2 * nl + nr) * n:].reshape(k * n, m)
            np.matmul(Mc.reshape(k * n, d), Vs, out=P)  # exact (class docstring), slice p times 2**(S p - u)
            P = P.reshape(k, n, m)
            P *= sw  # now the integers M_p V_q (times 2**r for a wide high slice), below 2**58
            Z[:k] = P[:, :, 0]  # integer-valued floats below 2**53: exact
            Z[k:] = 0
            for q in range(1, m):
                Z[q:q + k] += P[:, :, q].astype(np.int64)
            _carry(Z, ws[nl * n:(2 * nl - 1) * n].view(np.int64).reshape(nl - 1, n), k + m - 1)
            Lf[:nl] = Z  # |limb| < 2**(S + 1): exact in float
            if ones:
                Lf[nl] = 1.0
            Wb = np.matmul(Lf, Mc)  # <= 2**11 rows of products < 2**42 (times 2**(S p - u)): exact
            Wb *= sw
            W = Wb.astype(np.int64) if W is None else W + Wb.astype(np.int64)
        if ones:  # the column sums of the slices, < 2**(S + 11) per block: s_j = sum_p W[p, nl, j] 2**(S p)
            rows = W[:, nl].tolist()
            s = rows[-1]
            for r in rows[-2::-1]:
                s = [(x << _S) + y for x, y in zip(s, r)]
            self.s = s
        Wc = np.zeros((k + nl - 1, d), dtype=np.int64)
        for p in range(k):  # (M^T z)_j = sum_p sum_t W[p, t, j] 2**(S (p + t)), p + t <= k + nl - 2; < 2**62
            Wc[p:p + nl] += W[p, :nl]
        Mz = Wc.T.astype(object).dot(_powers(k + nl - 1)).tolist()  # M^T z in Python integers
        s = self.s
        sv = sum(map(operator.mul, s, v))
        return [N * x - y * sv for x, y in zip(Mz, s)]


def _kato_temple(vXv: int, nv: int, e2n: int, alpha: Any, den: Any, goal: Any) -> Any | None:
    """The enclosure ``[rho, rho + eps^2 / (rho - alpha)] / den`` from exact integers (module docstring),
    ``vXv = v^T X v``, ``nv = |v|^2``, ``e2n = eps^2 |v|^4``; None when it is wider than ``goal rho``."""
    import flint

    rho = flint.arb(flint.fmpq(vXv, nv))
    if e2n == 0:
        return rho / den  # v is an exact eigenvector
    if alpha is None or not rho > alpha:
        return None
    kt = flint.arb((flint.arb(flint.fmpq(e2n, nv * nv)) / (rho - alpha)).upper())  # Kato-Temple
    return rho.union(rho + kt) / den if kt <= goal * rho else None


def _dot(a: list[int], b: list[int]) -> int:
    """The exact dot product of two integer lists."""
    return sum(map(operator.mul, a, b))


def _correction(v: list[int], Xv: list[int], vXv: int, nv: int, rest: np.ndarray, ratio: np.ndarray,
                ) -> tuple[list[int], int, int] | None:
    """``(c, L, T)``: the refinement ``v 2**L - c 2**T`` of v (L, T >= 0), with ``|c| < 2**53`` (exact
    floats).

    ``g = (X v - rho v) / rho`` from exact integers (each divided once, correctly rounded); the step
    solves ``(X - rho) dv = -r`` on the other float eigenvectors (Rump 2010, §13).  Call under
    ``np.errstate(all="ignore")`` (a ratio of 0, i.e. a float eigenvalue equal to the top, gives inf:
    refused below)."""
    sc = max(max(max(v), -min(v)).bit_length() - 53, 0)
    q = vXv << sc
    g = np.array([(nv * x - vXv * y) / q for x, y in zip(Xv, v)])  # in units of 2**sc
    dv = rest @ ((rest.T @ g) / ratio)
    mx = float(np.maximum.reduce(np.abs(dv)))  # ufunc reductions: no Python-level wrapper
    if not (math.isfinite(mx) and mx > 0):
        return None
    t = math.frexp(mx)[1] - 52  # |dv| 2**-t < 2**52
    c = np.rint(np.ldexp(dv, -t)).astype(np.int64).tolist()  # integer-valued floats below 2**52: exact
    T = t + sc + 53  # v 2**53 - dv 2**(sc + 53) = v 2**53 - c 2**T
    return (c, 53, T) if T >= 0 else (c, 53 - T, 0)


@functools.lru_cache(maxsize=64)
def _gram_step_constants(d: int, prec: int) -> tuple[Any, Any, Any]:
    """The d-dependent constants of :func:`_float_gram_step` at precision prec: the underflow term
    ``eta_d``, ``1 / (1 - gamma_{d^2 + 1})`` (rounded up) and ``gamma_d``."""
    eta = _units()[0]  # exact
    with arb_precision(prec):
        return eta * (d * d + 4 * d + 4), _inv1m(_gamma_cached(d * d + 1)), _gamma_cached(d)


def _float_gram_step(ex: _Exact, info: dict, sh: int, v: list[int], Xv: list[int], vv: int, vX: int, XX: int,
                     c: list[int], L: int, t: int, alpha: Any, den: Any, goal: Any) -> Any | None:
    """The enclosure for ``v1 = v 2**L - c 2**t`` with ``X c`` from the float Gram matrix, or None (call
    at the working precision ``ex.prec``; ``vv = |v|^2``, ``vX = v^T X v``, ``XX = |X v|^2``, exact).

    ``X = N 4**(sh + e) (Y^T Y - N delta delta^T)`` (numerics.aposteriori.covariance_spectrum_and_vectors),
    so ``X c = Q (G c + (Y^T Y - G) c - N delta (delta.c))`` with ``Q = N 4**(sh + e)`` and

        |X c - Q fl(G c)| <= eta_c = Q |c| (gamma_d ||G||_F + err + N |delta|^2)   (+ underflow),

    (Higham Lemma 3.1 for the float matrix-vector product).  ``X v1`` is then known up to
    ``eta = 2**t eta_c``, and ``v1^T X v1`` up to ``4**t |c| eta_c`` only, because ``v^T X c = c^T (X v)``
    is exact.  With ``mu`` the Rayleigh quotient of the approximate ``X v1`` and R its residual, the
    residual of v1 is at most ``(R + eta) / |v1|`` (the Rayleigh quotient minimises ``|X v1 - mu v1|``),
    and Kato-Temple applies with ``rho`` in an interval.

    The integers: with ``y = fl(G c) = yi 2**-F`` and ``P = 2 (sh + e) - F + t``, the approximate
    ``X v1 = (X v) 2**L - N yi 2**P`` (times ``2**K``, ``K = max(0, -P)``, to stay integral) enters only
    through dot products, expanded by bilinearity into those of v, c, X v and yi:
    ``|v1|^2 = 4**L |v|^2 - 2**(L + t + 1) v.c + 4**t |c|^2``, ``v1.(X v) = 2**L v^T X v - 2**t c.(X v)``,
    ``v1.yi = 2**L v.yi - 2**t c.yi`` and
    ``|X v1|^2 = |X v|^2 4**L - 2**(L + P + 1) N (X v).yi + 4**P N^2 |yi|^2``
    -- the same integers as from the vectors, with no vector of big integers formed.  G is finite
    (numerics.aposteriori refuses otherwise) with ``|G_ij| < 2**820`` (data scaled to ``|A| <= 2**400``,
    N <= 2**17), so ``|y_i| < d 2**873 (1 + gamma_d)`` is finite; only ``||G||_F^2`` may overflow."""
    import flint

    N, d = ex.N, ex.d
    G, e = info["G"], info["e"]
    y = G @ np.array(c, dtype=float)  # exact conversion: |c| < 2**53
    gg = float(np.add.reduce(G * G, axis=None))  # np.sum(G * G)
    if not math.isfinite(gg):
        return None
    mant, ex2 = np.frexp(y)
    mi = (mant * 2.0 ** 53).astype(np.int64).tolist()  # y = mi 2**(ex2 - 53) exactly
    ex2 = ex2.tolist()
    mn = min(ex2)
    F = 53 - mn
    yi = [m << (x - mn) for m, x in zip(mi, ex2)]  # y = yi 2**-F, integers
    # everything below is scaled by 2**K to stay in integers: 2**t Q y = N yi 2**P, Q = N 4**(sh + e)
    P = 2 * (sh + e) - F + t
    K = max(0, -P)
    vc, cc, cXv = _dot(v, c), _dot(c, c), _dot(c, Xv)
    vy, cy, Xy, yy = _dot(v, yi), _dot(c, yi), _dot(Xv, yi), _dot(yi, yi)
    nv = (vv << 2 * L) - (vc << (L + t + 1)) + (cc << 2 * t)  # |v1|^2
    aK = (((vX << L) - (cXv << t)) << (L + K)) - ((N * ((vy << L) - (cy << t))) << (P + K))  # v1^T Xt 2**K
    bK = (XX << 2 * (L + K)) - ((N * Xy) << (L + P + 2 * K + 1)) + ((N * N * yy) << 2 * (P + K))  # |Xt|^2 4^K
    # v1^T X v1 = v1^T Xt - 2**(t + L) (v^T X c - v^T Q y) + 4**t c^T (X c - Q y), v^T X c = c^T X v
    EK = aK - (cXv << (t + L + K)) + ((N * vy) << (P + L + K))
    eta_d, k_g, g_d = _gram_step_constants(d, ex.prec)
    gfro = (flint.arb(gg) * k_g + eta_d).sqrt()
    cn = flint.arb(cc).sqrt()
    qa = flint.arb(N) * _pow2(2 * (sh + e))
    eta_c = flint.arb((qa * (cn * (g_d * gfro + info["err"] + N * flint.arb(info["dsq"])) + eta_d)).upper())
    eta = eta_c * _pow2(t)
    wid = _pow2(2 * t) * cn * eta_c
    nva = flint.arb(nv)
    # a quotient of exact integers rounded once at the working precision (as arb(fmpq(p, q)) rounds it: the
    # same correctly rounded midpoint and one-ulp radius, without fmpq's gcd of big integers)
    Ea = flint.arb(EK) / flint.arb(1 << K)
    rho = (Ea - wid).union(Ea + wid) / nva
    if alpha is None or not rho > alpha:
        return None
    r2 = flint.arb(bK * nv - aK * aK) / flint.arb(nv << (2 * K))  # |Xt - mu v1|^2, mu = aK / (nv 2**K)
    eps = (r2.sqrt() + eta) / nva.sqrt()
    lo = flint.arb(rho.lower())
    up = flint.arb((rho.upper() + eps * eps / (lo - alpha)).upper())  # Kato-Temple, rho in an interval
    return lo.union(up) / den if up - lo <= goal * lo else None


def magnitudes(A: np.ndarray) -> tuple[float, float]:
    """``(max |A_ij|, min_{A_ij != 0} |A_ij|)`` of a float array (NaN when A has one, 0.0 for the minimum
    when A is 0), from |A| in kept scratch memory (no fresh N x d temporary)."""
    a = np.abs(A, out=_scratch(A.shape))
    mx = float(np.maximum.reduce(a, axis=None))
    return mx, (_smallest_nonzero(a) if mx else 0.0)


def covariance_top_eigenvalue(A: np.ndarray, bits: int, *, mags: tuple[float, float] | None = None,
                              ) -> Any | None:
    """An arb ball containing lambda_max of the exact covariance of the float array A (N x d, N >= 2),
    of relative radius at most ``2**-(bits + 4)`` (working precision ``bits + 64``), or ``None`` when
    this route does not apply (the caller takes its exact route): dynamic range beyond
    numerics.dyadic's slices, N > 2**17 or d > 2000, a float route that cannot certify, a top
    eigenvalue not certainly simple, or a bound still too wide after the refinement steps.

    One exact product ``X v`` for the float eigenvector v; one refinement step whose ``X c`` comes from
    the float Gram matrix with a rigorous error bound (:func:`_float_gram_step`); only if that is too wide,
    further steps with exact products.  ``mags``: :func:`magnitudes` of A when the caller has them.
    """
    A = np.asarray(A, dtype=float)
    N, d = A.shape
    if not 2 <= N <= _MAX_ROWS or not 0 < d <= min(_MAX_D, 2000) or int(bits) > 4096:  # 2000: aposteriori
        return None
    mx, mn = magnitudes(A) if mags is None else mags
    if not math.isfinite(mx):
        return None
    fs = _format_of_range(mx, mn)  # numerics.dyadic.fixed_point_format
    if fs is None:
        return None
    with np.errstate(all="ignore"):  # once for the route: the float steps refuse non-finite values themselves
        return _top_eigenvalue(A, mx, fs, int(bits))


def _top_eigenvalue(A: np.ndarray, mx: float, fs: tuple[int, int], bits: int) -> Any | None:
    """:func:`covariance_top_eigenvalue` for a checked float array A, ``mx = max |A_ij|`` and its fixed-point
    format ``fs = (k, sh)``."""
    import flint

    N, d = A.shape
    with arb_precision(_BITS):
        sp = _covariance_core(A, mx, True)  # float eigh, clusters with certified counts (float ends)
    if sp is None or sp[1] is None or sp[0][-1][2] != 1:
        return None
    (_, info, _), (k, sh) = sp, fs
    ends = info["ends"]  # float ends of the clusters of C, in units of 2**scale: exact
    w, V = info["w"], info["V"]
    if not w[-1] > 0:
        return None
    ex = _Exact(A, k, sh, bits + 64, math.frexp(mx)[1] + sh)  # |M| = |A| 2**sh < 2**(e_max + sh)
    v = np.rint(V[:, -1] * 2.0 ** 53).astype(np.int64).tolist()  # |V| <= 1: integers of at most 54 bits
    rest, ratio = V[:, :-1], w[:-1] / w[-1] - 1.0  # (lambda_i - rho) / rho for the other eigenpairs
    with arb_precision(ex.prec):
        den = flint.arb(N * N) * _pow2(2 * sh)  # C = X / den; exact (an integer times 2**k)
        # >= lambda_2(X): the upper end of the next cluster, exactly (d >= 2 when the top is simple)
        alpha = flint.arb(ends[-2][1]) * _pow2(info["scale"]) * den if len(ends) > 1 else None
        goal = _pow2(-(bits + 4))
        Xv = ex.apply(v)
        for step in range(2 + -(-bits // 50)):
            vXv, nv = _dot(v, Xv), _dot(v, v)
            if vXv <= 0:
                return None
            XX = _dot(Xv, Xv)
            e2n = XX * nv - vXv * vXv
            # Kato-Temple needs eps^2 / (rho - alpha) <= goal rho, and 0 < rho - alpha <= rho (alpha >= 0),
            # so e2n <= goal vXv^2: where the bit lengths already exclude it, the arb bound is skipped
            if e2n.bit_length() - 1 <= 2 * vXv.bit_length() - bits - 4:
                enc = _kato_temple(vXv, nv, e2n, alpha, den, goal)
                if enc is not None:
                    return enc
            cor = _correction(v, Xv, vXv, nv, rest, ratio)
            if cor is None:
                return None
            c, L, t = cor
            if step == 0:
                enc = _float_gram_step(ex, info, sh, v, Xv, nv, vXv, XX, c, L, t, alpha, den, goal)
                if enc is not None:
                    return enc
            Xc = ex.apply(c)  # exact: X v1 = (X v) 2**L - (X c) 2**t by linearity
            v = [(x << L) - (z << t) for x, z in zip(v, c)]
            Xv = [(x << L) - (z << t) for x, z in zip(Xv, Xc)]
    return None
