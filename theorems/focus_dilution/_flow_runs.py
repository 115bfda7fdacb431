"""The flow runs shared by the dynamic checks (spec §4.5-§4.15) and the observables read off them.

The E1 reference runs (pi = (0.75, 0.19, 0.05, 0.01), lam = 1/2 and 9/10, seed 0, T = 3e4, about 2 s each)
are cached per process (:func:`.flow.cached_flow`) and shared by several claims; short claim-specific runs are
cached here (:func:`_local_flow`).  Also the saddle-start runs of spec §4.8 and the derived budget of a fitted
exponential rate (:func:`_rate_budget`), shared by the focus-direction checks and focus.stage2.saddle_as_stated.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from numerics.flows import first_time, integrate
from numerics.markov import MarkovChain

from ._checks_model import E1_PI
from .flow import Shapes, Trajectory, cached_flow, full_jac, full_rhs, pack, run_flow, theta_c1, unpack
from .population import reference_formulas

EPS = 1e-3


def e1_run(lam: str = "1/2", eps: float = EPS, seed: int = 0, T: float = 3e4) -> Trajectory:
    return cached_flow("lazy", (E1_PI, lam), T=T, eps=eps, seed=seed)


@lru_cache(maxsize=40)
def _local_flow(kind: str, args: tuple, T: float, eps: float, seed: int, *, m: int = 8, mk: int = 8,
                per_decade: int = 500) -> Trajectory:
    """Short or claim-specific flows (condensation seeds 1-2 to t = 300, the eps = 1e-4 runs, the 7 x 3
    anti-focus flows), cached here rather than in the shared 16-entry :func:`.flow.cached_flow`, so that
    they never evict the E1 reference runs shared with other claims."""
    import numerics.markov as markov

    chain = MarkovChain.lazy(*args) if kind == "lazy" else getattr(markov, kind)(*args)
    return run_flow(chain, T=T, m=m, mk=mk, eps=eps, seed=seed, per_decade=per_decade)


def _refs(ch: MarkovChain) -> dict[str, Any]:
    f = reference_formulas(list(ch.pi), ch.P.tolist(), log=np.log, sqrt=np.sqrt)
    out = {k: f[k] for k in ("H", "HYX", "mu0", "sc2", "K1", "K2", "c", "n2", "logd")}
    out["normv"] = float(np.linalg.norm(f["v"]))
    out["ell"] = np.array(f["ell"])
    out["v"] = np.array(f["v"])
    out["r"] = np.array(f["r"])
    out["rho"] = np.array(f["rho"]) if "rho" in f else None
    return out


def _event_time(t: np.ndarray, cond: np.ndarray, what: str) -> float:
    """The first grid time where ``cond`` holds; a clear error naming the event if it never does (the run
    is too short for the dynamics the check reads, or the dynamics differ from the spec's)."""
    tt = first_time(t, cond)
    if tt is None:
        raise ValueError(f"{what} never happens on t in [{float(t[0]):g}, {float(t[-1]):g}]")
    return tt


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def _attention_forcing(ch: MarkovChain, R: Mapping[str, Any]) -> np.ndarray:
    """The attention-only forcing of spec §4.10, f_q = (s_c/|pi|) pi_q [K1 r_q + K2 (pi_q/n2 - 1)]: the
    FALSE prediction of the controls (it omits the G_M term that is O(kappa) through Delta A)."""
    return (np.sqrt(R["sc2"]) / np.sqrt(R["n2"]) * ch.pi
            * (R["K1"] * R["r"] + R["K2"] * (ch.pi / R["n2"] - 1)))


def _perp(x: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """P_pi^perp applied along the last axis."""
    ph = pi / np.linalg.norm(pi)
    return x - (x @ ph)[..., None] * ph


def _first_plateau_alpha(tr: Trajectory) -> tuple[np.ndarray, float]:
    """alpha_1 := v1(W0) at the first interior plateau of the stage detector (spec §4 "detectors")."""
    tp = tr.stages().plateaus[1].t_value
    return np.linalg.svd(tr.params[0][tr.at(tp)])[2][0], tp


def _kappa_along(tr: Trajectory, a1: np.ndarray) -> np.ndarray:
    _, _, WQ, WK = tr.params
    return np.einsum("i,tij,j->t", a1, WQ @ np.swapaxes(WK, -1, -2), a1)



def _from_saddle(ch: MarkovChain, T: float, scale: float = 1e-6, m: int = 8, mk: int = 8, seed: int = 0,
                 rtol: float = 1e-11, atol: float = 1e-16, n: int = 400, method: str = "DOP853"
                 ) -> Trajectory:
    """Start at theta_c1 with W_Q, W_K random of scale ``scale`` (DOP853 by default; LSODA gets the
    batched finite-difference Jacobian of :func:`.flow.full_jac`)."""
    sh = Shapes(ch.d, m, mk)
    y0 = theta_c1(ch, m, mk)
    rng = np.random.default_rng(seed)
    W0, W1, _, _ = unpack(y0, sh)
    WQ = scale * rng.standard_normal((m, mk))
    WK = scale * rng.standard_normal((m, mk))
    y0 = pack(W0, W1, WQ, WK)
    grid = np.linspace(0, T, n)
    jac = full_jac(ch, sh) if method == "LSODA" else None
    t, Y = integrate(full_rhs(ch, sh), y0, grid, method=method, rtol=rtol, atol=atol, jac=jac)
    return Trajectory(ch, sh, t, Y)


def _kappa(tr: Trajectory) -> np.ndarray:
    """kappa = alpha1^T W_Q W_K^T alpha1 with alpha1 = e1, the hidden direction of theta_c1 (= v1(W0(0)))."""
    _, _, WQ, WK = tr.params
    return (WQ @ np.swapaxes(WK, -1, -2))[:, 0, 0]


# integration error of log kappa on a saddle run: DOP853 at rtol 1e-11 accumulates at most ~1e3 local errors
# (the runs take ~1e3 steps) -> 1e-8 relative, a bound on |log kappa - log kappa_exact|
SADDLE_E_INT = 1e-8
RATE_SAFETY = 2.0      # safety factor of the derived rate budgets
E1_RATE_SAFETY = 1.5   # the E1 budget is an a-posteriori estimate (see _rate_budget): a thinner factor


def _rate_budget(t: np.ndarray, y: np.ndarray, lo: float, hi: float, e_other: float, safety: float
                 ) -> tuple[float, float, dict[str, float]]:
    """Fitted rate of log y on the first contiguous run of lo <= y <= hi (numerics.flows.fit_rate's samples)
    and a budget for |rate - the exponential rate of the linearisation| derived from the fit window, not
    from the target: a least-squares slope over a window of length Dt moves by at most 3 e/Dt under a
    perturbation |delta| <= e of log y (e_other: integration error and transients, given by the caller);
    the curvature of log y (the nonlinear and transient drift of the rate) is measured by the fit's largest
    residual r, and a quadratic drift q s^2 on [0, Dt] has residual Dt^2 q/6 and slope bias q Dt = 6 r/Dt;
    plus the drift of the instantaneous rate between the window's start and the fitted slope (the quadratic
    fit's derivative at the first sample: how far the rate moved inside the window).  budget = safety x
    (6 r + 3 e_other)/Dt + safety x |rate(t_lo) - rate|.  None of these terms uses the target rate."""
    sel = (y >= lo) & (y <= hi)
    idx = np.flatnonzero(sel)
    if len(idx) < 3:
        raise ValueError(f"fewer than 3 samples with y in [{lo}, {hi}]")
    end = idx[0]
    while end + 1 < len(y) and sel[end + 1]:
        end += 1
    ii = np.arange(idx[0], end + 1)
    tt, ly = t[ii], np.log(y[ii])
    p1 = np.polyfit(tt, ly, 1)
    r = float(np.max(np.abs(ly - np.polyval(p1, tt))))
    q = np.polyfit(tt, ly, 2)
    start_rate = float(2 * q[0] * tt[0] + q[1])
    span = float(tt[-1] - tt[0])
    rate = float(p1[0])
    budget = safety * (6 * r + 3 * e_other) / span + safety * abs(start_rate - rate)
    return rate, budget, {"rate": rate, "budget": budget, "fit_residual_max": r, "window_span": span,
                          "start_rate": start_rate, "e_other": e_other, "safety": safety, "samples": len(ii)}


def elementwise(a: Any, shape: tuple[int, ...] | None = None) -> Any:
    """An array observable as a float64 torch tensor (broadcast to ``shape`` if given): the statement
    evaluator compares tensors elementwise (verify.Tally.statement; its float arithmetic does not take numpy
    arrays, and its sums need equal shapes, so scalars added to arrays are passed at the arrays' shape)."""
    import torch

    x = np.asarray(a, dtype=np.float64)
    return torch.as_tensor(np.ascontiguousarray(np.broadcast_to(x, shape)) if shape is not None else x)
