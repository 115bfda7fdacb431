"""The bridge to user code: regression-test your own attention implementation against the exact model.

The constructed network is exported to a float64 ``torch.nn.Module``; its forward pass must match the
exact rational outputs on the dataset (where the gadget margins are wide enough for float64).  To test
your own attention code, load the exported buffers (``U{i}``, ``b{i}``, ``W{i}``, ``P{i}``, ``Q{i}``
and ``blocks_meta``) into it and compare its outputs with ``model.evaluate_dataset()`` as below.

    python examples/interpolation_torch_bridge.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from theorems.interpolation import Dataset, build_interpolator  # noqa: E402
from theorems.interpolation.torch_export import pad_batch  # noqa: E402


def main() -> None:
    D = Dataset([[(1, 1)], [(2, 1)], [(1, 2), (3, 3)]], [[(7, 7)], [(-1, 0)], [(0, 1), (5, -5)]])
    model = build_interpolator(D, "hardmax", separation="mean")
    print(f"gadget margin {model.gadget_margin():.3g} (float64 comparisons are meaningful above ~1e-3)")
    exact = model.evaluate_dataset()
    net = model.to_torch()
    X, mask = pad_batch(D.inputs)
    with torch.no_grad():
        Y = net(X, mask)
    worst = 0.0
    for j, out in enumerate(exact):
        ref = torch.tensor([[float(v) for v in t] for t in out], dtype=torch.float64)
        worst = max(worst, float((Y[j, :len(out)] - ref).abs().max()))
    print(f"torch float64 vs exact: max deviation {worst:.2e}")
    assert worst < 1e-6


if __name__ == "__main__":
    main()
