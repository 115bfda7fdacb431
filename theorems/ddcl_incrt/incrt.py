"""INCRT heads and the growth machinery (spec ddcl_incrt.md §2.4, §3.9-§3.11, §5.3-§5.6).

* bilinear forms ``M = W_Q W_K^T``, the split ``M = M_s + M_a``, the asymmetry index;
* growth signal ``S = sym(G M_a) = 1/2 [G, M_a]`` and residual operator ``A_res = P⊥ S P⊥``;
* exact greedy growth (:func:`greedy_growth`): while ``lambda_max(A_res) > theta`` append the top
  eigenvector of the current A_res;
* the author's Oja / MCA-EXIN tracker as coded (:func:`tracker_step`);
* realisation of a traceless symmetric S as a commutator ``1/2 [G, M_a]`` with G > 0 (§2.7).

Formulas are written once here; the claims and the experiments call these functions.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.errors import InputError, InputTypeError

from .dictionary import as_data

__all__ = [
    "bilinear_form",
    "split",
    "asymmetry_index",
    "growth_signal",
    "residual_operator",
    "GrowthResult",
    "greedy_growth",
    "tracker_step",
    "realise_commutator",
    "plane_generator",
    "dwell_time_code",
    "dwell_time_normalised",
]


def _square(A: Any, name: str) -> np.ndarray:
    """A finite float64 square matrix; :class:`InputError` / :class:`InputTypeError` naming ``name``."""
    M = as_data(A, name)  # rectangular, real, finite (a 1-D input becomes a column)
    if M.shape[0] != M.shape[1]:
        raise InputError(name, "must be a non-empty square matrix", f"shape {M.shape}")
    return M


def bilinear_form(WQ: Any, WK: Any) -> np.ndarray:
    """``M = W_Q W_K^T`` (d x d)."""
    WQ, WK = np.asarray(WQ, float), np.asarray(WK, float)
    if WQ.shape != WK.shape:
        raise ValueError(f"W_Q {WQ.shape} and W_K {WK.shape} must have the same shape")
    return WQ @ WK.T


def split(M: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(M_s, M_a) = ((M + M^T)/2, (M - M^T)/2)``."""
    M = _square(M, "M")
    return (M + M.T) / 2, (M - M.T) / 2


def asymmetry_index(M: Any) -> float:
    """``alpha = |M_a|_F / |M|_F`` in [0, 1] (0 for M = 0)."""
    M = _square(M, "M")
    n = np.linalg.norm(M)
    return 0.0 if n == 0 else float(np.linalg.norm(split(M)[1]) / n)


def growth_signal(G: Any, Ma: Any) -> np.ndarray:
    """``S = sym(G M_a) = 1/2 (G M_a + (G M_a)^T)``; G symmetric PSD, M_a antisymmetric.

    Two sympy matrices give the sympy matrix (same formula, exact; symbolic entries allowed)."""
    if type(G).__module__.startswith("sympy") and type(Ma).__module__.startswith("sympy"):
        if G.shape != Ma.shape or G.shape[0] != G.shape[1]:
            raise InputError("Ma", f"must be square with the shape of G {G.shape}", f"shape {Ma.shape}")
        Xs = G * Ma
        return (Xs + Xs.T) / 2
    G, Ma = _square(G, "G"), _square(Ma, "Ma")
    if G.shape != Ma.shape:
        raise InputError("Ma", f"must have the shape of G {G.shape}", f"shape {Ma.shape}")
    X = G @ Ma
    return (X + X.T) / 2


def residual_operator(S: Any, U: Any = None) -> np.ndarray:
    """``A_res = P⊥ S P⊥`` with ``P⊥ = I - U U^T`` (U: orthonormal columns, possibly none).  A stack U
    of shape (n, d, m) gives the (n, d, d) stack of the operators, the very floats of n calls (numpy's
    stacked matmul multiplies each matrix as the single call does)."""
    S = _square(S, "S")
    d = S.shape[0]
    if isinstance(U, np.ndarray) and U.ndim == 3:
        return _residual_operators(S, U)
    if U is None or np.size(U) == 0:
        return S.copy()
    U = as_data(U, "U")
    if U.shape[0] != d:
        U = U.reshape(d, -1) if U.size % d == 0 else U
    if U.shape[0] != d or not np.allclose(U.T @ U, np.eye(U.shape[1]), atol=1e-8):
        raise InputError("U", f"must have {d} rows and orthonormal columns", f"shape {U.shape}")
    P = np.eye(d) - U @ U.T
    return P @ S @ P


def _residual_operators(S: np.ndarray, U: np.ndarray) -> np.ndarray:
    """:func:`residual_operator` for a stack U (n, d, m) of orthonormal column sets."""
    n, d = U.shape[0], S.shape[0]
    if U.shape[1] != d or U.dtype != np.float64 or not np.isfinite(U).all():
        raise InputError("U", f"a finite float64 stack (n, {d}, m) of orthonormal column sets",
                         f"shape {U.shape}")
    if U.shape[2] == 0:
        return np.repeat(S[None], n, axis=0)
    U = np.ascontiguousarray(U)  # as the single call's validated copy
    eye = np.eye(U.shape[2])
    if not all(np.allclose(u.T @ u, eye, atol=1e-8) for u in U):
        raise InputError("U", f"must have {d} rows and orthonormal columns", f"shape {U.shape}")
    P = np.eye(d) - U @ U.transpose(0, 2, 1)
    return P @ S @ P


@dataclass(frozen=True)
class GrowthResult:
    """Directions (d x K, in birth order) and the birth eigenvalues lambda_max before each birth."""

    directions: np.ndarray
    births: tuple[float, ...]
    final_lambda_max: float

    @property
    def count(self) -> int:
        return self.directions.shape[1]


def greedy_growth(signal: Any, threshold: float, *, U0: Any = None, max_heads: int | None = None,
                  rng: np.random.Generator | None = None) -> GrowthResult:
    """Exact greedy growth (spec §2.4): while ``lambda_max(A_res) > threshold`` append the top
    eigenvector of the current A_res; returns the grown directions in order.

    ``signal`` is the symmetric operator S (d x d).  ``threshold`` must be > 0.  ``rng`` (optional)
    rotates the eigenbasis within numerically degenerate top eigenspaces (tie-breaking test, §5.4).
    """
    S = _square(signal, "signal")
    if not np.allclose(S, S.T, atol=1e-12 * max(1.0, np.abs(S).max())):
        raise InputError("signal", "the growth signal must be symmetric")
    if isinstance(threshold, (bool, np.bool_, str, bytes)) or threshold is None:
        raise InputTypeError("threshold", "must be a real number", threshold)
    try:
        th = float(threshold)
    except (TypeError, ValueError):
        raise InputTypeError("threshold", "must be a real number", threshold) from None
    except OverflowError:
        raise InputError("threshold", "must be finite and > 0", has_value=False) from None
    if not math.isfinite(th) or th <= 0:
        raise InputError("threshold", "must be finite and > 0", threshold)
    d = S.shape[0]
    if max_heads is not None:
        if isinstance(max_heads, (bool, np.bool_)) or not isinstance(max_heads, (int, np.integer)):
            raise InputTypeError("max_heads", "must be None or an integer >= 0", max_heads)
        if max_heads < 0:
            raise InputError("max_heads", "must be None or an integer >= 0", max_heads)
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise InputTypeError("rng", "must be None or a numpy.random.Generator", rng)
    if U0 is None or np.size(U0) == 0:
        U = np.zeros((d, 0))
    else:
        U = as_data(U0, "U0")
        if U.shape[0] != d or U.shape[1] > d:
            raise InputError("U0", f"must be a d x m matrix with d = {d} rows and m <= d orthonormal "
                             "columns", f"shape {U.shape}")
        if not np.allclose(U.T @ U, np.eye(U.shape[1]), atol=1e-8):
            raise InputError("U0", "must have orthonormal columns")
    # A power-of-two rescaling (exact) keeps signals near 1e-300 or 1e300 inside float64 while the
    # greedy loop runs; births are scaled back (an InputError if they leave the float64 range).
    smax = float(np.abs(S).max())
    e = 0 if smax == 0 or 2.0**-500 <= smax <= 2.0**500 else math.frexp(smax)[1]
    S = np.ldexp(S, -e)
    try:
        th = math.ldexp(th, -e)
    except OverflowError:  # the threshold is far above every eigenvalue of the (tiny) signal
        th = math.inf
    births = []
    limit = d if max_heads is None else int(max_heads)
    tol = 1e-12 * max(1.0, np.linalg.norm(S, 2))
    # eigenvalues within float64 rounding of 0 (relative to |S|_2) are not resolved by eigh: a
    # "birth" there would be an arbitrary kernel vector, possibly inside span(U)
    noise = 1e-12 * np.linalg.norm(S, 2)
    while U.shape[1] < limit:
        A = residual_operator(S, U)
        w, V = np.linalg.eigh((A + A.T) / 2)
        if w[-1] <= th:
            break
        if w[-1] <= noise:
            break
        u = V[:, -1]
        if rng is not None:
            tied = np.where(w >= w[-1] - tol)[0]
            if len(tied) > 1:
                c = rng.standard_normal(len(tied))
                u = V[:, tied] @ (c / np.linalg.norm(c))
        u = u - U @ (U.T @ u)
        if np.linalg.norm(u) < 0.5:  # the top eigenvector lies (numerically) in span(U): noise
            break
        u /= np.linalg.norm(u)
        births.append(float(w[-1]))
        U = np.column_stack([U, u])
    A = residual_operator(S, U)
    final = float(np.linalg.eigvalsh((A + A.T) / 2)[-1])
    if e:
        try:
            births = [math.ldexp(b, e) for b in births]
            final = math.ldexp(final, e)
        except OverflowError:
            raise InputError("signal", "its eigenvalues exceed the float64 range", has_value=False) from None
    return GrowthResult(U, tuple(births), final)


# numpy >= 2.2's vector ufuncs run, row by row, the BLAS kernels (gemv, dot) that the stacked matmul of
# (B, d, d) @ (B, d, 1) and (B, 1, d) @ (B, d, 1) runs -- the same floats -- with a third less call
# overhead (tests/unit/ddcl_incrt/test_ddcl_tracker_batch.py compares with the single-vector loop); for
# one vector, np.dot calls the same kernels as ``@`` (the matmul ufunc) with less dispatch
_MATVEC, _VECMAT, _VECDOT = (getattr(np, f, None) for f in ("matvec", "vecmat", "vecdot"))
_npdot = np.dot


def _mv(A: np.ndarray, U: np.ndarray) -> np.ndarray:
    """``A u``: for one vector, or for each row u of a stack U (B, d) (A (d, d) or (B, d, d))."""
    if U.ndim == 1:
        return _npdot(A, U)
    return _MATVEC(A, U) if _MATVEC is not None else (A @ U[:, :, None])[:, :, 0]


def _vm(U: np.ndarray, A: np.ndarray) -> np.ndarray:
    """``u^T A`` (so ``u^T A v`` is ``_dot(_vm(u, A), v)``, the order of ``u @ A @ v``), row by row."""
    if U.ndim == 1:
        return _npdot(U, A)
    return _VECMAT(U, A) if _VECMAT is not None else (U[:, None, :] @ A)[:, 0, :]


def _dot(U: np.ndarray, V: np.ndarray) -> np.ndarray:
    """``u^T v``: a scalar for one vector, a (B, 1) column for stacked rows."""
    if U.ndim == 1:
        return _npdot(U, V)
    return _VECDOT(U, V)[:, None] if _VECDOT is not None else (U[:, None, :] @ V[:, :, None])[:, :, 0]


#: the largest d whose tracker step is compiled (tracing costs ~10 ms at d = 8 and grows as d^3)
KERNEL_MAX_D = 16


#: the step sizes' types that take the lone step's fast path (one concatenation of the row)
_SCALARS = (float, int, np.float64)


def tracker_step(A: np.ndarray, up: np.ndarray, um: np.ndarray, eta_p: Any, eta_m: Any,
                 gamma: Any, *, mca_factor: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """One iteration of the author's coupled Oja (top) / MCA-EXIN (bottom) tracker, as coded (§2.4):
    :func:`_coded_step`, the formula written once.

    ``mca_factor=False`` drops the factor y = u_-^T A u_- (the fix of §5.6).

    ``up``, ``um`` are one pair of d-vectors, or B independent pairs stacked as (B, d) rows; then ``A``
    is (d, d) or (B, d, d) and ``eta_p``, ``eta_m``, ``gamma`` scalars or (B, 1) columns.  Each row is
    stepped as it would be alone, bit for bit.  For float64 vectors of d <= :data:`KERNEL_MAX_D` the
    step runs as a compiled kernel traced from :func:`_coded_step` (:mod:`numerics.compiled`; one call
    per step for all rows, about 5 us against 13-25 us of numpy calls on 6-8 vectors): the same
    formula in another order of the floating-point operations, so it agrees with the numpy run of the
    same code to a few ulps (tests/unit/ddcl_incrt/test_ddcl_tracker_batch.py), and every row is the
    kernel's lone-row value.  Without LLVM (or ``VERIFY_COMPILED_KERNELS=0``) the numpy run, where
    numpy's stacked products apply the single product's BLAS kernel to each row.
    """
    kern = None
    if type(up) is np.ndarray and up.dtype == np.float64 and up.ndim in (1, 2):
        kern = _step_kernel(up.shape[-1], bool(mca_factor))
    if kern is None:
        return _coded_step(A, up, um, eta_p, eta_m, gamma, mca_factor, np.sqrt)
    d = up.shape[-1]
    if up.ndim == 1 and type(eta_p) in _SCALARS and type(eta_m) in _SCALARS and type(gamma) in _SCALARS:
        X = np.concatenate((np.reshape(A, -1), up, um, (eta_p, eta_m, gamma)))[None]
    else:
        U, W = (up[None], um[None]) if up.ndim == 1 else (up, um)
        B = U.shape[0]
        X = np.empty((B, d * d + 2 * d + 3))
        X[:, :d * d] = np.reshape(A, (-1, d * d))  # one operator for every row, or one per row
        X[:, d * d:d * d + d] = U
        X[:, d * d + d:d * d + 2 * d] = W
        for k, v in enumerate((eta_p, eta_m, gamma)):
            X[:, d * d + 2 * d + k] = np.reshape(v, -1) if np.ndim(v) else v
    out = kern.rows(X)
    if up.ndim == 1:
        return out[0, :d].copy(), out[0, d:].copy()
    return np.ascontiguousarray(out[:, :d]), np.ascontiguousarray(out[:, d:])


@functools.lru_cache(maxsize=64)
def _step_kernel(d: int, mca_factor: bool) -> Any:
    """:func:`_coded_step` traced on one row x = (A row-major, u_+, u_-, eta_+, eta_-, gamma) and compiled
    to float64 (:func:`numerics.compiled.compile_kernel`), or None (no LLVM, or d > KERNEL_MAX_D)."""
    if d < 1 or d > KERNEL_MAX_D:
        return None
    from numerics.compiled import compile_kernel

    n = d * d + 2 * d + 3

    def row(ar: Any, x: np.ndarray) -> np.ndarray:
        A, up, um = x[:d * d].reshape(d, d), x[d * d:d * d + d], x[d * d + d:d * d + 2 * d]
        eta_p, eta_m, gamma = x[d * d + 2 * d:]
        up, um = _coded_step(A, up, um, eta_p, eta_m, gamma, mca_factor, ar.sqrt)
        return np.concatenate((up, um))

    return compile_kernel(row, [("x", (n,))])


def _coded_step(A: np.ndarray, up: np.ndarray, um: np.ndarray, eta_p: Any, eta_m: Any, gamma: Any,
                mca_factor: bool, sqrt: Any) -> tuple[np.ndarray, np.ndarray]:
    """The coded step (§2.4), written once: run on float64 vectors (one pair, or stacked rows) with
    ``sqrt = np.sqrt``, and traced on symbolic ones for the compiled kernel."""
    upA = _vm(up, A)  # u_+^T A, the left factor of R and c (as in up @ A @ up, up @ A @ um)
    R = _dot(upA, up)
    c = _dot(upA, um)
    up = up + eta_p * ((_mv(A, up) - R * up) - (1 - gamma) * c * um)
    up = up / sqrt(_dot(up, up))
    y = _dot(_vm(um, A), um)
    nu = _dot(um, um)
    f = y / nu if mca_factor else 1.0
    c_new = _dot(_vm(up, A), um)  # u_+^T A u_- with the new u_+
    um = um - eta_m * f * (_mv(A, um) - (y / nu) * um) + eta_m * gamma * (1 - gamma) * c_new * up
    um = um / sqrt(_dot(um, um))
    um = um - _dot(um, up) * up
    um = um / sqrt(_dot(um, um))
    return up, um


def _positive(x: Any, name: str) -> float:
    if isinstance(x, (bool, np.bool_, str, bytes)) or x is None:
        raise InputTypeError(name, "must be a real number", x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputTypeError(name, "must be a real number", x) from None
    if not math.isfinite(v) or v <= 0:
        raise InputError(name, "must be finite and > 0", x)
    return v


def dwell_time_code(eta: float, gap: float, *, kappa: float = 2.0, eps: float = 0.05) -> int:
    """The companion code's dwell time ``T_d = ceil(kappa ln(1/eps) / (eta Delta^2))`` (spec §2.4; the
    code uses 1e4 when Delta < 1e-8).  Scales as c^-2 under A -> c A."""
    eta, gap, kappa, eps = (_positive(eta, "eta"), _positive(gap, "gap"), _positive(kappa, "kappa"),
                            _positive(eps, "eps"))
    if gap < 1e-8:
        return 10**4
    return math.ceil(kappa * math.log(1 / eps) / (eta * gap**2))


def dwell_time_normalised(eta0: float, gap: float, norm: float, *, kappa: float = 2.0, eps: float = 0.05) -> int:
    """The scale-consistent dwell time ``T = ceil(kappa ln(1/eps) / (eta_0 Delta / |A|_2))`` for the
    normalised step eta = eta_0/|A|_2 (spec §5.5): invariant under A -> c A."""
    eta0, gap, norm, kappa, eps = (_positive(eta0, "eta0"), _positive(gap, "gap"), _positive(norm, "norm"),
                                   _positive(kappa, "kappa"), _positive(eps, "eps"))
    return math.ceil(kappa * math.log(1 / eps) / (eta0 * gap / norm))


def plane_generator(a: Any, b: Any, m: float = 1.0) -> np.ndarray:
    """``m (a b^T - b a^T)``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return m * (np.outer(a, b) - np.outer(b, a))


def realise_commutator(S: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(G, M_a)`` with G > 0, M_a antisymmetric and ``1/2 [G, M_a] = S`` for a traceless symmetric S.

    Spec §2.7: bring S to zero diagonal by Givens rotations (each between a positive and a negative
    diagonal entry, with the angle that zeroes entry i), then take G = diag(g) with distinct g_i > 0
    and (M_a)_ij = 2 S_ij / (g_i - g_j), and rotate back.  (Sign convention here:
    [G, M_a]_ij = (g_i - g_j)(M_a)_ij.)
    """
    S = _square(S, "S")
    d = S.shape[0]
    if abs(np.trace(S)) > 1e-10 * max(1.0, np.abs(S).max()) * d:
        raise ValueError("S must be traceless")
    if not np.allclose(S, S.T):
        raise ValueError("S must be symmetric")
    O = np.eye(d)
    T = S.copy()
    scale = max(np.abs(S).max(), 1e-300)
    for _ in range(4 * d):
        diag = np.diag(T)
        i = int(np.argmax(np.abs(diag)))
        if abs(diag[i]) <= 1e-14 * scale:
            break
        js = [j for j in range(d) if j != i and diag[j] * diag[i] < 0]
        if not js:
            js = [j for j in range(d) if j != i and abs(diag[j]) <= 1e-14 * scale]
        if not js:  # every entry of one sign: their sum is the trace, within the traceless check's
            break   # tolerance -- a rounding residual, left on the diagonal
        j = max(js, key=lambda k: abs(diag[k]))
        a, b, c = T[i, i], T[j, j], T[i, j]
        # entry (i,i) after rotation by angle t in the (i,j) plane: a cos^2 + 2 c sin cos + b sin^2
        # = (a+b)/2 + (a-b)/2 cos 2t + c sin 2t ; solve = 0
        r = math.hypot((a - b) / 2, c)
        phi = math.atan2(c, (a - b) / 2)
        t2 = phi + math.acos(max(-1.0, min(1.0, -(a + b) / 2 / r)))
        t = t2 / 2
        R = np.eye(d)
        R[i, i] = R[j, j] = math.cos(t)
        R[i, j], R[j, i] = -math.sin(t), math.sin(t)
        # columns: new basis vector i = cos e_i + sin e_j
        T = R.T @ T @ R
        O = O @ R
    g = np.arange(1, d + 1, dtype=float)
    if rng is not None:
        g = np.sort(rng.uniform(0.5, 2.0, d))
        g += np.arange(d) * 1e-3
    Ma0 = np.zeros((d, d))
    for i in range(d):
        for j in range(d):
            if i != j:
                Ma0[i, j] = 2 * T[i, j] / (g[i] - g[j])
    G = O @ np.diag(g) @ O.T
    Ma = O @ Ma0 @ O.T
    return (G + G.T) / 2, (Ma - Ma.T) / 2
