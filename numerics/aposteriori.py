"""A-posteriori eigenvalue enclosures: a float approximation, then a rigorous bound of its residual.

Verified numerics (Rump, "Verification methods: rigorous results using floating-point arithmetic",
Acta Numerica 19, 2010, §§2, 13; INTLAB ``verifyeig``) computes the approximation in floating point and
only the *a-posteriori bound* rigorously.  For a real symmetric matrix S and a float approximation
``S ~ V diag(w) V^T`` (LAPACK ``eigh``):

* **Ostrowski** (Horn & Johnson, Matrix Analysis, Thm 4.5.9): for nonsingular V the k-th eigenvalues
  (ascending) satisfy ``lambda_k(V^T S V) = theta_k lambda_k(S)`` with ``theta_k`` in
  ``[sigma_min(V)^2, sigma_max(V)^2]``, which lies in ``[1 - delta, 1 + delta]`` for any
  ``delta >= ||V^T V - I||_2``;
* **Gershgorin** on ``T = V^T S V`` (nearly diagonal): every connected component of the union of the
  intervals ``[T_ii -+ sum_{j != i} |T_ij|]`` holds exactly as many eigenvalues as it has intervals;
* **Weyl** (Horn & Johnson, Thm 4.3.1): ``|lambda_k(S) - lambda_k(S')| <= ||S - S'||_2``, used for data
  known only up to a bounded perturbation (a covariance formed in floats);
* rounding errors of the float products are bounded a priori, without directed rounding (Higham,
  Accuracy and Stability of Numerical Algorithms, 2nd ed., Lemma 3.1 and eq. (3.5)): for floats x, y of
  length n and any summation order, ``|fl(x^T y) - x^T y| <= gamma_n |x|^T |y|`` with
  ``gamma_n = n u / (1 - n u)``, ``u = 2**-53``, plus at most ``n eta`` (``eta = 2**-1074``) from gradual
  underflow (Rump 2010, eq. (2.5)); a float sum of non-negative terms is ``>= (1 - gamma_n)`` times the
  exact one.  These constants are combined in arb (exact dyadic inputs, outward rounding), so the
  resulting enclosures are rigorous; only the few per-row sums pass from numpy to arb.

Refinement on demand: :func:`refine_eigenvectors` improves float eigenvectors to working arb precision
by the Ogita-Aishima iteration (T. Ogita, K. Aishima, "Iterative refinement for symmetric eigenvalue
decomposition", Japan J. Indust. Appl. Math. 35, 2018, Alg. 1; quadratic convergence, clusters of
equal eigenvalues handled), so a Gershgorin/Ostrowski enclosure at ``bits`` is as tight as the matrix
balls allow.  A caller whose enclosure is still too wide falls back to an exact route; a question that
stays undecided is UNKNOWN, never a guess.
"""

from __future__ import annotations

import functools
import math
import threading
from typing import Any

import numpy as np

from .eigencluster import EigenCluster
from .precision import arb_precision, to_arb

try:  # numpy >= 2: np.einsum's C core, without its Python-level wrapper (~1 us a call)
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - numpy 1.x
    _einsum = np.einsum

__all__ = ["covariance_spectrum", "covariance_spectrum_and_vectors", "refine_eigenvectors",
           "symmetric_enclosures"]

_BITS = 96  # arb precision of the scalar bookkeeping (inputs are exact dyadics; outward rounding)


@functools.lru_cache(maxsize=1)
def _units() -> tuple[Any, Any, Any, Any]:
    """The exact ``eta = 2**-1074``, ``u = 2**-53`` and ``2**-1000``, and ``u' = u / (1 - u)`` rounded up at
    the module's precision (arbs are immutable: made once)."""
    import flint

    with arb_precision(_BITS):
        u = flint.arb(2) ** -53
        return flint.arb(2) ** -1074, u, flint.arb(2) ** -1000, _up(u / (1 - u))


def _pow2(x: int) -> Any:
    """The exact arb ``2**x`` (from the float when it is a normal one: cheaper than ``arb(2) ** x``)."""
    import flint

    return flint.arb(math.ldexp(1.0, x)) if -1022 <= x <= 1023 else flint.arb(2) ** x


def _gamma(k: int) -> Any:
    """An arb upper bound of ``gamma_k = k u / (1 - k u)``, u = 2**-53 (call inside arb_precision)."""
    import flint

    ku = flint.arb(int(k)) * _units()[1]  # u exact: the same ball at any precision
    return flint.arb((ku / (1 - ku)).upper())


@functools.lru_cache(maxsize=512)
def _gamma_cached(k: int) -> Any:
    """:func:`_gamma` at the module's precision, kept (an arb is immutable)."""
    with arb_precision(_BITS):
        return _gamma(k)


def _inv1m(g: Any) -> Any:
    """An arb upper bound of ``1 / (1 - g)`` for 0 <= g < 1."""
    import flint

    return flint.arb((1 / (1 - g)).upper())


def _up(x: Any) -> Any:
    import flint

    return flint.arb(x.upper())


def symmetric_enclosures(G: np.ndarray, err: Any = 0) -> list[EigenCluster] | None:
    """Enclosures with certified counts of the eigenvalues of every symmetric S with ``||S - G||_2 <= err``.

    G: a float64 symmetric matrix (its entries are exact dyadic rationals; only its upper triangle is
    read); err: an arb (or exact number) bound, 0 for S = G.  One float ``eigh`` (V, w), the float
    products ``B = V^T (G V)`` and ``V^T V`` with their a-priori rounding bounds, then Gershgorin on B,
    Ostrowski's scaling by ``1 -+ delta`` and Weyl's widening by err (module docstring).  Returns the
    clusters in certainly ascending order (``multiplicity`` a certified count, ``exact_multiplicity``
    False), or ``None`` when the float computation cannot be certified (a non-finite value, or
    ``delta >= 1``): the caller then takes an exact or higher-precision route.
    """
    import flint

    with np.errstate(all="ignore"), arb_precision(_BITS):
        iv = _float_intervals(G, err)
        if iv is None:
            return None
        ivs, sh, _ = iv
        f = flint.arb(2) ** sh  # exact: a power of two
        return [EigenCluster((flint.arb(lo) * f).union(flint.arb(hi) * f), cnt, False) for lo, hi, cnt in ivs]


@functools.lru_cache(maxsize=1)
def _dsyev() -> Any:
    """scipy's LAPACK ``dsyev``, looked up once (scipy.linalg resolves its submodules lazily, at a cost
    on every ``from scipy.linalg import lapack``)."""
    from scipy.linalg import lapack

    return lapack.dsyev


def _eigh(G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Float ``(w, V)`` of the symmetric G by LAPACK ``dsyev`` (implicit QL/QR).  Not numpy's eigh: its
    divide and conquer (``dsyevd``, n > 25) synchronises threaded BLAS calls, which stall for
    milliseconds on a loaded machine.  Only an approximation either way (the callers verify it)."""
    w, V, info = _dsyev()(G)
    if info != 0:
        raise np.linalg.LinAlgError(f"dsyev did not converge (info {info})")
    return w, V


def _merge(ivs: list[list[Any]]) -> list[list[Any]]:
    """Merge overlapping float intervals [lo, hi, count] (floats order exactly), counts added."""
    if len(ivs) == 2:  # the top-only route's two intervals: the loop below, unrolled
        (a, b, c), (x, y, z) = ivs[::-1] if ivs[1][0] < ivs[0][0] else ivs  # as sorted() orders two
        return [[a, max(b, y), c + z]] if x <= b else [[a, b, c], [x, y, z]]
    out: list[list[Any]] = []
    for lo, hi, c in sorted(ivs, key=lambda t: t[0]):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
            out[-1][2] += c
        else:
            out.append([lo, hi, c])
    return out


def _down(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _upf(x: float) -> float:
    return math.nextafter(x, math.inf)


def _float_intervals(G: np.ndarray, err: Any, top: bool = False) -> tuple[list[list[float]], int, Any] | None:
    """``(ivs, sh, eig)``: ascending disjoint float intervals [lo, hi, count] such that ``[lo, hi] 2**sh``
    holds exactly ``count`` eigenvalues of every symmetric S with ``||S - G||_2 <= err``; ``eig`` the float
    ``(w, V)`` of ``eigh(G 2**-sh)`` behind them (None for G = 0).  ``top``: see :func:`_enclosures`.

    Float endpoints are rounded outward by one ulp after each correctly rounded operation (a round-to-
    nearest result is within half an ulp), so no arb object is made per eigenvalue.  Call at arb
    precision ``_BITS`` under ``np.errstate(all="ignore")`` (as :func:`symmetric_enclosures` does)."""
    import flint

    G = np.asarray(G, dtype=float)
    if G.ndim != 2 or G.shape[0] != G.shape[1] or G.shape[0] == 0:
        return None
    n = G.shape[0]
    if not np.logical_and.reduce(G == G.T, axis=None):  # (G == G.T).all(), no Python wrapper
        G = np.triu(G) + np.triu(G, 1).T
    mx = float(np.maximum.reduce(np.abs(G), axis=None))
    if not math.isfinite(mx):
        return None
    sh = math.frexp(mx)[1] if mx else 0  # work on G 2**-sh, exact unless an entry drops into subnormals
    Gs = np.ldexp(G, -sh)
    if sh > 0 and not np.logical_and.reduce(np.ldexp(Gs, sh) == G, axis=None):  # sh <= 0: scaling up, exact
        Gs, sh = G, 0
    e = abs(err if type(err) is flint.arb else to_arb(err)) * _pow2(-sh)
    e_s = 0.0 if e == 0 else _fup(e)
    if not math.isfinite(e_s):
        return None
    if mx == 0:
        return [[-e_s, e_s, n]], 0, None
    core = _enclosures(Gs, top)
    if core is None:
        return None
    core, eig = core
    if e_s:
        core = _merge([[_down(lo - e_s), _upf(hi + e_s), c] for lo, hi, c in core])  # Weyl
    return core, sh, eig


def _enclosures(G: np.ndarray, top: bool = False) -> tuple[list[list[float]], Any] | None:
    """Float intervals [lo, hi, count] (outward) of the eigenvalues of the float symmetric G itself,
    |G| <= 1 (see symmetric_enclosures), with the float ``(w, V) = eigh(G)`` they verify.

    ``top``: only the top cluster and the hull of the rest.  Every later step (Ostrowski's scaling,
    Weyl's widening, the covariance's shift) maps lower ends by one monotone map and upper ends by
    another that is never below it, so it maps the hull of intervals to the hull of their images and
    keeps overlapping intervals overlapping: whether the top cluster is a single eigenvalue, and then
    the upper end of the next cluster, come out exactly as from the full list (a top cluster of two or
    more may report a larger count), at the cost of two intervals instead of n."""
    import flint

    n = G.shape[0]
    slack, g_n, i_n, i_sq, u1, k_off, k_err, sl = _constants(n)
    try:
        w, V = _eigh(G)
    except np.linalg.LinAlgError:
        return None
    aV = np.abs(V)
    B1 = G @ V
    B = V.T @ B1
    M = aV.T @ (np.abs(B1) + np.abs(G) @ aV)  # bounds |V|^T |B1| + |V|^T |G| |V| up to rounding
    F = V.T @ V
    f_max = float(np.maximum.reduce(F.diagonal()))
    F -= _eye(n)  # D = V^T V - I (exact off the diagonal: x - 0)
    d_sq = float(np.add.reduce(F * F, axis=None))
    c = B.diagonal().copy()
    off = np.abs(B, out=B)
    off.flat[::n + 1] = 0.0
    # Gershgorin radii (a non-finite B or M makes lo / hi non-finite: refused below)
    rho = _fl_up(np.add.reduce(off, 1) * k_off + np.add.reduce(M, 1) * k_err + sl)
    lo = np.nextafter(c - rho, -np.inf)  # one ulp outward covers the half-ulp rounding
    hi = np.nextafter(c + rho, np.inf)
    # every lo_i, hi_i finite iff min lo and max hi are: NaN propagates through min / max, lo_i = +inf
    # needs c_i = +inf (rho >= 0), and then hi_i = +inf; likewise hi_i = -inf forces lo_i = -inf.  The
    # top route reads the n ends as Python floats (n <= 2000, a few microseconds) and picks in them what
    # argmax / min / max would: the first interval with the highest lower end, then the others' hull
    # (without NaN, which is refused first, both order floats alike; a signed zero cannot occur, every end
    # being one ulp outward of a rounded value, and would not matter downstream either)
    split = top and n > 1
    if split:
        lo_l, hi_l = lo.tolist(), hi.tolist()
        finite = all(map(math.isfinite, lo_l)) and all(map(math.isfinite, hi_l))
    else:
        finite = math.isfinite(np.minimum.reduce(lo)) and math.isfinite(np.maximum.reduce(hi))
    if not finite:
        return None
    # a non-finite d_sq or f_max gives a non-finite delta: refused
    # delta >= ||V^T V - I||_F >= ||.||_2: the computed D, its rounding (fl(F_ii - 1) within u'), the
    # product error gamma_n |V|^T |V| whose entries are <= max_i ||v_i||^2 <= max F_ii / (1 - gamma_n)
    col = _up(flint.arb(f_max) * i_n + slack)
    delta = _up(flint.arb(d_sq) * i_sq + slack)
    delta = _up(delta.sqrt() * (1 + u1) + g_n * n * col + slack)
    if not delta < 1:
        return None
    # 1 - delta >= d_lo > 0, 1 + delta <= d_hi
    d_lo, d_hi = _down(float((1 - delta).lower())), _fup(1 + delta)
    if not d_lo > 0:
        return None
    if split:  # the Gershgorin interval with the highest lower end, and the hull of the others
        lo_t = max(lo_l)
        t = lo_l.index(lo_t)
        hi_t = hi_l[t]
        del lo_l[t], hi_l[t]  # out of the others' min / max
        ivs = _merge([[min(lo_l), max(hi_l), n - 1], [lo_t, hi_t, 1]])
    else:
        ivs = _merge([[float(a), float(b), 1] for a, b in zip(lo, hi)])
    # Ostrowski: lambda_k(G) = lambda_k(T) / theta_k, theta_k in [1 - delta, 1 + delta] (outward)
    out = [[_down(a / d_lo) if a < 0 else _down(a / d_hi), _upf(b / d_hi) if b < 0 else _upf(b / d_lo), k]
           for a, b, k in ivs]
    return _merge(out), (w, V)


@functools.lru_cache(maxsize=64)
def _eye(n: int) -> np.ndarray:
    """The n x n identity (read-only)."""
    out = np.eye(n)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=256)
def _constants(n: int) -> tuple[Any, ...]:
    """The data-independent constants of :func:`_enclosures` for size n (arb, and floats rounded up)."""
    eta, _, tiny, u1 = _units()
    with arb_precision(_BITS):
        slack = 16 * (n + 2) ** 2 * eta  # every gradual-underflow contribution, generously
        g_n, g_2n, g_sq = _gamma(n), _gamma(2 * n + 1), _gamma(n * n + 1)
        # Gershgorin radii of T = V^T G V around the computed B: off-diagonal mass + |B - T| row sums,
        # |B - T| <= gamma_n (|V|^T |B1| + |V|^T |G| |V|) <= gamma_n M / (1 - gamma_{2n+1}) (+ underflow)
        k_off, k_err = _fup(_inv1m(g_n)), _fup(g_n * _inv1m(g_n) * _inv1m(g_2n))
        sl = _fup(n * slack + tiny)  # >= 2**-1000: no later underflow matters
        return slack, g_n, _inv1m(g_n), _inv1m(g_sq), u1, k_off, k_err, sl


def _fup(x: Any) -> float:
    """A float >= the arb x (finite, within the float range)."""
    return math.nextafter(float(x.upper()), math.inf)


def _fl_up(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """An upper bound of the exact non-negative quantity that x approximates, x computed in floats by at
    most 2**12 roundings of non-negative numbers (each within a factor 1 + u, u = 2**-53): the factor
    1 + 2**-40 exceeds (1 + u)**(2**12 + 1), and the ulp step up covers the last rounding (``out``: x's
    own memory may be reused)."""
    y = np.multiply(x, 1 + 2.0**-40, out=out)
    return np.nextafter(y, np.inf, out=y)


_SCRATCH = threading.local()


def _scratch(shape: tuple[int, ...]) -> np.ndarray:
    """A thread-local float array of the given shape, its memory kept between calls (up to 32 MB): a
    fresh N x d temporary costs page faults on every call.  Always written before read and never returned
    to a caller; its users take turns: the centred data here, and in numerics.rayleigh |A|
    (``magnitudes``) before it and the slices of the exact products after it."""
    n = math.prod(shape)
    if n > 1 << 22:
        return np.empty(shape)
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < n:
        buf = _SCRATCH.buf = np.empty(max(n, 1 << 16))
    return buf[:n].reshape(shape)


def _column_sums(Y: np.ndarray) -> np.ndarray:
    """``np.add.reduce(Y, axis=0)``: for a C-contiguous Y with at least two columns both it and einsum's
    ``'ij->j'`` add each column in row order (einsum ~3x faster: no per-row reduction setup), checked bit
    for bit on thousands of adversarial arrays; a single column (pairwise summation in reduce, SIMD lanes
    in einsum) or another layout takes reduce.  The bounds below hold for any summation order (Higham,
    Lemma 3.1), so only the reproduction of earlier floats rests on this."""
    if Y.shape[1] >= 2 and Y.shape[0] >= 64 and Y.flags.c_contiguous:  # fewer rows: reduce's setup is cheaper
        return _einsum("ij->j", Y)
    return np.add.reduce(Y, axis=0)


def _gram(Y: np.ndarray) -> np.ndarray:
    """The float Gram matrix ``Y^T Y`` (BLAS, any summation order: the bound of Higham Lemma 3.1 holds)."""
    return Y.T @ Y


@functools.lru_cache(maxsize=256)
def _covariance_constants(N: int, d: int) -> tuple[Any, ...]:
    """The data-independent constants of :func:`covariance_spectrum_and_vectors` for N x d data: the
    factors of ||Yf||_F^2 and of the Gram error (arb), and the floats of the bound on |delta|."""
    eta, _, tiny, u1 = _units()
    with arb_precision(_BITS):  # N is new for almost every data set: gamma_N not kept
        g_N, g_Nd = _gamma(N), _gamma(N + d)
        s_fro = 2 * N * d * eta  # gradual underflow, in ||Yf||_F^2 and in the Gram error alike
        c1, c2 = _fup(g_N + u1), _fup(N * _inv1m(g_N))
        sl = _fup(4 * N * eta + tiny)
        return _inv1m(g_Nd), s_fro, g_N + 2 * u1 + u1 * u1, c1, c2, sl


def covariance_spectrum(A: np.ndarray) -> list[EigenCluster] | None:
    """Certified eigenvalue clusters of the exact empirical covariance of float data (see
    :func:`covariance_spectrum_and_vectors`, which also returns the float eigenvectors behind them)."""
    out = covariance_spectrum_and_vectors(A)
    return None if out is None else out[0]


def covariance_spectrum_and_vectors(A: np.ndarray, last: int = 0, top: bool = False,
                                    ) -> tuple[list[EigenCluster], dict | None] | None:
    """``(clusters, info)``: certified eigenvalue clusters of the *exact* empirical covariance of float data,
    from floats.

    A: an N x d float64 array (N >= 2, finite); its entries are read as the dyadic rationals they are and
    ``C = (1/N) sum_i (a_i - mu)(a_i - mu)^T`` (mu the exact mean).  Float route (module docstring):
    A is scaled by a power of two ``2**-e`` (checked exact), centred at its float mean m, so that with
    ``Y = A - m`` (exact) and ``delta = mu - m``,

        C = 4**e [ (1/N) Y^T Y - delta delta^T ],

    whose k-th eigenvalue lies in ``4**e [lambda_k(Y^T Y)/N - |delta|^2, lambda_k(Y^T Y)/N]`` (Weyl for
    the rank-one PSD term).  ``Y^T Y`` is the float Gram matrix G of the float-centred Yf up to
    ``||G - Y^T Y||_2 <= (gamma_N + 2u' + u'^2) ||Yf||_F^2 + 2 d N eta`` (u' = u / (1 - u); each centred
    entry is one rounding away from the exact one), which :func:`symmetric_enclosures` takes as err.
    C is PSD, so lower ends are clipped at 0.  Returns ascending clusters, or ``None`` when the float
    route does not apply (scaling not exact, overflow, non-certifiable eigenvectors).  ``info`` (None when
    C = 0 or G = 0), for callers that refine the float eigenpairs (numerics.rayleigh): ``w, V`` the float
    eigh the clusters verify (eigenpairs of C up to a positive scale), ``G, e, err, dsq`` the float Gram
    matrix, the scaling, an arb bound of ``||G - Y^T Y||_2`` and a float bound of ``|delta|^2`` (units of
    ``A 2**-e``); ``ends, scale`` the clusters' float ends [lo, hi, count], in units of ``2**scale``
    (exact, where the arb balls round their ends outward).  ``last > 0``: only the ``last`` highest
    clusters are made (arb balls cost microseconds each).  ``top``: the top cluster and the hull of the
    rest only (exact when the top eigenvalue is
    certainly simple, see :func:`_enclosures`; numerics.rayleigh needs no more).
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] < 2 or not 0 < A.shape[1] <= 2000:  # d <= 2000: _fl_up's budget
        return None
    return _spectrum_and_vectors(A, float(np.abs(A).max()), last, top)


def _spectrum_and_vectors(A: np.ndarray, mx: float, last: int, top: bool,
                          ) -> tuple[list[EigenCluster], dict | None] | None:
    """:func:`covariance_spectrum_and_vectors` for a checked 2-D float array A with ``mx = max |A_ij|``."""
    import flint

    N, d = A.shape
    if not math.isfinite(mx):  # a NaN or an infinity somewhere
        return None
    with arb_precision(_BITS):
        if mx == 0:
            return [EigenCluster(flint.arb(0), d, True)], None
        with np.errstate(all="ignore"):
            core = _covariance_core(A, mx, top)
        if core is None:
            return None
        out, info, scale = core
        f = flint.arb(2) ** scale  # exact: arb exponents are unbounded
        cl = [EigenCluster((flint.arb(lo) * f).union(flint.arb(hi) * f), k, False)
              for lo, hi, k in out[-last:]]
    return cl, info


def _covariance_core(A: np.ndarray, mx: float, top: bool) -> tuple[list[list[Any]], dict | None, int] | None:
    """The float part of :func:`covariance_spectrum_and_vectors` for a checked 2-D float array A with
    ``0 < mx = max |A_ij| < inf``: ``(ends, info, scale)`` (the clusters' float ends [lo, hi, count] in
    units of ``2**scale``, ascending; info as there), no ball made.  Call at arb precision ``_BITS`` under
    ``np.errstate(all="ignore")`` (numerics.rayleigh calls it so, once for its whole route)."""
    import flint

    N, d = A.shape
    # scale by 2**-e only outside [2**-400, 2**400] (inside, squares and sums neither overflow nor lose
    # more than the underflow terms below)
    e = 0 if 2.0**-400 <= mx <= 2.0**400 else math.frexp(mx)[1]
    As = A
    if e:
        As = np.ldexp(A, -e)
        if not (np.ldexp(As, e) == A).all():  # a subnormal lost bits: not this route
            return None
    Yf = np.subtract(As, _column_sums(As) / N, out=_scratch(As.shape))  # the float mean, as As.mean(0)
    G = _gram(Yf)
    gd = G.diagonal()  # a view: G is not written below
    col_sum = _column_sums(Yf)
    np.abs(col_sum, out=col_sum)
    # G is finite: |As| <= 2**400, so |Yf| <= 2**402 and |G_ij| <= N 2**805; a non-finite trace is refused
    # all the same
    tr = float(np.add.reduce(gd))
    if not math.isfinite(tr):
        return None
    k_fro, s_fro, k_err, c1, c2, sl = _covariance_constants(N, d)
    # ||Yf||_F^2 = sum_j (Yf^T Yf)_jj <= fl(trace G) / (1 - gamma_{N+d}) (+ underflow)
    fro = _up(flint.arb(tr) * k_fro + s_fro)
    err = _up(k_err * fro + s_fro)
    # |delta_j| <= (|fl(sum_i yf_ij)| + (gamma_N + u') sum_i |yf_ij|) / N, and by Cauchy-Schwarz
    # sum_i |yf_ij| <= sqrt(N (Yf^T Yf)_jj) <= sqrt(N G_jj / (1 - gamma_N)); sqrt is correctly rounded
    # t = _fl_up((col_sum + sl + c1 * np.sqrt(c2 * gd + sl)) / N), the same operations in place
    x = c2 * gd
    x += sl
    np.sqrt(x, out=x)
    x *= c1
    col_sum += sl
    col_sum += x
    col_sum /= N
    t = _fl_up(col_sum, out=col_sum)
    t *= t
    dsq_f = math.nextafter((float(np.add.reduce(t)) + sl) * (1 + 2.0**-40), math.inf)  # _fl_up, scalar
    if not math.isfinite(dsq_f):
        return None
    iv = _float_intervals(G, err, top)
    if iv is None:
        return None
    ivs, sh, eig = iv  # eigenvalues of Y^T Y in [lo, hi] 2**sh
    dsq_s = _fup(flint.arb(dsq_f) * _pow2(-sh))  # |delta|^2 in the units of [lo, hi] / N
    if not math.isfinite(dsq_s):
        return None
    out = _merge([[max(_down(_down(lo / N) - dsq_s), 0.0), _upf(hi / N), k] for lo, hi, k in ivs])
    info = None if eig is None else {"w": eig[0], "V": eig[1], "G": G, "e": e, "err": err, "dsq": dsq_f,
                                     "ends": out, "scale": 2 * e + sh}
    return out, info, 2 * e + sh


def refine_eigenvectors(A: Any, bits: int, *, steps: int = 6) -> Any | None:
    """Approximate orthonormal eigenvectors (an arb_mat of exact dyadic midpoints) of a symmetric arb_mat.

    Float ``eigh`` of the midpoint matrix scaled by a power of two (eigenvectors are scale invariant, so
    matrices at 1e-200 or 1e200 never pass through float out of range), then Ogita-Aishima steps at
    ``bits`` on the midpoints: with ``R = I - X^T X``, ``S = X^T A X``, ``l_i = S_ii / (1 - R_ii)``,

        E_ij = (S_ij + l_j R_ij) / (l_j - l_i)   if |l_i - l_j| > t,   else  R_ij / 2,
        X <- X + X E,

    t = 2 (||S - diag(l)||_F + ||A||_F ||R||_F) (Ogita-Aishima 2018, Alg. 1), with R, S, X in arb at
    ``bits`` and the correction E in floats (E is of the size of the current error, so its float
    rounding costs a factor 2**-53 per step: about bits / 53 steps reach the working precision).  Stops
    when ``||R||_F`` reaches ``2**-(bits - 8)`` or stops shrinking.  Only an approximation: rigour comes
    from the Ostrowski-Gershgorin verification the caller performs with the returned X.  ``None`` when the
    float start fails (the caller then uses a multiprecision eigensolver).
    """
    import flint

    n = A.nrows()
    with arb_precision(bits):
        Am = A.mid()
        exps = [Am[i, j].mid().man_exp()[1] + int(Am[i, j].mid().man_exp()[0]).bit_length()
                for i in range(n) for j in range(n) if Am[i, j] != 0]
        if not exps:
            return flint.arb_mat([[1 if i == j else 0 for j in range(n)] for i in range(n)])
        s = max(exps)
        As = Am * (flint.arb(2) ** -s)  # exact power-of-two scaling, |entries| < 1
        F = np.array([[float(As[i, j]) for j in range(n)] for i in range(n)])
        if not np.all(np.isfinite(F)):
            return None
        try:
            _, V = _eigh((F + F.T) / 2)
        except np.linalg.LinAlgError:
            return None
        X = flint.arb_mat(V.tolist())
        a_fro = math.sqrt(float((F * F).sum()))
        eye = flint.arb_mat([[1 if i == j else 0 for j in range(n)] for i in range(n)])
        target = 2.0 ** -(int(bits) - 8)
        last = math.inf
        def fl(M: Any) -> np.ndarray:  # the midpoints of an arb_mat as floats
            return np.array([float(x) for x in M.entries()]).reshape(n, n)

        for _ in range(int(steps)):
            R = (eye - X.transpose() * X).mid()
            Rf = fl(R)
            r_fro = float(np.sqrt((Rf * Rf).sum()))
            if r_fro <= target or r_fro >= last:
                break
            last = r_fro
            S = (X.transpose() * (As * X)).mid()
            Sf = fl(S)
            # l = S_ii / (1 - R_ii) in arb, kept as float pairs hi + lo so that differences of close
            # eigenvalues are resolved to ~2**-106 (hi_j - hi_i is exact for close values, Sterbenz)
            lam = [S[i, i] / (1 - R[i, i]) for i in range(n)]
            hi = np.array([float(x) for x in lam])
            lo = np.array([float(x - float(x)) for x in lam])
            D = (hi[None, :] - hi[:, None]) + (lo[None, :] - lo[:, None])
            off = Sf - np.diag(np.diag(Sf))
            thr = 2 * (math.sqrt(float((off * off).sum())) + a_fro * r_fro)
            sep = np.abs(D) > thr
            np.fill_diagonal(sep, False)
            with np.errstate(all="ignore"):
                # the correction in floats: it is ~ the current error, so its own relative error u
                # costs a factor u per step (convergence stays geometric, 53 bits a step)
                E = np.where(sep, (Sf + hi[None, :] * Rf) / np.where(sep, D, 1.0), Rf / 2)
            if not np.all(np.isfinite(E)):
                break
            X = (X + X * flint.arb_mat(E.tolist())).mid()
        return X
