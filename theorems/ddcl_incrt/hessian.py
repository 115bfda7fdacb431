"""The collapsed state's Hessian and the critical temperature (spec ddcl_incrt.md §2.3, §2.5, §3.3).

At the collapsed state ``P* = (mu, ..., mu)`` the Hessian of L_q (live assignments, c = 4) or of the
free energy F (c = 2) with respect to P (K x d, rows stacked) has blocks

    H_kl = (2/K) delta_kl I_d - (2c/(K tau)) (delta_kl - 1/K) C,

with eigenvalues 2/K (multiplicity d, translations) and h_j = (2/K)(1 - c lambda_j / tau)
(multiplicity K - 1, relative modes).  Hence collapse is linearly unstable iff tau < tau_c = c
lambda_1(C).  :func:`collapse_hessian` writes the block formula once, generic over the scalar type
(Fractions / fmpq for the exact route, floats, sympy symbols); :func:`autograd_collapse_hessian`
differentiates the torch losses of :mod:`.dictionary`; :func:`collapse_is_stable` decides stability
three-valued and certified; :func:`critical_temperature` locates tau_c with a certified enclosure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from numerics.errors import InputError, InputTypeError
from numerics.dyadic import exact_covariance_of_floats
from numerics.rayleigh import covariance_top_eigenvalue, magnitudes
from numerics.linalg import ball_spectrum, exact_spectrum, inertia, symmetric_ball_spectrum
from numerics.precision import Tri, arb_precision, arb_to_float, tri_positive

from .dictionary import as_data, check_tau, mode_constant

__all__ = [
    "collapse_hessian",
    "sympy_collapse_hessian",
    "symbolic_collapse_hessian",
    "relative_mode_eigenvalues",
    "autograd_collapse_hessian",
    "exact_covariance",
    "CriticalTemperature",
    "critical_temperature",
    "Stability",
    "collapse_is_stable",
    "gamma_max",
    "unstable_count",
    "total_unstable_rate",
]


def collapse_hessian(C: Sequence[Sequence[Any]], K: int, tau: Any, c: int) -> list[list[Any]]:
    """The (Kd x Kd) Hessian at collapse from the block formula, in the scalar type of C and tau."""
    d = len(C)
    if K < 1:
        raise ValueError(f"K must be >= 1, got {K}")
    H = []
    for k in range(K):
        for a in range(d):
            row = []
            for l in range(K):
                dkl = 1 if k == l else 0
                for b in range(d):
                    v = Fraction(2, K) * dkl * (1 if a == b else 0) - (2 * c) * (dkl - Fraction(1, K)) * C[a][b] / (K * tau)
                    row.append(v)
            H.append(row)
    return H


def relative_mode_eigenvalues(lams: Sequence[Any], K: int, tau: Any, c: int) -> list[Any]:
    """``h_j = (2/K)(1 - c lambda_j / tau)`` (multiplicity K - 1 each)."""
    return [Fraction(2, K) * (1 - c * lam / tau) for lam in lams]


def gamma_max(lam1: float, K: int, tau: float, c: int) -> float:
    """Largest collapse growth rate ``(2/K)(c lambda_1/tau - 1)`` (§2.5); > 0 iff separation."""
    return (2.0 / K) * (c * lam1 / tau - 1.0)


def unstable_count(lams: Sequence[float], K: int, tau: float, c: int) -> int:
    """``n_u = (K - 1) #{j : c lambda_j > tau}``."""
    return (K - 1) * sum(1 for l in lams if c * l > tau)


def total_unstable_rate(lams: Sequence[float], K: int, tau: float, c: int) -> float:
    """``Phi = (2/K) sum_j (c lambda_j/tau - 1)_+``."""
    return (2.0 / K) * sum(max(c * l / tau - 1.0, 0.0) for l in lams)


def autograd_collapse_hessian(Z: Any, K: int, tau: float, mode: str, *, at: Any = None) -> np.ndarray:
    """torch autograd Hessian of L_q (``mode="full"``) or F (``"stopgrad"``/``"free_energy"``) in P."""
    import torch

    Zt = torch.as_tensor(as_data(Z), dtype=torch.float64)
    N, d = Zt.shape
    P0 = Zt.mean(0).repeat(K, 1) if at is None else torch.as_tensor(at, dtype=torch.float64)
    t = check_tau(tau)
    full = mode_constant(mode) == 4

    def loss(flat):
        P = flat.reshape(K, d)
        D = ((Zt[:, None, :] - P[None]) ** 2).sum(-1)
        if full:
            Q = torch.softmax(-D / t, dim=1)
            return (Q * D).sum(1).mean()
        return -(t * torch.logsumexp(-D / t, dim=1)).mean()

    return torch.autograd.functional.hessian(loss, P0.reshape(-1)).numpy()


_DATA_RULE = ("must be a non-empty N x d array (or a 1-D sequence) of real numbers: int, float, "
              "Fraction, fmpz/fmpq or numpy numbers; no strings, None, bools or complex numbers")


def _exact_scalar(x: Any, name: str) -> Fraction:
    """A real number read exactly as a Fraction (floats as the dyadic rationals they are)."""
    import flint
    import mpmath

    if isinstance(x, (bool, np.bool_)):
        raise InputTypeError(name, "must be a real number, not a bool", x)
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise InputError(name, "must be finite (no NaN or infinity)", x)
        return Fraction(float(x))
    if isinstance(x, Fraction):
        return x
    if isinstance(x, flint.fmpz):
        return Fraction(int(x))
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InputError(name, "must be finite (no NaN or infinity)", x)
        sgn, man, exp, _ = x._mpf_
        v = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -v if sgn else v
    raise InputTypeError(name, "must be a real number (int, float, Fraction, fmpz/fmpq)", x)


def _fractions(Z: Any, name: str = "data") -> list[list[Fraction]]:
    """The data as rows of exact Fractions (N x d; a 1-D sequence is one column).

    Bad input raises :class:`InputError` / :class:`InputTypeError` naming ``name``; floats are read
    exactly (dyadic rationals), integers of any size stay exact.
    """
    if isinstance(Z, (str, bytes, dict, set)) or Z is None or np.isscalar(Z):
        raise InputTypeError(name, _DATA_RULE, Z)
    if not isinstance(Z, (list, tuple)):
        try:
            arr = np.asarray(Z)
        except (ValueError, TypeError, RuntimeError):
            raise InputTypeError(name, _DATA_RULE, has_value=False) from None
        if arr.dtype.kind not in "iufO" or arr.ndim not in (1, 2):
            raise InputError(name, _DATA_RULE, f"dtype {arr.dtype}, shape {arr.shape}")
        Z = arr.tolist()
    rows: list[list[Fraction]] = []
    try:
        for z in Z:
            if isinstance(z, (list, tuple, np.ndarray)):
                rows.append([_exact_scalar(x, name) for x in z])
            else:
                rows.append([_exact_scalar(z, name)])
    except TypeError:  # z not iterable in a way we accept
        raise InputTypeError(name, _DATA_RULE, has_value=False) from None
    if not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) == 0:
        raise InputError(name, "must be a non-empty N x d array with rows of equal length",
                         f"row lengths {sorted({len(r) for r in rows})}")
    return rows


def exact_covariance(Z: Any) -> list[list[Fraction]]:
    """The empirical covariance (1/N) of rational (or float, read exactly as dyadics) data, exactly."""
    return _covariance_of_rows(_fractions(Z))


def _covariance_of_rows(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """Exact covariance through one integer matrix product (python-flint fmpz_mat).

    With L the common denominator, M = L Z (integers) and s its column sums, the centred rows are
    (N M_i - s) / (N L), so C = Y^T Y / (N^3 L^2) with the integer matrix Y = N M - 1 s^T.
    """
    import flint

    N, d = len(rows), len(rows[0])
    L = 1
    for q in {x.denominator for r in rows for x in r}:
        L = math.lcm(L, q)
        if L.bit_length() > 4096:  # many unrelated denominators: centre in fmpq instead
            break
    else:
        M = [[x.numerator * (L // x.denominator) for x in r] for r in rows]
        return _covariance_of_integers(M, L)
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    A = flint.fmpq_mat(N, d)
    for i, r in enumerate(rows):
        for j in range(d):
            v = r[j] - mu[j]
            A[i, j] = flint.fmpq(v.numerator, v.denominator)
    C = A.transpose() * A
    return [[Fraction(int(C[a, b].p), int(C[a, b].q)) / N for b in range(d)] for a in range(d)]


def _covariance_of_integers(M: list[list[int]], L: int) -> list[list[Fraction]]:
    """The exact covariance of the data M / L (M an N x d list of integer rows, L > 0)."""
    import flint

    N, d = len(M), len(M[0])
    s = [sum(r[j] for r in M) for j in range(d)]
    Y = flint.fmpz_mat([[N * r[j] - s[j] for j in range(d)] for r in M])
    X = Y.transpose() * Y
    den = N ** 3 * L * L
    return [[Fraction(int(X[a, b]), den) for b in range(d)] for a in range(d)]


def _float_array_integers(A: np.ndarray) -> tuple[list[list[int]], int]:
    """``(M, L)`` with ``A = M / L`` exactly, for a finite float64 array (L a power of two)."""
    mant, ex = np.frexp(A)  # A = mant * 2**ex, mant in [0.5, 1) or 0
    mi = (mant * 2.0**53).astype(np.int64)  # exact: 53-bit mantissas
    ex = ex.astype(np.int64) - 53
    nz = mi != 0
    emin = int(ex[nz].min()) if nz.any() else 0
    sh = (ex - emin).tolist()
    M = [[int(m) << k if m >= 0 else -((-int(m)) << k) for m, k in zip(mr, kr)]
         for mr, kr in zip(mi.tolist(), sh)]
    if emin >= 0:
        return [[m << emin for m in r] for r in M], 1
    return M, 1 << (-emin)


def _scaled_float_covariance(Z: Any) -> tuple[np.ndarray, int, int]:
    """``(Cs, e, N)`` with ``C = 4**e * Cs`` the empirical covariance, Cs in float64 of size ~1.

    Float data are scaled by the power of two 2**-e (exact) before centring, so data near 1e300 or
    1e-300 neither overflow nor underflow; other data (huge integers, Fractions) are centred exactly
    and then scaled.  Floats only: the estimate of the uncertified path.
    """
    if isinstance(Z, np.ndarray) and Z.dtype.kind in "iuf" and Z.ndim in (1, 2) and Z.size:
        A = Z.astype(float).reshape(Z.shape[0], -1)
        if not np.all(np.isfinite(A)):
            raise InputError("data", "must be finite (no NaN or infinity)")
        m = float(np.abs(A).max())
        e = 0 if m == 0 else math.frexp(m)[1]
        As = np.ldexp(A, -e)
        Ac = As - As.mean(0)
        m2 = float(np.abs(Ac).max())
        e2 = 0 if m2 == 0 else math.frexp(m2)[1]
        Ac = np.ldexp(Ac, -e2)
        return Ac.T @ Ac / A.shape[0], e + e2, A.shape[0]
    rows = _fractions(Z)
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    dev = [[r[j] - mu[j] for j in range(d)] for r in rows]
    m = max(abs(x) for r in dev for x in r)
    e = 0 if m == 0 else (m.numerator.bit_length() - m.denominator.bit_length())
    sc = Fraction(2) ** -e
    Ac = np.array([[float(x * sc) for x in r] for r in dev])
    return Ac.T @ Ac / N, e, N


def _finite_float_array(Z: Any) -> np.ndarray | None:
    """A float/int numpy array as a 2-D float64 array (InputError on NaN/inf), else None."""
    if not (isinstance(Z, np.ndarray) and Z.dtype.kind in "iuf" and Z.ndim in (1, 2) and Z.size):
        return None
    if Z.dtype.kind in "iu" and Z.size and int(np.abs(Z).max()) >= 2**53:
        return None  # large integers: the exact route keeps every digit
    A = np.asarray(Z, dtype=float).reshape(Z.shape[0], -1)  # no copy of float64 data: read only below
    if not np.isfinite(A).all():
        raise InputError("data", "must be finite (no NaN or infinity)")
    return A


@dataclass(frozen=True)
class CriticalTemperature:
    """tau_c = c lambda_1(C): a certified arb enclosure (``certified=True``) and a float summary.

    ``value`` / ``lambda_1`` are Python floats only when they are representable: on the certified
    path they are the enclosure's midpoint rounded once (never through ``float(ball)``, which gives 0
    for 4e-400 and NaN/inf beyond 1e308).  When tau_c lies outside the normal float64 range, reading
    ``value`` raises :class:`InputError` (argument ``data``) -- read the ``enclosure`` instead.
    """

    mode: str
    c: int
    enclosure: Any = None
    method: str = "float"
    value_or_none: float | None = None
    lambda_1_or_none: float | None = None

    def _need(self, v: float | None, what: str) -> float:
        if v is None:
            raise InputError("data", f"{what} lies outside the float64 range (or is not finite); "
                             f"read the certified enclosure {self.enclosure} instead", has_value=False)
        return v

    @property
    def value(self) -> float:
        return self._need(self.value_or_none, "tau_c")

    @property
    def lambda_1(self) -> float:
        return self._need(self.lambda_1_or_none, "lambda_1")

    def __float__(self) -> float:
        return self.value


def _top_eigenvalue_enclosure(C: list[list[Fraction]], bits: int) -> Any:
    """An arb ball containing lambda_max of the exact rational symmetric C (certified)."""
    import flint

    b2 = bits + 32  # the refined Gershgorin enclosure at 32 more bits is at least as tight as acb_mat.eig's
    with arb_precision(b2):
        rows = [[flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in r] for r in C]
    try:  # float eigh refined (Ogita-Aishima) + Ostrowski-Gershgorin (numerics.aposteriori)
        spec = symmetric_ball_spectrum(rows, bits=b2)
    except ArithmeticError:
        try:
            spec = ball_spectrum(rows, bits=bits)
        except ArithmeticError:  # the Ostrowski-Gershgorin fallback failed: the exact route always works
            spec = exact_spectrum(C, bits=bits)
    # the clusters are disjoint and certainly ascending (numerics.linalg), so lambda_max lies in the
    # last one
    return spec[-1].enclosure


def critical_temperature(data: Any, mode: str = "full", *, certified: bool = True,
                         bits: int = 128, rtol: float | None = None) -> CriticalTemperature:
    """The critical temperature ``tau_c = c lambda_1(C)`` of the collapsed state (spec §3.3).

    ``mode="full"`` (L_q with live assignments, c = 4) or ``"free_energy"`` / ``"stopgrad"`` (c = 2).
    C is the empirical covariance (1/N) of ``data`` (N x d, at least two rows).  With
    ``certified=True`` the result carries an arb ball containing tau_c of the *exact* covariance of
    the given data (floats read as the dyadic rationals they are, integers of any size exactly): C is
    formed exactly (float arrays by error-free slice products, numerics.dyadic; else fmpz/fmpq) and its
    top eigenvalue enclosed by refined float eigenvectors and Ostrowski-Gershgorin at ``bits + 32``
    (numerics.linalg.symmetric_ball_spectrum; ``acb_mat.eig`` / exact roots as fallbacks).  Float
    arrays first take numerics.rayleigh (``method="kato-temple"``): C never formed, the exact Rayleigh
    quotient of a refined float eigenvector and a Kato-Temple bound, relative radius <= 2**-(bits + 4)
    (tighter than the exact route's ~2**-bits), at a few times the cost of the float estimate; the
    exact route runs when it does not apply (top eigenvalue not certainly simple, dynamic range
    beyond 8 slices, ...).  ``certified=False`` gives a float64 estimate only.
    ``rtol`` (certified only): a relative radius the caller accepts.  Float arrays are then first
    enclosed a posteriori from floats (numerics.aposteriori.covariance_spectrum: float Gram and eigh,
    rigorous rounding and residual bounds; radius about N d 2**-53 relative), and the tight routes run
    only when that enclosure is wider than ``rtol`` times its lower end; ``None`` (default): always a
    tight route (enclosure as tight as ``bits``).
    Bad input raises :class:`InputError` / :class:`InputTypeError` naming the argument.
    """
    c = mode_constant(mode)
    if not isinstance(certified, (bool, np.bool_)):
        raise InputTypeError("certified", "must be True or False", certified)
    if isinstance(bits, (bool, np.bool_)) or not isinstance(bits, (int, np.integer)):
        raise InputTypeError("bits", "must be an integer number of bits", bits)
    if not 32 <= int(bits) <= 1 << 16:
        raise InputError("bits", "must lie in [32, 65536]", bits)
    if rtol is not None and (isinstance(rtol, (bool, np.bool_))
                             or not isinstance(rtol, (int, float, np.number)) or not 0 <= float(rtol) < 1):
        raise InputError("rtol", "must be None or a number in [0, 1)", rtol)
    if not certified:
        Cs, e, N = _scaled_float_covariance(data)
        if N < 2:
            raise InputError("data", "needs at least two samples (rows) to form a covariance")
        lam_s = float(np.linalg.eigvalsh(Cs)[-1]) if np.any(Cs) else 0.0
        lam_s = max(lam_s, 0.0)  # C is PSD: a rounding-negative top eigenvalue means 0
        try:
            lam = math.ldexp(lam_s, 2 * e)
            val = math.ldexp(lam_s * c, 2 * e)
        except OverflowError:
            lam = val = None
        if lam is not None and lam_s > 0 and (lam < 2.0**-1022 or val < 2.0**-1022):
            lam = val = None  # underflow: never report a wrong 0
        if val is None:
            raise InputError("data", "tau_c lies outside the float64 range; use certified=True for an "
                             "enclosure", has_value=False)
        return CriticalTemperature(mode, c, None, "float", val, lam)
    mags = None
    if type(data) is np.ndarray and data.dtype == np.float64 and data.ndim == 2 and data.size:
        A = data  # the common case, checked once: max |A_ij| is finite iff every entry is (NaN propagates)
        mags = magnitudes(A)
        if not math.isfinite(mags[0]):
            raise InputError("data", "must be finite (no NaN or infinity)")
    else:
        A = _finite_float_array(data)
    top, method, prec = None, "arb", int(bits)
    if A is not None:  # fast exact path for float arrays: integers over a power of two
        if A.shape[0] < 2:
            raise InputError("data", "needs at least two samples (rows) to form a covariance")
        fast = _aposteriori_top(A, mode, c, rtol) if rtol is not None else None
        if fast is not None:
            return fast
        top = covariance_top_eigenvalue(A, int(bits), mags=mags)  # exact Rayleigh quotient + Kato-Temple
        if top is not None:
            method, prec = "kato-temple", int(bits) + 64  # its ball carries bits + 64: c is a power of two
        else:
            C = exact_covariance_of_floats(A) or _covariance_of_integers(*_float_array_integers(A))
    else:
        rows = _fractions(data)
        if len(rows) < 2:
            raise InputError("data", "needs at least two samples (rows) to form a covariance")
        C = _covariance_of_rows(rows)
    if top is None:
        top = _top_eigenvalue_enclosure(C, int(bits))
    with arb_precision(prec):
        enc = top * c
    return CriticalTemperature(mode, c, enc, method, _ball_summary(enc), _ball_summary(top))


def _ball_summary(b: Any) -> float | None:
    """``arb_to_float(b)`` (numerics.precision), read directly where the midpoint ``man 2**exp`` certainly
    lies in ``[2**-1000, 2**1000)`` with ``|man| < 2**1000``: ``float(man)`` is man correctly rounded to 53
    bits (round half to even, as ``float(Fraction)``), and scaling by ``2**exp`` is exact and commutes with
    that rounding in the normal range, so ``ldexp(float(man), exp)`` is the midpoint rounded once."""
    if b.is_finite():
        man, exp = b.mid().man_exp()
        man, exp = int(man), int(exp)
        top = exp + man.bit_length()  # 2**(top - 1) <= |mid| < 2**top
        if man.bit_length() < 1000 and -999 < top < 1000:
            return math.ldexp(float(man), exp)
    return arb_to_float(b)


def _aposteriori_top(A: np.ndarray, mode: str, c: int, rtol: float) -> CriticalTemperature | None:
    """tau_c from the a-posteriori enclosure of lambda_max(C), if its radius is <= rtol |lower end|."""
    import flint

    from numerics.aposteriori import covariance_spectrum

    cl = covariance_spectrum(A)
    if cl is None:
        return None
    top = cl[-1].enclosure  # clusters certainly ascending: lambda_max lies in the last
    with arb_precision(128):
        if top != 0 and not top.rad() <= flint.arb(rtol) * top.lower():
            return None  # too wide for the caller: the exact route
        enc = c * top
    return CriticalTemperature(mode, c, enc, "a-posteriori", arb_to_float(enc), arb_to_float(top))


@dataclass(frozen=True)
class Stability:
    """Three-valued certified answer of :func:`collapse_is_stable` with its evidence."""

    answer: Tri
    evidence: dict = field(default_factory=dict)


def collapse_is_stable(data: Any, K: int, tau: Any, mode: str = "full") -> Stability:
    """Is the collapsed state (all K prototypes at the mean) a strict local minimum? (spec §3.3)

    Exact and certified: the Hessian's relative-mode block is ``(2/K)(I - (c/tau) C)`` (K - 1 copies)
    and its translation block ``(2/K) I``, so the answer is the exact inertia of ``tau I - c C`` with
    C the exact empirical covariance of the (rational or dyadic float) data (Descartes' rule on the
    characteristic polynomial, numerics.linalg.inertia).  Returns ``Tri.TRUE`` (stable: tau > c
    lambda_1), ``Tri.FALSE`` (unstable: tau < c lambda_1) or ``Tri.UNKNOWN`` (degenerate: tau = c
    lambda_1 exactly, a zero Hessian eigenvalue).  K = 1 has no relative mode: always stable.
    Float arrays are first decided a posteriori (numerics.aposteriori.covariance_spectrum: rigorous
    enclosures of the exact C's eigenvalues from a float eigh); the exact inertia runs only when an
    enclosure meets tau / c (so the degenerate case is always decided exactly).
    """
    if isinstance(K, (bool, np.bool_)) or not isinstance(K, (int, np.integer)):
        raise InputTypeError("K", "must be an integer >= 1", K)
    if K < 1:
        raise InputError("K", "must be an integer >= 1", K)
    K = int(K)
    c = mode_constant(mode)
    t = _exact_scalar(tau, "tau")  # exact: floats as dyadics, no rounding of huge/tiny values
    if t <= 0:
        raise InputError("tau", "the temperature must be > 0", tau)
    A = _finite_float_array(data)
    if A is not None and K > 1:
        fast = _aposteriori_stability(A, K, t, c)
        if fast is not None:
            return fast
    C = (exact_covariance_of_floats(A) if A is not None else None) or exact_covariance(data)
    d = len(C)
    M = [[t * (1 if a == b else 0) - c * C[a][b] for b in range(d)] for a in range(d)]
    inn = inertia(M)
    ev = {"c": c, "K": K, "tau": str(t), "d": d,
          "inertia(tau I - c C)": (inn.positive, inn.zero, inn.negative),
          "method": "exact inertia (Descartes) of tau I - c C, C exact covariance"}
    if K == 1:
        return Stability(Tri.TRUE, {**ev, "reason": "K = 1: no relative mode"})
    ev["negative_hessian_eigenvalues"] = (K - 1) * inn.negative
    ev["zero_hessian_eigenvalues"] = (K - 1) * inn.zero
    if inn.negative > 0:
        return Stability(Tri.FALSE, {**ev, "reason": "tau < c lambda_1: unstable relative modes"})
    if inn.zero > 0:
        return Stability(Tri.UNKNOWN, {**ev, "reason": "degenerate: tau = c lambda_1 exactly"})
    return Stability(Tri.TRUE, {**ev, "reason": "tau > c lambda_1: strict local minimum"})


def _aposteriori_stability(A: np.ndarray, K: int, t: Fraction, c: int) -> Stability | None:
    """The stability verdict from a-posteriori enclosures of C's eigenvalues (numerics.aposteriori), or
    None when an enclosure meets tau / c (then the exact inertia decides).  Every cluster certainly
    below tau / c is a positive direction of tau I - c C, every cluster certainly above a negative one."""
    import flint

    from numerics.aposteriori import covariance_spectrum

    cl = covariance_spectrum(A)
    if cl is None:
        return None
    with arb_precision(128):
        x = flint.arb(flint.fmpq(t.numerator, t.denominator)) / c  # a ball containing tau / c
        if any(k.enclosure.overlaps(x) for k in cl):
            return None
        neg = sum(k.multiplicity for k in cl if k.enclosure > x)
    d = A.shape[1]
    ev = {"c": c, "K": K, "tau": str(t), "d": d, "inertia(tau I - c C)": (d - neg, 0, neg),
          "method": "a-posteriori enclosures of the eigenvalues of the exact covariance C (float eigh, "
                    "rigorous residual bounds) against tau / c",
          "negative_hessian_eigenvalues": (K - 1) * neg, "zero_hessian_eigenvalues": 0}
    if neg > 0:
        return Stability(Tri.FALSE, {**ev, "reason": "tau < c lambda_1: unstable relative modes"})
    return Stability(Tri.TRUE, {**ev, "reason": "tau > c lambda_1: strict local minimum"})


def sympy_collapse_hessian(Z: Sequence[Sequence[Any]], K: int, tau: Any, mode: str) -> list[list[Any]]:
    """Exact Hessian at collapse by sympy differentiation of L_q (``full``) or F (``stopgrad``):
    :func:`symbolic_collapse_hessian` with ``backend="sympy"``."""
    return symbolic_collapse_hessian(Z, K, tau, mode, backend="sympy")


def symbolic_collapse_hessian(Z: Sequence[Sequence[Any]], K: int, tau: Any, mode: str, *,
                              backend: str = "symengine") -> list[list[Fraction]]:
    """Exact Hessian at collapse by symbolic differentiation of L_q (``full``) or F (``stopgrad``).

    Independent of the block formula: the loss is the generic per-sample Gibbs loss of
    :mod:`.dictionary` (assignments written through exponent differences, so exp(0) = 1 at collapse),
    built on the symbols u_ka of P = mu + u, differentiated twice and evaluated at u = 0; every entry
    must come out a rational (never a numerical guess).  ``backend``: ``"symengine"`` (the same
    expression differentiated by symengine's C++ core, some 100x faster than sympy; an entry it does
    not reduce to a rational goes through ``sympy.simplify``) or ``"sympy"``.  Small instances only
    (N K d <= ~24).
    """
    import sympy as sp

    from .dictionary import gibbs_row, sample_free_energy

    if backend == "symengine":
        import symengine as lib
    elif backend == "sympy":
        lib = sp
    else:
        raise InputError("backend", "must be 'symengine' or 'sympy'", backend)
    full = mode_constant(mode) == 4
    rows = _fractions(Z)
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    t = lib.Rational(Fraction(tau).numerator, Fraction(tau).denominator)
    real = {"real": True} if lib is sp else {}
    syms = [[lib.Symbol(f"u_{k}_{a}", **real) for a in range(d)] for k in range(K)]
    P = [[lib.Rational(mu[a].numerator, mu[a].denominator) + syms[k][a] for a in range(d)] for k in range(K)]
    total = 0
    for r in rows:
        z = [lib.Rational(x.numerator, x.denominator) for x in r]
        dist = [sum((z[a] - p[a]) ** 2 for a in range(d)) for p in P]
        if full:
            q = gibbs_row(dist, t, lib.exp)
            total += sum(qk * dk for qk, dk in zip(q, dist))
        else:
            total += sample_free_energy(dist, t, lib.exp, lib.log)
    total = total / N
    flat = [s for row in syms for s in row]
    zero = {s: 0 for s in flat}

    def rational(v: Any) -> Fraction:
        if lib is not sp and not v.is_Rational:
            v = lib.expand(v)
            if not v.is_Rational:
                v = sp.sympify(v)
        if not v.is_Rational:
            v = sp.simplify(v)
        if not v.is_Rational:  # never a numerical guess (nsimplify) in an exact route
            raise ArithmeticError(f"the Hessian entry {v} did not simplify to a rational")
        num, den = sp.fraction(v) if isinstance(v, sp.Basic) else v.get_num_den()
        return Fraction(int(num), int(den))

    H = []
    for i, a in enumerate(flat):
        da = lib.diff(total, a)
        H.append([rational(lib.diff(da, b).subs(zero)) for b in flat[: i + 1]])
    n = len(flat)
    return [[H[i][j] if j <= i else H[j][i] for j in range(n)] for i in range(n)]
