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

