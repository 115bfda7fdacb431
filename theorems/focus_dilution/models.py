"""Focus-dilution model-level claims on a user's one-layer transformer (issue 12; spec §2.4, §4.6-4.7).

A user's model satisfies :class:`OneLayerTransformer` with one member: ``population_loss(pi, P, W0, W1,
WQ, WK)`` -- the model's population loss ``L = -sum_{q,y} pi_q P_qy log p_model(y | q)`` on the Markov
chain ``(pi, P)`` (torch tensors) when its weights are the paper's parameters (embedding ``W0``, unembedding
``W1``, query and key maps ``WQ``, ``WK``; the user's adapter maps them onto its own layers).

The check builds the saddle theta_c^1 of the paper (:func:`.flow.theta_c1`) for pinned chains, takes the
Hessian of the user's loss there with ``torch.func.hessian``, and evaluates the claim's own statement
(``focus.stage2.saddle_eigenstructure``: parts ``spectrum`` -- exactly m_k positive and d - 1 + m_k negative
eigenvalues of J = -Hessian -- and ``c_formula`` -- the attention entry c_H of J is (s_c^2/n_2) K_1 K_2,
with s_c^2, n_2, K_1, K_2 from :func:`.population.reference_quantities`).  An eigenvalue counts as
nonzero beyond ``8 n eps(dtype) max|H|`` (n parameters); c_H is compared within ``8 n eps max|H|``.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from verify import Evidence, Profile, Tally, statement_of
from verify._models import ModelCheck

__all__ = ["MODEL_CHECKS", "OneLayerTransformer", "ToolkitTransformer"]

SAFETY = 8
M = MK = 2
DT = 0.25  # RK4 step of the condensation flow


@runtime_checkable
class OneLayerTransformer(Protocol):
    """What the model-level focus claims need: the population loss at the paper's parameters."""

    def population_loss(self, pi: Any, P: Any, W0: Any, W1: Any, WQ: Any, WK: Any) -> Any:
        """L = -sum_{q,y} pi_q P_qy log p(y | q) of the model with weights (W0, W1, WQ, WK)."""


class ToolkitTransformer:
    """The toolkit's population loss (:func:`.population.population_loss`, float64 torch)."""

    def population_loss(self, pi: Any, P: Any, W0: Any, W1: Any, WQ: Any, WK: Any) -> Any:
        from numerics.arithmetic import TorchArithmetic

        from .population import model_matrices, population_loss

        ar = TorchArithmetic(pi.dtype)
        Mm, Phi = model_matrices(W0, W1, WQ, WK, ar)
        return population_loss(pi, P, Mm, Phi, 1, ar)


def _chains(profile: Profile) -> list[Any]:
    from numerics.markov import MarkovChain

    lams = profile.pick((Fraction(1, 2),), (Fraction(1, 3), Fraction(1, 2)),
                        (Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(4, 5)))
    return [MarkovChain.lazy(["3/5", "1/4", "3/20"], lam) for lam in lams]


def _jacobian(model: Any, ch: Any, theta: Any) -> tuple[Any, Any, float]:
    """(J, its eigenvalues, the threshold below which an eigenvalue counts as zero): J = -Hessian of the
    user's population loss at ``theta`` (torch.func), symmetrised; threshold 8 n eps max(1, max|J|)."""
    import torch
    from torch.func import hessian

    from .flow import Shapes, unpack

    sh = Shapes(ch.d, M, MK)
    pi = torch.tensor(ch.pi, dtype=torch.float64)
    P = torch.tensor(ch.P, dtype=torch.float64)

    def loss(t: Any) -> Any:
        W0, W1, WQ, WK = unpack(t, sh)
        return model.population_loss(pi, P, W0, W1, WQ, WK)

    with warnings.catch_warnings():  # torch.func's forward mode scripts a helper on first use
        warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated", category=DeprecationWarning)
        H = hessian(loss)(torch.as_tensor(theta, dtype=torch.float64))
    J = -(H + H.T) / 2
    thr = SAFETY * J.shape[0] * float(torch.finfo(torch.float64).eps) * max(float(J.abs().max()), 1.0)
    return J, torch.linalg.eigvalsh(J), thr


def origin_spectrum(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage1.origin_spectrum on the user's loss: at theta = 0, J = -Hessian has m eigenvalues +mu0,
    m eigenvalues -mu0 and 2dm + 2m m_k - 2m zeros (part ``charpoly``), with mu0^2 = |pi|^2 |v|^2, v = pi -
    1/d (part ``eigenvalue``; mu0 the largest eigenvalue of the user's J)."""
    import numpy as np

    from .flow import Shapes

    st = statement_of("focus.stage1.origin_spectrum")
    tally = Tally(precision="float64 (user model, torch.func.hessian)", backend="torch.func", seeds=(seed,))
    for ch in _chains(profile):
        d = ch.d
        J, ev, thr = _jacobian(model, ch, np.zeros(Shapes(d, M, MK).size))
        pi = np.asarray(ch.pi, dtype=float)
        inst = {"chain": ch.P.tolist()}
        tally.statement(st, {"n_+": int((ev > thr).sum()), "n_-": int((ev < -thr).sum()),
                             "n_0": int((ev.abs() <= thr).sum()), "m": M, "m_k": MK, "d": d, "instance": inst},
                        part="charpoly")
        top = float(ev.max())
        tally.statement(st, {"mu_0^2": top * top, "|pi|^2": float(pi @ pi),
                             "|v|^2": float(((pi - 1 / d) ** 2).sum()), "instance": inst},
                        part="eigenvalue", tol=2 * thr * max(1.0, top))
    tally.details.update(safety=SAFETY, tolerance_rule="8 n eps max(1, max|J|), n parameters")
    return tally.evidence()


def saddle_eigenstructure(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage2.saddle_eigenstructure on the user's loss (module docstring)."""
    from .flow import theta_c1
    from .population import reference_quantities

    st = statement_of("focus.stage2.saddle_eigenstructure")
    tally = Tally(precision="float64 (user model, torch.func.hessian)", backend="torch.func", seeds=(seed,))
    for ch in _chains(profile):
        d = ch.d
        J, ev, thr = _jacobian(model, ch, theta_c1(ch, M, MK))
        # the attention entry: W_Q[0, 0] against W_K[0, 0] in the packed order (W0, W1, WQ, WK)
        iq = d * M + M * d
        ik = iq + M * MK
        ref = reference_quantities(ch, dps=30)
        inst = {"chain": str(ch.name or ch.P.tolist()), "lambda": "pinned F1 family"}
        tally.statement(st, {"n_{J>0}": int((ev > thr).sum()), "n_{J<0}": int((ev < -thr).sum()),
                             "m_k": MK, "d": d, "instance": inst}, part="spectrum")
        tally.statement(st, {"c_H": float(J[iq, ik]), "s_c^2": float(ref.sc2), "n_2": float(ref.n2),
                             "K_1": float(ref.K1), "K_2": float(ref.K2), "instance": inst},
                        part="c_formula", tol=thr)
    tally.details.update(safety=SAFETY, tolerance_rule="8 n eps max(1, max|J|), n parameters")
    return tally.evidence()


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


MODEL_CHECKS = (
    ModelCheck("focus.stage1.origin_spectrum", origin_spectrum, OneLayerTransformer,
               "the spectrum of -Hessian of the model's population loss at the origin: +-mu0 (x m), "
               "mu0 = |pi||v| (parts 'charpoly' and 'eigenvalue')", default=ToolkitTransformer),
    ModelCheck("focus.stage2.saddle_eigenstructure", saddle_eigenstructure, OneLayerTransformer,
               "the spectrum of -Hessian of the model's population loss at theta_c1 and its attention "
               "entry c (parts 'spectrum' and 'c_formula')", default=ToolkitTransformer),
    ModelCheck("focus.stage1.condensation", condensation_rate, OneLayerTransformer,
               "the gradient flow of the model's population loss from a small start: sigma1(W0) grows at "
               "mu0 = |pi||v|, the top eigenvalue of -Hessian at the origin (parts 'rate', 'mu0_spectrum')",
               default=ToolkitTransformer),
)
