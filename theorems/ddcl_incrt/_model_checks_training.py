"""DDCL model check on a user's trained dictionary (seed Theorem 4, trained-dictionary reading R2; spec
§3.6): the user's block trained by gradient descent on its own loss (full training) or on its free energy
(stop-gradient training) keeps more than m/d of the variance in its prototypes' span, and nothing once
collapsed."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, statement_of

from ._model_checks_dynamics import _free_energy
from ._model_common import SAFETY, _dtype

#: the claim's hypotheses (theorems/ddcl_incrt/_claims_mlp.py): d = 8, this spectrum, K = 4, eta = 0.05
SPECTRUM = (4, 2, 1, 0.5, 0.25, 0.1, 0.1, 0.1)
K, ETA, TAU = 4, 0.05, 1.0


def _train(model: Any, Z: Any, P: Any, tau: float, mode: str, steps: int, check_every: int = 0,
           rank_tol: float = 0.0, scale: float = 1.0) -> tuple[Any, int]:
    """Gradient descent (step ETA) on the model's loss (``full``) or free energy (``stopgrad``) at
    temperature tau; with ``check_every`` > 0, stops as soon as the prototypes' span is empty (numerical
    rank 0 at ``rank_tol`` x ``scale``).  Returns (P, steps run)."""
    import torch

    from ._checks_mlp import prototype_basis

    model.tau = tau  # tiny tensors: torch's thread pool only adds contention (set by the caller)
    objective = model.loss if mode == "full" else (lambda Z_, P_: _free_energy(model, Z_, P_))
    for step in range(1, steps + 1):
        P_ = P.detach().requires_grad_(True)
        P = (P_ - ETA * torch.autograd.grad(objective(Z, P_), P_)[0]).detach()
        if check_every and step % check_every == 0 and \
                prototype_basis(P.double().numpy(), scale, rank_tol).shape[1] == 0:
            return P, step
    return P, steps


def mlp_trained(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.mlp_vs_dictionary.trained on the model (seed Theorem 4, R2; spec §3.6): on d = 8 data with the
    claim's rotated spectrum (exact-covariance sample, N = 300 at quick), the model's prototypes (K = 4,
    from collapse + 1e-3 noise) trained by gradient descent (eta = 0.05) on the model's own loss (mode
    ``full``) or free energy L_q - tau H (``stopgrad``) at tau = 1 keep DI(span{p_k - pbar}; C) > m/d
    (m the span's rank) in w of n seeds, part ``beats`` (w >= min(n, 9)); trained at tau = 6/5 c lambda_1
    (c = 4 full, 2 stopgrad) they collapse and keep DI_0 = 0 (part ``collapsed_DI``; up to 3000 steps,
    stopped once the span is empty).  DI and the span's basis by the product's ``directional_information``
    and ``prototype_basis``.  The span's numerical rank counts singular values above rank_tol sqrt(tr C),
    rank_tol = max(1e-6, SAFETY eps(dtype)) (1e-6 in float64 and float32 as the product check; the float32
    collapse run reaches 2e-9 sqrt(tr C) in 3000 steps).  NOT REGISTERED: at quick the claim's own
    hypotheses (N = 300, 1500 steps, 2 seeds x 2 modes, collapse runs of about 1550 steps) cost about 12 000
    gradient evaluations of the user's loss, 9-20 s single-threaded, above the 5 s budget of a model check."""
    import torch

    from ._checks_mlp import directional_information, prototype_basis
    from ._statements_mlp import DI0
    from .dictionary import covariance, exact_covariance_sample, mode_constant

    st = statement_of("ddcl.mlp_vs_dictionary.trained")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.autograd",
                  seeds=(seed,))
    seeds = profile.pick([seed, seed + 1], [seed + k for k in range(5)], [seed + k for k in range(10)])
    N, steps = profile.pick(300, 1000, 1000), profile.pick(1500, 6000, 6000)
    d = len(SPECTRUM)
    rank_tol = max(1e-6, SAFETY * float(torch.finfo(dtype).eps))
    tau0, threads = model.tau, torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for mode in ("full", "stopgrad"):
            c = mode_constant(mode)
            wins, dis, collapse_steps = 0, [], []
            for sd in seeds:
                rng = np.random.default_rng(sd)
                O, _ = np.linalg.qr(rng.standard_normal((d, d)))
                Zn = exact_covariance_sample(O @ np.diag(SPECTRUM) @ O.T, N, rng)
                C = covariance(Zn)
                scale = math.sqrt(float(np.trace(C)))
                Z = torch.tensor(Zn, dtype=dtype)
                inst = {"mode": mode, "seed": sd, "N": N, "K": K, "spectrum": list(SPECTRUM), "eta": ETA}
                P0 = Zn.mean(0) + 1e-3 * rng.standard_normal((K, d))
                P, _ = _train(model, Z, torch.tensor(P0, dtype=dtype), TAU, mode, steps)
                B = prototype_basis(P.double().numpy(), scale, rank_tol)
                di = directional_information(B, C)
                dis.append((B.shape[1], di))
                wins += int(B.shape[1] > 0 and di > B.shape[1] / d)
                tau_hi = 1.2 * c * float(np.linalg.eigvalsh(C)[-1])
                P0 = Zn.mean(0) + 1e-3 * rng.standard_normal((K, d))
                P, ran = _train(model, Z, torch.tensor(P0, dtype=dtype), tau_hi, mode, 3000, 100, rank_tol, scale)
                collapse_steps.append(ran)
                di0 = directional_information(prototype_basis(P.double().numpy(), scale, rank_tol), C)
                # an empty span keeps exactly nothing: DI_0 = 0.0 (the tolerance is in the rank)
                tally.statement(st, {DI0: di0, "instance": inst | {"tau": tau_hi, "steps": ran}},
                                part="collapsed_DI", tol=0.0)
                if tally.counterexample is not None:
                    break
            if tally.counterexample is not None:
                break
            tally.statement(st, {"w": wins, "n": len(seeds), "instance": {"mode": mode, "seeds": seeds,
                                                                            "tau": TAU, "(m, DI)": dis}},
                            part="beats")
            tally.details[mode] = {"(m, DI)": dis, "wins": wins, "collapse steps": collapse_steps}
            if tally.counterexample is not None:
                break
    finally:
        model.tau = tau0
        torch.set_num_threads(threads)
    tally.details.update(safety=SAFETY, rank_tol=rank_tol, steps=steps, N=N,
                         tolerance_rule="numerical rank: singular values of P - pbar above rank_tol sqrt(tr C), "
                                        "rank_tol = max(1e-6, 8 eps(dtype)); DI_0 compared exactly")
    return tally.evidence(level_cap=Verdict.CONSISTENT)
