"""Shared pieces of the DDCL model checks (a user's :class:`.models.PrototypeBlock`; issue 12): the
block's dtype, the sampled instances, the dtype-derived tolerance and the Hessian of the block's loss
at collapse.

Tolerance rule: ``SAFETY (terms + 4) eps(dtype) max(1, scale)`` -- machine epsilon of the block's dtype
times the number of terms summed, safety factor 8 (every check records its rule in
``details["tolerance_rule"]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

SAFETY = 8


def _dtype(model: Any) -> Any:
    import torch

    return getattr(model, "dtype", None) or torch.float64


def _instances(seed: int, count: int, dtype: Any) -> list[tuple[Any, Any]]:
    import torch

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        N, K, d = int(rng.integers(1, 9)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        Z = torch.tensor(rng.normal(size=(N, d)), dtype=dtype)
        P = torch.tensor(rng.normal(size=(K, d)), dtype=dtype)
        out.append((Z, P))
    return out


def _tol(dtype: Any, terms: int, scale: float) -> float:
    import torch

    return SAFETY * (terms + 4) * float(torch.finfo(dtype).eps) * max(1.0, scale)


def _describe(Z: Any, P: Any) -> dict[str, Any]:
    return {"Z": Z.detach().double().tolist(), "P": P.detach().double().tolist()}



def hessian_at_collapse(model: Any, Z: Any, K: int) -> Any:
    """The symmetrised Hessian (K d x K d) of ``model.loss(Z, P)`` in the prototypes P at collapse (every
    prototype at the data mean), by ``torch.func.jacrev`` twice (reverse over reverse: user code may use
    ops without forward-mode AD) at the model's current ``tau``.  A loss without a second derivative is
    an :class:`~verify.InputError` naming it."""
    import warnings

    from torch.func import jacrev

    d = Z.shape[1]
    P0 = Z.mean(0, keepdim=True).repeat(K, 1)
    with warnings.catch_warnings():  # torch.func scripts a helper on first use
        warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated", category=DeprecationWarning)
        try:
            H = jacrev(jacrev(lambda P: model.loss(Z, P)))(P0).reshape(K * d, K * d)
        except NotImplementedError as e:
            from verify import InputError

            raise InputError("model", "loss(Z, P) must be twice differentiable in P with "
                             f"torch.func (an op has no second derivative: {e})"[:400],
                             type(model).__name__) from None
    return (H + H.T) / 2
