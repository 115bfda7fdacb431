"""DDCL model checks on the user's training dynamics and temperature (spec §3.5, §3.8): stop-gradient
descent on the block's free energy never raises it (seed Theorem 8) and the sign laws of the derivatives
in tau of its loss and free energy (seed Theorem 3)."""

from __future__ import annotations

from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, statement_of

from ._model_common import SAFETY, _describe, _dtype, _instances, _tol


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

