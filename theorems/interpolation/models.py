"""Interpolation model-level claims on a user's attention sublayer (issue 12; spec §3.5, Theorem S).

A user's self-attention sublayer satisfies :class:`AttentionSublayer`: called as ``layer(X, A, V,
tau)`` on one sequence ``X`` (n x d), with a score matrix ``A`` and a value matrix ``V`` (d x d) and a
temperature ``tau > 0``, it returns ``softmax(X A X^T / tau) X V^T`` (n x d; row i attends over every
token of the sequence).  The toolkit builds the explicit softmax interpolating transformer of the paper
(Theorem S) for seeded small datasets, loads each block's ``A`` and ``V`` into the user's sublayer, runs
the network with it (``TorchInterpolator.forward(attention_layer=...)``; the feed-forward sublayers and
the residual mixing ``X <- rho X + lam Y`` are the construction's) at half the certified temperature,
and evaluates the claim's own statement on the Hausdorff distance between the outputs and the targets.

Tolerances, one source each:

* softmax (part ``exact``, and Tikhonov's ``tau1_exact``): the statement's own ``epsilon_p = 10^-(p-12)``
  (spec §3.7, "exact at precision p", :func:`.softmax.exactness_tolerance`) at the precision of float64,
  ``p = 15`` digits -- so ``d_H <= 10^-3``; the construction is exact in exact arithmetic below tau_c, a
  wrong sublayer or temperature moves tokens by O(1).
* hardmax (part ``outputs``): the derived float64 forward-error budget of the exported network along the
  exact trajectory (:func:`._checks_exact._network_budget`, the one ``interp.hardmax.exact``'s torch check
  uses: unit roundoff x operation counts x magnitudes x Lipschitz constants, safety factors 8 per operation
  and 4 overall), per coordinate, so ``d_H^2 <= d budget^2``.  A sequence on which a float error could
  change a hardmax selection has no valid budget and is not used (counted in ``selection_not_robust``).

Each instance records the dataset, the sequence, the temperature and the builder's seed, so a
counterexample is rebuilt from its data alone.
"""

from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

import numpy as np

from verify import Evidence, Profile, Tally, statement_of
from verify._models import ModelCheck

__all__ = ["MODEL_CHECKS", "AttentionSublayer", "ToolkitAttention"]


@runtime_checkable
class AttentionSublayer(Protocol):
    """A single-head self-attention sublayer: ``(X, A, V, tau) -> softmax(X A X^T / tau) X V^T``; with
    ``tau=None`` the hardmax that averages the maximisers of each row (Theorem H's attention)."""

    def __call__(self, X: Any, A: Any, V: Any, tau: float) -> Any: ...


class ToolkitAttention:
    """The toolkit's reference sublayer (float64 torch): softmax, or with ``tau=None`` the hardmax that
    averages the maximisers (ties within 64 eps of the row's scale, as the exported network's)."""

    def __call__(self, X: Any, A: Any, V: Any, tau: float | None) -> Any:
        import torch

        S = X @ A @ X.T
        top = S.max(dim=-1, keepdim=True).values
        if tau is None:
            scale = S.abs().amax(dim=-1, keepdim=True).clamp_min(1.0)
            w = (S >= top - 64 * torch.finfo(S.dtype).eps * scale).to(S.dtype)
            return (w / w.sum(dim=-1, keepdim=True)) @ X @ V.T
        return torch.softmax((S - top) / tau, dim=-1) @ X @ V.T


def _datasets(seed: int, count: int) -> list[Any]:
    from .dataset import Dataset

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        N, d = int(rng.integers(2, 4)), 2
        inputs, outputs = [], []
        for _ in range(N):
            n = int(rng.integers(1, 4))
            toks = {tuple(int(v) for v in rng.integers(-3, 4, size=d)) for _ in range(n)}
            inputs.append(sorted(toks))
            m = int(rng.integers(1, len(toks) + 1))
            tg = {tuple(int(v) for v in rng.integers(-4, 5, size=d)) for _ in range(m)}
            outputs.append(sorted(tg))
        try:
            out.append(Dataset(inputs, outputs))
        except Exception:  # noqa: BLE001 - a draw outside the assumptions: draw again
            continue
    return out


#: float64 carries 15 significant decimal digits (mpmath's ``prec_to_dps(53)``): the precision p of spec
#: §3.7's "exact at precision p" for a float64 network
FLOAT64_DPS = 15


def _interpolation_errors(model: Any, D: Any, net: Any, tau: float | None) -> list[float]:
    """The squared Hausdorff distance (Euclidean) of each sequence's outputs to its targets when the
    network runs with the user's sublayer (``tau=None``: the tie-averaging hardmax)."""
    import torch

    from .torch_export import pad_batch

    tm = net.to_torch(tau=tau) if tau is not None else net.to_torch()
    X, mask = pad_batch(D.inputs)
    with torch.no_grad():
        Y = tm(X, mask, attention_layer=model)
    out = []
    for j, y in enumerate(D.outputs):
        T = torch.tensor([[float(v) for v in t] for t in y], dtype=torch.float64)
        Yj = Y[j, :len(D.inputs[j])].to(torch.float64)
        d2 = ((Yj[:, None, :] - T[None, :, :]) ** 2).sum(-1)
        out.append(max(float(d2.min(dim=1).values.max()), float(d2.min(dim=0).values.max())))
    return out


def _softmax_tolerance() -> float:
    """``epsilon_p = 10^-(p-12)`` at p = :data:`FLOAT64_DPS` (spec §3.7), the softmax statement's own."""
    from .softmax import exactness_tolerance

    return float(exactness_tolerance(FLOAT64_DPS))


def _instance(D: Any, j: int, tau: float | None, seed: int) -> dict[str, Any]:
    return {"inputs": [list(map(list, x)) for x in D.inputs], "outputs": [list(map(list, t)) for t in D.outputs],
            "sequence": j, "tau": tau, "builder_seed": seed}


def softmax_exact(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """interp.softmax.exact on the user's sublayer at tau = tau_c / 2 (module docstring): part ``exact``,
    d_H <= epsilon_p at float64's precision."""
    import torch

    from .construction import build_interpolator
    from .softmax import certify

    st = statement_of("interp.softmax.exact")
    tally = Tally(precision="float64 (user sublayer)", backend=f"torch {torch.__version__}", seeds=(seed,))
    eps_p = _softmax_tolerance()
    for D in _datasets(seed, profile.pick(3, 8, 30)):
        net = build_interpolator(D, "softmax", separation="mean", seed=seed)
        cert = certify(net)
        if cert.tau_c is None:
            continue
        tau = float(cert.tau_c) / 2
        for j, d2 in enumerate(_interpolation_errors(model, D, net, tau)):
            tally.statement(st, {"d_H": math.sqrt(d2), "epsilon_p": eps_p, "tau_c": float(cert.tau_c),
                                 "instance": _instance(D, j, tau, seed)}, part="exact", tol=0.0)
    tally.details.update(precision_digits=FLOAT64_DPS, epsilon_p=eps_p,
                         tolerance_rule="d_H <= 10^-(p-12), p = 15 (float64), at tau = tau_c / 2 "
                                        "(spec §3.7)")
    return tally.evidence()


def hardmax_exact(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """interp.hardmax.exact (Theorem H) on the user's sublayer called with ``tau=None`` (the tie-averaging
    hardmax): part ``outputs``, d_H^2 = 0 within d times the squared derived network budget (module
    docstring); sequences whose hardmax selections a float error could change are not used (counted)."""
    import torch

    from ._checks_exact import NETWORK_BUDGET_SAFETY, _network_budget
    from .blocks import convert_blocks
    from .construction import build_interpolator

    st = statement_of("interp.hardmax.exact")
    tally = Tally(precision="float64 (user sublayer, derived network budget)",
                  backend=f"torch {torch.__version__}", seeds=(seed,))
    not_robust, budgets = 0, []
    for D in _datasets(seed + 1, profile.pick(3, 8, 30)):
        net = build_interpolator(D, "hardmax", separation="mean", seed=seed)
        blocks_q = convert_blocks(net.blocks, "fraction")
        for j, d2 in enumerate(_interpolation_errors(model, D, net, None)):
            budget, why = _network_budget(blocks_q, D.inputs[j], D.d)
            if why is not None:
                not_robust += 1
                continue
            budgets.append(budget)
            tally.statement(st, {"d_H^2": d2, "instance": _instance(D, j, None, seed)}, part="outputs",
                            tol=D.d * budget ** 2)
    tally.details.update(budget_safety=NETWORK_BUDGET_SAFETY, selection_not_robust=not_robust,
                         max_budget=max(budgets, default=None), min_budget=min(budgets, default=None),
                         tolerance_rule="d_H^2 <= d b^2, b the derived float64 network budget per coordinate")
    return tally.evidence()


class _AbsorbedTemperature:
    """The user's sublayer in the tau = 1 parametrisation of Tikhonov training: the network runs at
    tau0 and this wrapper hands the user's layer the score matrix A / tau0 at temperature 1."""

    def __init__(self, layer: Any):
        self.layer = layer

    def __call__(self, X: Any, A: Any, V: Any, tau: float) -> Any:
        return self.layer(X, A / tau, V, 1.0)


def tikhonov_upper_bound(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """interp.tikhonov.upper_bound on the user's sublayer (spec §4.12), parts ``tau1_exact`` and ``bound``.

    The softmax construction theta_dag at tau0 = tau_c, trained in the tau = 1 parametrisation (tau0
    absorbed into the score matrices, the user's layer called with ``A / tau0`` and ``tau = 1``): part
    ``tau1_exact`` -- each sequence's Hausdorff distance d_H <= epsilon_p = 10^-(p-12) at float64's p = 15
    (the statement's own tolerance, as in the softmax model check); part ``bound`` -- inf J_eps <=
    eps |theta_dag|^2 at eps = 1/1000, with inf J_eps bounded above by the value at the interpolant,
    J_eps(theta_dag) = E + eps |theta_dag|^2 (E = mean_j d_H^2 of the user's network, |theta_dag|^2 =
    :func:`theta_norm2`, exact),
    within epsilon_p^2 (each squared distance is at most epsilon_p^2 once ``tau1_exact`` holds) plus the
    rounding 4 eps64 eps |theta_dag|^2 of the regulariser.  The softmax construction is exact for every
    tau <= tau_c, so a temperature handled wrongly by the user's layer below tau_c is invisible here (and
    to the theorem); interp.softmax.exact runs the layer's own temperature."""
    from fractions import Fraction

    import torch

    from ._checks_tikhonov import theta_norm2
    from .construction import build_interpolator
    from .softmax import certify

    st = statement_of("interp.tikhonov.upper_bound")
    tally = Tally(precision="float64 (user sublayer, tau = 1 parametrisation)", backend=f"torch {torch.__version__}",
                  seeds=(seed,))
    eps = Fraction(1, 1000)
    eps_p = _softmax_tolerance()
    layer = _AbsorbedTemperature(model)
    for D in _datasets(seed + 2, profile.pick(3, 8, 30)):
        net = build_interpolator(D, "softmax", separation="mean", seed=seed)
        cert = certify(net)
        if cert.tau_c is None:
            continue
        tau0 = Fraction(cert.tau_c)
        errs = _interpolation_errors(layer, D, net, float(tau0))
        for j, d2 in enumerate(errs):
            tally.statement(st, {"d_H": math.sqrt(d2), "epsilon_p": eps_p,
                                 "instance": _instance(D, j, float(tau0), seed)},
                            part="tau1_exact", tol=0.0)
        n2 = theta_norm2(net, tau0)
        E = sum(errs) / len(errs)
        tally.statement(st, {"inf_J_epsilon": E + float(eps * n2), "epsilon": float(eps), "|theta_dagger|^2": float(n2),
                             "instance": _instance(D, -1, float(tau0), seed) | {"E": E}},
                        part="bound",
                        tol=eps_p ** 2 + 4 * float(torch.finfo(torch.float64).eps) * float(eps * n2))
    tally.details.update(epsilon=str(eps), precision_digits=FLOAT64_DPS, epsilon_p=eps_p,
                         tolerance_rule="d_H <= 10^-(p-12), p = 15 (float64), at tau0 = tau_c absorbed "
                                        "(tau = 1); bound within epsilon_p^2 + 4 eps64 eps |theta|^2")
    return tally.evidence()


MODEL_CHECKS = (
    ModelCheck("interp.hardmax.exact", hardmax_exact, AttentionSublayer,
               "the paper's hardmax interpolating transformer with the user's sublayer (tau=None: "
               "tie-averaging hardmax) interpolates the dataset (part 'outputs')", default=ToolkitAttention),
    ModelCheck("interp.softmax.exact", softmax_exact, AttentionSublayer,
               "the paper's softmax interpolating transformer with the user's attention sublayer "
               "interpolates the dataset (part 'exact')", default=ToolkitAttention),
    ModelCheck("interp.tikhonov.upper_bound", tikhonov_upper_bound, AttentionSublayer,
               "the construction theta_dag in the tau = 1 training parametrisation with the user's sublayer: "
               "E(theta_dag) = 0 and J_eps(theta_dag) <= eps |theta_dag|^2 (parts 'tau1_exact', 'bound')",
               default=ToolkitAttention),
)
