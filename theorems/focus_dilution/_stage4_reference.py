"""The Stage IV references (spec §4.13, §4.14): F4 = (pi_1 = 3/5, d = 5, lam = 1/2), the F5 direction
c = (1, -1, 1/2, -1/2), the working digits, and the in-manifold Hessian helpers shared by the checks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from verify import Observation, Tally, observe, refuted

from .critical_points import full_jacobian_float, in_manifold_eigenvalues, in_manifold_hessian

F = Fraction
PI1, D, LAM = F(3, 5), 5, F(1, 2)
C_DIR = (F(1), F(-1), F(1, 2), F(-1, 2))
DPS = 30


def _top_in_manifold(pt: Any, ch: Any) -> float:
    """Top eigenvalue of the in-manifold flow Jacobian (= -min eigenvalue of the reduced Hessian)."""
    return float(-min(in_manifold_eigenvalues(ch, pt)))


def hessian_cross_check(ch: Any, pt: Any, label: str, *, sign: int = 1) -> tuple[Observation, dict[str, float]]:
    """in_manifold_hessian (central differences of the reduced field, mpmath) against an independent
    computation of the same matrix: with m = m_k = 1 the full model at W0 = gamma, W1 = beta^T,
    W_Q = W_K = sqrt(kappa) IS the reduced one, coordinates (gamma, beta, lam_Q, lam_K) in the same order, so
    full_jacobian_float (torch autograd, float64) is -Hessian.  Entrywise budget float_tolerance(64 d,
    scale = max|J|) (~2e-13; observed 1.7e-16).  ``sign = -1`` is the control: H = +J (a sign error).
    Returns the observation (:func:`verify.observe.close`, not recorded) and {error, tolerance}."""
    from numerics.precision import float_tolerance

    H = np.array(in_manifold_hessian(ch, pt).tolist(), dtype=np.float64)
    lq = float(pt.ctx.sqrt(pt.kappa))
    W = (np.array([[float(x)] for x in pt.gamma]), np.array([[float(x) for x in pt.beta]]),
         np.array([[lq]]), np.array([[lq]]))
    J = full_jacobian_float(ch, W)
    err = float(np.max(np.abs(H + sign * J)))
    tol = float_tolerance(64 * ch.d, scale=float(np.max(np.abs(J))))
    obs = observe.close(err, 0.0, tol, counterexample=lambda: refuted(
        f"in-manifold Hessian differs from the autograd Hessian of L (m = m_k = 1) by {err:.3g} > {tol:.2g}",
        at=label, sign=sign, sub_check="hessian_cross_check"))
    return obs, {"error": err, "tolerance": tol}


def _hessian_cross_check(ch: Any, pt: Any, tally: Tally, label: str, *, sign: int = 1) -> None:
    """:func:`hessian_cross_check` recorded in ``tally`` (its numbers in details['hessian_vs_autograd'])."""
    obs, info = hessian_cross_check(ch, pt, label, sign=sign)
    tally.add(obs)
    tally.details.setdefault("hessian_vs_autograd", {})[label] = info
