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


def _jacobian(model: Any, ch: Any, theta: Any, m: int = M, mk: int = MK) -> tuple[Any, Any, float]:
    """(J, its eigenvalues, the threshold below which an eigenvalue counts as zero): J = -Hessian of the
    user's population loss at ``theta`` (torch.func; hidden width m, key width mk), symmetrised; threshold
    8 n eps max(1, max|J|)."""
    import torch
    from torch.func import hessian

    from .flow import Shapes, unpack

    sh = Shapes(ch.d, m, mk)
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
        tally.statement(st, {"mu_0^2": top * top, r"\|\pi\|^2": float(pi @ pi),
                             r"\|v\|^2": float(((pi - 1 / d) ** 2).sum()), "instance": inst},
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


#: F5 (spec §4.14): F4 (d = 5, pi = (3/5, 1/10 x 4), lam = 1/2) with rare masses 1/10 + delta c
F5_D, F5_PI1, F5_LAM, F5_C, F5_DELTA = 5, Fraction(3, 5), Fraction(1, 2), \
    (Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-1, 2)), Fraction(1, 1000)


def transverse_mode(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage4.transverse_mode on the user's loss, parts ``top_vs_sigma`` and ``transverse`` (spec
    §4.14): at the product's 30-digit critical point theta2_delta of F5 (delta = 1/1000,
    :func:`.critical_points.perturbed_point`) embedded with m = 2, m_k = 1 (W0 = gamma e1^T, W1 = e1 beta^T,
    W_Q = W_K = sqrt(kappa) e1), the top eigenvalue of J = -Hessian of the user's loss (torch.func) equals
    sigma_max(G_M) of the point (mpmath SVD), and its eigenvector lies in the transverse block (the second
    hidden direction) with weight >= 0.999.  Budget of the eigenvalue: n max|Delta J_ij| with the entrywise
    float_tolerance(64 d, max|J|) (Weyl) + eigh's float_tolerance(n, ||J||_2) + tolerance_for(30)."""
    import numpy as np

    from numerics.markov import perturbed_rare
    from numerics.precision import float_tolerance, tolerance_for

    from .critical_points import perturbed_point
    from .flow import Shapes, pack

    st = statement_of("focus.stage4.transverse_mode")
    tally = Tally(precision="float64 (user model, torch.func.hessian) + mpmath dps=30", backend="torch.func",
                  seeds=(seed,))
    d, m, mk = F5_D, 2, 1
    pt = perturbed_point(d, F5_PI1, F5_LAM, F5_C, F5_DELTA, dps=30)
    ch = perturbed_rare(d, F5_PI1, F5_LAM, F5_C, F5_DELTA)
    ctx = pt.ctx
    sig = float(max(ctx.svd_r(ctx.matrix([[x for x in r] for r in pt.GM]), compute_uv=False)))
    W0, W1, WQ, WK = np.zeros((d, m)), np.zeros((m, d)), np.zeros((m, mk)), np.zeros((m, mk))
    W0[:, 0] = [float(x) for x in pt.gamma]
    W1[0] = [float(x) for x in pt.beta]
    WQ[0, 0] = WK[0, 0] = float(ctx.sqrt(pt.kappa))
    J, _, _ = _jacobian(model, ch, pack(W0, W1, WQ, WK), m, mk)
    J = J.numpy()
    w, V = np.linalg.eigh(J)
    top, vec = float(w[-1]), V[:, -1]
    sh = Shapes(d, m, mk)
    mask = np.zeros(sh.size, dtype=bool)  # the second hidden direction: W0[:, 1], W1[1], W_Q[1], W_K[1]
    mask[[i * m + 1 for i in range(d)]] = True
    mask[[d * m + d + k for k in range(d)]] = True
    mask[[2 * d * m + mk, 2 * d * m + m * mk + mk]] = True
    trans = float(np.linalg.norm(vec[mask]))
    n = J.shape[0]
    tol = n * float_tolerance(64 * d, scale=float(np.abs(J).max())) \
        + float_tolerance(n, scale=float(np.linalg.norm(J, 2))) + tolerance_for(30)
    inst = {"chain": "F5", "delta": str(F5_DELTA), "c": [str(c) for c in F5_C], "m": m, "m_k": mk}
    tally.statement(st, {"lambda_top": top, "sigma_max": sig, "instance": inst}, part="top_vs_sigma", tol=tol)
    tally.statement(st, {"w_perp": trans, "instance": inst}, part="transverse", tol=0.0)
    tally.details.update(sigma_max_GM=sig, top_full=top, transverse_weight=trans, top_vs_sigma_tolerance=tol,
                         tolerance_rule="n float_tolerance(64 d, max|J|) + float_tolerance(n, |J|_2) "
                                        "+ tolerance_for(30)")
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
    ModelCheck("focus.stage4.transverse_mode", transverse_mode, OneLayerTransformer,
               "-Hessian of the model's population loss at the degenerate point theta2_delta (F5): top "
               "eigenvalue sigma_max(G_M), eigenvector transverse (parts 'top_vs_sigma', 'transverse')",
               default=ToolkitTransformer),
)
