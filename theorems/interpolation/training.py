"""Regularised training (spec §5): the exact ridge sanity model and the Figure 1 reproduction.

**Ridge model** (spec §5.2).  Single-token sequences, ``SA(x) = V x`` (rho = 0), ``X in R^{d x N}`` with
independent columns, ``G = X^T X``, ``J_eps(V) = (1/N)||V X - Y||_F^2 + eps ||V||_F^2``.  Closed forms
(written once, generic over sympy matrices and symbols):

* ``V_eps = Y (G + N eps I)^{-1} X^T``;  ``min J_eps = eps tr(Y (G + N eps I)^{-1} Y^T)``;
* ``V_mn = Y G^{-1} X^T`` and ``min J_eps / eps -> tr(Y G^{-1} Y^T) = ||V_mn||_F^2``;
* ``E(V_eps) = N eps^2 tr(Y (G + N eps I)^{-2} Y^T)``.

**Figure 1** (spec §5.3; settings of the authors' tikhonov/ code, DCN-FAU-AvH/exactInterpTF): N = 10
sequences of n = 100 tokens in d = 16, seeds 0; target ``y = mu + relu(mu U + b) W`` (the mean mu
moved by a width-4 FF); model: one block **SA then FF** (as in the authors' code), ``x <- rho x +
softmax(q k^T) V x``, ``x <- eta x + W2 relu(W1 x + b1)``, rho = eta = 0 initially, h = 1, tau = 1;
Adam (lr 1e-3, weight_decay eps), CosineAnnealingLR(T_max = epochs), one shuffled full batch per epoch,
loss = batch mean of ``max_i |T_i - y|^2``.  Starting weights of Figure 1b as the authors draw them:
from the torch RNG state left after the data draws (no re-seeding), in float32 (``nn.Linear``'s default
init), then cast to float64 (:func:`authors_init_model`).  Deviations, documented: float64 training
instead of float32 (the project's standard; moves the Figure 1b minima by at most 0.5 %); the known
issues of spec §5.3 are reproduced, not fixed (SA->FF order, coupled weight decay = E + (eps/2)|theta|^2,
warm starts in Figure 1b, plotted data term instead of J).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ridge_minimiser", "ridge_min_J", "ridge_J", "ridge_E", "ridge_mn", "ridge_reference",
           "Fig1Data", "fig1_data", "Fig1Model", "authors_init_model", "interpolant_model", "data_loss", "train",
           "train_explicit_ensemble", "loglog_slope", "cold_start_sweep",
           "figure1a", "figure1b"]


# -- ridge (sympy, generic) -----------------------------------------------------------------------
def _eye(n: int):
    import sympy as sp

    return sp.eye(n)


def ridge_minimiser(X, Y, eps):
    """``V_eps = Y (G + N eps I)^{-1} X^T``."""
    N = X.shape[1]
    G = X.T * X
    return Y * (G + N * eps * _eye(N)).inv() * X.T


def ridge_min_J(X, Y, eps):
    """``min J_eps = eps tr(Y (G + N eps I)^{-1} Y^T)``."""
    N = X.shape[1]
    G = X.T * X
    return eps * (Y * (G + N * eps * _eye(N)).inv() * Y.T).trace()


def ridge_E(V, X, Y):
    """Data term ``(1/N) ||V X - Y||_F^2``."""
    N = X.shape[1]
    R = V * X - Y
    return sum(r * r for r in R) / N


def ridge_J(V, X, Y, eps):
    """``J_eps(V) = E(V) + eps ||V||_F^2``."""
    return ridge_E(V, X, Y) + eps * sum(v * v for v in V)


def ridge_mn(X, Y):
    """Minimum-norm interpolant ``V_mn = Y G^{-1} X^T``."""
    return Y * (X.T * X).inv() * X.T


def ridge_reference():
    """The spec's reference instance: d = 3, N = 2, x_1 = (1,0,3), x_2 = (2,1,-1), y_1 = (2,1,0), y_2 = (-1,4,1)."""
    import sympy as sp

    X = sp.Matrix([[1, 2], [0, 1], [3, -1]])
    Y = sp.Matrix([[2, -1], [1, 4], [0, 1]])
    return X, Y


# -- Figure 1 (torch) -------------------------------------------------------------------------------
@dataclass
class Fig1Data:
    inputs: Any
    targets: Any
    theta_star_norm2: float
    params: dict = field(default_factory=dict)
    #: torch's global RNG state right after the data draws (the authors build their model from it)
    rng_state: Any = None


def fig1_data(N: int = 10, d: int = 16, n: int = 100, seed: int = 0, *, order: str = "inputs_first") -> Fig1Data:
    """Inputs ~ U[0,1)^{N x n x d}, then W (4 x d), U (d x 4), b (4) ~ U[0,1), in this order (seed 0).

    ``order="weights_first"`` draws W, U, b before the inputs (not the authors' order: a different data
    set, used by the reproduction check's negative control)."""
    import random

    import numpy as np
    import torch

    if order not in ("inputs_first", "weights_first"):
        raise ValueError(f"order must be 'inputs_first' or 'weights_first', not {order!r}")
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    g = torch.float64
    if order == "weights_first":
        W, U, b = torch.rand(4, d).to(g), torch.rand(d, 4).to(g), torch.rand(4).to(g)
    inputs = torch.rand(N, n, d).to(g)
    if order == "inputs_first":
        W = torch.rand(4, d).to(g)
        U = torch.rand(d, 4).to(g)
        b = torch.rand(4).to(g)
    mu = inputs.mean(dim=1)  # SA with Q = K = 0, V = I, rho = 0: every token to the mean
    y = mu + torch.relu(mu @ U + b) @ W
    rng_state = torch.get_rng_state()
    norm2 = float(d + 1 + (W ** 2).sum() + (U ** 2).sum() + (b ** 2).sum())
    return Fig1Data(inputs, y, norm2, {"W": W, "U": U, "b": b}, rng_state)


def _model_class():
    import torch

    class Fig1Model(torch.nn.Module):
        """One block, SA then FF, as in the authors' code (h = 1, tau = 1, rho = eta = 0 at init)."""

        def __init__(self, d: int = 16, h: int = 1, tau: float = 1.0, draw_dtype=None):
            super().__init__()
            g = torch.float64 if draw_dtype is None else draw_dtype  # the dtype nn.Linear draws its init in
            self.rho = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
            self.eta = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
            self.q = torch.nn.Linear(d, h, bias=False, dtype=g)
            self.k = torch.nn.Linear(d, h, bias=False, dtype=g)
            self.v = torch.nn.Linear(d, d, bias=False, dtype=g)
            self.ff1 = torch.nn.Linear(d, 4, dtype=g)
            self.ff2 = torch.nn.Linear(4, d, bias=False, dtype=g)
            self.to(torch.float64)
            self.tau = tau

        def forward(self, x):
            s = self.q(x) @ self.k(x).transpose(-2, -1)
            if self.tau != 1:  # s / 1.0 is s bit for bit (and so is its gradient): skip a full (N, n, n) pass
                s = s / self.tau
            x = self.rho * x + torch.softmax(s, dim=-1) @ self.v(x)
            return self.eta * x + self.ff2(torch.relu(self.ff1(x)))

        def norm2(self) -> float:
            return float(sum((p.detach() ** 2).sum() for p in self.parameters()))

    return Fig1Model


def Fig1Model(d: int = 16, h: int = 1, tau: float = 1.0, *, draw_dtype=None):  # noqa: N802 - a class factory
    """Parameters in float64; ``draw_dtype=torch.float32`` draws the Linear inits in float32 (torch's default
    dtype, as the authors' code does) and casts them: the same RNG state then gives the authors' weights."""
    return _model_class()(d, h, tau, draw_dtype)


def authors_init_model(data: Fig1Data, seed: int | None = None):
    """The starting model as the authors' tikhonov/ scripts build it: no re-seeding, i.e. from the torch
    RNG state left after the data draws (``data.rng_state``), weights drawn in float32 and cast to
    float64.  ``seed`` (an int) instead starts from ``torch.manual_seed(seed)`` with the same float32 draw:
    another starting point, for the spread over seeds."""
    import torch

    if seed is None:
        if data.rng_state is None:
            raise ValueError("data has no recorded RNG state (build it with fig1_data)")
        torch.set_rng_state(data.rng_state)
    else:
        torch.manual_seed(seed)
    return Fig1Model(data.inputs.shape[-1], draw_dtype=torch.float32)


def interpolant_model(data: Fig1Data, *, skip: bool = True):
    """The exact interpolant theta* of the Figure 1 data in the trained parametrisation: q = k = 0 (uniform
    attention), V = I, rho = 0, then eta = 1, ff1 = (U^T, b), ff2 = W^T; its squared norm is
    d + 1 + |W|^2 + |U|^2 + |b|^2 = ``data.theta_star_norm2``.  ``skip=False`` sets eta = 0 (drops the
    residual x of the target map; not an interpolant)."""
    import torch

    d = data.inputs.shape[-1]
    m = Fig1Model(d)
    with torch.no_grad():
        for p in m.parameters():
            p.zero_()
        m.v.weight.copy_(torch.eye(d, dtype=torch.float64))
        m.eta.fill_(1.0 if skip else 0.0)
        m.ff1.weight.copy_(data.params["U"].T)
        m.ff1.bias.copy_(data.params["b"])
        m.ff2.weight.copy_(data.params["W"].T)
    return m


def data_loss(pred, y):
    """Batch mean of ``max_i |T_i - y|^2`` (the squared Hausdorff distance to a singleton target)."""
    return ((pred - y[:, None, :]) ** 2).sum(dim=-1).max(dim=1).values.mean()


def train(model, data: Fig1Data, *, epochs: int, eps: float, penalty: str = "coupled",
          lr: float = 1e-3, record_every: int = 1) -> dict[str, Any]:
    """Train ``model`` in place.  ``penalty="coupled"``: Adam(weight_decay = eps), i.e. stationary points
    of E + (eps/2)|theta|^2 (the authors' runs); ``"explicit"``: loss E + eps|theta|^2, weight_decay 0.
    Returns the per-epoch data losses E (without penalty), the final E, |theta|^2 and J_eps."""
    import torch

    # foreach: one multi-tensor kernel per Adam update step instead of a Python loop over the 9 parameters;
    # the same elementwise operations in the same order, so bit-identical iterates (checked in the tests)
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=eps if penalty == "coupled" else 0.0,
                           foreach=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    X, Y = data.inputs, data.targets
    losses = []
    for ep in range(epochs):
        perm = torch.randperm(X.shape[0])  # one shuffled full batch per epoch
        opt.zero_grad()
        E = data_loss(model(X[perm]), Y[perm])
        loss = E + eps * sum((p ** 2).sum() for p in model.parameters()) if penalty == "explicit" else E
        loss.backward()
        opt.step()
        sched.step()
        if ep % record_every == 0 or ep == epochs - 1:
            losses.append(float(E.detach()))
    return _trained(model, data, eps, losses)


def _trained(model, data: Fig1Data, eps: float, losses: list[float]) -> dict[str, Any]:
    """What :func:`train` returns for a trained ``model``: its recorded losses, the final data loss E on
    the unshuffled batch, |theta|^2, J = E + eps |theta|^2 and the least recorded E."""
    import torch

    with torch.no_grad():
        E_final = float(data_loss(model(data.inputs), data.targets))
    n2 = model.norm2()
    return {"losses": losses, "E": E_final, "norm2": n2, "J": E_final + eps * n2, "min_E": min(losses)}


def train_explicit_ensemble(models: list, data: Fig1Data, *, epochs: int, eps: list[float],
                            lr: float = 1e-3, record_every: int = 1) -> list[dict[str, Any]]:
    """``train(models[i], data, epochs=epochs, eps=eps[i], penalty="explicit", lr=lr,
    record_every=record_every)`` for every i as one program, for models of one class that start from
    the same torch RNG state (the shuffles are drawn once per epoch and shared, as each run would draw
    them): the parameters stacked (``torch.func.stack_module_state``), the product's forward and
    :func:`data_loss` vectorised over the models (``torch.func.vmap`` of ``functional_call``), one Adam
    over the stacked tensors (its update is elementwise: per model the update of that model's own
    Adam), loss sum_i (E_i + eps_i |theta_i|^2), whose gradient in theta_i is run i's.  The trained
    parameters are copied back into ``models`` and E, |theta|^2 and J are evaluated on each model as
    :func:`train` does.

    Not bit-identical to the separate runs: the vectorised matmuls round in other orders now and then,
    so the trajectories part in the last bits (E after 1500 epochs of the cold-start sweep: relative
    differences <= 6e-15).  About 0.73x the time of the separate runs for 7 models (one kernel launch
    per operation for all of them)."""
    import copy

    import torch
    from torch.func import functional_call, stack_module_state, vmap

    from numerics.errors import check_arg

    check_arg(len(models) > 0, "models", "at least one model", models)
    check_arg(len(eps) == len(models), "eps", f"one eps per model ({len(models)})", eps)
    check_arg(len({type(m) for m in models}) == 1, "models", "models of one class (copies of one model)",
              [type(m).__name__ for m in models])
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    forward = vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))
    loss_of = vmap(data_loss, in_dims=(0, None))
    stacked = list(params.values())
    opt = torch.optim.Adam(stacked, lr=lr, weight_decay=0.0, foreach=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    ev = torch.tensor(eps, dtype=torch.float64)
    X, Y = data.inputs, data.targets
    losses: list[list[float]] = [[] for _ in models]
    for ep in range(epochs):
        perm = torch.randperm(X.shape[0])  # one shuffled full batch per epoch, shared by the models
        opt.zero_grad()
        E = loss_of(forward(params, buffers, X[perm]), Y[perm])
        penalty = sum((p ** 2).flatten(1).sum(1) for p in stacked)
        (E + ev * penalty).sum().backward()
        opt.step()
        sched.step()
        if ep % record_every == 0 or ep == epochs - 1:
            for row, v in zip(losses, E.detach().tolist()):
                row.append(v)
    with torch.no_grad():
        for i, m in enumerate(models):
            for name, p in m.named_parameters():
                p.copy_(params[name][i])
    return [_trained(m, data, e, ls) for m, e, ls in zip(models, eps, losses)]


def loglog_slope(xs, ys) -> float:
    """Least-squares slope of log y against log x."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def figure1a(data: Fig1Data, *, epochs: int = 50_000, eps: float = 1e-4, seed: int = 0) -> dict[str, Any]:
    import torch

    torch.manual_seed(seed)
    model = Fig1Model(data.inputs.shape[-1])
    out = train(model, data, epochs=epochs, eps=eps, penalty="coupled")
    out["threshold"] = eps * data.theta_star_norm2
    return out


def figure1b(data: Fig1Data, *, eps=(1e-1, 1e-2, 1e-3), epochs=(5000, 10_000, 50_000), seed: int | None = None
             ) -> dict[str, Any]:
    """The authors' protocol: ONE model object reused across the eps (warm starts); minima of E.
    ``seed=None``: the authors' starting weights (:func:`authors_init_model`); an int: ``manual_seed(seed)``."""
    model = authors_init_model(data, seed)
    minima = []
    for e, ep in zip(eps, epochs):
        minima.append(train(model, data, epochs=ep, eps=e, penalty="coupled")["min_E"])
    return {"eps": list(eps), "epochs": list(epochs), "minima": minima, "seed": seed,
            "slope_end_to_end": loglog_slope([eps[0], eps[-1]], [minima[0], minima[-1]]),
            "local_slopes": [loglog_slope(eps[i:i + 2], minima[i:i + 2]) for i in range(len(eps) - 1)]}


def cold_start_sweep(data: Fig1Data, *, eps=(1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4), epochs: int = 50_000,
                     penalties=("explicit", "coupled"), seed: int = 0) -> dict[str, Any]:
    """Fresh model (same initial seed), equal epochs and schedule for every eps; slopes over the four
    smallest eps of J_eps(theta_T) and of E(theta_T); the not-a-global-minimiser diagnostic
    J > c eps |theta*|^2 (c = 1 explicit, 1/2 coupled).  The explicit-penalty runs train together
    (:func:`train_explicit_ensemble`), the coupled ones one after another."""
    import copy

    import torch

    res: dict[str, Any] = {"eps": list(eps), "epochs": epochs}
    every = max(1, epochs // 200)
    for pen in penalties:
        rows = []
        if pen == "explicit":  # every eps from the same start and shuffles: one vectorised program
            torch.manual_seed(seed)
            first = Fig1Model(data.inputs.shape[-1])
            models = [first] + [copy.deepcopy(first) for _ in eps[1:]]
            outs = train_explicit_ensemble(models, data, epochs=epochs, eps=list(eps), record_every=every)
        else:  # Adam's weight decay is one number per parameter group: a run per eps
            outs = []
            for e in eps:
                torch.manual_seed(seed)
                model = Fig1Model(data.inputs.shape[-1])
                outs.append(train(model, data, epochs=epochs, eps=e, penalty=pen, record_every=every))
        for e, out in zip(eps, outs):
            c = 1.0 if pen == "explicit" else 0.5
            J = out["E"] + (e if pen == "explicit" else e / 2) * out["norm2"]
            rows.append({"eps": e, "E": out["E"], "norm2": out["norm2"], "J": J, "min_E": out["min_E"],
                         "not_global_min": J > c * e * data.theta_star_norm2})
        small = sorted(rows, key=lambda r: r["eps"])[:4]
        res[pen] = {"rows": rows,
                    "slope_J": loglog_slope([r["eps"] for r in small], [r["J"] for r in small]),
                    "slope_E": loglog_slope([r["eps"] for r in small], [max(r["E"], 1e-300) for r in small])}
    res["torch"] = torch.__version__
    res["threads"] = torch.get_num_threads()
    return res
