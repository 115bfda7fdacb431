"""Focus-dilution model checks on the gradient flow of a user's population loss (issue 12; spec §4.5, §4.7-§4.10):
the flow theta' = -grad L of the user's ``population_loss`` (the protocol of :mod:`.models`; gradients by
``torch.autograd``, classical RK4, float64) and the observables the claims' statements read off it.
"""

from __future__ import annotations

from typing import Any

from verify import Evidence, Profile, Tally, statement_of

from ._model_checks_spectra import MK, M, _chains, _jacobian

__all__ = ["condensation_rate"]

DT = 0.25  # RK4 step of the condensation flow


def _flow(model: Any, ch: Any, theta0: Any, t_end: float, dt: float, stop: Any = None) -> tuple[Any, Any]:
    """(t, theta(t)): the gradient flow theta' = -grad L of the user's population loss from ``theta0``,
    classical RK4 with step ``dt`` up to ``t_end``, or one step after ``stop(theta)`` holds (gradients by
    ``torch.autograd``; float64)."""
    import numpy as np
    import torch

    from .flow import Shapes, unpack

    sh = Shapes(ch.d, M, MK)
    pi = torch.tensor(ch.pi, dtype=torch.float64)
    P = torch.tensor(ch.P, dtype=torch.float64)

    def f(th: Any) -> Any:
        th = th.detach().requires_grad_(True)
        W0, W1, WQ, WK = unpack(th, sh)
        return -torch.autograd.grad(model.population_loss(pi, P, W0, W1, WQ, WK), th)[0]

    steps = int(np.ceil(t_end / dt))
    th = torch.as_tensor(theta0, dtype=torch.float64)
    out = [th]
    for _ in range(steps):
        k1 = f(th)
        k2 = f(th + dt / 2 * k1)
        k3 = f(th + dt / 2 * k2)
        k4 = f(th + dt * k3)
        th = th + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(th)
        if stop is not None and len(out) > 2 and stop(out[-2]):
            break
    return np.arange(len(out)) * dt, torch.stack(out).numpy()


def condensation_rate(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage1.condensation on the user's loss, parts ``rate`` and ``mu0_spectrum`` (spec §4.5):
    from a small start theta(0) = eps N(0, 1) (eps = 1e-3), the top singular value sigma1(W0) of the
    gradient flow of the user's loss grows at mu0 = |pi| |v| (``reference_quantities``), and mu0 is the
    top eigenvalue of J0 = -Hessian of the user's loss at the origin (``torch.func.hessian``).

    The rate is the least-squares slope of log sigma1 on [20 eps, 0.1] (``numerics.flows.fit_rate``).
    Its budget is derived from the run, as the product check does, and never uses the mu0 it is checked
    against: |rate_lin - top| (the linear flow e^{J0 t} theta(0) of the user's own J0, fitted on the same
    window: the transient of the other modes against its own rate top) + 2 x 3 e_nl / Delta t (e_nl =
    max |sigma1/sigma1_lin - 1| on the window bounds the nonlinear change of log sigma1, which moves a
    slope by at most 3 e_nl/Delta t; safety factor 2).  The flow is RK4 at dt = 1/4 (mu0 dt < 0.06), stopped
    once sigma1 passes 0.1; its discretisation error is part of e_nl (sigma1_lin is the exact exponential)."""
    import numpy as np

    from numerics.flows import fit_rate

    from .flow import Shapes, unpack
    from .population import reference_quantities

    st = statement_of("focus.stage1.condensation")
    tally = Tally(precision="float64 (user model, RK4 dt = 1/4)", backend="torch.autograd", seeds=(seed,))
    eps = 1e-3
    rng = np.random.default_rng(seed)
    for ch in _chains(profile)[:profile.pick(1, 2, 4)]:
        sh = Shapes(ch.d, M, MK)
        J, ev, thr = _jacobian(model, ch, np.zeros(sh.size))
        w, Q = np.linalg.eigh(J.numpy())
        top = float(w.max())
        mu0 = float(reference_quantities(ch, dps=30).mu0)
        inst = {"chain": ch.P.tolist(), "epsilon": eps}
        tally.statement(st, {"lambda_J0": top, "mu_0": mu0, "instance": inst}, part="mu0_spectrum",
                        tol=thr * max(1.0, top))
        theta0 = eps * rng.standard_normal(sh.size)
        inst["theta0_seed"] = seed
        if top <= 0:
            continue  # no growing mode: the rate is not measurable (mu0_spectrum above is the witness)
        t, th = _flow(model, ch, theta0, 1.5 * np.log(0.1 / eps) / top, DT,
                      stop=lambda x: float(np.linalg.svd(unpack(x.numpy(), sh)[0], compute_uv=False)[0]) > 0.1)
        s1 = np.linalg.svd(unpack(th, sh)[0], compute_uv=False)[:, 0]
        lin = (np.exp(np.outer(t, w)) * (Q.T @ theta0)[None, :]) @ Q.T
        s1_lin = np.linalg.svd(unpack(lin, sh)[0], compute_uv=False)[:, 0]
        try:
            rate, _ = fit_rate(t, s1, 20 * eps, 0.1)
            rate_lin, _ = fit_rate(t, s1_lin, 20 * eps, 0.1)
        except ValueError:  # sigma1 never crosses the window: no rate, the statement's rate is refuted
            rate, rate_lin = float(np.log(max(s1[-1], 1e-300) / s1[0]) / t[-1]), top
        fw = np.flatnonzero((s1 >= 20 * eps) & (s1 <= 0.1))
        e_nl = float(np.max(np.abs(s1[fw] / s1_lin[fw] - 1))) if len(fw) > 1 else 0.0
        span = float(t[fw[-1]] - t[fw[0]]) if len(fw) > 1 else float(t[-1])
        budget = abs(rate_lin - top) + 2 * 3 * e_nl / span
        tally.statement(st, {"r_sigma1": rate, "mu_0": mu0, "instance": inst}, part="rate", tol=budget)
        tally.details.setdefault("rates", []).append({"rate": rate, "mu0": mu0, "budget": budget,
                                                      "rate_lin": rate_lin, "top": top})
    tally.details.update(safety=2, tolerance_rule="|rate_lin - top| + 2 * 3 e_nl / span (rate); "
                         "8 n eps max(1, max|J|) max(1, top) (mu0_spectrum)")
    return tally.evidence()
