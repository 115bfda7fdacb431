"""DDCL model checks on the loss identity and its gradient (spec §2.2, §3.1): the user's block's L_q
against L_OLS + V, and its ``torch.func`` gradient against the live-gradient formula."""

from __future__ import annotations

from typing import Any

from verify import Evidence, Profile, Tally, statement_of

from ._model_common import SAFETY, _describe, _dtype, _instances, _tol


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

