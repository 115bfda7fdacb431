"""The DDCL dictionary block's formulas in any arithmetic: squared distances, soft reconstruction, the
per-sample loss terms, Gibbs rows, live weights, free energy, entropy and their tau-derivatives.

Spec ddcl_incrt.md §2.2, §2.3.  Only ``+ - * /`` (and the ``exp`` / ``log`` passed in) on the scalar
entries, so the same definitions run on sympy symbols (PROVED identities), Fractions / fmpq (CERTIFIED),
mpmath numbers and floats.  Re-exported by :mod:`theorems.ddcl_incrt.dictionary`, whose docstring states
the losses; the float64 (numpy) kernels live there.
"""

from __future__ import annotations

import math as _math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from numerics.errors import InputError, InputTypeError

Vec = Sequence[Any]


def sqdist(a: Vec, b: Vec) -> Any:
    """``|a - b|^2``."""
    if len(a) != len(b):
        raise ValueError(f"vectors of lengths {len(a)} and {len(b)}")
    total = 0
    for x, y in zip(a, b):
        total = total + (x - y) * (x - y)
    return total


def soft_reconstruction(q: Vec, P: Sequence[Vec]) -> tuple[Any, ...]:
    """``zt = sum_k q_k p_k``."""
    d = len(P[0])
    out = []
    for j in range(d):
        s = 0
        for qk, pk in zip(q, P):
            s = s + qk * pk[j]
        out.append(s)
    return tuple(out)


def sample_terms(z: Vec, P: Sequence[Vec], q: Vec, *, variance_center: str = "reconstruction"
                 ) -> tuple[Any, Any, Any]:
    """``(ell_i, |z_i - zt_i|^2, V_i)`` for one sample.

    ``variance_center="data"`` computes V_i around ``z_i`` instead of ``zt_i`` -- a deliberately wrong
    variant used as a negative control.
    """
    zt = soft_reconstruction(q, P)
    ell = 0
    for qk, pk in zip(q, P):
        ell = ell + qk * sqdist(z, pk)
    ols = sqdist(z, zt)
    center = zt if variance_center == "reconstruction" else tuple(z)
    if variance_center not in ("reconstruction", "data"):
        raise ValueError(f"variance_center must be 'reconstruction' or 'data', got {variance_center!r}")
    var = 0
    for qk, pk in zip(q, P):
        var = var + qk * sqdist(pk, center)
    return ell, ols, var


def pairwise_variance(P: Sequence[Vec], q: Vec, *, half: bool = True) -> Any:
    """``1/2 sum_{k,l} q_k q_l |p_k - p_l|^2`` (``half=False`` drops the 1/2: a wrong variant)."""
    total = 0
    K = len(P)
    for k in range(K):
        for l in range(K):
            total = total + q[k] * q[l] * sqdist(P[k], P[l])
    return total / 2 if half else total


@dataclass(frozen=True)
class DictionaryLosses:
    L_q: Any
    L_OLS: Any
    V: Any


def validate_block_inputs(Z: Sequence[Vec], P: Sequence[Vec], Q: Sequence[Vec]) -> None:
    """Shapes: Z is N x d, P is K x d, Q is N x K (sequences of sequences of scalars of any type:
    sympy, Fraction, mpmath, float); :class:`InputError` / :class:`InputTypeError` names the argument."""
    for name, X in (("Z", Z), ("P", P), ("Q", Q)):
        if isinstance(X, (str, bytes)) or not hasattr(X, "__len__") or not hasattr(X, "__getitem__"):
            raise InputTypeError(name, "must be a sequence of rows", X)
        for row in X:
            if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
                raise InputTypeError(name, "every row must be a sequence of scalars", row)
            for x in row:
                if isinstance(x, (str, bytes, list, tuple, dict, set)) or x is None:
                    raise InputTypeError(name, "entries must be scalars (numbers or sympy expressions)", x)
                if isinstance(x, float) and not _math.isfinite(x):
                    raise InputError(name, "entries must be finite", x)
    if len(Z) == 0 or len(P) == 0:
        raise InputError("Z" if len(Z) == 0 else "P", "need at least one sample and one prototype")
    d = len(Z[0])
    if d == 0 or any(len(z) != d for z in Z):
        raise InputError("Z", "all samples must have the same dimension >= 1")
    if any(len(p) != d for p in P):
        raise InputError("P", f"prototypes must have the data dimension {d}")
    if len(Q) != len(Z):
        raise InputError("Q", f"needs one row per sample ({len(Z)})", f"{len(Q)} rows")
    if any(len(q) != len(P) for q in Q):
        raise InputError("Q", f"every row needs {len(P)} entries (one per prototype)")


def dictionary_losses(Z: Sequence[Vec], P: Sequence[Vec], Q: Sequence[Vec], *,
                      variance_center: str = "reconstruction") -> DictionaryLosses:
    """``L_q``, ``L_OLS`` and ``V`` averaged over the N samples (spec §2.2)."""
    validate_block_inputs(Z, P, Q)
    n = len(Z)
    Lq = Lo = V = 0
    try:
        for z, q in zip(Z, Q):
            e, o, v = sample_terms(z, P, q, variance_center=variance_center)
            Lq, Lo, V = Lq + e, Lo + o, V + v
        out = DictionaryLosses(Lq / n, Lo / n, V / n)
    except OverflowError:  # floats mixed with integers beyond the float64 range
        raise InputError(_overflowing_argument(Z, P, Q), "mixes floats with numbers beyond the float64 "
                         "range; use exact numbers (int, Fraction) throughout", has_value=False) from None
    if any(isinstance(x, float) and not _math.isfinite(x) for x in (out.L_q, out.L_OLS, out.V)):
        raise InputError(_overflowing_argument(Z, P, Q), "the losses overflow float64 (or are NaN) for "
                         "these float entries; rescale or use exact numbers", has_value=False)
    return out


def _overflowing_argument(Z: Sequence[Vec], P: Sequence[Vec], Q: Sequence[Vec]) -> str:
    """The argument holding the largest-magnitude entry (the likely cause of an overflow)."""
    def big(X):
        m = 0
        for r in X:
            for x in r:
                try:
                    m = max(m, abs(x))
                except TypeError:  # symbols: no magnitude
                    pass
        return m
    try:
        sizes = [big(Z), big(P), big(Q)]
        return ("Z", "P", "Q")[sizes.index(max(sizes))]
    except TypeError:
        return "Z"


# -----------------------------------------------------------------------------------------------------
# Generic per-sample formulas (sympy / mpmath / arb / floats): the single source of truth of §2.3
# -----------------------------------------------------------------------------------------------------
def gibbs_row(dist: Sequence[Any], tau: Any, exp: Any) -> list[Any]:
    """``q_k = 1 / sum_j exp(-(d_j - d_k)/tau)`` (written through differences, exp(0) = 1)."""
    return [1 / sum(exp(-(dj - dk) / tau) for dj in dist) for dk in dist]


def live_weight_row(q: Sequence[Any], dist: Sequence[Any], tau: Any, *, sign: int = -1) -> list[Any]:
    """``omega_j = q_j [1 - (d_j - ell)/tau]`` with ``ell = sum_k q_k d_k`` (``sign=+1``: wrong variant)."""
    ell = 0
    for qk, dk in zip(q, dist):
        ell = ell + qk * dk
    return [qj * (1 + sign * (dj - ell) / tau) for qj, dj in zip(q, dist)]


def sample_free_energy(dist: Sequence[Any], tau: Any, exp: Any, log: Any) -> Any:
    """``-tau log sum_k exp(-d_k/tau)`` for one sample."""
    return -tau * log(sum(exp(-dk / tau) for dk in dist))


def sample_entropy(q: Sequence[Any], log: Any) -> Any:
    """``-sum_k q_k log q_k``."""
    total = 0
    for qk in q:
        total = total - qk * log(qk)
    return total


def sample_tau_derivatives(q: Sequence[Any], dist: Sequence[Any], tau: Any, log: Any) -> tuple[Any, Any]:
    """``(dL_q/dtau, dF/dtau) = (Var_q(d)/tau^2, -H)`` for one sample (spec §2.2)."""
    ell = 0
    for qk, dk in zip(q, dist):
        ell = ell + qk * dk
    var = 0
    for qk, dk in zip(q, dist):
        var = var + qk * (dk - ell) * (dk - ell)
    return var / (tau * tau), -sample_entropy(q, log)


# =====================================================================================================
# Numeric block (float64 numpy; torch module below).  Spec §2.2-§2.4.
# =====================================================================================================
