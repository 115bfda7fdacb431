"""Gradient-flow integration utilities: scipy solvers, batched torch RK4, an mpmath RK4 oracle,
geometric time grids, rate fits and the plateau/drop stage detector (spec focus_dilution.md §5, §6).

* :func:`integrate`       scipy ``solve_ivp`` (LSODA by default, DOP853 for rate fits) on a time grid.
* :func:`rk4_torch`       fixed-step RK4 for a *batch* of flows in one tensor program (sweeps).
* :func:`rk4_mp`          fixed-step RK4 in a local mpmath context (kept for step-size studies).
* :func:`taylor_mp`       the high-precision ODE oracle: ``mpmath.odefun`` (Taylor series with
                          adaptive degree and step) in a local context, to the context's precision.
* :func:`detect_stages`   S(t) = -dL/dlog t by centred differences; drops are maximal intervals with
                          S > threshold, plateaus the gaps (plus head and tail), the plateau value is L
                          at the local minimum of S inside the gap (spec §5 "stage detector").
* :func:`fit_rate`        least-squares slope of log y against t on a window of y values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.errors import VerifyError
from numerics.validation import check_int

__all__ = ["geometric_grid", "integrate", "rk4_torch", "rk4_mp", "taylor_mp", "Stage", "Stages", "detect_stages",
           "fit_rate", "first_time", "FlowError", "MAX_EVALS"]


class FlowError(VerifyError, RuntimeError):
    """An integration failed (the solver's message is included)."""


def geometric_grid(t0: float, T: float, per_decade: int = 500) -> np.ndarray:
    """0 followed by a geometric grid from t0 to T with ``per_decade`` points per decade."""
    if not (0 < t0 < T):
        raise ValueError(f"need 0 < t0 < T, got t0={t0}, T={T}")
    if per_decade < 1:
        raise ValueError("per_decade must be >= 1")
    n = int(np.ceil(np.log10(T / t0) * per_decade)) + 1
    return np.concatenate([[0.0], np.geomspace(t0, T, n)])


MAX_EVALS = 500_000
"""Default budget of field evaluations for one :func:`integrate` call.  The whole catalogue's largest
flow (E1 to t = 3e4 at ci) takes 7594; a flow whose field turns (numerically) discontinuous -- a tiny
temperature making the softmax a hardmax -- makes LSODA shrink its step without end and never fail, so
the budget turns that crawl into a :class:`FlowError` (6.8 s for tau = 1e-300 at eps = 0.5 with the
compiled field, ~14 us per call) instead of a run that does not return."""


class _Exhausted(Exception):
    """Raised inside the solver's callback when the evaluation budget is spent."""


def integrate(rhs: Callable[[float, np.ndarray], np.ndarray], y0: np.ndarray, t_eval: np.ndarray, *,
              method: str = "LSODA", rtol: float = 1e-9, atol: float = 1e-12,
              jac: Callable[..., Any] | None = None, max_step: float = np.inf,
              max_evals: int = MAX_EVALS) -> tuple[np.ndarray, np.ndarray]:
    """Integrate y' = rhs(t, y) with scipy and return (t, Y) on ``t_eval`` (Y has shape n_t x n_y).

    Raises :class:`FlowError` when the solver fails, or when it has evaluated ``rhs`` ``max_evals``
    times without reaching the end of ``t_eval`` (a step size collapsing to nothing: the solver would
    crawl, not fail).  The budget only counts calls, so a flow inside it is computed exactly as without.
    """
    from scipy.integrate import solve_ivp

    max_evals = check_int(max_evals, "max_evals", minimum=1)
    y0 = np.asarray(y0, dtype=np.float64)
    if not np.all(np.isfinite(y0)):
        raise ValueError("initial state has a non-finite entry")
    t_eval = np.asarray(t_eval, dtype=np.float64)
    if np.any(np.diff(t_eval) <= 0):
        raise ValueError("t_eval must be strictly increasing")
    kw: dict[str, Any] = dict(method=method, t_eval=t_eval, rtol=rtol, atol=atol, max_step=max_step)
    if jac is not None and method in ("LSODA", "Radau", "BDF"):
        kw["jac"] = jac
    calls = [0]

    def counted(t: float, y: np.ndarray) -> np.ndarray:
        calls[0] += 1
        if calls[0] > max_evals:
            raise _Exhausted
        return rhs(t, y)

    try:
        sol = solve_ivp(counted, (float(t_eval[0]), float(t_eval[-1])), y0, **kw)
    except _Exhausted:
        raise FlowError(f"{method} did not reach t = {float(t_eval[-1]):g} within {max_evals} field evaluations "
                        "(its step size collapsed: the field is numerically discontinuous or the flow stiff "
                        "beyond the solver; use a larger temperature, a shorter horizon or a larger "
                        "max_evals)") from None
    if not sol.success:
        raise FlowError(f"{method} failed: {sol.message}")
    return sol.t, sol.y.T.copy()


def rk4_torch(f: Callable[[Any], Any], y0: Any, t_grid: Sequence[float], dt: float) -> Any:
    """Fixed-step RK4 on a batch ``y0`` (a torch tensor, usually B x n) for the autonomous field ``f``.

    Returns a tensor (len(t_grid) x *y0.shape) of the states at the grid times (t_grid[0] = 0 is y0);
    each interval is divided into ceil(interval/dt) equal steps.  Any state layout works (the batch-last
    sweep of ``theorems.focus_dilution._batched`` integrates size x B states).

    Each step costs four calls of ``f`` and seven fused axpy kernels (``torch.add(..., alpha=)``), so for
    small batches the time goes to ``f``.
    """
    import torch

    if dt <= 0:
        raise ValueError("dt must be > 0")
    ts = list(map(float, t_grid))
    if ts[0] != 0.0 or any(b <= a for a, b in zip(ts, ts[1:])):
        raise ValueError("t_grid must start at 0 and increase")
    y = y0
    out = [y0]
    for a, b in zip(ts, ts[1:]):
        n = max(1, int(np.ceil((b - a) / dt)))
        h = (b - a) / n
        for _ in range(n):
            k1 = f(y)
            k2 = f(torch.add(y, k1, alpha=0.5 * h))
            k3 = f(torch.add(y, k2, alpha=0.5 * h))
            k4 = f(torch.add(y, k3, alpha=h))
            s = torch.add(k1, k2, alpha=2.0).add_(k3, alpha=2.0).add_(k4)  # k1 + 2 k2 + 2 k3 + k4
            y = torch.add(y, s, alpha=h / 6.0)
        out.append(y)
    return torch.stack(out)


def rk4_mp(f: Callable[[list[Any]], list[Any]], y0: Sequence[Any], T: Any, steps: int, ctx: Any) -> list[Any]:
    """Fixed-step RK4 in the mpmath context ``ctx`` (oracle): the state at time T."""
    if steps < 1:
        raise ValueError("steps must be >= 1")
    h = ctx.mpf(T) / steps
    y = [ctx.mpf(x) for x in y0]
    for _ in range(steps):
        k1 = f(y)
        k2 = f([a + h / 2 * b for a, b in zip(y, k1)])
        k3 = f([a + h / 2 * b for a, b in zip(y, k2)])
        k4 = f([a + h * b for a, b in zip(y, k3)])
        y = [a + h / 6 * (b + 2 * c + 2 * e + g) for a, b, c, e, g in zip(y, k1, k2, k3, k4)]
    return y


def taylor_mp(f: Callable[[list[Any]], list[Any]], y0: Sequence[Any], T: Any, ctx: Any) -> list[Any]:
    """The state at time ``T`` of the autonomous system ``y' = f(y)`` from ``y0``, by mpmath's Taylor
    integrator (``ctx.odefun``: degree and step chosen for the context's precision) in the local
    mpmath context ``ctx`` -- the oracle for short windows (30 digits in a fraction of the time a
    fixed-step RK4 needs for 15)."""
    if not ctx.isfinite(ctx.mpf(T)) or ctx.mpf(T) < 0:
        raise ValueError(f"T must be a finite time >= 0, got {T!r}")
    sol = ctx.odefun(lambda _t, y: f(list(y)), 0, [ctx.mpf(x) for x in y0])
    return list(sol(ctx.mpf(T)))


@dataclass(frozen=True)
class Stage:
    """A plateau (kind 'plateau') or a drop (kind 'drop') of the loss on [t_start, t_end]."""

    kind: str
    t_start: float
    t_end: float
    value: float  # plateau: L at the minimum of S; drop: loss decrease over the interval
    t_value: float


@dataclass(frozen=True)
class Stages:
    drops: tuple[Stage, ...]
    plateaus: tuple[Stage, ...]

    @property
    def plateau_values(self) -> list[float]:
        return [p.value for p in self.plateaus]


def detect_stages(t: np.ndarray, L: np.ndarray, *, threshold: float = 0.02) -> Stages:
    """Drops (S = -dL/dlog t > threshold) and plateaus of a loss curve on a geometric grid (t > 0)."""
    t = np.asarray(t, dtype=np.float64)
    L = np.asarray(L, dtype=np.float64)
    keep = t > 0
    t, L = t[keep], L[keep]
    if len(t) < 5:
        raise ValueError("need at least 5 positive times to detect stages")
    if not np.all(np.isfinite(L)):
        raise ValueError("the loss curve has a non-finite value")
    lt = np.log(t)
    S = np.empty_like(L)
    S[1:-1] = -(L[2:] - L[:-2]) / (lt[2:] - lt[:-2])
    S[0] = -(L[1] - L[0]) / (lt[1] - lt[0])
    S[-1] = -(L[-1] - L[-2]) / (lt[-1] - lt[-2])
    above = S > threshold
    drops: list[Stage] = []
    i = 0
    n = len(t)
    while i < n:
        if above[i]:
            j = i
            while j + 1 < n and above[j + 1]:
                j += 1
            drops.append(Stage("drop", float(t[i]), float(t[j]), float(L[i] - L[j]), float(t[i])))
            i = j + 1
        else:
            i += 1
    # gaps: head, between drops, tail
    bounds = []
    prev = 0
    for dstage in drops:
        a = int(np.searchsorted(t, dstage.t_start))
        bounds.append((prev, a))
        prev = int(np.searchsorted(t, dstage.t_end)) + 1
    bounds.append((prev, n))
    plats = []
    for a, b in bounds:
        if b - a < 1:
            continue
        k = a + int(np.argmin(S[a:b]))
        plats.append(Stage("plateau", float(t[a]), float(t[b - 1]), float(L[k]), float(t[k])))
    return Stages(tuple(drops), tuple(plats))


def fit_rate(t: np.ndarray, y: np.ndarray, lo: float, hi: float) -> tuple[float, int]:
    """Slope of log y against t over the samples with lo <= y <= hi (and the count used)."""
    t = np.asarray(t)
    y = np.asarray(y)
    sel = (y >= lo) & (y <= hi)
    if sel.sum() < 3:
        raise ValueError(f"fewer than 3 samples with y in [{lo}, {hi}]")
    # keep only the first contiguous run inside the window
    idx = np.flatnonzero(sel)
    run_end = idx[0]
    while run_end + 1 < len(y) and sel[run_end + 1]:
        run_end += 1
    ii = np.arange(idx[0], run_end + 1)
    slope = np.polyfit(t[ii], np.log(y[ii]), 1)[0]
    return float(slope), len(ii)


def first_time(t: np.ndarray, cond: np.ndarray) -> float | None:
    """The first t where ``cond`` holds (None if never)."""
    idx = np.flatnonzero(np.asarray(cond))
    return float(t[idx[0]]) if len(idx) else None
