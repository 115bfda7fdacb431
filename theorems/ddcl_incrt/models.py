"""DDCL model-level claims on a user's prototype block (issue 12; spec §2.2, §3.1, §3.3).

A user's block satisfies :class:`PrototypeBlock` -- three members, written as pure functions of the
prototypes so that gradients come from ``torch.func``:

* ``tau``: the temperature (a float > 0);
* ``assignments(Z, P) -> Q``: the (N, K) soft assignments, rows on the simplex (Gibbs:
  ``q_ik ∝ exp(-|z_i - p_k|^2 / tau)``);
* ``loss(Z, P) -> L_q``: the soft quantisation loss ``mean_i sum_k q_ik |z_i - p_k|^2`` with live
  assignments.

The checks compute observables from the user's block and evaluate the claim's own statement on them
(``statement_of`` + ``tally.statement``); the tolerance comes from the block's dtype (machine epsilon
times the number of terms summed, safety factor 8) and is recorded.  :class:`ToolkitBlock` is the
toolkit's own implementation of the protocol (the default model).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from verify import Evidence, Profile, Tally, statement_of
from verify._models import ModelCheck

__all__ = ["MODEL_CHECKS", "PrototypeBlock", "ToolkitBlock"]

SAFETY = 8


@runtime_checkable
class PrototypeBlock(Protocol):
    """What the model-level DDCL claims need of a prototype (dictionary) block."""

    tau: float

    def assignments(self, Z: Any, P: Any) -> Any:
        """(N, K) soft assignments of the N rows of Z to the K prototypes P (rows on the simplex)."""

    def loss(self, Z: Any, P: Any) -> Any:
        """The soft quantisation loss L_q = mean_i sum_k q_ik |z_i - p_k|^2 (a scalar tensor)."""


class ToolkitBlock:
    """The toolkit's prototype block (float64 torch), for comparison and as the default model."""

    def __init__(self, tau: float = 0.7, dtype: Any = None):
        import torch

        self.tau = float(tau)
        self.dtype = dtype or torch.float64

    def assignments(self, Z: Any, P: Any) -> Any:
        import torch

        d2 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        return torch.softmax(-d2 / self.tau, dim=1)

    def loss(self, Z: Any, P: Any) -> Any:
        d2 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        return (self.assignments(Z, P) * d2).sum(1).mean()


def _dtype(model: Any) -> Any:
    import torch

    return getattr(model, "dtype", None) or torch.float64


def _instances(seed: int, count: int, dtype: Any) -> list[tuple[Any, Any]]:
    import torch

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        N, K, d = int(rng.integers(1, 9)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        Z = torch.tensor(rng.normal(size=(N, d)), dtype=dtype)
        P = torch.tensor(rng.normal(size=(K, d)), dtype=dtype)
        out.append((Z, P))
    return out


def _tol(dtype: Any, terms: int, scale: float) -> float:
    import torch

    return SAFETY * (terms + 4) * float(torch.finfo(dtype).eps) * max(1.0, scale)


def _describe(Z: Any, P: Any) -> dict[str, Any]:
    return {"Z": Z.detach().double().tolist(), "P": P.detach().double().tolist()}


def decomposition(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.dictionary.decomposition, part ``identity``: the model's loss L_q equals L_OLS + V computed
    by :func:`.dictionary.dictionary_losses` from the model's own assignments and the prototypes."""
    import torch

    from .dictionary import dictionary_losses

    st = statement_of("ddcl.dictionary.decomposition")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch",
                  seeds=(seed,))
    worst = 0.0
    for Z, P in _instances(seed, profile.pick(12, 40, 200), dtype):
        with torch.no_grad():
            Lq = model.loss(Z, P)
            Q = model.assignments(Z, P)
        N, K, d = Q.shape[0], Q.shape[1], Z.shape[1]
        parts = dictionary_losses(Z.double().tolist(), P.double().tolist(), Q.double().tolist())
        scale = float(abs(parts.L_OLS) + abs(parts.V))
        tol = _tol(dtype, N * K * (d + 2), scale)
        worst = max(worst, abs(float(Lq) - float(parts.L_OLS + parts.V)) / max(tol, 1e-300))
        tally.statement(st, {"L_q": Lq.double(), "L_OLS": float(parts.L_OLS), "V": float(parts.V),
                             "instance": _describe(Z, P)}, part="identity", tol=tol)
    tally.tolerance = None
    tally.details.update(worst_error_over_tolerance=worst, safety=SAFETY,
                         tolerance_rule="8 (N K (d + 2) + 4) eps(dtype) max(1, |L_OLS| + |V|)")
    return tally.evidence()


def gradients(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.dictionary.gradients, part ``live grad L_q``: the gradient of the model's one-sample loss
    with respect to each prototype (``torch.func.grad``) is 2 q_k (1 - (d_k - ell)/tau)(p_k - z), the
    statement evaluated on the model's own assignments q, the distances d_k and ell = sum_k q_k d_k."""
    import torch
    from torch.func import grad

    st = statement_of("ddcl.dictionary.gradients")
    dtype = _dtype(model)
    tau = float(model.tau)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func",
                  seeds=(seed,))
    for Z, P in _instances(seed + 1, profile.pick(12, 40, 200), dtype):
        z = Z[:1]
        g = grad(lambda P_: model.loss(z, P_))(P)
        with torch.no_grad():
            q = model.assignments(z, P)[0]
        dk = ((z - P) ** 2).sum(-1)
        ell = (q * dk).sum()
        K, d = P.shape
        scale = float((2 * q[:, None] * (1 + (dk[:, None] - ell).abs() / tau) * (P - z).abs()).max())
        tol = _tol(dtype, 4 * K * d, scale / max(1e-300, min(1.0, tau)))
        # the instance (sample z, prototypes P) rides along with the observables into the report
        tally.statement(st, {"g": g.double(), "q_k": q[:, None].double(), "d_k": dk[:, None].double(),
                             "ell": ell.double(), "p_k": P.double(), "z": z.double(), "tau": tau,
                             "instance": _describe(z, P)},
                        part="live grad L_q", tol=tol)
    tally.details.update(safety=SAFETY, tolerance_rule="8 (4 K d + 4) eps(dtype) max(1, max|term|/min(1, tau))")
    return tally.evidence()


def critical_temperature(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.separation.critical_temperature on the model's loss (full training, c = 4): at collapse (every
    prototype at the data mean) the Hessian of the model's loss with respect to the prototypes
    (``torch.func.jacrev`` twice) has the Rayleigh quotient h_j = (2/K)(1 - 4 lambda_j / tau) along the
    relative mode (e_1 - e_2)/sqrt 2 (x) v_j (part ``relative_modes``), and negative eigenvalues exactly
    when tau < 4 lambda_1 (part ``negative_count``; tau = 4 lambda_1 (1 +- 3/10)); lambda_j, v_j from
    numpy's ``eigh`` of the data covariance (1/N)."""
    import warnings

    import torch
    from torch.func import jacrev

    st = statement_of("ddcl.separation.critical_temperature")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func",
                  seeds=(seed,))
    tau0 = model.tau
    rng = np.random.default_rng(seed + 2)
    try:
        for _ in range(profile.pick(4, 10, 40)):
            N, K, d = int(rng.integers(3, 9)), int(rng.integers(2, 4)), int(rng.integers(1, 4))
            Zn = rng.normal(size=(N, d)) * rng.uniform(0.5, 2.0, size=d)
            C = np.cov(Zn.T, bias=True).reshape(d, d)
            lams, vecs = np.linalg.eigh(C)
            lam1, v1 = float(lams[-1]), vecs[:, -1]
            Z = torch.tensor(Zn, dtype=dtype)
            P0 = Z.mean(0, keepdim=True).repeat(K, 1)
            xi = np.zeros(K)
            xi[0], xi[1] = 1 / np.sqrt(2), -1 / np.sqrt(2)
            w = torch.tensor(np.outer(xi, v1).reshape(-1), dtype=dtype)
            inst = {"Z": Zn.tolist(), "K": K}
            for tau in (4 * lam1 * 0.7, 4 * lam1 * 1.3):
                model.tau = tau
                with warnings.catch_warnings():  # torch.func scripts a helper on first use
                    warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated",
                                            category=DeprecationWarning)
                    # reverse over reverse: user code may use ops without forward-mode AD
                    try:
                        H = jacrev(jacrev(lambda P: model.loss(Z, P)))(P0).reshape(K * d, K * d)
                    except NotImplementedError as e:
                        from verify import InputError

                        raise InputError("model", "loss(Z, P) must be twice differentiable in P with "
                                         f"torch.func (an op has no second derivative: {e})"[:400],
                                         type(model).__name__) from None
                H = (H + H.T) / 2
                hj = float(w @ H @ w)
                ev = torch.linalg.eigvalsh(H.double())
                scale = max(1.0, float(H.abs().max()), 8 * lam1 / tau)
                tol = _tol(dtype, 4 * N * K * d, scale)
                tally.statement(st, {"h_j": hj, "lambda_j": lam1, "tau": tau, "K": K, "instance": inst},
                                part="relative_modes", tol=tol)
                tally.statement(st, {"n_-": int((ev < -tol).sum()), "tau": tau, "lambda_1": lam1,
                                     "instance": inst}, part="negative_count", tol=tol)
    finally:
        model.tau = tau0
    tally.details.update(safety=SAFETY, tolerance_rule="8 (4 N K d + 4) eps(dtype) max(1, max|H|, 8 lambda_1/tau)")
    return tally.evidence()


def _free_energy(model: Any, Z: Any, P: Any) -> Any:
    """F = L_q - tau H of the model: its own loss and the entropy H = -mean_i sum_k q_ik log q_ik of its own
    assignments (``torch.special.xlogy``: 0 log 0 = 0)."""
    import torch

    Q = model.assignments(Z, P)
    return model.loss(Z, P) + float(model.tau) * torch.special.xlogy(Q, Q).sum(1).mean()


def free_energy_descent(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.lyapunov.free_energy, part ``descent`` (seed Theorem 8, L1/L5; spec §3.8): stop-gradient
    training of the model's prototypes at fixed tau -- gradient descent on the model's free energy
    F = L_q - tau H (``torch.autograd.grad`` of the model's loss and of the entropy of its assignments; for
    Gibbs assignments this is the detached gradient, the envelope theorem) at the largest admissible step
    eta = 1/2 -- never raises F.  Between events the channels are frozen, so F_rel = F - tr C_H differs
    from F by a constant and the statement is evaluated on F.  Per instance, gradient steps from random
    prototypes (25 steps); the step with the largest rise of F is recorded.  Tolerance 8 (N K (d + 2) + 4)
    eps(dtype) max(1, |F|)."""
    import torch

    st = statement_of("ddcl.lyapunov.free_energy")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.autograd",
                  seeds=(seed,))
    eta, steps, worst = 0.5, 25, 0.0
    for Z, P in _instances(seed + 3, profile.pick(6, 20, 80), dtype):
        N, K, d = Z.shape[0], P.shape[0], Z.shape[1]

        def gF(P_: Any) -> Any:
            P_ = P_.detach().requires_grad_(True)
            return torch.autograd.grad(_free_energy(model, Z, P_), P_)[0]

        with torch.no_grad():
            F_prev = float(_free_energy(model, Z, P))
        pair, rise, scale, P0 = (F_prev, F_prev), -float("inf"), abs(F_prev), P.clone()
        for _ in range(steps):
            P = P - eta * gF(P)
            with torch.no_grad():
                F_next = float(_free_energy(model, Z, P))
            if F_next - F_prev > rise:
                rise, pair = F_next - F_prev, (F_prev, F_next)
            scale = max(scale, abs(F_next))
            F_prev = F_next
            if rise > _tol(dtype, N * K * (d + 2), scale):
                break  # a rise beyond the budget: the witness (diverging steps only slow the rest down)
        tol = _tol(dtype, N * K * (d + 2), scale)
        worst = max(worst, rise / tol)
        tally.statement(st, {"F_rel_prev": pair[0], "F_rel_next": pair[1], "instance": _describe(Z, P0)
                             | {"tau": float(model.tau), "eta": eta, "steps": steps}},
                        part="descent", tol=tol)
        if tally.counterexample is not None:
            break
    tally.details.update(worst_rise_over_tolerance=worst, safety=SAFETY, eta=eta, steps=steps,
                         tolerance_rule="8 (N K (d + 2) + 4) eps(dtype) max(1, max|F|)")
    return tally.evidence()


#: the sign-law statement's symbol names (theorems/ddcl_incrt/_statements_temperature.py)
DLQ, DF, VAR = r"\partial_{\tau}L_{q}", r"\partial_{\tau}F", r"\mathrm{Var}_q(d)"


def temperature_sign_laws(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.temperature.sign_laws on the model (seed Theorem 3; spec §3.5): for one sample's distance row
    d_k = |z - p_k|^2, the derivatives in tau of the model's loss L_q and of its free energy F = L_q - tau H
    (``torch.autograd`` through ``model.tau`` set to a tensor; H the entropy of the model's assignments)
    obey dL_q/dtau = Var_q(d)/tau^2 >= 0, > 0 when the row is not constant (parts ``dLq_sign``,
    ``dLq_formula``) and dF/dtau = -H <= 0 (``dF_sign``, ``dF_formula``); Var_q(d) and H from the model's
    own assignments q.  Rows: K prototypes at squared distances d_k in [0, 2 tau] from z, spread
    max d - min d >= tau (the strict half, dL_q/dtau > 0, is then decidable in float: Var_q(d)/tau^2 >=
    e^{-2}/K x 1/2 x 1 against the tolerance).  Tolerance 8 (4 K d + 4) eps(dtype) max(1, max d / tau)^2
    (d and tau enter the derivatives through d/tau and d^2/tau^2)."""
    import warnings

    import torch

    from verify import InputError

    st = statement_of("ddcl.temperature.sign_laws")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.autograd",
                  seeds=(seed,))
    tau0 = model.tau
    tau = float(tau0)
    rng = np.random.default_rng(seed + 4)
    try:
        for _ in range(profile.pick(12, 40, 200)):
            K, d = int(rng.integers(2, 5)), int(rng.integers(1, 4))
            U = rng.normal(size=(K, d))
            U /= np.linalg.norm(U, axis=1, keepdims=True)
            r2 = tau * rng.uniform(0, 2, size=K)
            r2[0], r2[-1] = tau * rng.uniform(0, 0.5), tau * rng.uniform(1.5, 2)
            zn = rng.normal(size=(1, d))
            z = torch.tensor(zn, dtype=dtype)
            P = torch.tensor(zn + np.sqrt(r2)[:, None] * U, dtype=dtype)
            t = torch.tensor(float(tau0), dtype=dtype, requires_grad=True)
            model.tau = t
            with warnings.catch_warnings():  # a block that takes float(tau) warns here; the error below names it
                warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar",
                                        category=UserWarning)
                Lq = model.loss(z, P)
                q = model.assignments(z, P)
            H = -torch.special.xlogy(q, q).sum(1).mean()
            F = Lq - t * H
            dLq = torch.autograd.grad(Lq, t, retain_graph=True, allow_unused=True)[0] if Lq.requires_grad else None
            if dLq is None or not F.requires_grad:
                raise InputError("model", "loss(Z, P) must depend on model.tau as set (a tensor), so that "
                                 "its derivative in tau exists", type(model).__name__)
            dF = torch.autograd.grad(F, t)[0]
            with torch.no_grad():
                dk = ((z - P) ** 2).sum(-1)
                qk = q[0].detach()
                var = float((qk * dk ** 2).sum() - (qk * dk).sum() ** 2)
            tol = _tol(dtype, 4 * K * d, max(1.0, float(dk.max()) / tau) ** 2)
            inst = _describe(z, P) | {"tau": tau}
            vals = {DLQ: float(dLq), DF: float(dF), VAR: var, "H": float(H.detach()), "tau": tau,
                    "s": float(dk.max() - dk.min()), "instance": inst}
            for part in ("dLq_sign", "dLq_formula", "dF_sign", "dF_formula"):
                tally.statement(st, vals, part=part, tol=tol)
    finally:
        model.tau = tau0
    tally.details.update(safety=SAFETY, tolerance_rule="8 (4 K d + 4) eps(dtype) max(1, max d / tau)^2")
    return tally.evidence()


MODEL_CHECKS = (
    ModelCheck("ddcl.dictionary.decomposition", decomposition, PrototypeBlock,
               "the model's L_q against L_OLS + V from its own assignments (part 'identity')",
               default=ToolkitBlock),
    ModelCheck("ddcl.dictionary.gradients", gradients, PrototypeBlock,
               "torch.func gradient of the model's one-sample loss against the live-gradient formula",
               default=ToolkitBlock),
    ModelCheck("ddcl.separation.critical_temperature", critical_temperature, PrototypeBlock,
               "torch.func Hessian of the model's loss at collapse: relative-mode eigenvalue and the sign "
               "change at tau_c = 4 lambda_1", default=ToolkitBlock),
    ModelCheck("ddcl.lyapunov.free_energy", free_energy_descent, PrototypeBlock,
               "gradient descent (eta = 1/2, fixed tau) on the model's free energy L_q - tau H never raises it "
               "(part 'descent')", default=ToolkitBlock),
    ModelCheck("ddcl.temperature.sign_laws", temperature_sign_laws, PrototypeBlock,
               "derivatives in tau of the model's loss and free energy (autograd through model.tau): "
               "dL_q/dtau = Var_q(d)/tau^2 >= 0, dF/dtau = -H <= 0", default=ToolkitBlock),
)
