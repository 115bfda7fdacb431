"""Closed-form population loss and gradients of the reconstructed one-layer model (spec §2.4-§2.5),
written ONCE, generic over the scalar/array type, plus the reference quantities of spec §3.

Model (spec §2.3, reading A1): logits z = sum_i a_i M_{x_i,:}, a = softmax over positions of
Phi_{q x_i}/tau, q = x_s, M = W0 W1, Phi = W0 W_Q W_K^T W0^T.  As s -> oo (spec §2.4)

    A = row-softmax(Phi/tau + 1 (log pi)^T),  A_qk = pi_k e^{Phi_qk/tau} / sum_j pi_j e^{Phi_qj/tau},
    L(theta) = - sum_{q,y} pi_q P_qy log softmax(A_q M)_y.

Gradients (spec §2.5): Pred = row-softmax(A M), D = diag(pi)(Pred - P), X = D M^T,

    G_M = A^T D,   G_Phi = (1/tau) A o (X - rowsum(A o X) 1^T),

and the chain rule to (W0, W1, W_Q, W_K).

Every kernel takes a :class:`numerics.arithmetic.Arithmetic` ``ar`` (default :data:`FLOAT`, float64 numpy
arrays): :class:`~numerics.arithmetic.TorchArithmetic` on tensors, MP/Arb/Exact/SympyArithmetic or
:class:`numerics.krawczyk.JetArithmetic` on numpy object arrays of its values; ``ar.exp`` / ``ar.log``
are applied elementwise.  Arrays may carry leading batch dimensions (``...``): the batched torch sweeps
run the very same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from numerics.arithmetic import Arithmetic, FloatArithmetic, MPArithmetic, TorchArithmetic
from numerics.compiled import TracingArithmetic

__all__ = [
    "FLOAT",
    "attention", "predictions", "population_loss", "grad_M_Phi", "param_grads", "chain_rule", "model_matrices",
    "reference_formulas", "reference_quantities", "ReferenceQuantities", "lumped_loss", "lumped_targets",
    "grads_from_residual",
]


# -- arithmetic and array layout ------------------------------------------------------------------
FLOAT = FloatArithmetic()  # float64 (numpy arrays): the default of every kernel


_ORDERED = (FloatArithmetic, TorchArithmetic, MPArithmetic, TracingArithmetic)
_EXP = np.exp


def _ordered(ar: Arithmetic) -> bool:
    """Whether softmaxes may be shifted by the row maximum (the stable form): only for point arithmetics
    with an order (float64, torch, mpmath) and the trace compiled to float64 (numerics.compiled: a traced
    ``Max``).  Exact rationals have exp only at 0, balls and sympy symbols no max."""
    return isinstance(ar, _ORDERED)


def _exp(x: Any, ar: Arithmetic) -> Any:
    """ar.exp elementwise.  For float64 arrays this is numpy's exp (FloatArithmetic.exp of an array),
    called directly: the flows evaluate it ~10^5 times on a few dozen entries."""
    if type(ar) is FloatArithmetic and type(x) is np.ndarray and x.dtype.kind == "f":
        return _EXP(x)
    return _map(ar.exp, x)


def _over_tau(x: Any, tau: Any, ar: Arithmetic) -> Any:
    """x / tau, or x itself at tau = 1 in an ordered point arithmetic, where dividing by 1 returns x: IEEE
    division by 1 is exact (float64, torch), and an mpmath value of the context is already rounded to its
    precision.  Saves two elementwise passes per gradient (every flow runs at tau = 1)."""
    if (type(tau) in (int, float) or type(tau).__module__ == "mpmath.ctx_mp_python") and tau == 1 \
            and _ordered(ar):
        return x
    return x / tau


def _map(f: Callable[[Any], Any], x: Any) -> Any:
    """f elementwise: through numpy for object arrays (mpf, arb, sympy, Fraction, jets), else f(x) itself
    (float64 arrays and torch tensors are elementwise already)."""
    if isinstance(x, np.ndarray) and x.dtype == object:
        return np.frompyfunc(f, 1, 1)(x)
    return f(x)


def _torch(x: Any) -> bool:
    return type(x).__module__.startswith("torch")


# The four layout operations act on the last two axes (rows, columns); leading axes are a batch.  An
# arithmetic that stores its arrays in another layout (the batch-last sweeps of ``_batched``) supplies
# them as methods of the same names.
# ndarray.sum / .max are Python wrappers (numpy/_core/_methods.py) around exactly these ufunc reductions
_ADD, _MAX = np.add.reduce, np.maximum.reduce


def _rowsum(x: Any, ar: Arithmetic) -> Any:
    own = getattr(ar, "rowsum", None)
    if own is not None:
        return own(x)
    if type(x) is np.ndarray:  # the common case first: the flows call these helpers ~10^5 times
        return _ADD(x, -1, None, None, True)  # = x.sum(axis=-1, keepdims=True), without its Python wrapper
    return x.sum(dim=-1, keepdim=True) if _torch(x) else x.sum(axis=-1, keepdims=True)


def _rowmax(x: Any, ar: Arithmetic) -> Any:
    own = getattr(ar, "rowmax", None)
    if own is not None:
        return own(x)
    if type(x) is not np.ndarray and _torch(x):
        return x.amax(dim=-1, keepdim=True)
    if x.dtype != object:
        return _MAX(x, -1, None, None, True)  # = x.max(axis=-1, keepdims=True), without its Python wrapper
    out = np.empty(x.shape[:-1] + (1,), dtype=object)
    for idx in np.ndindex(*x.shape[:-1]):
        out[idx + (0,)] = max(x[idx])
    return out


def _T(x: Any, ar: Arithmetic) -> Any:
    own = getattr(ar, "T", None)
    if own is not None:
        return own(x)
    if type(x) is np.ndarray:
        return x.swapaxes(-1, -2)  # the same view as np.swapaxes, without its dispatch
    return x.transpose(-1, -2) if _torch(x) else np.swapaxes(x, -1, -2)


def _total(x: Any, ar: Arithmetic) -> Any:
    own = getattr(ar, "total", None)
    if own is not None:
        return own(x)
    if _torch(x):
        return x.sum(dim=(-1, -2))
    return x.sum(axis=-1).sum(axis=-1) if x.dtype == object else x.sum(axis=(-1, -2))


# -- the model ---------------------------------------------------------------------------------------
def _softmax_rows(Z: Any, ar: Arithmetic) -> Any:
    if _ordered(ar):
        Z = Z - _rowmax(Z, ar)
    E = _exp(Z, ar)
    return E / _rowsum(E, ar)


def attention(pi: Any, Phi: Any, tau: Any, ar: Arithmetic = FLOAT) -> Any:
    """A = row-softmax(Phi/tau + 1 log pi^T), computed as pi_k e^{Phi_qk/tau} / sum_j (no log pi)."""
    S = _over_tau(Phi, tau, ar)
    if _ordered(ar):
        S = S - _rowmax(S, ar)
    E = _exp(S, ar) * pi[..., None, :]
    return E / _rowsum(E, ar)


def predictions(pi: Any, M: Any, Phi: Any, tau: Any, ar: Arithmetic = FLOAT) -> tuple[Any, Any]:
    """(A, Pred) with Pred = row-softmax(A M)."""
    A = attention(pi, Phi, tau, ar)
    return A, _softmax_rows(A @ M, ar)


def population_loss(pi: Any, P: Any, M: Any, Phi: Any, tau: Any = 1, ar: Arithmetic = FLOAT) -> Any:
    """L = - sum_{q,y} pi_q P_qy log softmax(A_q M)_y (spec §2.4)."""
    A = attention(pi, Phi, tau, ar)
    Z = A @ M
    if _ordered(ar):
        Z = Z - _rowmax(Z, ar)
    logp = Z - _map(ar.log, _rowsum(_exp(Z, ar), ar))
    return -_total(pi[..., :, None] * P * logp, ar)


def grad_M_Phi(pi: Any, P: Any, M: Any, Phi: Any, tau: Any = 1, ar: Arithmetic = FLOAT) -> tuple[Any, Any]:
    """(G_M, G_Phi) = (A^T D, (1/tau) A o (X - rowsum(A o X) 1^T)), D = diag(pi)(Pred - P), spec §2.5."""
    A, Pred = predictions(pi, M, Phi, tau, ar)
    return grads_from_residual(A, pi[..., :, None] * (Pred - P), M, tau, ar)


def grads_from_residual(A: Any, D: Any, M: Any, tau: Any = 1, ar: Arithmetic = FLOAT) -> tuple[Any, Any]:
    """(G_M, G_Phi) from the attention A and the weighted residual D = diag(pi)(Pred - P) (spec §2.5):
    G_M = A^T D, G_Phi = (1/tau) A o (X - rowsum(A o X) 1^T) with X = D M^T.  :func:`grad_M_Phi` is this
    with D computed from the model; the symbolic lemma of spec §4.13 supplies D at the lumped targets."""
    GM = _T(A, ar) @ D
    X = D @ _T(M, ar)
    AX = A * X
    GPhi = _over_tau(AX - A * _rowsum(AX, ar), tau, ar)
    return GM, GPhi


def model_matrices(W0: Any, W1: Any, WQ: Any, WK: Any, ar: Arithmetic = FLOAT) -> tuple[Any, Any]:
    """(M, Phi) = (W0 W1, W0 W_Q W_K^T W0^T) = (W0 W1, V U^T) with V = W0 W_Q, U = W0 W_K."""
    return W0 @ W1, (W0 @ WQ) @ _T(W0 @ WK, ar)


def param_grads(pi: Any, P: Any, W0: Any, W1: Any, WQ: Any, WK: Any, tau: Any = 1,
                ar: Arithmetic = FLOAT, *, variant: str = "statement") -> tuple[Any, Any, Any, Any]:
    """Chain rule of spec §2.5: gradients of L with respect to (W0, W1, W_Q, W_K).

    ``variant="drop_phiT_term"`` is the bug-injected gradient of the negative controls (§4.2, §4.3):
    the G_Phi^T W0 W_Q W_K^T term of dL/dW0 is dropped.
    """
    if variant not in ("statement", "drop_phiT_term"):
        raise ValueError(f"unknown gradient variant {variant!r}")
    V, U = W0 @ WQ, W0 @ WK
    M, Phi = W0 @ W1, V @ _T(U, ar)
    GM, GPhi = grad_M_Phi(pi, P, M, Phi, tau, ar)
    return chain_rule(GM, GPhi, W0, W1, WQ, WK, ar, variant=variant, products=(V, U))


def chain_rule(GM: Any, GPhi: Any, W0: Any, W1: Any, WQ: Any, WK: Any, ar: Arithmetic = FLOAT, *,
               variant: str = "statement", products: tuple[Any, Any] | None = None
               ) -> tuple[Any, Any, Any, Any]:
    """dL/dW from (G_M, G_Phi): dW0 = G_M W1^T + G_Phi W0 W_K W_Q^T + G_Phi^T W0 W_Q W_K^T,
    dW1 = W0^T G_M, dW_Q = W0^T G_Phi W0 W_K, dW_K = W0^T G_Phi^T W0 W_Q (spec §2.5).

    Evaluated with the shared products V = W0 W_Q and U = W0 W_K (``products``, computed if absent):
    dW0 = G_M W1^T + (G_Phi U) W_Q^T + (G_Phi^T V) W_K^T, dW_Q = W0^T (G_Phi U),
    dW_K = W0^T (G_Phi^T V) -- 10 matrix products instead of 14.
    """
    if variant not in ("statement", "drop_phiT_term"):
        raise ValueError(f"unknown gradient variant {variant!r}")
    def T(x: Any) -> Any:
        return _T(x, ar)

    V, U = products if products is not None else (W0 @ WQ, W0 @ WK)
    GU = GPhi @ U
    GtV = T(GPhi) @ V
    g0 = GM @ T(W1) + GU @ T(WQ)
    if variant == "statement":
        g0 = g0 + GtV @ T(WK)
    W0T = T(W0)
    return g0, W0T @ GM, W0T @ GU, W0T @ GtV


# -- reference quantities (spec §3) -------------------------------------------------------------
def reference_formulas(pi: list[Any], P: list[list[Any]], *, log: Callable[[Any], Any],
                       sqrt: Callable[[Any], Any], tau: Any = 1, is_zero: Callable[[Any], bool] | None = None
                       ) -> dict[str, Any]:
    """The closed forms of spec §3 on plain lists, generic over the scalar type.

    log d, H(pi), H(Y|X), n2 = |pi|^2, v = pi - 1/d, l = centred log pi, r = (P - 1 pi^T) l,
    mu0 = |pi| |v|, s_c^2 = |l|/|pi|, K1 = Var_pi(pi.)/n2, K2 = sum_q pi_q^2 r_q,
    c = (s_c^2/n2) K1 K2 / tau, rho = (|pi|/(2 s_c)) P_pi^perp [pi o r/K2 + 2 pi o pi/(n2 K1)], and the
    saddle theta_c^1's vectors gamma1 = s_c pi_hat, beta1 = s_c l_hat (spec §4.6: W0 = gamma1 alpha1^T,
    W1 = alpha1 beta1^T; absent for uniform pi, where theta_c^1 is the origin).
    """
    d = len(pi)
    is_zero = is_zero or (lambda x: x == 0)
    logs = [log(p) for p in pi]
    logd = log(pi[0] * 0 + d)
    H = -sum(p * lp for p, lp in zip(pi, logs))
    HYX = -sum(pi[q] * P[q][y] * log(P[q][y]) for q in range(d) for y in range(d) if not is_zero(P[q][y]))
    n2 = sum(p * p for p in pi)
    v = [p - sum(pi) / d for p in pi]
    mlog = sum(logs) / d
    ell = [lp - mlog for lp in logs]
    r = [sum((P[q][k] - pi[k]) * ell[k] for k in range(d)) for q in range(d)]
    normpi = sqrt(n2)
    normv = sqrt(sum(x * x for x in v))
    norml = sqrt(sum(x * x for x in ell))
    mu0 = normpi * normv
    sc2 = norml / normpi
    var = sum(p ** 3 for p in pi) - n2 ** 2
    cov = sum(p * p * lp for p, lp in zip(pi, logs)) - n2 * sum(p * lp for p, lp in zip(pi, logs))
    K1 = var / n2
    K2 = sum(pi[q] ** 2 * r[q] for q in range(d))
    c = sc2 / n2 * K1 * K2 / tau
    sc = sqrt(sc2)
    out = dict(logd=logd, H=H, HYX=HYX, n2=n2, v=v, ell=ell, r=r, mu0=mu0, sc2=sc2, K1=K1, K2=K2,
               c=c, var=var, cov=cov, normpi=normpi, norml=norml)
    if not is_zero(norml):  # uniform pi: theta_c^1 is the origin, l_hat undefined
        out["gamma1"] = [sc * p / normpi for p in pi]
        out["beta1"] = [sc * x / norml for x in ell]
    if not is_zero(K1) and not is_zero(K2):
        w = [pi[k] * r[k] / K2 + 2 * pi[k] * pi[k] / (n2 * K1) for k in range(d)]
        proj = sum(w[k] * pi[k] for k in range(d)) / n2
        out["rho"] = [normpi / (2 * sc) * (w[k] - proj * pi[k]) for k in range(d)]
    return out


@dataclass(frozen=True)
class ReferenceQuantities:
    """Reference quantities of spec §3 at ``dps`` digits (mpmath values; ``float(x)`` for floats)."""

    dps: int
    logd: Any
    H: Any
    HYX: Any
    n2: Any
    mu0: Any
    sc2: Any
    K1: Any
    K2: Any
    c: Any
    rho: tuple[Any, ...] | None

    def as_floats(self) -> dict[str, Any]:
        out = {k: float(getattr(self, k)) for k in ("logd", "H", "HYX", "n2", "mu0", "sc2", "K1", "K2", "c")}
        out["rho"] = None if self.rho is None else [float(x) for x in self.rho]
        return out


def chain_mp(chain: Any, ctx: Any) -> tuple[list[Any], list[list[Any]]]:
    """(pi, P) of a MarkovChain as mpmath numbers (exact rationals rounded once at ctx precision)."""
    def conv(x: Any) -> Any:
        if isinstance(x, Fraction):
            return ctx.mpf(x.numerator) / x.denominator
        return ctx.mpf(float(x))

    if chain.P_exact is not None:
        return [conv(x) for x in chain.pi_exact], [[conv(x) for x in r] for r in chain.P_exact]
    return [conv(x) for x in chain.pi], [[conv(x) for x in r] for r in chain.P]


def reference_quantities(chain: Any, dps: int = 40, tau: Any = 1) -> ReferenceQuantities:
    """log d, H(pi), H(Y|X), n2, mu0, s_c^2, K1, K2, c (and rho when K1 K2 != 0) at ``dps`` digits.

    >>> from numerics.markov import MarkovChain
    >>> q = reference_quantities(MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2"), dps=30)
    >>> round(float(q.c), 12)
    0.079784701432
    """
    from numerics.errors import InputTypeError
    from numerics.markov import MarkovChain
    from numerics.precision import mp_context
    from numerics.validation import check_dps, check_positive_real

    if not isinstance(chain, MarkovChain):
        raise InputTypeError("chain", "must be a MarkovChain (theorems.focus_dilution.MarkovChain)",
                             type(chain).__name__, has_value=True)
    tau_q = check_positive_real(tau, "tau")  # finite and > 0, exactly (NaN gave c = nan)
    ctx = mp_context(check_dps(dps, minimum=5))
    pi, P = chain_mp(chain, ctx)
    f = reference_formulas(pi, P, log=ctx.log, sqrt=ctx.sqrt,
                           tau=ctx.mpf(tau_q.numerator) / tau_q.denominator)
    rho = tuple(f["rho"]) if "rho" in f else None
    return ReferenceQuantities(dps, f["logd"], f["H"], f["HYX"], f["n2"], f["mu0"], f["sc2"], f["K1"],
                               f["K2"], f["c"], rho)


def lumped_targets(pi1: Any, lam: Any, d: int, *, log: Callable[[Any], Any] = math.log) -> tuple[Any, Any]:
    """The lumped logit targets of spec §3 for F4: T1 = log[(d-1)(lam + (1-lam)pi1) / ((1-lam)(1-pi1))] and
    T' = log[(d-1)(1-lam)pi1 / rho_l], rho_l = lam + (1-lam)(1-pi1): the logit of token 1 over a rare token
    at which the lumped prediction equals P_1 (query 1) and P_q on token 1 (rare q)."""
    rl = lam + (1 - lam) * (1 - pi1)
    return (log((d - 1) * (lam + (1 - lam) * pi1) / ((1 - lam) * (1 - pi1))),
            log((d - 1) * (1 - lam) * pi1 / rl))


def lumped_loss(pi1: Any, lam: Any, d: int, *, log: Callable[[Any], Any] = math.log) -> Any:
    """L_lump of spec §3 for F4: pi1 H(P_1) + (1-pi1)[-(1-lam)pi1 log((1-lam)pi1) - rho_l log(rho_l/(d-1))]."""
    pl = (1 - pi1) / (d - 1)
    row1 = [lam + (1 - lam) * pi1] + [(1 - lam) * pl] * (d - 1)
    H1 = -sum(p * log(p) for p in row1)
    rl = lam + (1 - lam) * (1 - pi1)
    return pi1 * H1 + (1 - pi1) * (-(1 - lam) * pi1 * log((1 - lam) * pi1) - rl * log(rl / (d - 1)))
