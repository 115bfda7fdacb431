"""Gradient-descent training of a user's prototype block (:class:`.models.PrototypeBlock`; issue 12) for
the trained-dictionary model check (seed Theorem 4, R2; spec §3.6): many independent runs -- each its own
data Z, start P0, temperature tau, mode and step budget -- trained either all at once (one batched program:
``torch.func.vmap`` of ``torch.func.grad`` of the block's loss, a leading batch of runs, one step of every
live run per call) or one after the other (the fallback for a block that ``vmap`` cannot trace, e.g. one
calling ``.item()``/``float()`` on a tensor or writing in place into its input).

Both paths take the same steps: P <- P - eta grad_P obj(Z, P) at the run's tau, obj the block's own loss
L_q (mode ``full``) or its free energy F = L_q - tau H with H the entropy of its own assignments
(``stopgrad``; for Gibbs assignments grad F is the detached gradient, the envelope theorem).  A run with a
collapse test stops at the first multiple of ``check_every`` at which its prototypes' span is empty; a run
whose prototypes turn non-finite (a diverging block) stops there, its P returned as it is.  The
batched path differs from the sequential one only in the order of floating-point reductions inside the
batched kernels (last bits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Run:
    """One training run: data Z (N x d tensor), start P (K x d tensor), temperature, mode, step budget and,
    for a collapse run, ``empty(P) -> bool`` tested every ``check_every`` steps (stops the run)."""

    Z: Any
    P: Any
    tau: float
    mode: str
    steps: int
    check_every: int = 0
    empty: Callable[[Any], bool] | None = None


def free_energy(model: Any, Z: Any, P: Any, tau: Any) -> Any:
    """F = L_q - tau H of the model at temperature tau (``model.tau`` set by the caller): its own loss and
    the entropy H = -mean_i sum_k q_ik log q_ik of its own assignments, q log q as q log max(q, tiny)
    (tiny the dtype's smallest normal): 0 log 0 = 0 with a finite gradient where an assignment underflows
    to 0 (``xlogy``'s gradient in its second argument is q/q = NaN there), equal to q log q elsewhere.
    tau enters as given (a float or a tensor, so that the function is ``vmap``-able over tau)."""
    import torch

    Q = model.assignments(Z, P)
    qlogq = Q * torch.log(Q.clamp_min(torch.finfo(Q.dtype).tiny))
    return model.loss(Z, P) + tau * qlogq.sum(1).mean()


def _objective(model: Any, mode: str) -> Callable[[Any, Any, Any], Any]:
    def obj(P: Any, Z: Any, tau: Any) -> Any:
        model.tau = tau
        return model.loss(Z, P) if mode == "full" else free_energy(model, Z, P, tau)

    return obj


def train_sequential(model: Any, runs: list[Run], eta: float) -> list[tuple[Any, int]]:
    """Each run by ``torch.autograd.grad`` on the block's objective, one after the other.  Returns
    [(P, steps run)] in the order of ``runs``."""
    import torch

    out = []
    for r in runs:
        obj, P, ran = _objective(model, r.mode), r.P, r.steps
        for step in range(1, r.steps + 1):
            P_ = P.detach().requires_grad_(True)
            P = (P_ - eta * torch.autograd.grad(obj(P_, r.Z, r.tau), P_)[0]).detach()
            if not bool(torch.isfinite(P).all()) or (r.check_every and step % r.check_every == 0 and r.empty(P)):
                ran = step
                break
        out.append((P, ran))
    return out


def _grad_of_sum(f: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
    def g(P: Any, Z: Any, tau: Any) -> Any:
        import torch

        P = P.detach().requires_grad_(True)
        return torch.autograd.grad(f(P, Z, tau).sum(), P)[0]

    return g


def train_batched(model: Any, runs: list[Run], eta: float, how: str = "grad_vmap") -> list[tuple[Any, int]]:
    """All runs at once: per mode (and shape of Z and P) one batched gradient call per step over the live
    runs of that group (leading batch axis over P, Z and tau; tau a tensor of the block's dtype):
    ``torch.autograd.grad`` of the sum over runs of ``vmap(obj)`` (``how="grad_vmap"``, the default; the
    runs are independent, so the sum's gradient in run b's P is run b's gradient) or ``vmap(grad(obj))``
    (``how="vmap_grad"``; the same steps, about 1.5-2x slower on the check's runs: torch.func's per-op
    overhead, measured with torch 2.13 on CPU).  A
    run leaves the batch when its budget is spent or its collapse test fires.  Returns [(P, steps run)] in
    the order of ``runs``.  Raises whatever ``vmap`` raises on a block it cannot trace (the caller falls
    back to :func:`train_sequential`)."""
    import torch
    from torch.func import grad, vmap

    dtype = runs[0].P.dtype
    out: list[Any] = [None] * len(runs)
    groups = []
    shapes: dict[tuple[Any, ...], list[int]] = {}
    for i, r in enumerate(runs):  # runs batch together when mode and shapes agree (first-seen order)
        shapes.setdefault((r.mode, tuple(r.Z.shape), tuple(r.P.shape)), []).append(i)
    for (mode, _, _), idx in shapes.items():
        g = vmap(grad(_objective(model, mode))) if how == "vmap_grad" else _grad_of_sum(vmap(_objective(model, mode)))
        groups.append({"idx": idx, "g": g, "P": torch.stack([runs[i].P for i in idx]),
                       "Z": torch.stack([runs[i].Z for i in idx]),
                       "tau": torch.tensor([runs[i].tau for i in idx], dtype=dtype)})
    step = 0
    while groups:
        step += 1
        for grp in groups:
            grp["P"] = (grp["P"] - eta * grp["g"](grp["P"], grp["Z"], grp["tau"])).detach()
        for grp in groups:
            keep, bad = [], (~torch.isfinite(grp["P"]).flatten(1).all(1)).tolist()
            for j, i in enumerate(grp["idx"]):
                r = runs[i]
                if bad[j] or step == r.steps or (r.check_every and step % r.check_every == 0
                                                 and r.empty(grp["P"][j])):
                    out[i] = (grp["P"][j].clone(), step)
                else:
                    keep.append(j)
            if len(keep) < len(grp["idx"]):
                sel = torch.tensor(keep, dtype=torch.long)
                grp.update(idx=[grp["idx"][j] for j in keep], P=grp["P"][sel], Z=grp["Z"][sel],
                           tau=grp["tau"][sel])
        groups = [g for g in groups if g["idx"]]
    return out
