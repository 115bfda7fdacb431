"""Focus-dilution model checks on the gradient flow of a user's population loss (issue 12; spec §4.5, §4.7-§4.10):
the flow theta' = -grad L of the user's ``population_loss`` (the protocol of :mod:`.models`; gradients by
``torch.autograd``, classical RK4, float64) and the observables the claims' statements read off it.
"""

from __future__ import annotations

from typing import Any

from verify import Evidence, Profile, Tally, statement_of

from ._model_checks_spectra import MK, M, _chains, _jacobian, one_thread

__all__ = ["condensation_rate", "focus_growth", "mass_redistribution", "opposite_motion"]

DT = 0.25  # RK4 step of the condensation flow
# the saddle flows (focus.stage2.focus_as_stated, focus.stage3.mass_redistribution): m = 2, m_k = 1 (the
# unstable eigendirection of theta_c1 is unique), W_Q, W_K random of scale 1e-6 as the product's _from_saddle
M_S, MK_S = 2, 1
SADDLE_SCALE = 1e-6
SADDLE_DT = 0.25   # RK4 step; |lambda| dt <= 0.25 for the E1 spectrum at theta_c1 (max |lambda| = 0.90)
RICHARDSON = 15    # y(2 dt) - y(dt) = (2^4 - 1) x the error of y(dt) for a fourth-order method
RK4_SAFETY = 2.0   # safety factor on that a-posteriori estimate


def _flow(model: Any, ch: Any, theta0: Any, t_end: float, dt: float, stop: Any = None, *, m: int = M,
          mk: int = MK) -> tuple[Any, Any]:
    """(t, theta(t)): the gradient flow theta' = -grad L of the user's population loss from ``theta0``
    (hidden width m, key width mk), classical RK4 with step ``dt`` up to ``t_end``, or one step after
    ``stop(theta)`` holds (gradients by ``torch.autograd``; float64)."""
    import numpy as np
    import torch

    from .flow import Shapes, unpack

    sh = Shapes(ch.d, m, mk)
    pi = torch.tensor(ch.pi, dtype=torch.float64)
    P = torch.tensor(ch.P, dtype=torch.float64)

    def f(th: Any) -> Any:
        th = th.detach().requires_grad_(True)
        W0, W1, WQ, WK = unpack(th, sh)
        return -torch.autograd.grad(model.population_loss(pi, P, W0, W1, WQ, WK), th)[0]

    steps = int(np.ceil(t_end / dt))
    th = torch.as_tensor(theta0, dtype=torch.float64)
    out = [th]
    with one_thread():
        for _ in range(steps):
            k1 = f(th)
            k2 = f(th + dt / 2 * k1)
            k3 = f(th + dt / 2 * k2)
            k4 = f(th + dt * k3)
            th = th + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            out.append(th)
            if stop is not None and len(out) > 2 and stop(out[-2]):
                break
    return np.arange(len(out)) * dt, torch.stack(out).numpy()


def condensation_rate(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage1.condensation on the user's loss, parts ``rate`` and ``mu0_spectrum`` (spec §4.5):
    from a small start theta(0) = eps N(0, 1) (eps = 1e-3), the top singular value sigma1(W0) of the
    gradient flow of the user's loss grows at mu0 = |pi| |v| (``reference_quantities``), and mu0 is the
    top eigenvalue of J0 = -Hessian of the user's loss at the origin (``torch.func.hessian``).

    The rate is the least-squares slope of log sigma1 on [20 eps, 0.1] (``numerics.flows.fit_rate``).
    Its budget is derived from the run, as the product check does, and never uses the mu0 it is checked
    against: |rate_lin - top| (the linear flow e^{J0 t} theta(0) of the user's own J0, fitted on the same
    window: the transient of the other modes against its own rate top) + 2 x 3 e_nl / Delta t (e_nl =
    max |sigma1/sigma1_lin - 1| on the window bounds the nonlinear change of log sigma1, which moves a
    slope by at most 3 e_nl/Delta t; safety factor 2).  The flow is RK4 at dt = 1/4 (mu0 dt < 0.06), stopped
    once sigma1 passes 0.1; its discretisation error is part of e_nl (sigma1_lin is the exact exponential)."""
    import numpy as np

    from numerics.flows import fit_rate

    from .flow import Shapes, unpack
    from .population import reference_quantities

    st = statement_of("focus.stage1.condensation")
    tally = Tally(precision="float64 (user model, RK4 dt = 1/4)", backend="torch.autograd", seeds=(seed,))
    eps = 1e-3
    rng = np.random.default_rng(seed)
    for ch in _chains(profile)[:profile.pick(1, 2, 4)]:
        sh = Shapes(ch.d, M, MK)
        J, ev, thr = _jacobian(model, ch, np.zeros(sh.size))
        w, Q = np.linalg.eigh(J.numpy())
        top = float(w.max())
        mu0 = float(reference_quantities(ch, dps=30).mu0)
        inst = {"chain": ch.P.tolist(), "epsilon": eps}
        tally.statement(st, {"lambda_J0": top, "mu_0": mu0, "instance": inst}, part="mu0_spectrum",
                        tol=thr * max(1.0, top))
        theta0 = eps * rng.standard_normal(sh.size)
        inst["theta0_seed"] = seed
        if top <= 0:
            continue  # no growing mode: the rate is not measurable (mu0_spectrum above is the witness)
        t, th = _flow(model, ch, theta0, 1.5 * np.log(0.1 / eps) / top, DT,
                      stop=lambda x: float(np.linalg.svd(unpack(x.numpy(), sh)[0], compute_uv=False)[0]) > 0.1)
        s1 = np.linalg.svd(unpack(th, sh)[0], compute_uv=False)[:, 0]
        lin = (np.exp(np.outer(t, w)) * (Q.T @ theta0)[None, :]) @ Q.T
        s1_lin = np.linalg.svd(unpack(lin, sh)[0], compute_uv=False)[:, 0]
        try:
            rate, _ = fit_rate(t, s1, 20 * eps, 0.1)
            rate_lin, _ = fit_rate(t, s1_lin, 20 * eps, 0.1)
        except ValueError:  # sigma1 never crosses the window: no rate, the statement's rate is refuted
            rate, rate_lin = float(np.log(max(s1[-1], 1e-300) / s1[0]) / t[-1]), top
        fw = np.flatnonzero((s1 >= 20 * eps) & (s1 <= 0.1))
        e_nl = float(np.max(np.abs(s1[fw] / s1_lin[fw] - 1))) if len(fw) > 1 else 0.0
        span = float(t[fw[-1]] - t[fw[0]]) if len(fw) > 1 else float(t[-1])
        budget = abs(rate_lin - top) + 2 * 3 * e_nl / span
        tally.statement(st, {"r_sigma1": rate, "mu_0": mu0, "instance": inst}, part="rate", tol=budget)
        tally.details.setdefault("rates", []).append({"rate": rate, "mu0": mu0, "budget": budget,
                                                      "rate_lin": rate_lin, "top": top})
    tally.details.update(safety=2, tolerance_rule="|rate_lin - top| + 2 * 3 e_nl / span (rate); "
                         "8 n eps max(1, max|J|) max(1, top) (mu0_spectrum)")
    return tally.evidence()


# -- flows from the saddle theta_c^1 (spec §4.7-§4.10) ----------------------------------------------------
def _saddle_start(ch: Any, seed: int) -> tuple[Any, Any]:
    """(shapes, theta0): theta_c^1 (:func:`.flow.theta_c1`, m = 2, m_k = 1) with W_Q, W_K drawn N(0, 1e-12)
    from ``seed`` (W_Q first, then W_K: the draw order of the product's ``_from_saddle``)."""
    import numpy as np

    from .flow import Shapes, pack, theta_c1, unpack

    sh = Shapes(ch.d, M_S, MK_S)
    W0, W1, _, _ = unpack(theta_c1(ch, M_S, MK_S), sh)
    rng = np.random.default_rng(seed)
    WQ = SADDLE_SCALE * rng.standard_normal((M_S, MK_S))
    WK = SADDLE_SCALE * rng.standard_normal((M_S, MK_S))
    return sh, pack(W0, W1, WQ, WK)


def _paired_flows(model: Any, ch: Any, theta0: Any, t_end: float, stop: Any) -> tuple[Any, Any, Any]:
    """(t, fine, coarse): the user's gradient flow by RK4 at SADDLE_DT and at 2 SADDLE_DT, on the coarse
    grid (common prefix).  ``|y(fine) - y(coarse)| / RICHARDSON`` estimates the error of an observable y of
    the fine run (Richardson for a fourth-order method)."""
    _, y1 = _flow(model, ch, theta0, t_end, SADDLE_DT, stop, m=M_S, mk=MK_S)
    t2, y2 = _flow(model, ch, theta0, t_end, 2 * SADDLE_DT, stop, m=M_S, mk=MK_S)
    n = min(len(y1[::2]), len(y2))
    return t2[:n], y1[::2][:n], y2[:n]


def _pinned(profile: Profile) -> list[Any]:
    """The pinned F1 chains of focus.stage2.focus_direction (E1; quick: E1 only; ci: + (0.5, 0.3, 0.1, 0.1);
    thorough: + the tie (0.4, 0.4, 0.1, 0.1))."""
    from numerics.markov import MarkovChain

    from ._checks_focus_direction import FOCUS_PINNED

    return [MarkovChain.lazy(pi, lam) for pi, lam in FOCUS_PINNED[:profile.pick(1, 2, 3)]]


def _instance(ch: Any, seed: int) -> dict[str, Any]:
    """The instance a refutation names: pi, the chain family (P), the widths and the attention draw."""
    return {"chain": [str(p) for p in (ch.pi_exact or ch.pi)], "P": ch.name, "m": M_S, "m_k": MK_S,
            "attention_seed": seed}


def focus_growth(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage2.focus_as_stated on the user's loss, parts ``growth``, ``direction`` and ``saddle_focus``
    (seed 002 L31; spec §4.7-§4.8): the attention parameters grow exponentially along the unstable
    eigendirection of theta_c^1 and the attention focuses on the most frequent token.

    Observables, from the user's ``population_loss`` only: lam_u and u, the top eigenvalue of J = -Hessian of
    the user's loss at theta_c^1 (``torch.func.hessian``, m = 2, m_k = 1) and its eigenvector's attention
    block; the gradient flow of the user's loss from theta_c^1 with W_Q, W_K of scale 1e-6 (RK4, dt = 1/4).

    * 'growth': the fitted rate of |(W_Q, W_K)|^2 on [1e-9, 1e-6] equals 2 lam_u (> 0) within the derived
      budget of the product's ``_rate_budget`` (fit curvature + e_other, safety 2), e_other = the RK4 error of
      log |.|^2 (2 x |run(dt) - run(2 dt)| / 15) + the non-growing start |P_perp a0|^2 / 1e-9;
    * 'direction': at |.|^2 = 1e-6, sin angle((W_Q, W_K), u) <= 2 (|P_perp a0| / |a| + |a|^2) (the product's
      bound: the non-growing part over the grown norm plus the nonlinear term);
    * 'saddle_focus': there, every query's attention on the most frequent key(s) exceeds its start pi_k*
      by 1e-13 (1000 x the rounding of A), A the paper's attention row-softmax(Phi + log pi) of the weights
      the user's flow reached (the protocol exposes the loss, not the model's attention map).

    Not evaluated here: 'stage_focus' (the E1 reference run of the product to the focus event)."""
    import numpy as np

    from ._checks_focus_as_stated import DA_RESOLVED, DIR_SAFETY, FOCUS_ID, NORM2_WINDOW
    from ._checks_focus_direction import FOCUS_C_MIN
    from ._flow_runs import RATE_SAFETY, _rate_budget
    from ._statements_as_stated import A_min, b_dir, lam_unst, pi_star, rate, sin_angle
    from .flow import theta_c1, unpack
    from .population import attention, model_matrices

    st = statement_of(FOCUS_ID)
    tally = Tally(precision=f"float64 (user model, torch.func.hessian; RK4 dt = {SADDLE_DT} against 2 dt)",
                  backend="torch.func + torch.autograd", seeds=(seed,))
    lo, hi = NORM2_WINDOW
    rows = []
    for ch in _pinned(profile):
        d = ch.d
        sh, theta0 = _saddle_start(ch, seed)
        n0 = 2 * d * M_S                     # the attention block (W_Q, W_K) in the packed order
        J, _, _ = _jacobian(model, ch, theta_c1(ch, M_S, MK_S), M_S, MK_S)
        w, V = np.linalg.eigh(J.numpy())
        lam_u = float(w[-1])
        u = V[n0:, -1] / max(float(np.linalg.norm(V[n0:, -1])), 1e-300)
        # run length: 3 x the time |.|^2 needs to reach 2 hi at the user's own rate (at least c = 0.01, the
        # hypothesis of the claim), stopped one step after |.|^2 passes 2 hi
        t_end = 3 * (np.log(2 * hi / SADDLE_SCALE ** 2) / (2 * max(lam_u, FOCUS_C_MIN)) + 20)
        t, fine, coarse = _paired_flows(model, ch, theta0, t_end, lambda x, n0=n0: float((x[n0:] ** 2).sum()) > 2 * hi)
        n2, n2c = (fine[:, n0:] ** 2).sum(axis=1), (coarse[:, n0:] ** 2).sum(axis=1)
        a0 = fine[0, n0:]
        perp0 = float(np.linalg.norm(a0 - (a0 @ u) * u))
        win = (n2 >= lo) & (n2 <= hi)
        e_rk4 = RK4_SAFETY * float(np.max(np.abs(np.log(n2[win] / n2c[win])), initial=0.0)) / RICHARDSON
        inst = _instance(ch, seed)
        try:
            r, budget, info = _rate_budget(t, n2, lo, hi, e_rk4 + perp0 ** 2 / lo, RATE_SAFETY)
        except ValueError:  # |.|^2 never crosses the window: the mean rate of the run, no budget
            r, budget, info = float(np.log(n2[-1] / n2[0]) / t[-1]), 0.0, {"window": "not reached"}
        tally.statement(st, {rate.name: r, lam_unst.name: lam_u, "instance": inst}, part="growth", tol=budget)
        ie = int(np.argmax(n2 >= hi)) if bool((n2 >= hi).any()) else len(n2) - 1
        a = fine[ie, n0:] / np.sqrt(n2[ie])
        sin = float(np.sqrt(max(0.0, 1.0 - float(a @ u) ** 2)))
        dbud = DIR_SAFETY * (perp0 / float(np.sqrt(n2[ie])) + float(n2[ie]))
        tally.statement(st, {sin_angle.name: sin, b_dir.name: dbud, "instance": inst}, part="direction", tol=0.0)
        _, Phi = model_matrices(*unpack(fine[ie], sh))
        A = attention(np.asarray(ch.pi), Phi, 1.0)
        pe = list(ch.pi_exact) if ch.pi_exact is not None else list(ch.pi)
        for k in [k for k in range(d) if pe[k] == max(pe)]:
            tally.statement(st, {A_min.name: float(A[:, k].min()), pi_star.name: float(ch.pi[k]),
                                 "instance": {**inst, "key": k + 1, "t": float(t[ie])}},
                            part="saddle_focus", tol=DA_RESOLVED)
        rows.append({"chain": inst["chain"], "lam_u": lam_u, "rate": r, "2lam_u": 2 * lam_u, "budget": budget,
                     "rate_budget": info, "e_rk4_log_norm2": e_rk4, "sin_end": sin, "sin_budget": dbud,
                     "u_outer_weight": float(np.linalg.norm(V[:n0, -1])), "min_gain": float((A - ch.pi).min())})
    tally.details.update(saddle=rows, rk4_safety=RK4_SAFETY, tolerance_rule=(
        "growth: _rate_budget(e_other = 2 |log|a|^2(dt) - log|a|^2(2 dt)|/15 + |P_perp a0|^2/1e-9, safety 2); "
        "direction: 2 (|P_perp a0|/|a| + |a|^2); saddle_focus: 1e-13"))
    return tally.evidence()


KAPPA_WINDOW = (1e-7, 1e-3)   # the product's window of focus.stage3.mass_redistribution (spec §4.10)


def _redistribution_run(model: Any, ch: Any, seed: int) -> dict[str, Any] | None:
    """The flow of the user's loss from theta_c^1 (:func:`_saddle_start`, RK4 at dt and 2 dt) read on the
    kappa window: ``kappa``, ``g_perp`` = P_pi^perp gamma (gamma = W0 e1, kappa = e1^T W_Q W_K^T e1) on the
    window's samples, the measured ``ratio`` g_perp / kappa and its error ``err`` = RHO_TOL (o(kappa)) +
    ``e_rk4`` (2 x |ratio(dt) - ratio(2 dt)| / 15) + ``e_float`` (float_tolerance(4 d, max|gamma| / 1e-7));
    None when the run does not traverse the window (samples below it, >= 3 inside, and above it; the
    samples inside are as dense as the user's kappa grows, one per 2 dt)."""
    import numpy as np

    from numerics.precision import float_tolerance

    from ._checks_redistribution import RHO_TOL
    from ._flow_runs import _perp, _refs
    from .flow import unpack

    lo, hi = KAPPA_WINDOW
    sh, theta0 = _saddle_start(ch, seed)

    def kappa(y: Any) -> Any:
        _, _, WQ, WK = unpack(y, sh)
        return (WQ @ np.swapaxes(WK, -1, -2))[..., 0, 0]

    # run length: 3 x the theory's time for kappa to reach 2e-3 (a cap: the run stops one step after)
    t_end = 3 * (np.log(2 * hi / SADDLE_SCALE ** 2) / (2 * _refs(ch)["c"]) + 30)
    t, fine, coarse = _paired_flows(model, ch, theta0, t_end, lambda x: float(kappa(x.numpy())) > 2 * hi)
    kap, kapc = kappa(fine), kappa(coarse)
    g, gc = unpack(fine, sh)[0][:, :, 0], unpack(coarse, sh)[0][:, :, 0]
    sel = np.flatnonzero((kap >= lo) & (kap <= hi))
    out: dict[str, Any] = {"t_end": float(t[-1]), "kappa_start": float(kap[0]), "kappa_end": float(kap[-1])}
    if not (len(sel) >= 3 and bool((kap[:sel[0]] < lo).any()) and bool((kap > hi).any())):
        return None
    gp = _perp(g[sel], ch.pi)
    ratio, ratio_c = gp / kap[sel, None], _perp(gc[sel], ch.pi) / kapc[sel, None]
    e_rk4 = RK4_SAFETY * float(np.abs(ratio - ratio_c).max()) / RICHARDSON
    e_float = float_tolerance(4 * ch.d, scale=float(np.abs(g[sel]).max()) / lo)
    out.update(kappa=kap[sel], g_perp=gp, ratio=ratio, e_rk4=e_rk4, e_float=e_float,
               err=RHO_TOL + e_rk4 + e_float)
    return out


def mass_redistribution(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage3.mass_redistribution on the user's loss, part ``rho`` (seed 002 L35-L36; spec §4.10): along
    the gradient flow of the user's loss from theta_c^1 (m = 2, m_k = 1, W_Q, W_K of scale 1e-6, RK4 dt = 1/4)
    the embedding's motion off the plateau direction is P_pi^perp gamma = kappa rho + o(kappa) with gamma =
    W0 e1 and kappa = e1^T W_Q W_K^T e1 (e1 the hidden direction of theta_c^1), rho the closed form of spec §3
    (``reference_formulas``; its signs are the opposite motion of the frequent and the rare tokens,
    focus.stage3.opposite_motion_as_stated).  On the statement's domain, E1 (lam = 1/2; attention draw
    ``seed`` at quick, draws 0-2 at ci/thorough, as the product's full-flow check), compared componentwise on
    kappa in [1e-7, 1e-3], within
    RHO_TOL = 1e-3 (the product's allowance for the o(kappa) term on that window) + the RK4 error of the
    ratio (2 x |ratio(dt) - ratio(2 dt)| / 15) + the float rounding of P_perp gamma / kappa
    (``float_tolerance(4 d, max|gamma| / 1e-7)``).  A run that does not traverse the window is UNKNOWN."""
    import numpy as np

    from numerics.markov import MarkovChain
    from verify import Observation, Verdict

    from ._checks_model import E1_PI
    from ._checks_redistribution import RHO_TOL
    from ._flow_runs import _refs, elementwise

    st = statement_of("focus.stage3.mass_redistribution")
    tally = Tally(precision=f"float64 (user model, RK4 dt = {SADDLE_DT} against 2 dt)", backend="torch.autograd",
                  seeds=tuple(profile.pick((seed,), (0, 1, 2), (0, 1, 2))))
    rows = {}
    ch = MarkovChain.lazy(E1_PI, "1/2")   # the statement's domain: the full E1 flow from theta_c1
    rho = _refs(ch)["rho"]
    for s in tally.seeds:
        inst = {**_instance(ch, s), "kappa_window": list(KAPPA_WINDOW)}
        run = _redistribution_run(model, ch, s)
        if run is None:
            tally.note(f"{inst['chain']}: the user's flow does not traverse kappa in {list(KAPPA_WINDOW)}")
            with tally.sub("rho"):
                tally.add(Observation(Verdict.UNKNOWN))
            continue
        tol = run["err"]
        tally.statement(st, {"g_perp": elementwise(run["g_perp"]), "kappa": elementwise(run["kappa"][:, None]),
                             "rho": elementwise(rho[None, :]), "instance": inst}, part="rho", tol=tol)
        dev = np.abs(run["ratio"] - rho[None, :]).max(axis=1)
        j = int(np.argmax(dev))
        rows[f"seed{s}"] = {"max_dev": float(dev[j]), "at_kappa": float(run["kappa"][j]), "tol": tol,
                                    "e_rk4": run["e_rk4"], "e_float": run["e_float"], "points": len(dev),
                                    "measured_at_worst": run["ratio"][j].tolist(), "rho": rho.tolist()}
    tally.details.update(rows=rows, rho_o_kappa=RHO_TOL, rk4_safety=RK4_SAFETY, tolerance_rule=(
        "RHO_TOL (o(kappa) on [1e-7, 1e-3]) + 2 |ratio(dt) - ratio(2 dt)|/15 + float_tolerance(4 d, max|gamma|/1e-7)"))
    return tally.evidence()


def opposite_motion(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage3.opposite_motion_as_stated on the user's loss, part ``prefix_split`` (seed 002 L36, plural
    'tokens'): with the tokens sorted by frequency, a frequency prefix {1..k} of the embedding moves one way
    and the rest the other, read on the measured rho_q = P_pi^perp gamma_q / kappa of the user's flow (the
    run of :func:`mass_redistribution`) over the whole window kappa in [1e-7, 1e-3].  Each measured
    component carries the error ``err`` of that run (o(kappa) allowance + RK4 + rounding); the values passed
    to the statement are the bounds toward zero (min over the prefix of rho_q - err, max over the rest of
    rho_q + err), so the statement holds only where every sign is decided; a component within err of 0 on
    some sample leaves the instance UNKNOWN.  The witness k is the number of leading positive components.
    Chains: the pinned F1 chains (quick: E1; ci: + (0.5, 0.3, 0.1, 0.1); thorough: + the tie (0.4, 0.4, 0.1,
    0.1)); there the o(kappa) part of err (1e-3) is the product's E1 allowance, observed to hold on the other
    two (toolkit model: max deviation 8.6e-4 and 9.1e-4 at kappa = 1e-3), against |rho_q| >= 0.07."""
    import numpy as np

    from verify import Observation, Verdict

    from ._statements_as_stated import d_tok, k_split, rho_prefix_min, rho_rest_max

    st = statement_of("focus.stage3.opposite_motion_as_stated")
    tally = Tally(precision=f"float64 (user model, RK4 dt = {SADDLE_DT} against 2 dt)", backend="torch.autograd",
                  seeds=(seed,))
    rows = {}
    for ch in _pinned(profile):
        inst = {**_instance(ch, seed), "kappa_window": list(KAPPA_WINDOW)}
        run = _redistribution_run(model, ch, seed)
        order = np.argsort(-np.asarray(ch.pi, dtype=float), kind="stable")
        if run is None or bool((np.abs(run["ratio"]) <= run["err"]).any()):
            tally.note(f"{inst['chain']}: " + ("the user's flow does not traverse the kappa window" if run is None
                                               else "a measured rho_q is within its error of 0"))
            with tally.sub("prefix_split"):
                tally.add(Observation(Verdict.UNKNOWN))
            continue
        r, err = run["ratio"][:, order], run["err"]
        pos = (r > 0).all(axis=0)
        k = int(np.argmin(pos)) if not pos.all() else len(pos)   # leading components positive on every sample
        lo_pre = float(r[:, :k].min()) - err if k >= 1 else -1.0
        hi_rest = float(r[:, k:].max()) + err if k < ch.d else 1.0
        tally.statement(st, {k_split.name: k, d_tok.name: ch.d, rho_prefix_min.name: lo_pre,
                             rho_rest_max.name: hi_rest, "instance": {**inst, "order": (order + 1).tolist()}},
                        part="prefix_split", tol=0.0)
        rows[str(inst["chain"])] = {"k": k, "prefix_min_minus_err": lo_pre, "rest_max_plus_err": hi_rest,
                                    "err": err, "measured_first": r[0].tolist(), "measured_last": r[-1].tolist()}
    tally.details.update(rows=rows, tolerance_rule="signs decided beyond err = RHO_TOL + 2 |ratio(dt) - "
                         "ratio(2 dt)|/15 + float_tolerance(4 d, max|gamma|/1e-7); statement at tol 0 on the bounds")
    return tally.evidence()
