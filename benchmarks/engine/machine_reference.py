"""A fixed reference workload timed beside the catalogue benchmarks: how fast this machine is today.

    python benchmarks/engine/machine_reference.py

The catalogue goals of issue 14 are wall-clock seconds, and the same thorough code has taken from 583
to 758 s within one day on the 2-core machine they are measured on (benchmarks/README.md). A catalogue
time divided by the reference measured in the same run (``engine.*_catalogue.*/reference``) is meant to
be comparable across days, moving when the code does and not when the machine does; how well the
reference tracks the catalogue shows over runs (benchmarks/README.md records them). The workload runs
the kinds of work the catalogue spends its time on, at fixed sizes and seeds:

* ``torch_s``: 150 Adam epochs of the Figure 1 model (``training.train``, coupled penalty, eps = 1e-4);
* ``numpy_s``: 150 passes of a Gibbs step on fixed (4, 50, 512) float64 arrays written here with numpy
  and its libm ``exp`` -- not the product's temperature kernel, so that a faster product kernel
  (7049d0d moved it to torch's exp) does not move the reference; figures before the commit that pinned
  it ran the product's ``_Stepper`` and are not comparable;
* ``sympy_s``: sympy's cache cleared, the cancelled residual dF/dtau + H (= 0) of one sample's free
  energy F = -tau log Z for K = 3..8 prototypes (the rational-function work of the symbolic checks).

``torch_s`` still runs the product's ``train``: a change to it moves the reference too.

``reference()`` returns the three times and their sum ``total_s``.
"""

from __future__ import annotations

import time

#: work sizes (fixed: a change makes earlier /reference figures incomparable)
TORCH_EPOCHS = 150
NUMPY_STEPS = 150
NUMPY_HEADS = 50
SYMPY_KS = (3, 4, 5, 6, 7, 8)


def _torch_s() -> float:
    import torch

    from theorems.interpolation.training import Fig1Model, fig1_data, train

    torch.set_num_threads(1)
    data = fig1_data()
    torch.manual_seed(0)
    train(Fig1Model(data.inputs.shape[-1]), data, epochs=10, eps=1e-4)  # first-call costs, untimed
    torch.manual_seed(0)
    model = Fig1Model(data.inputs.shape[-1])
    t0 = time.perf_counter()
    train(model, data, epochs=TORCH_EPOCHS, eps=1e-4)
    return time.perf_counter() - t0


def _numpy_s() -> float:
    import numpy as np

    rng = np.random.default_rng(0)
    Z = rng.standard_normal((NUMPY_HEADS, 512))
    P = 0.5 * rng.standard_normal((4, NUMPY_HEADS))
    tau = np.full(NUMPY_HEADS, 0.7)
    D, L, A = (np.empty((4, NUMPY_HEADS, 512)) for _ in range(3))
    t0 = time.perf_counter()
    for _ in range(NUMPY_STEPS):  # distances, max-shifted Gibbs weights, their mean distance and spread
        np.square(np.subtract(Z, P[:, :, None], out=D), out=D)
        np.divide(D, -tau[:, None], out=L)
        L -= L.max(axis=0)
        np.exp(L, out=L)
        L /= L.sum(axis=0)
        np.subtract(D, (L * D).sum(axis=0), out=A)
        np.multiply(np.square(A, out=A), L, out=A)
        A.sum(axis=0).mean(axis=1)
    return time.perf_counter() - t0


def _sympy_s() -> float:
    import sympy as sp
    from sympy.core.cache import clear_cache

    clear_cache()
    t0 = time.perf_counter()
    z, tau = sp.Symbol("z", real=True), sp.Symbol("tau", positive=True)
    LZ = sp.Symbol("logZ")
    for K in SYMPY_KS:
        d = [(z - p) ** 2 for p in sp.symbols(f"p1:{K + 1}", real=True)]
        E = sp.symbols(f"E1:{K + 1}", positive=True)  # exp(-d_k / tau)
        Zs = sum(E)
        H = -sum(e / Zs * (-dk / tau - LZ) for e, dk in zip(E, d))
        # dF/dtau of F = -tau log Z, with dE_k/dtau = E_k d_k / tau^2
        dF = -LZ - tau * sum(e * dk for e, dk in zip(E, d)) / (tau ** 2 * Zs)
        if sp.cancel(sp.together(dF + H)) != 0:  # dF/dtau = -H: the work must be the real one
            raise RuntimeError(f"reference workload: dF/dtau + H did not cancel to 0 at K = {K}")
    return time.perf_counter() - t0


def reference() -> dict[str, float]:
    """The reference workload's seconds: ``torch_s``, ``numpy_s``, ``sympy_s`` and ``total_s``."""
    out = {"torch_s": _torch_s(), "numpy_s": _numpy_s(), "sympy_s": _sympy_s()}
    out["total_s"] = out["torch_s"] + out["numpy_s"] + out["sympy_s"]
    return out


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    print({k: round(v, 4) for k, v in reference().items()})
