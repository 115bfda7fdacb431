"""DDCL model check on a user's trained dictionary (seed Theorem 4, trained-dictionary reading R2; spec
§3.6): the user's block trained by gradient descent on its own loss (full training) or on its free energy
(stop-gradient training) keeps more than m/d of the variance in its prototypes' span, and nothing once
collapsed.  The runs (seeds x modes, and the collapse runs) are trained in one batched program
(:mod:`._model_training`)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, refuted, statement_of

from ._model_common import SAFETY, _dtype
from ._model_training import Run, train_batched, train_sequential

#: the claim's hypotheses (theorems/ddcl_incrt/_claims_mlp.py): d = 8, this spectrum, K = 4, eta = 0.05
SPECTRUM = (4, 2, 1, 0.5, 0.25, 0.1, 0.1, 0.1)
K, ETA, TAU = 4, 0.05, 1.0
#: a collapse run's step budget and the period of its empty-span test
COLLAPSE_STEPS, CHECK_EVERY = 3000, 100


def _finite(P: Any) -> bool:
    import torch

    return bool(torch.isfinite(P).all())


def _train(model: Any, runs: list[Run]) -> tuple[list[tuple[Any, int]], dict[str, Any]]:
    """The runs in one batched program; a block ``vmap`` cannot trace is trained run by run instead
    (``batched: false`` and the reason in the returned details).  ``model.tau`` is restored by the caller."""
    try:
        return train_batched(model, runs, ETA), {"batched": True}
    except Exception as e:  # noqa: BLE001 -- whatever vmap raises on untraceable user code
        reason = f"{type(e).__name__}: {e}"[:300]
    return train_sequential(model, runs, ETA), {"batched": False, "batched_failure": reason}


def mlp_trained(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """ddcl.mlp_vs_dictionary.trained on the model (seed Theorem 4, R2; spec §3.6): on d = 8 data with the
    claim's rotated spectrum (exact-covariance sample, N = 300 at quick), the model's prototypes (K = 4,
    from collapse + 1e-3 noise) trained by gradient descent (eta = 0.05) on the model's own loss (mode
    ``full``) or free energy L_q - tau H (``stopgrad``) at tau = 1 keep DI(span{p_k - pbar}; C) > m/d
    (m the span's rank) in w of n seeds, part ``beats`` (w >= min(n, 9)); trained at tau = 6/5 c lambda_1
    (c = 4 full, 2 stopgrad) they collapse and keep DI_0 = 0 (part ``collapsed_DI``; up to 3000 steps,
    stopped at the first multiple of 100 steps at which the span is empty).  DI and the span's basis by the
    product's ``directional_information`` and ``prototype_basis``.  The span's numerical rank counts
    singular values above rank_tol sqrt(tr C), rank_tol = max(1e-6, SAFETY eps(dtype)) (1e-6 in float64 and
    float32 as the product check; the float32 collapse run reaches 2e-9 sqrt(tr C) in 3000 steps).  All
    runs (2 seeds x 2 modes x {tau = 1, collapse} at quick) are trained together, per mode one autograd call
    through ``torch.func.vmap`` of the block's objective per step (:func:`._model_training.train_batched`);
    a block vmap cannot trace is trained run by run (``details["batched"]`` False).  A run whose prototypes
    turn non-finite (a diverging block) wins no seed and refutes ``collapsed_DI`` ("training diverged")."""
    import torch

    from ._checks_mlp import directional_information, prototype_basis
    from ._statements_mlp import DI0
    from .dictionary import covariance, exact_covariance_sample, mode_constant

    st = statement_of("ddcl.mlp_vs_dictionary.trained")
    dtype = _dtype(model)
    tally = Tally(precision=f"{str(dtype).replace('torch.', '')} (user model)", backend="torch.func.vmap",
                  seeds=(seed,))
    seeds = profile.pick([seed, seed + 1], [seed + k for k in range(5)], [seed + k for k in range(10)])
    N, steps = profile.pick(300, 1000, 1000), profile.pick(1500, 6000, 6000)
    d = len(SPECTRUM)
    rank_tol = max(1e-6, SAFETY * float(torch.finfo(dtype).eps))
    data = {}
    for sd in seeds:  # per seed: the data, then the two starts (the product check's draws, in its order)
        rng = np.random.default_rng(sd)
        O, _ = np.linalg.qr(rng.standard_normal((d, d)))
        Zn = exact_covariance_sample(O @ np.diag(SPECTRUM) @ O.T, N, rng)
        C = covariance(Zn)
        starts = [Zn.mean(0) + 1e-3 * rng.standard_normal((K, d)) for _ in range(2)]
        data[sd] = (Zn, C, math.sqrt(float(np.trace(C))), float(np.linalg.eigvalsh(C)[-1]), starts)
    runs, keys = [], []
    for mode in ("full", "stopgrad"):
        for sd in seeds:
            Zn, C, scale, lam1, (P0, P1) = data[sd]
            Z = torch.tensor(Zn, dtype=dtype)
            runs.append(Run(Z, torch.tensor(P0, dtype=dtype), TAU, mode, steps))
            empty = (lambda P, s=scale: _finite(P) and prototype_basis(P.double().numpy(), s, rank_tol).shape[1] == 0)
            runs.append(Run(Z, torch.tensor(P1, dtype=dtype), 1.2 * mode_constant(mode) * lam1, mode,
                            COLLAPSE_STEPS, CHECK_EVERY, empty))
            keys += [(mode, sd, "trained"), (mode, sd, "collapse")]
    tau0, threads = model.tau, torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: torch's thread pool only adds contention
    try:
        results, how = _train(model, runs)
    finally:
        model.tau = tau0
        torch.set_num_threads(threads)
    trained = dict(zip(keys, zip(runs, results)))
    for mode in ("full", "stopgrad"):
        wins, dis, collapse_steps = 0, [], []
        for sd in seeds:
            Zn, C, scale, _, _ = data[sd]
            inst = {"mode": mode, "seed": sd, "N": N, "K": K, "spectrum": list(SPECTRUM), "eta": ETA}
            (P, _) = trained[(mode, sd, "trained")][1]
            if _finite(P):
                B = prototype_basis(P.double().numpy(), scale, rank_tol)
                di = directional_information(B, C)
                dis.append((B.shape[1], di))
                wins += int(B.shape[1] > 0 and di > B.shape[1] / d)
            else:  # a diverged run keeps no defined variance: not a win
                dis.append("diverged")
            run, (P, ran) = trained[(mode, sd, "collapse")]
            collapse_steps.append(ran)
            if not _finite(P):  # DI_0 undefined: the claim's collapse fails on this instance
                tally.named("collapsed_DI").exact(False, counterexample=refuted(
                    f"statement part 'collapsed_DI' fails: training diverged "
                    f"(non-finite prototypes after {ran} steps; margin -inf)", values={"instance": inst | {
                        "tau": run.tau, "steps": ran}}))
                break
            di0 = directional_information(prototype_basis(P.double().numpy(), scale, rank_tol), C)
            # an empty span keeps exactly nothing: DI_0 = 0.0 (the tolerance is in the rank)
            tally.statement(st, {DI0: di0, "instance": inst | {"tau": run.tau, "steps": ran}},
                            part="collapsed_DI", tol=0.0)
            if tally.counterexample is not None:
                break
        if tally.counterexample is not None:
            break
        tally.statement(st, {"w": wins, "n": len(seeds), "instance": {"mode": mode, "seeds": seeds, "N": N,
                                                                        "tau": TAU, "(m, DI)": dis}},
                        part="beats")
        tally.details[mode] = {"(m, DI)": dis, "wins": wins, "collapse steps": collapse_steps}
        if tally.counterexample is not None:
            break
    tally.details.update(how, safety=SAFETY, rank_tol=rank_tol, steps=steps, N=N, runs=len(runs),
                         tolerance_rule="numerical rank: singular values of P - pbar above rank_tol sqrt(tr C), "
                                        "rank_tol = max(1e-6, 8 eps(dtype)); DI_0 compared exactly")
    return tally.evidence(level_cap=Verdict.CONSISTENT)
