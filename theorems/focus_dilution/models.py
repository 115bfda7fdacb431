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


def saddle_eigenstructure(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage2.saddle_eigenstructure on the user's loss (module docstring)."""
    import torch
    from torch.func import hessian

    from .flow import Shapes, theta_c1, unpack
    from .population import reference_quantities

    st = statement_of("focus.stage2.saddle_eigenstructure")
    tally = Tally(precision="float64 (user model, torch.func.hessian)", backend="torch.func", seeds=(seed,))
    eps = float(torch.finfo(torch.float64).eps)
    for ch in _chains(profile):
        d = ch.d
        sh = Shapes(d, M, MK)
        theta = torch.tensor(theta_c1(ch, M, MK), dtype=torch.float64)
        pi = torch.tensor(ch.pi, dtype=torch.float64)
        P = torch.tensor(ch.P, dtype=torch.float64)

        def loss(t: Any, pi: Any = pi, P: Any = P) -> Any:
            W0, W1, WQ, WK = unpack(t, sh)
            return model.population_loss(pi, P, W0, W1, WQ, WK)

        with warnings.catch_warnings():  # torch.func's forward mode scripts a helper on first use
            warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated",
                                    category=DeprecationWarning)
            H = hessian(loss)(theta)
        J = -(H + H.T) / 2
        n = J.shape[0]
        scale = float(J.abs().max())
        thr = SAFETY * n * eps * max(scale, 1.0)
        ev = torch.linalg.eigvalsh(J)
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
    ModelCheck("focus.stage2.saddle_eigenstructure", saddle_eigenstructure, OneLayerTransformer,
               "the spectrum of -Hessian of the model's population loss at theta_c1 and its attention "
               "entry c (parts 'spectrum' and 'c_formula')", default=ToolkitTransformer),
)
