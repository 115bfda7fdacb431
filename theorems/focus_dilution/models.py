"""Focus-dilution model-level claims on a user's one-layer transformer (issue 12; spec §2.4, §4.6-4.7).

A user's model satisfies :class:`OneLayerTransformer` with one member: ``population_loss(pi, P, W0, W1,
WQ, WK)`` -- the model's population loss ``L = -sum_{q,y} pi_q P_qy log p_model(y | q)`` on the Markov
chain ``(pi, P)`` (torch tensors) when its weights are the paper's parameters (embedding ``W0``, unembedding
``W1``, query and key maps ``WQ``, ``WK``; the user's adapter maps them onto its own layers).

This module holds the protocol, the toolkit's own model (the default) and the ``MODEL_CHECKS`` table; the
checks live by what they read off the user's loss: its Hessian spectra (:mod:`._model_checks_spectra`:
origin, saddle theta_c^1, degenerate point of F5) and its gradient flow (:mod:`._model_checks_dynamics`:
condensation, focus growth from theta_c^1, mass redistribution and the opposite motion it implies).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from verify._models import ModelCheck

from ._model_checks_dynamics import condensation_rate, focus_growth, mass_redistribution, opposite_motion
from ._model_checks_spectra import origin_spectrum, saddle_eigenstructure, transverse_mode

__all__ = ["MODEL_CHECKS", "OneLayerTransformer", "ToolkitTransformer"]


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
    ModelCheck("focus.stage2.focus_as_stated", focus_growth, OneLayerTransformer,
               "the gradient flow of the model's population loss from theta_c1: |(W_Q, W_K)|^2 grows at twice the "
               "unstable eigenvalue of -Hessian there, along its eigenvector, and every query's attention on the "
               "most frequent token rises (parts 'growth', 'direction', 'saddle_focus')", default=ToolkitTransformer),
    ModelCheck("focus.stage3.mass_redistribution", mass_redistribution, OneLayerTransformer,
               "the gradient flow of the model's population loss from theta_c1: the embedding moves off the "
               "plateau direction as P_pi^perp gamma = kappa rho + o(kappa), the frequent and rare tokens in "
               "opposite directions (part 'rho')", default=ToolkitTransformer),
    ModelCheck("focus.stage3.opposite_motion_as_stated", opposite_motion, OneLayerTransformer,
               "the gradient flow of the model's population loss from theta_c1: the measured P_pi^perp gamma / "
               "kappa splits a frequency prefix (> 0) from the rest (< 0), signs decided beyond the run's error "
               "(part 'prefix_split')", default=ToolkitTransformer),
)
