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

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from numerics.linalg import ball_spectrum, exact_spectrum, inertia
from numerics.precision import Tri, arb_precision, tri_positive

from .dictionary import as_data, check_tau, mode_constant

__all__ = [
    "collapse_hessian",
    "sympy_collapse_hessian",
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


def _fractions(Z: Any) -> list[list[Fraction]]:
    rows = []
    for z in Z:
        zz = z if isinstance(z, (list, tuple, np.ndarray)) else [z]
        r = []
        for x in zz:
            if isinstance(x, (float, np.floating)):
                if not np.isfinite(x):
                    raise ValueError("data contain NaN or infinite entries")
                r.append(Fraction(float(x)))
            else:
                r.append(Fraction(x))
        rows.append(r)
    if not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) == 0:
        raise ValueError("data must be a non-empty N x d array with rows of equal length")
    return rows


def exact_covariance(Z: Any) -> list[list[Fraction]]:
    """The empirical covariance (1/N) of rational (or float, read exactly as dyadics) data, exactly."""
    import flint

    rows = _fractions(Z)
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    M = flint.fmpq_mat(N, d)
    for i, r in enumerate(rows):
        for j in range(d):
            v = r[j] - mu[j]
            M[i, j] = flint.fmpq(v.numerator, v.denominator)
    C = M.transpose() * M
    return [[Fraction(int(C[a, b].p), int(C[a, b].q)) / N for b in range(d)] for a in range(d)]


def _arb_covariance(Z: np.ndarray, bits: int):
    """Ball enclosure (arb_mat) of the exact empirical covariance of float data."""
    import flint

    N, d = Z.shape
    with arb_precision(bits):
        A = flint.arb_mat(Z.tolist())
        ones = flint.arb_mat([[1]] * N)
        mu = (ones.transpose() * A) / N
        Ac = A - ones * mu
        C = (Ac.transpose() * Ac) / N
    return C


@dataclass(frozen=True)
class CriticalTemperature:
    """tau_c = c lambda_1(C): float estimate and (if requested) a certified arb enclosure."""

    value: float
    mode: str
    c: int
    lambda_1: float
    enclosure: Any = None
    method: str = "float"

    def __float__(self) -> float:
        return self.value


def critical_temperature(data: Any, mode: str = "full", *, certified: bool = True,
                         bits: int = 128) -> CriticalTemperature:
    """The critical temperature ``tau_c = c lambda_1(C)`` of the collapsed state (spec §3.3).

    ``mode="full"`` (L_q with live assignments, c = 4) or ``"free_energy"`` / ``"stopgrad"`` (c = 2).
    C is the empirical covariance (1/N) of ``data`` (N x d).  With ``certified=True`` the result
    carries an arb ball containing tau_c of the *exact* covariance of the given (dyadic) data:
    C is enclosed in ball arithmetic and its top eigenvalue by ``acb_mat.eig`` (numerics.linalg).
    """
    c = mode_constant(mode)
    Z = as_data(data)
    if Z.shape[0] < 2:
        raise ValueError("need at least two samples to form a covariance")
    C = np.cov(Z.T, bias=True).reshape(Z.shape[1], Z.shape[1])
    lam1 = float(np.linalg.eigvalsh(C)[-1])
    if not certified:
        return CriticalTemperature(c * lam1, mode, c, lam1)
    Cb = _arb_covariance(Z, bits)
    d = Z.shape[1]
    rows = [[Cb[i, j] for j in range(d)] for i in range(d)]
    spec = ball_spectrum(rows, bits=bits)
    top = spec[-1].enclosure
    with arb_precision(bits):
        enc = top * c
    return CriticalTemperature(c * lam1, mode, c, lam1, enc, "arb")


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
    """
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 1:
        raise ValueError(f"K must be an integer >= 1, got {K!r}")
    c = mode_constant(mode)
    t = Fraction(tau) if not isinstance(tau, float) else Fraction(check_tau(tau))
    if t <= 0:
        raise ValueError(f"tau must be > 0, got {tau!r}")
    C = exact_covariance(data)
    d = len(C)
    M = [[t * (1 if a == b else 0) - c * C[a][b] for b in range(d)] for a in range(d)]
    inn = inertia(M)
    ev = {"c": c, "K": K, "tau": str(t), "d": d, "inertia(tau I - c C)": (inn.positive, inn.zero, inn.negative),
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


def sympy_collapse_hessian(Z: Sequence[Sequence[Any]], K: int, tau: Any, mode: str) -> list[list[Any]]:
    """Exact Hessian at collapse by sympy differentiation of L_q (``full``) or F (``stopgrad``).

    Independent of the block formula: the loss is the generic per-sample Gibbs loss of
    :mod:`.dictionary` (assignments written through exponent differences, so exp(0) = 1 at collapse).
    Small instances only (N K d <= ~24).
    """
    import sympy as sp

    from .dictionary import gibbs_row, sample_free_energy

    full = mode_constant(mode) == 4
    rows = _fractions(Z)
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    t = sp.Rational(Fraction(tau).numerator, Fraction(tau).denominator)
    syms = [[sp.Symbol(f"u_{k}_{a}", real=True) for a in range(d)] for k in range(K)]
    P = [[sp.Rational(mu[a].numerator, mu[a].denominator) + syms[k][a] for a in range(d)] for k in range(K)]
    total = 0
    for r in rows:
        z = [sp.Rational(x.numerator, x.denominator) for x in r]
        dist = [sum((z[a] - p[a]) ** 2 for a in range(d)) for p in P]
        if full:
            q = gibbs_row(dist, t, sp.exp)
            total += sum(qk * dk for qk, dk in zip(q, dist))
        else:
            total += sample_free_energy(dist, t, sp.exp, sp.log)
    total = total / N
    flat = [s for row in syms for s in row]
    zero = {s: 0 for s in flat}
    H = []
    for i, a in enumerate(flat):
        da = sp.diff(total, a)
        row = []
        for b in flat[: i + 1]:
            v = sp.diff(da, b).subs(zero)
            if not v.is_Rational:
                v = sp.nsimplify(sp.simplify(v))
            row.append(Fraction(int(sp.fraction(v)[0]), int(sp.fraction(v)[1])))
        H.append(row)
    n = len(flat)
    return [[H[i][j] if j <= i else H[j][i] for j in range(n)] for i in range(n)]
