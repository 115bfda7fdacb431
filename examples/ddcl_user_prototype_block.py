"""Check your own prototype (dictionary) block against the DDCL theory.

A block satisfies ``theorems.ddcl_incrt.models.PrototypeBlock`` with three members: ``tau``,
``assignments(Z, P)`` (the soft assignments, rows on the simplex) and ``loss(Z, P)`` (the soft
quantisation loss), written as functions of the prototypes ``P`` so that ``torch.func`` can
differentiate them.  Run it::

    python examples/ddcl_user_prototype_block.py
    verify run ddcl.dictionary.gradients --model examples.ddcl_user_prototype_block:MyBlock

or in your own tests, with the pytest fixture::

    def test_my_block(verify_claim):
        assert verify_claim("ddcl.dictionary.gradients", model=MyBlock()).passed

The broken variants below are what the checks catch: a softmax over the wrong axis (over samples, so
rows leave the simplex) breaks the decomposition identity; a temperature applied to the wrong term
(``exp(-d * tau)`` instead of ``exp(-d / tau)``) breaks the gradient formula; a loss summed over the
samples instead of averaged (``reduction="sum"``) makes the free energy rise under stop-gradient training
at eta = 1/2 (``ddcl.lyapunov.free_energy``: its curvature bound 2 I becomes 2 N I); a squared distance
averaged over the features instead of summed (``MeanOverFeatures``, the ``mse_loss`` default) divides the
temperature's role by the dimension, so appending a head's channel can stabilise collapse
(``ddcl.separation.amplification``); the temperature on the wrong term also removes unstable modes that
pruning must keep (``ddcl.pruning.force_kept_with_margin``) and keeps a trained dictionary from
collapsing above the critical temperature (``ddcl.mlp_vs_dictionary.trained``, as does the softmax over
samples).  For
``ddcl.temperature.sign_laws`` the check sets ``block.tau`` to a tensor and differentiates in it: use
``self.tau`` as given (not ``float(self.tau)``) inside ``assignments`` and ``loss``.
"""

from __future__ import annotations

import torch


class MyBlock:
    """A user's block, float32 as it might be in a real model."""

    def __init__(self, tau: float = 0.5):
        self.tau = tau
        self.dtype = torch.float32

    def _sqdist(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        # explicit squares, not torch.cdist: cdist has no second derivative, and the critical
        # temperature is read off the loss's Hessian
        return ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)

    def assignments(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return torch.softmax(-self._sqdist(Z, P) / self.tau, dim=1)

    def loss(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return (self.assignments(Z, P) * self._sqdist(Z, P)).sum(dim=1).mean()


class SoftmaxOverSamples(MyBlock):
    """Broken: the softmax normalises over the samples (dim 0), not over the prototypes."""

    def assignments(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return torch.softmax(-self._sqdist(Z, P) / self.tau, dim=0)


class TemperatureOnWrongTerm(MyBlock):
    """Broken: the temperature multiplies the distances instead of dividing them."""

    def assignments(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return torch.softmax(-self._sqdist(Z, P) * self.tau, dim=1)


class MeanOverFeatures(MyBlock):
    """Broken: the squared distance averages over the features (``F.mse_loss(..., reduction="none")
    .mean(-1)``) instead of summing, so the effective temperature grows with the feature dimension."""

    def _sqdist(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return ((Z[:, None, :] - P[None, :, :]) ** 2).mean(-1)


class SumOverSamples(MyBlock):
    """Broken: the loss sums over the samples (``reduction="sum"``) instead of averaging."""

    def loss(self, Z: torch.Tensor, P: torch.Tensor) -> torch.Tensor:
        return (self.assignments(Z, P) * self._sqdist(Z, P)).sum()


def main() -> int:
    from verify import check_model

    for block in (MyBlock(), SoftmaxOverSamples(), TemperatureOnWrongTerm(), MeanOverFeatures(), SumOverSamples()):
        for claim in ("ddcl.dictionary.decomposition", "ddcl.dictionary.gradients", "ddcl.lyapunov.free_energy",
                      "ddcl.temperature.sign_laws", "ddcl.separation.amplification",
                      "ddcl.pruning.force_kept_with_margin", "ddcl.mlp_vs_dictionary.trained"):
            out = check_model(claim, block)
            ev = out.checks[0].evidence
            line = f"{type(block).__name__:24s} {claim:36s} {out.verdict.value}"
            if ev.counterexample is not None:
                line += f"\n    {ev.counterexample.description[:160]}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
