"""The DDCL dictionary block: prototypes, soft assignments, soft reconstruction and its losses.

Spec ddcl_incrt.md §2.2.  Data ``Z`` (rows ``z_i``), prototypes ``P`` (rows ``p_k``), assignment rows
``q_i`` on the simplex.  With ``d_ik = |z_i - p_k|^2`` and ``ell_i = sum_k q_ik d_ik``:

* soft reconstruction ``zt_i = sum_k q_ik p_k``;
* ``L_q   = (1/N) sum_i ell_i``                           (soft quantisation loss);
* ``L_OLS = (1/N) sum_i |z_i - zt_i|^2``                   (reconstruction);
* ``V     = (1/N) sum_i V_i``, ``V_i = sum_k q_ik |p_k - zt_i|^2``  (prototype variance);
* pairwise form ``V_i = 1/2 sum_{k,l} q_ik q_il |p_k - p_l|^2``.

The functions below use only ``+ - * /`` on their scalar entries, so the *same* definitions run on
sympy symbols (the PROVED identity), Fractions / fmpq (CERTIFIED), mpmath numbers and floats.  They
are the single source of truth for these formulas in the toolkit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "sqdist",
    "soft_reconstruction",
    "sample_terms",
    "DictionaryLosses",
    "dictionary_losses",
    "pairwise_variance",
    "validate_block_inputs",
]

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
    """Shapes: Z is N x d, P is K x d, Q is N x K; a clear ValueError names the mismatch."""
    if len(Z) == 0 or len(P) == 0:
        raise ValueError("need at least one sample and one prototype")
    d = len(Z[0])
    if any(len(z) != d for z in Z):
        raise ValueError("all samples must have the same dimension")
    if any(len(p) != d for p in P):
        raise ValueError(f"prototypes must have the data dimension {d}")
    if len(Q) != len(Z):
        raise ValueError(f"Q has {len(Q)} rows for {len(Z)} samples")
    if any(len(q) != len(P) for q in Q):
        raise ValueError(f"every row of Q needs {len(P)} entries (one per prototype)")


def dictionary_losses(Z: Sequence[Vec], P: Sequence[Vec], Q: Sequence[Vec], *,
                      variance_center: str = "reconstruction") -> DictionaryLosses:
    """``L_q``, ``L_OLS`` and ``V`` averaged over the N samples (spec §2.2)."""
    validate_block_inputs(Z, P, Q)
    n = len(Z)
    Lq = Lo = V = 0
    for z, q in zip(Z, Q):
        e, o, v = sample_terms(z, P, q, variance_center=variance_center)
        Lq, Lo, V = Lq + e, Lo + o, V + v
    return DictionaryLosses(Lq / n, Lo / n, V / n)
