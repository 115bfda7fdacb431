"""float64 corroborations of the critical temperature (spec §3.3): the autograd Hessian at collapse
against the block formula, and gradient descent from near collapse, whose fitted per-step log-change of
the spread along v_1 is log|1 - eta h_1| (h_1 the relative-mode Hessian eigenvalue of §2.3)."""

from __future__ import annotations

import math

import numpy as np

from numerics.precision import Tri, float_tolerance
from verify import Evidence, Profile, Tally, Verdict, observe, refuted

from ._checks_separation import _part
from .dictionary import covariance, descent_gradients, exact_covariance_sample, grad_live_Lq, mode_constant
from .hessian import autograd_collapse_hessian, collapse_hessian, critical_temperature, relative_mode_eigenvalues


def torch_hessian(*, seed: int, profile: Profile) -> Evidence:
    """float64: autograd Hessian at collapse equals the block formula, and the statement's
    ``negative_count`` part holds on its negative-eigenvalue count (tau = rho c lambda_1 with rho in
    [0.3, 0.95] or [1.05, 3], c the product's mode constant placing tau on either side).

    Budget: float_tolerance(ops = 32 N K d, scale = |H|max (1 + tr C / tau))."""
    from verify import statement_of

    st = statement_of("ddcl.separation.critical_temperature")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="torch autograd", seeds=(seed,))
    for _ in range(profile.pick(6, 20, 100)):
        d, N, K = int(rng.integers(1, 5)), int(rng.integers(50, 200)), int(rng.integers(2, 5))
        Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d))
        mode = ("full", "stopgrad")[int(rng.integers(0, 2))]
        c = mode_constant(mode)
        C = covariance(Z)
        lam1 = float(np.linalg.eigvalsh(C)[-1])
        rho = float(rng.uniform(0.3, 0.95) if rng.random() < 0.5 else rng.uniform(1.05, 3))
        tau = rho * c * lam1
        Ha = autograd_collapse_hessian(Z, K, tau, mode)
        Hb = np.array(collapse_hessian(C.tolist(), K, tau, c), dtype=float)
        tol = float_tolerance(ops=32 * N * K * d, scale=float(np.abs(Hb).max()) * (1 + np.trace(C) / tau))
        tally.close(float(np.abs(Ha - Hb).max()), 0.0, tol)
        eig = np.linalg.eigvalsh(Ha)
        hmin = float(eig[0])
        # the statement's negative_count part on the autograd Hessian's negative count (eigenvalues are
        # at least |rho - 1| 2/K away from 0, far beyond the budget tol)
        part = _part(st, "negative_count", mode)
        tally.statement(st, {"n_-": int((eig < -tol).sum()), "tau": tau, "lambda_1": lam1}, part=part,
                        tol=tol * max(1.0, lam1), counterexample=lambda: refuted(
                            f"min Hessian eigenvalue {hmin} at rho = {rho} ({mode})", sub_check=part))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def _same_shape_groups(runs: list[dict]) -> list[list[dict]]:
    """The runs grouped by (d, K, mode): one batched descent per group."""
    groups: dict[tuple, list[dict]] = {}
    for r in runs:
        groups.setdefault((r["d"], r["K"], r["mode"]), []).append(r)
    return list(groups.values())


def _descend_from_collapse(group: list[dict], steps: int, eta: float) -> None:
    """For each run of ``group`` (one d, K and mode): ``P <- P - eta grad(P)`` (the product's
    ``descent_gradient``, here as the batch ``descent_gradients``: per run the very floats), the spread
    max|P - mean_k P| recorded as (t, log spread) while it is within [lo, hi] sqrt(lambda_1) (lo, hi =
    1e-6, 1e-3 below tau_c, 1e-9, 1e-6 above), a run stopping once it left its window for good (below
    tau_c: spread > 1e-2 sqrt(lambda_1) after more than 10 records; above: spread < 1e-10 sqrt(lambda_1))
    or after ``steps``.  Sets ``logs`` and the last ``spread`` of every run; the stopped runs leave the
    batch."""
    for r in group:
        r["logs"], r["spread"] = [], None
        sq = math.sqrt(r["lam1"])
        lo, hi = ((1e-6, 1e-3) if r["rho"] < 1 else (1e-9, 1e-6))
        r["window"] = (lo * sq, hi * sq)
        r["stop"] = (1e-2 * sq, -math.inf) if r["rho"] < 1 else (math.inf, 1e-10 * sq)  # (up, down)
    active = list(group)
    d, K, mode = group[0]["d"], group[0]["K"], group[0]["mode"]
    t = 0
    while active and t < steps:
        grad = descent_gradients([r["Z"] for r in active], [r["tau"] for r in active], mode, K=K, d=d)
        P = np.stack([r["P"] for r in active])
        stopped = False
        while t < steps and not stopped:
            P = P - eta * grad(P)
            spreads = np.abs(P - P.mean(1, keepdims=True)).max(axis=(1, 2))
            for j, r in enumerate(active):
                spread = float(spreads[j])
                lo, hi = r["window"]
                if lo <= spread <= hi:
                    r["logs"].append((t, math.log(spread)))
                up, down = r["stop"]
                if (spread > up and len(r["logs"]) > 10) or spread < down:
                    r["done"] = True
                    stopped = True
                r["spread"] = spread
            t += 1
        for j, r in enumerate(active):
            r["P"] = P[j]
        active = [r for r in active if not r.get("done")]


def simulation(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Gradient descent (eta = 0.05) from collapse + a spread along v_1 (relative mode): the fitted
    per-step log-change of the spread equals log(1 - eta h_1) within 1 % (pass criterion fixed in the
    spec), final spread > 100x initial if rho <= 0.9, < 1/100 x initial if rho >= 1.1.

    ``variant="unconditional"`` tests R0 ("the spread always grows") on the pinned Z = {-1, 1},
    K = 2, full, tau = 5, from +-1e-3: the prototypes return to collapse (|p| < 1e-12)."""
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,), tolerance=0.01)
    eta = 0.05
    if variant == "unconditional":
        Z = np.array([[-1.0], [1.0]])
        P = np.array([[-1e-3], [1e-3]])
        for _ in range(3000):
            P = P - eta * grad_live_Lq(Z, P, 5.0)
        spread = float(np.abs(P).max())
        tally.exact(spread > 1e-3, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
            f"Z = {{-1, 1}}, K = 2, full, tau = 5: from +-1e-3 the prototypes return to collapse "
            f"(max |p| = {spread:.3g} after 3000 steps of eta = 0.05)", Z=[-1, 1], K=2, tau=5,
            p0=[-1e-3, 1e-3], final_spread=spread))
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    spectrum = [4, 2, 1, 0.5, 0.25, 0.1, 0.1, 0.1]
    configs = profile.pick(
        [(2, 2, "full", 0.5), (2, 2, "stopgrad", 2.0), (2, 4, "stopgrad", 0.8)],
        [(d, K, m, r) for d in (2,) for K in (2, 4) for m in ("full", "stopgrad") for r in (0.5, 0.9, 1.1, 2)],
        [(d, K, m, r) for d in (2, 8) for K in (2, 4, 8) for m in ("full", "stopgrad")
         for r in (0.5, 0.8, 0.9, 1.1, 1.25, 2)])
    N = profile.pick(300, 1000, 1000)
    steps = profile.pick(4000, 20000, 20000)
    runs = []  # every configuration's draws first, in the configurations' order (the runs draw nothing)
    for d, K, mode, rho in configs:
        lam = np.array(spectrum[:d], float)
        O, _ = np.linalg.qr(rng.standard_normal((d, d)))
        Z = exact_covariance_sample(O @ np.diag(lam) @ O.T, N, rng)
        C = covariance(Z)
        w, V = np.linalg.eigh(C)
        v1, lam1 = V[:, -1], w[-1]
        c = mode_constant(mode)
        # the product's tau_c and relative-mode eigenvalue h_1 = (2/K)(1 - c lambda_1/tau) (not restated)
        tau = rho * critical_temperature(Z, mode, certified=False).value
        h1 = float(relative_mode_eigenvalues([float(lam1)], K, tau, c)[0])
        xi = rng.standard_normal(K)
        xi -= xi.mean()
        s0 = (1e-8 if rho < 1 else 1e-3) * math.sqrt(lam1)
        P = Z.mean(0) + np.outer(xi / np.abs(xi).max() * s0, v1)
        runs.append(dict(d=d, K=K, mode=mode, rho=rho, Z=Z, lam1=lam1, tau=tau, h1=h1, s0=s0, P=P))
    for group in _same_shape_groups(runs):
        _descend_from_collapse(group, steps, eta)
    for r in runs:
        d, K, mode, rho, lam1, h1, s0 = (r[k] for k in ("d", "K", "mode", "rho", "lam1", "h1", "s0"))
        logs, spread = r["logs"], r["spread"]
        if len(logs) < 5:
            tally.add(observe.ball(Tri.UNKNOWN))
            tally.note(f"fit window not reached: d={d}, K={K}, {mode}, rho={rho}")
            continue
        ts, ls = np.array(logs).T
        slope = float(np.polyfit(ts, ls, 1)[0])
        pred = math.log(abs(1 - eta * h1))
        tally.close(slope, pred, 0.01, scale=abs(pred), counterexample=lambda: refuted(
            f"fitted log growth {slope:.6g} vs predicted {pred:.6g} (d={d}, K={K}, {mode}, rho={rho})"))
        tally.details[f"d{d}_K{K}_{mode}_rho{rho}"] = {"slope": slope, "predicted": pred}
        final_ratio = spread / s0
        if rho <= 0.9:
            tally.exact(final_ratio > 100, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                f"spread grew only {final_ratio:.3g}x at rho = {rho}"))
        elif rho >= 1.1:
            tally.exact(final_ratio < 1e-2, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                f"spread shrank only to {final_ratio:.3g}x at rho = {rho}"))
    return tally.evidence(level_cap=Verdict.CONSISTENT)
