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


MODEL_CHECKS = (
    ModelCheck("focus.stage1.origin_spectrum", origin_spectrum, OneLayerTransformer,
               "the spectrum of -Hessian of the model's population loss at the origin: +-mu0 (x m), "
               "mu0 = |pi||v| (parts 'charpoly' and 'eigenvalue')", default=ToolkitTransformer),
    ModelCheck("focus.stage2.saddle_eigenstructure", saddle_eigenstructure, OneLayerTransformer,
               "the spectrum of -Hessian of the model's population loss at theta_c1 and its attention "
               "entry c (parts 'spectrum' and 'c_formula')", default=ToolkitTransformer),
)
