"""DDCL model checks on the Hessian of the user's loss at collapse (spec §3.3, §3.4, §3.7): the
critical temperature (relative-mode eigenvalues, sign change at tau_c = 4 lambda_1), seed Theorem 2's
amplification (a head's channel appended never lowers the unstable count) and seed Theorem 6's repaired
pruning safety (modes whose margin exceeds R2's bound stay unstable)."""

from __future__ import annotations

from typing import Any

import numpy as np

from verify import Evidence, Profile, Tally, statement_of

from ._model_common import SAFETY, _dtype, _tol


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

