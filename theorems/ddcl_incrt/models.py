"""DDCL model-level claims on a user's prototype block (issue 12; spec §2.2, §3.1, §3.3).

A user's block satisfies :class:`PrototypeBlock` -- three members, written as pure functions of the
prototypes so that gradients come from ``torch.func``:

* ``tau``: the temperature (a float > 0);
* ``assignments(Z, P) -> Q``: the (N, K) soft assignments, rows on the simplex (Gibbs:
  ``q_ik ∝ exp(-|z_i - p_k|^2 / tau)``);
* ``loss(Z, P) -> L_q``: the soft quantisation loss ``mean_i sum_k q_ik |z_i - p_k|^2`` with live
  assignments.

The checks compute observables from the user's block and evaluate the claim's own statement on them
(``statement_of`` + ``tally.statement``); the tolerance comes from the block's dtype (machine epsilon
times the number of terms summed, safety factor 8) and is recorded.  The check functions live by concern
in ``_model_checks_dictionary`` (loss identity, gradient), ``_model_checks_collapse`` (the Hessian at
collapse: critical temperature, amplification, pruning) and ``_model_checks_dynamics`` (training,
temperature); shared pieces in ``_model_common``.  :class:`ToolkitBlock` is the
toolkit's own implementation of the protocol (the default model).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from verify._models import ModelCheck

from ._model_checks_collapse import amplification, critical_temperature, force_kept_with_margin
from ._model_checks_dictionary import decomposition, gradients
from ._model_checks_dynamics import free_energy_descent, temperature_sign_laws
from ._model_checks_training import mlp_trained

__all__ = ["MODEL_CHECKS", "PrototypeBlock", "ToolkitBlock"]


@runtime_checkable
class PrototypeBlock(Protocol):
    """What the model-level DDCL claims need of a prototype (dictionary) block."""

    tau: float

    def assignments(self, Z: Any, P: Any) -> Any:
        """(N, K) soft assignments of the N rows of Z to the K prototypes P (rows on the simplex)."""

    def loss(self, Z: Any, P: Any) -> Any:
        """The soft quantisation loss L_q = mean_i sum_k q_ik |z_i - p_k|^2 (a scalar tensor)."""


class ToolkitBlock:
    """The toolkit's prototype block (float64 torch), for comparison and as the default model."""

    def __init__(self, tau: float = 0.7, dtype: Any = None):
        import torch

        self.tau = float(tau)
        self.dtype = dtype or torch.float64

    def assignments(self, Z: Any, P: Any) -> Any:
        import torch

        d2 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        return torch.softmax(-d2 / self.tau, dim=1)

    def loss(self, Z: Any, P: Any) -> Any:
        d2 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        return (self.assignments(Z, P) * d2).sum(1).mean()


MODEL_CHECKS = (
    ModelCheck("ddcl.dictionary.decomposition", decomposition, PrototypeBlock,
               "the model's L_q against L_OLS + V from its own assignments (part 'identity')",
               default=ToolkitBlock),
    ModelCheck("ddcl.dictionary.gradients", gradients, PrototypeBlock,
               "torch.func gradient of the model's one-sample loss against the live-gradient formula",
               default=ToolkitBlock),
    ModelCheck("ddcl.separation.critical_temperature", critical_temperature, PrototypeBlock,
               "torch.func Hessian of the model's loss at collapse: relative-mode eigenvalue and the sign "
               "change at tau_c = 4 lambda_1", default=ToolkitBlock),
    ModelCheck("ddcl.lyapunov.free_energy", free_energy_descent, PrototypeBlock,
               "gradient descent (eta = 1/2, fixed tau) on the model's free energy L_q - tau H never raises it "
               "(part 'descent')", default=ToolkitBlock),
    ModelCheck("ddcl.temperature.sign_laws", temperature_sign_laws, PrototypeBlock,
               "derivatives in tau of the model's loss and free energy (autograd through model.tau): "
               "dL_q/dtau = Var_q(d)/tau^2 >= 0, dF/dtau = -H <= 0", default=ToolkitBlock),
    ModelCheck("ddcl.separation.amplification", amplification, PrototypeBlock,
               "torch.func Hessian of the model's loss at collapse on Y and on [Y, O] (a head's channel "
               "appended, M-cat): the unstable count never decreases (part 'count')", default=ToolkitBlock),
    ModelCheck("ddcl.pruning.force_kept_with_margin", force_kept_with_margin, PrototypeBlock,
               "torch.func Hessian of the model's loss at collapse on the pruned data: every mode whose "
               "margin exceeds R2's bound stays unstable (part 'margin_count')", default=ToolkitBlock),
    ModelCheck("ddcl.mlp_vs_dictionary.trained", mlp_trained, PrototypeBlock,
               "the model's prototypes trained by its own gradient (full) and free-energy gradient "
               "(stop-gradient), all runs batched by torch.func.vmap: DI of their span > m/d (part 'beats'), "
               "0 once collapsed at 6/5 tau_c (part 'collapsed_DI')", default=ToolkitBlock),
)
