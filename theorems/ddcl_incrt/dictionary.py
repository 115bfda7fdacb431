"""The DDCL dictionary block: prototypes, soft assignments, soft reconstruction and its losses.

Spec ddcl_incrt.md §2.2.  Data ``Z`` (rows ``z_i``), prototypes ``P`` (rows ``p_k``), assignment rows
``q_i`` on the simplex.  With ``d_ik = |z_i - p_k|^2`` and ``ell_i = sum_k q_ik d_ik``:

* soft reconstruction ``zt_i = sum_k q_ik p_k``;
* ``L_q   = (1/N) sum_i ell_i``                           (soft quantisation loss);
* ``L_OLS = (1/N) sum_i |z_i - zt_i|^2``                   (reconstruction);
* ``V     = (1/N) sum_i V_i``, ``V_i = sum_k q_ik |p_k - zt_i|^2``  (prototype variance);
* pairwise form ``V_i = 1/2 sum_{k,l} q_ik q_il |p_k - p_l|^2``.

The formulas (:mod:`._dictionary_formulas`, re-exported here) use only ``+ - * /`` on their scalar
entries, so the *same* definitions run on sympy symbols (the PROVED identity), Fractions / fmpq
(CERTIFIED), mpmath numbers and floats; the float64 kernels below (distances, Gibbs rows, losses,
gradients, descent) are numpy.  Both are the single source of truth for these formulas in the toolkit.
"""

from __future__ import annotations

import math as _math
from numbers import Rational as _Rational
from typing import Any

import numpy as _np

from numerics.errors import InputError, InputTypeError

from ._dictionary_formulas import (  # noqa: F401  (re-exported: the formulas in any arithmetic)
    DictionaryLosses,
    Vec,
    _overflowing_argument,
    dictionary_losses,
    gibbs_row,
    live_weight_row,
    pairwise_variance,
    sample_entropy,
    sample_free_energy,
    sample_tau_derivatives,
    sample_terms,
    soft_reconstruction,
    sqdist,
    validate_block_inputs,
)

__all__ = [
    "sqdist", "soft_reconstruction", "sample_terms", "DictionaryLosses", "dictionary_losses",
    "pairwise_variance", "validate_block_inputs", "gibbs_row", "live_weight_row", "sample_free_energy",
    "sample_entropy", "sample_tau_derivatives", "mode_constant", "as_data", "gibbs", "free_energy",
    "all_losses", "grad_detached", "live_weights", "grad_live_Lq", "descend", "descent_gradient",
    "descend_batch", "descent_gradients",
    "gibbs_assigner", "covariance", "exact_covariance_sample", "separation_stats", "DictionaryBlock",
]

MODE_CONSTANT = {"full": 4, "stopgrad": 2, "free_energy": 2}


def mode_constant(mode: str) -> int:
    """The collapse constant c of a training mode: 4 for ``full`` (L_q with live q), 2 for
    ``stopgrad`` / ``free_energy`` (gradient descent on F).  Spec §2.3."""
    if not isinstance(mode, str):
        raise InputTypeError("mode", f"must be one of the strings {sorted(MODE_CONSTANT)}", mode)
    if mode not in MODE_CONSTANT:
        raise InputError("mode", f"must be one of {sorted(MODE_CONSTANT)}", mode)
    return MODE_CONSTANT[mode]


def as_data(Z: Any, name: str = "data") -> _np.ndarray:
    """A finite float64 array of shape (N, d) (a 1-D sequence is one column); otherwise
    :class:`InputError` / :class:`InputTypeError` naming ``name``."""
    if type(Z) is _np.ndarray and Z.dtype == _np.float64 and Z.ndim == 2 and Z.size:  # the common case
        if not _np.isfinite(Z).all():
            raise InputError(name, "must not contain NaN or infinite entries")
        return Z.copy()
    rule = ("must be a rectangular N x d array of real numbers (not ragged; no strings, None or "
            "complex numbers)")
    if isinstance(Z, (str, bytes, dict, set)) or Z is None:
        raise InputTypeError(name, rule, Z)
    try:
        raw = _np.asarray(Z)
    except (ValueError, TypeError, RuntimeError):
        raise InputTypeError(name, rule, has_value=False) from None
    kind = raw.dtype.kind
    if kind in "biuf":
        A = raw.astype(float)
    elif kind == "O":
        flat = raw.ravel().tolist()
        if not all(isinstance(x, (int, float, _np.integer, _np.floating, _Rational)) for x in flat):
            raise InputTypeError(name, rule, has_value=False)
        try:
            A = _np.array([float(x) for x in flat], dtype=float).reshape(raw.shape)
        except OverflowError:
            raise InputError(name, "entries must be representable as float64 (|x| < 1.8e308)",
                             has_value=False) from None
    else:
        raise InputTypeError(name, rule, f"dtype {raw.dtype}")
    if A.ndim == 1:
        A = A[:, None]
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise InputError(name, "must be a non-empty N x d array", f"shape {A.shape}")
    if not _np.all(_np.isfinite(A)):
        raise InputError(name, "must not contain NaN or infinite entries")
    return A


def check_tau(tau: Any, name: str = "tau") -> float:
    """The temperature as a float: a real number (not a bool or a string), finite and > 0."""
    if isinstance(tau, (bool, _np.bool_, str, bytes)) or tau is None:
        raise InputTypeError(name, "the temperature must be a real number", tau)
    try:
        t = float(tau)
    except (TypeError, ValueError):
        raise InputTypeError(name, "the temperature must be a real number", tau) from None
    except OverflowError:
        raise InputError(name, "the temperature must be finite (representable as float64)",
                         has_value=False) from None
    if not _math.isfinite(t) or t <= 0:
        raise InputError(name, "the temperature must be finite and > 0", tau)
    return t


def sqdist_matrix(Z: _np.ndarray, P: _np.ndarray) -> _np.ndarray:
    """``D[i, k] = |z_i - p_k|^2`` (float64): the floats of
    ``((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)``, computed coordinate by coordinate in a (d, K, N)
    layout and summed over the d coordinates by :func:`_rowsum` (numpy's order for a last axis of length
    d <= 128), because numpy reduces a short last axis with one inner loop per entry."""
    d = Z.shape[-1]
    if Z.ndim != 2 or P.ndim != 2 or not 1 <= d <= 128 or P.shape[-1] != d:
        return ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    diff = _np.ascontiguousarray(Z.T)[:, None, :] - P.T[:, :, None]
    diff *= diff
    return _np.ascontiguousarray(_rowsum(diff).T)


def _kn_layout(Z: _np.ndarray, P: _np.ndarray) -> bool:
    """Whether the (K, N)-layout forms below give the floats of the (N, K) formulas for these validated
    float arrays: every sum over the d coordinates or the K prototypes is then a :func:`_rowsum` in
    numpy's order (d, K <= 128; beyond, numpy's recursive split is not reproduced)."""
    return P.shape[0] <= 128 and 1 <= Z.shape[1] <= 128 and P.shape[1] == Z.shape[1]


def gibbs(Z: Any, P: Any, tau: Any, *, tau_scale: int = 1) -> _np.ndarray:
    """Gibbs assignment ``q_ik ∝ exp(-d_ik / tau_eff)``, ``tau_eff = tau_scale * tau`` (1 or 2),
    computed by log-sum-exp so that every row lies on the simplex (spec §2.2)."""
    Z, P = as_data(Z, "Z"), as_data(P, "P")
    _same_dimension(Z, P)
    if isinstance(tau_scale, bool) or tau_scale not in (1, 2):
        raise InputError("tau_scale", "must be 1 or 2", tau_scale)
    t = check_tau(tau) * tau_scale
    return _gibbs(Z, P, t)[0]


def _gibbs(Z: _np.ndarray, P: _np.ndarray, t: float) -> tuple[_np.ndarray, _np.ndarray]:
    """``(Q, D)``: :func:`gibbs` of validated float arrays at the effective temperature t, and the squared
    distances (callers in simulation loops validate once, not at every step).  Computed in the (K, N)
    layout of :func:`_gibbs_KN` (the same floats: -D/t is D/(-t), the row sums are :func:`_rowsum`s in
    numpy's order) and transposed back, because numpy reduces the short prototype axis of the (N, K)
    layout one row at a time; the (N, K) formulas below otherwise."""
    if _kn_layout(Z, P):
        K, d = P.shape
        Q, D0 = _gibbs_KN(Z, None, P, t, K, d)
        return _np.ascontiguousarray(Q.T), _np.ascontiguousarray(D0.T)
    D0 = _finite_sqdist(Z, P)
    # shift by the row minimum *before* dividing by tau: for a tiny tau, (D - min D)/tau is +inf away
    # from the nearest prototype and 0 at it, so the rows stay on the simplex (the hard limit), not NaN
    D = D0 - D0.min(1, keepdims=True)
    with _np.errstate(over="ignore", under="ignore"):
        L = -D / t
        Q = _np.exp(L)
    Q /= Q.sum(1, keepdims=True)
    return Q, D0


def _same_dimension(Z: _np.ndarray, P: _np.ndarray) -> None:
    if Z.shape[1] != P.shape[1]:
        raise InputError("P", f"prototypes must have the data dimension {Z.shape[1]}", f"shape {P.shape}")


def _finite_sqdist(Z: _np.ndarray, P: _np.ndarray) -> _np.ndarray:
    with _np.errstate(over="ignore", invalid="ignore"):
        D = sqdist_matrix(Z, P)
    if not _np.all(_np.isfinite(D)):
        raise InputError("Z", "squared distances |z_i - p_k|^2 overflow float64: rescale Z and P",
                         has_value=False)
    return D


def _sqdist_KN(Z: _np.ndarray, P: _np.ndarray, ZT: _np.ndarray | None = None) -> _np.ndarray:
    """``sqdist_matrix(Z, P).T`` in the (K, N) layout (ZT: Z's (d, 1, N) transpose when the caller holds
    it), finite: Z is finite, so a non-finite distance comes from a non-finite P (raised naming P) or
    from an overflow (:func:`_finite_sqdist`'s error, naming Z)."""
    with _np.errstate(over="ignore", invalid="ignore"):
        diff = (_np.ascontiguousarray(Z.T)[:, None, :] if ZT is None else ZT) - P.T[:, :, None]
        diff *= diff
        D = diff[0] if len(diff) == 1 else _rowsum(diff)  # one coordinate: its squares are the distances
    if not _np.isfinite(D).all():
        as_data(P, "P")  # raises for a non-finite P
        _finite_sqdist(Z, P)  # raises
    return D


def _finite(x: float, what: str, argument: str = "tau") -> float:
    if not _math.isfinite(x):
        raise InputError(argument, f"{what} is not finite in float64 for these inputs", has_value=False)
    return x


def free_energy(Z: Any, P: Any, tau: Any) -> float:
    """``F_tau = -(tau/N) sum_i log sum_k exp(-d_ik/tau)`` by log-sum-exp."""
    Z, P, t = as_data(Z, "Z"), as_data(P, "P"), check_tau(tau)
    _same_dimension(Z, P)
    kn = _kn_layout(Z, P)
    return _free_energy(_sqdist_KN(Z, P) if kn else _finite_sqdist(Z, P), t, kn)


def _free_energy(D: _np.ndarray, t: float, kn: bool) -> float:
    """:func:`free_energy` from the finite squared distances: ``D`` in the (K, N) layout when ``kn``
    (:func:`_kn_layout`: the same floats, the sum over k a _rowsum, see _gibbs), else (N, K)."""
    if kn:
        m = _np.minimum.reduce(D, axis=0)

        def value() -> float:
            return float(_np.mean(m - t * _np.log(_rowsum(_np.exp(-(D - m) / t)))))
    else:
        m = D.min(1)

        def value() -> float:
            return float(_np.mean(m - t * _np.log(_np.exp(-(D - m[:, None]) / t).sum(1))))

    with _np.errstate(over="ignore", invalid="ignore"):
        return _finite(value(), "the free energy F")


def all_losses(Z: Any, P: Any, tau: Any) -> dict[str, float]:
    """``L_q, L_OLS, V, H, F`` of spec §2.2 with Gibbs assignments (float64)."""
    Z, P, t = as_data(Z, "Z"), as_data(P, "P"), check_tau(tau)
    _same_dimension(Z, P)
    # gibbs(Z, P, t), the distances and free_energy(Z, P, t) from one distance computation: the floats of
    # sqdist_matrix in either layout (see _gibbs), so the very values (and errors) of the three calls
    kn = _kn_layout(Z, P)
    if kn:
        QT, DT = _gibbs_KN(Z, None, P, t, *P.shape)
        Q, D = _np.ascontiguousarray(QT.T), _np.ascontiguousarray(DT.T)
    else:
        Q, D = _gibbs(Z, P, t)
    F = _free_energy(DT if kn else D, t, kn)
    Zt = Q @ P
    with _np.errstate(over="ignore", invalid="ignore"):
        Lq = float((Q * D).sum(1).mean())
        Lo = float(((Z - Zt) ** 2).sum(1).mean())
        V = float((Q * ((P[None, :, :] - Zt[:, None, :]) ** 2).sum(-1)).sum(1).mean())
    with _np.errstate(divide="ignore", invalid="ignore"):
        H = float(-_np.where(Q > 0, Q * _np.log(_np.where(Q > 0, Q, 1.0)), 0.0).sum(1).mean())
    out = {"L_q": Lq, "L_OLS": Lo, "V": V, "H": H, "F": F}
    for k, v in out.items():
        _finite(v, k, "Z")
    return out


def grad_detached(Z: Any, P: Any, Q: Any) -> dict[str, _np.ndarray]:
    """Detached gradients (q held constant), spec §2.3:
    ``grad_{p_k} L_q = (2/N) sum_i q_ik (p_k - z_i)``, ``grad L_OLS = (2/N) sum_i q_ik (zt_i - z_i)``,
    ``grad V = (2/N) sum_i q_ik (p_k - zt_i)``."""
    Z, P, Q = as_data(Z, "Z"), as_data(P, "P"), _np.asarray(Q, dtype=float)
    N = Z.shape[0]
    Zt = Q @ P
    n = Q.sum(0)
    gLq = _grad_detached_Lq(Z, P, Q, n)
    gO = (2.0 / N) * (Q.T @ (Zt - Z))
    gV = (2.0 / N) * (n[:, None] * P - Q.T @ Zt)
    return {"L_q": gLq, "L_OLS": gO, "V": gV}


def _grad_detached_Lq(Z: _np.ndarray, P: _np.ndarray, Q: _np.ndarray, n: _np.ndarray | None = None
                      ) -> _np.ndarray:
    """The L_q part of :func:`grad_detached` for validated arrays (n = Q.sum(0) if not given)."""
    n = Q.sum(0) if n is None else n
    return (2.0 / Z.shape[0]) * (n[:, None] * P - Q.T @ Z)


def descend(Z: Any, P: Any, tau: Any, mode: str, steps: int, eta: float) -> _np.ndarray:
    """``steps`` gradient steps ``P <- P - eta grad`` on L_q: the live gradient (:func:`grad_live_Lq`,
    ``mode="full"``) or the detached one at the Gibbs assignments (``grad_detached(Z, P, gibbs(Z, P,
    tau))["L_q"]``, the stop-gradient / free-energy gradient).  Z and tau are validated once (through
    :func:`descent_gradient`, bit-identical to the per-step calls); a prototype matrix that stops being
    finite raises :class:`InputError` naming ``P`` as the per-step calls would."""
    P = as_data(P, "P")
    grad = descent_gradient(Z, tau, mode, K=P.shape[0], d=P.shape[1])
    for _ in range(steps):
        P = P - eta * grad(P)
    return P


def descend_batch(Zs: Any, Ps: Any, taus: Any, mode: str, steps: int, eta: float) -> _np.ndarray:
    """:func:`descend` for B independent runs at once: data sets ``Zs`` of one shape (N, d), starting
    prototypes ``Ps`` (B, K, d) and temperatures ``taus`` (B values); returns the (B, K, d) stack of
    ``descend(Zs[b], Ps[b], taus[b], mode, steps, eta)``, the very floats (:func:`descent_gradients`).
    A prototype stack that stops being finite raises :class:`InputError` naming ``Ps``."""
    P = _np.array(Ps, dtype=float)
    if P.ndim != 3:
        raise InputError("Ps", "a (B, K, d) stack of prototype matrices", f"shape {P.shape}")
    grad = descent_gradients(Zs, taus, mode, K=P.shape[1], d=P.shape[2])
    for _ in range(steps):
        P = P - eta * grad(P)
    return P


def descent_gradients(Zs: Any, taus: Any, mode: str, *, K: int, d: int) -> Any:
    """:func:`descent_gradient` for B data sets of one shape (N, d) at once: ``grad(Ps)`` maps a (B, K, d)
    stack of prototype matrices to the stack of ``descent_gradient(Zs[b], taus[b], mode, K=K, d=d)(Ps[b])``
    -- the very floats: the same operations in the same orders, on (K, B, N) arrays (a sum over k or
    over the coordinates an add of whole rows, :func:`_rowsum`; a sum over the samples numpy's in-order
    reduction of the middle axis of (B, N, K), as of axis 0 of (N, K); one matrix product per data set,
    as numpy's stacked matmul calls it).  One program for all B: 0.65-0.8x the time of B separate
    gradients at N = 1000.  K >= 2 (for K = 1 numpy sums the single case's contiguous column pairwise)."""
    if not isinstance(K, int) or isinstance(K, bool) or K < 2:
        raise InputError("K", "an int >= 2 (one prototype: use descent_gradient)", K)
    Zl = [as_data(Z, "Zs") for Z in Zs]
    if not Zl:
        raise InputError("Zs", "at least one data set", Zs)
    if any(Z.shape != Zl[0].shape for Z in Zl) or Zl[0].shape[1] != d:
        raise InputError("Zs", f"data sets of one shape (N, {d})", [Z.shape for Z in Zl])
    ts = [check_tau(t, "taus") for t in taus]
    if len(ts) != len(Zl):
        raise InputError("taus", f"one temperature per data set ({len(Zl)})", taus)
    mode_constant(mode)
    B, N = len(Zl), Zl[0].shape[0]
    Zb = _np.stack(Zl)                                            # (B, N, d)
    ZT = _np.ascontiguousarray(Zb.transpose(2, 0, 1))[:, None]    # (d, 1, B, N)
    t = _np.array(ts)[None, :, None]                              # (1, B, 1)
    full, scale = mode == "full", 2.0 / N

    def grad(Ps: _np.ndarray) -> _np.ndarray:
        if type(Ps) is not _np.ndarray or Ps.shape != (B, K, d) or Ps.dtype != _np.float64:
            raise InputError("Ps", f"a float64 array of shape {(B, K, d)}", getattr(Ps, "shape", Ps))
        with _np.errstate(over="ignore", invalid="ignore"):
            diff = ZT - Ps.transpose(2, 1, 0)[:, :, :, None]     # (d, K, B, N)
            diff *= diff
            D0 = diff[0] if d == 1 else _rowsum(diff)             # (K, B, N)
        if not _np.isfinite(D0).all():
            if not _np.isfinite(Ps).all():
                raise InputError("Ps", "must not contain NaN or infinite entries")
            raise InputError("Zs", "squared distances |z_i - p_k|^2 overflow float64: rescale Z and P",
                             has_value=False)
        with _np.errstate(over="ignore", under="ignore"):  # -D/t over- or underflowing: the hard limit
            Q = D0 - _np.minimum.reduce(D0, axis=0)
            Q /= -t  # each data set's own temperature
            _np.exp(Q, out=Q)
        Q /= _rowsum(Q)
        if full:  # omega = q (1 - (d - ell)/t)
            D0 -= _rowsum(Q * D0)
            D0 /= t
            Q *= 1.0 - D0  # the live weights
        W = _np.ascontiguousarray(Q.transpose(1, 2, 0))           # (B, N, K)
        return scale * (_np.add.reduce(W, axis=1)[:, :, None] * Ps - W.transpose(0, 2, 1) @ Zb)

    return grad


def descent_gradient(Z: Any, tau: Any, mode: str, *, K: int, d: int) -> Any:
    """The training gradient of spec §2.3 as a function ``grad(P)`` of a (K, d) prototype matrix, for
    simulation loops: ``mode="full"`` is :func:`grad_live_Lq` (live assignments), any other mode the
    detached ``grad_detached(Z, P, gibbs(Z, P, tau))["L_q"]`` (= grad F).  Z and tau are validated once;
    each call returns the very floats of the public functions (same operations, same reduction orders:
    the distances are laid out (K, N) so that every row sum over k or over the d coordinates is an
    elementwise add of whole rows, in the order numpy's pairwise sum uses, see :func:`_rowsum`).  A
    non-finite P raises :class:`InputError` naming ``P``, overflowing distances one naming ``Z``."""
    Z, t = as_data(Z, "Z"), check_tau(tau)
    mode_constant(mode)
    if Z.shape[1] != d:
        raise InputError("P", f"prototypes must have the data dimension {Z.shape[1]}", f"shape {(K, d)}")
    ZT = _np.ascontiguousarray(Z.T)[:, None, :]
    full, scale = mode == "full", 2.0 / Z.shape[0]

    def grad(P: _np.ndarray) -> _np.ndarray:
        Q, D0 = _gibbs_KN(Z, ZT, P, t, K, d)
        if full:  # omega = q (1 - (d - ell)/t), _live_weights with sign = -1
            D0 -= _rowsum(Q * D0)
            D0 /= t
            Q *= 1.0 - D0
        W = _np.ascontiguousarray(Q.T)
        return scale * (_np.add.reduce(W, axis=0)[:, None] * P - W.T @ Z)  # W.sum(0), no wrapper

    return grad


def gibbs_assigner(Z: Any, tau: Any, *, K: int, d: int) -> Any:
    """:func:`gibbs` as a function ``assign(P)`` of a (K, d) prototype matrix, for fixed-point loops: Z
    and tau validated once, the very floats of ``gibbs(Z, P, tau)`` (the (K, N) layout of
    :func:`descent_gradient`), the same errors."""
    Z, t = as_data(Z, "Z"), check_tau(tau)
    if Z.shape[1] != d:
        raise InputError("P", f"prototypes must have the data dimension {Z.shape[1]}", f"shape {(K, d)}")
    ZT = _np.ascontiguousarray(Z.T)[:, None, :]
    return lambda P: _np.ascontiguousarray(_gibbs_KN(Z, ZT, P, t, K, d)[0].T)


def _gibbs_KN(Z: _np.ndarray, ZT: _np.ndarray | None, P: Any, t: float, K: int, d: int
              ) -> tuple[_np.ndarray, _np.ndarray]:
    """``(Q.T, D.T)`` of :func:`_gibbs` (Z validated, ZT its (d, 1, N) transpose or None) in the (K, N)
    layout: every sum over k or over the d coordinates an add of whole rows in numpy's order
    (:func:`_rowsum`)."""
    if type(P) is not _np.ndarray or P.shape != (K, d) or P.dtype != _np.float64:
        P = as_data(P, "P")
        _same_dimension(Z, P)
        if P.shape != (K, d):
            raise InputError("P", f"must have shape {(K, d)}", f"shape {P.shape}")
    D0 = _sqdist_KN(Z, P, ZT)  # (K, N): sqdist_matrix(Z, P).T; a non-finite P raises there, named
    with _np.errstate(over="ignore", under="ignore"):  # -D/t over- or underflowing: the hard limit
        Q = D0 - _np.minimum.reduce(D0, axis=0)
        Q /= -t
        _np.exp(Q, out=Q)
    Q /= _rowsum(Q)
    return Q, D0


def _rowsum(rows: _np.ndarray) -> _np.ndarray:
    """``rows.sum(0)`` for an (n, ...) array in the order numpy sums a contiguous last axis of length
    n <= 128 (its pairwise sum: left to right from 0 below 8 terms, else 8 interleaved partial sums
    combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the remainder left to right), so
    that ``_rowsum(A.T)`` equals ``A.sum(-1)`` bit for bit with whole-row adds instead of a short-axis
    reduce.  A few calls whatever n: from 3 to 7 terms numpy's reduction over the leading axis (which
    adds the rows in order), from 16 the 8 partial sums as adds of (8, ...) blocks and the pairwise
    combination as adds of their even and odd halves."""
    n = rows.shape[0]
    if n > 128:  # numpy's own sum (a recursive split not reproduced here): same terms, other order
        return _np.moveaxis(rows, 0, -1).sum(-1)
    if n < 3:
        return rows[0].copy() if n == 1 else rows[0] + rows[1]
    if n < 8:
        return _np.add.reduce(rows, axis=0)
    m = n - n % 8
    if m == 8:
        r = rows
        out = (r[0] + r[1]) + (r[2] + r[3])
        out += (r[4] + r[5]) + (r[6] + r[7])
    else:
        r = rows[:8] + rows[8:16]
        for i in range(16, m, 8):
            r += rows[i:i + 8]
        r = r[0::2] + r[1::2]  # r0 + r1, r2 + r3, r4 + r5, r6 + r7
        r = r[0::2] + r[1::2]
        out = r[0] + r[1]
    for i in range(m, n):
        out += rows[i]
    return out


def live_weights(Z: Any, P: Any, tau: Any, *, sign: int = -1) -> _np.ndarray:
    """``omega_ij = q_ij [1 - (d_ij - ell_i)/tau]`` (rows sum to 1).  ``sign=+1`` is the wrong
    variant ``q_ij [1 + (d_ij - ell_i)/tau]`` used as a negative control."""
    Z, P, t = as_data(Z, "Z"), as_data(P, "P"), check_tau(tau)
    return _live_weights(Z, P, t, sign)


def _live_weights(Z: _np.ndarray, P: _np.ndarray, t: float, sign: int) -> _np.ndarray:
    """:func:`live_weights` of validated float arrays (one validation per call of the public functions)."""
    _same_dimension(Z, P)
    if _kn_layout(Z, P):  # the (K, N) layout: the same floats (see _gibbs)
        K, d = P.shape
        Q, D = _gibbs_KN(Z, None, P, t, K, d)
        return _np.ascontiguousarray((Q * (1.0 + sign * (D - _rowsum(Q * D)) / t)).T)
    Q, D = _gibbs(Z, P, t)
    ell = (Q * D).sum(1, keepdims=True)
    return Q * (1.0 + sign * (D - ell) / t)


def grad_live_Lq(Z: Any, P: Any, tau: Any, *, sign: int = -1) -> _np.ndarray:
    """``grad_{p_j} L_q = (2/N) sum_i omega_ij (p_j - z_i)`` through the live assignments."""
    Z, P = as_data(Z, "Z"), as_data(P, "P")
    return _grad_live(Z, P, check_tau(tau), sign)


def _grad_live(Z: _np.ndarray, P: _np.ndarray, t: float, sign: int) -> _np.ndarray:
    """:func:`grad_live_Lq` of validated float arrays."""
    W = _live_weights(Z, P, t, sign)
    return (2.0 / Z.shape[0]) * (W.sum(0)[:, None] * P - W.T @ Z)


def covariance(Z: Any) -> _np.ndarray:
    """Empirical covariance with 1/N (spec §2.1)."""
    Z = as_data(Z)
    Zc = Z - Z.mean(0)
    return Zc.T @ Zc / Z.shape[0]


def exact_covariance_sample(C: Any, N: int, rng: _np.random.Generator, mu: Any = None) -> _np.ndarray:
    """Exact-covariance sampling (spec §2.1): the empirical covariance of the result is C up to rounding."""
    C = _np.asarray(C, dtype=float)
    d = C.shape[0]
    if N <= d:
        raise ValueError(f"exact-covariance sampling needs N > d, got N={N}, d={d}")
    X = rng.standard_normal((N, d))
    X -= X.mean(0)
    w, V = _np.linalg.eigh(X.T @ X / N)
    X = X @ (V @ _np.diag(w ** -0.5) @ V.T)
    w, V = _np.linalg.eigh(C)
    R = V @ _np.diag(_np.sqrt(_np.clip(w, 0, None))) @ V.T
    out = X @ R
    if mu is not None:
        out = out + _np.asarray(mu, dtype=float)
    return out


def separation_stats(P: Any, trC: float) -> dict[str, float]:
    """``sep_min`` and ``sep_mean``: pairwise prototype distances normalised by sqrt(tr C) (§2.5)."""
    P = as_data(P, "P")
    K = P.shape[0]
    if K < 2:
        return {"sep_min": 0.0, "sep_mean": 0.0}
    D = _np.sqrt(sqdist_matrix(P, P))
    iu = _np.triu_indices(K, 1)
    s = _math.sqrt(max(trC, 1e-300))
    return {"sep_min": float(D[iu].min() / s), "sep_mean": float(D[iu].mean() / s)}


def math_inv_softplus(y: float) -> float:
    """``s`` with ``softplus(s) = y`` (y > 0)."""
    if y <= 0:
        raise ValueError(f"inverse softplus needs y > 0, got {y}")
    return y + _math.log(-_math.expm1(-y)) if y < 30 else y

