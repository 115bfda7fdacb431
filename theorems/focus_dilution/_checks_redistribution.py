"""Checks of focus.stage3.mass_redistribution (spec §4.10): the reduced and the full flow near kappa = 0
against rho, rho in mpmath from the kappa-derivative, certified signs of rho, the E1 sign flips.

Negative controls run through the same check function with a ``variant``: a variant is a false statement
about ONE quantity, so it asserts only the sub-check(s) about that quantity (:class:`verify.Gate`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from numerics.arithmetic import MPArithmetic
from numerics.flows import first_time, fit_rate
from numerics.markov import MarkovChain, anti_persistent, symmetric_rare
from numerics.precision import arb_precision, mp_context
from verify import (
    Evidence,
    Gate,
    Observation,
    Profile,
    Tally,
    Verdict,
    explore,
    refuted,
    reject,
    statement_of,
)

from ._checks_model import E1_PI, _describe_chain
from ._flow_runs import _attention_forcing, _from_saddle, _kappa, _perp, _refs, e1_run, elementwise
from .flow import reduced_state, run_reduced
from .population import chain_mp, grad_M_Phi, reference_formulas

# -- §4.10 mass redistribution ---------------------------------------------------------------------------
F4_ARGS = (5, Fraction(3, 5), Fraction(1, 2))
U_RHO_F4 = 1.191938635698992      # spec §3, 16 digits
U_F_2C_F4 = 0.79463               # spec §4.10, the attention-only (false) prediction
# |u.gamma/kappa - target| tolerance: the tighter half-width of the spec's band [1.1910, 1.1925] about
# u.rho = 1.19194 (min(1.19194 - 1.1910, 1.1925 - 1.19194) = 5.6e-4), so every passing value lies in the band.
# Observed max deviation 1.7e-4 (-1.2e-4 at kappa = 1e-6, still rising; -1.8e-4 at 1e-3, the O(kappa) term).
RATIO_TOL = 5.6e-4
# |P_perp gamma/kappa - rho| allowance on kappa in [1e-7, 1e-3] (the o(kappa) term: observed 5e-5 at 1e-7 ..
# 2.3e-4 at 1e-3 on E1); also the model check's (theorems/focus_dilution/_model_checks_dynamics.py)
RHO_TOL = 1e-3


def redistribution_reduced(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """F4 (pi = (0.6, 0.1 x 4), lam = 1/2), reduced ODE (LSODA rtol 1e-11, atol 1e-14) from the reference
    start, seed-independent (deterministic):

    * 'ratio': the measured u.gamma/kappa on kappa in [1e-6, 1e-3] equals the target u.rho (closed form
      at 40 digits) within RATIO_TOL = 5.6e-4; the closed form itself equals the spec's 16-digit
      u.rho = 1.191938635698992 to 1e-15 ('closed_form');
    * 'rate': the fitted rates of u.gamma and kappa on that window agree to 1%;
    * 'gamma_anchors': gamma_1 1.5101 -> 1.8647 and gamma_l 0.2517 -> -0.4056 (spec §4.10; start and
      t = 400, to 1e-4: the spec prints 4 decimals, the run is deterministic and its end agrees with the
      5-digit theta_c2 anchors 1.86470, -0.40558 of §4.13 to 2e-5);
    * 'flip': the rare components change sign while gamma_1 grows.

    Variants (each asserts only its sub-check): 'attention_only' ('ratio' against u.f/(2c) = 0.79463,
    the attention-only forcing), 'sqrt_kappa' ('rate': u.gamma grows at half the rate of kappa),
    'kappa_rate_c' ('kappa_rate': kappa grows at rate c, not 2c)."""
    ch = symmetric_rare(*F4_ARGS)
    R = _refs(ch)
    d = 5
    tally = Tally(precision="float64 LSODA rtol 1e-11", backend="scipy", tolerance=RATIO_TOL, seeds=(seed,))
    gate = Gate(tally, variant, {"attention_only": ("ratio",), "sqrt_kappa": ("rate",),
                                  "kappa_rate_c": ("kappa_rate",)})
    t, Z = run_reduced(ch, reduced_state(ch), 400.0, per_decade=400)
    g = Z[:, :d]
    kap = Z[:, 2 * d] * Z[:, 2 * d + 1]
    u = np.array([(d - 1) * ch.pi[1]] + [-ch.pi[0]] * (d - 1))
    ug = g @ u
    ctx = mp_context(40)
    pi_m, P_m = chain_mp(ch, ctx)
    rho_m = reference_formulas(pi_m, P_m, log=ctx.log, sqrt=ctx.sqrt)["rho"]
    u_m = [(d - 1) * pi_m[1]] + [-pi_m[0]] * (d - 1)
    uro_mp = ctx.fsum(a * b for a, b in zip(u_m, rho_m))
    uro = float(uro_mp)
    gate("closed_form").close(uro, U_RHO_F4, 1e-15, counterexample=lambda: refuted(
        f"closed-form u.rho = {uro!r} vs the spec's 1.191938635698992"))
    uf = float(u @ _attention_forcing(ch, R)) / (2 * R["c"])
    gate("closed_form").close(uf, U_F_2C_F4, 5e-6, counterexample=lambda: refuted(
        f"u.f/(2c) = {uf:.6f} vs the spec's {U_F_2C_F4} (the attention-only prediction of the control)"))
    target = uf if variant == "attention_only" else uro
    sel = np.flatnonzero((kap >= 1e-6) & (kap <= 1e-3))
    ratio = ug[sel] / kap[sel]
    lo, hi = float(ratio.min()), float(ratio.max())
    worst = float(ratio[np.argmax(np.abs(ratio - target))])
    stmt = statement_of("focus.stage3.mass_redistribution")
    # the statement u.gamma/kappa = u.rho elementwise on the window (the control: u.f/(2c) in place of u.rho)
    gate("ratio").statement(stmt, {"u_gamma": elementwise(ug[sel]), "kappa": elementwise(kap[sel]), "u_rho": target}, part="ratio",
                            tol=RATIO_TOL, counterexample=lambda: refuted(
        f"u.gamma/kappa in [{lo:.5f}, {hi:.5f}] on kappa in [1e-6, 1e-3]: off the target {target:.5f} by "
        f"{abs(worst - target):.3g} > {RATIO_TOL}", variant=variant))
    r_ug, _ = fit_rate(t[sel], np.abs(ug[sel]), 0, np.inf)
    r_k, _ = fit_rate(t[sel], kap[sel], 0, np.inf)
    want = r_k / 2 if variant == "sqrt_kappa" else r_k
    gate("rate").statement(stmt, {"r_ugamma": r_ug, "r_kappa": want}, part="rate", tol=0.01 * abs(want),
                           counterexample=lambda: refuted(f"rate of u.gamma {r_ug:.6f} vs {want:.6f}",
                                                          variant=variant))
    # kappa itself grows at the saddle's rate 2c (spec §4.8): on kappa <= 1e-3 the departure from the
    # linearisation is O(kappa), so 1e-3 relative (observed 2.5e-5)
    c_val = R["c"] / 2 if variant == "kappa_rate_c" else R["c"]
    gate("kappa_rate").statement(stmt, {"r_kappa": r_k, "c": c_val}, part="kappa_rate", tol=1e-3 * 2 * c_val,
                                 counterexample=lambda: refuted(
        f"kappa rate {r_k:.6f} vs {2 * c_val:.6f} (c = {R['c']:.6f})", variant=variant))
    for name, val, anchor in (("gamma_1 start", g[0, 0], 1.5101), ("gamma_l start", g[0, 1], 0.2517),
                              ("gamma_1 end", g[-1, 0], 1.8647), ("gamma_l end", g[-1, 1], -0.4056)):
        gate("gamma_anchors").close(val, anchor, 1e-4, counterexample=lambda: refuted(
            f"{name} = {val:.5f} vs the spec's {anchor}"))
    flipped = bool(g[0, 1] > 0 and g[-1, 1] < 0 and g[-1, 0] > g[0, 0] and np.all(g[-1, 1:] < 0))
    gate("flip").exact(flipped, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
        "the rare components of gamma do not flip while gamma_1 grows", start=g[0].tolist(),
        end=g[-1].tolist()))
    tally.details.update({"ratio_range": [lo, hi], "u_rho": uro, "u_f_over_2c": uf, "target": target,
                          "rate_ug": r_ug, "rate_kappa": r_k, "2c": 2 * R["c"],
                          "gamma_start": g[0, :2].tolist(), "gamma_end": g[-1, :2].tolist()})
    return gate.evidence()


def redistribution_full(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Full flow from theta_c1 with E1's pi (m = m_k = 8, W_Q, W_K random of scale 1e-6, DOP853 rtol 1e-11,
    atol 1e-16; seed at quick, seeds 0-2 at ci/thorough): with alpha1 = e1 (the hidden direction of
    theta_c1), gamma = W0 alpha1 and kappa = alpha1^T W_Q W_K^T alpha1,
    max_k |(P_pi^perp gamma)_k / kappa - rho_k| <= 1e-3 for every kappa in [1e-7, 1e-3] (spec §4.10; observed
    5e-5 at 1e-7 .. 2.3e-4 at 1e-3, the o(kappa) term).  rho is the closed form of spec §3.
    Variant 'attention_only': P_pi^perp f/(2c) (the attention-only forcing, 0.06-0.28 off rho) in place
    of rho."""
    ch = MarkovChain.lazy(E1_PI, "1/2")
    R = _refs(ch)
    tol = RHO_TOL
    tally = Tally(precision="float64 DOP853 rtol 1e-11", backend="scipy", tolerance=tol,
                  seeds=tuple(profile.pick((seed,), (0, 1, 2), (0, 1, 2))))
    gate = Gate(tally, variant, {"attention_only": ("rho",)})
    if variant == "attention_only":
        target = _perp(_attention_forcing(ch, R), ch.pi) / (2 * R["c"])
    else:
        target = R["rho"]
    rows = {}
    for s in tally.seeds:
        T = np.log(2e-3 / 1e-12) / (2 * R["c"]) + 30.0
        tr = _from_saddle(ch, T=T, scale=1e-6, seed=s, n=800)
        g = tr.params[0][:, :, 0]
        kap = _kappa(tr)
        sel = np.flatnonzero((kap >= 1e-7) & (kap <= 1e-3))
        # the run must sample the whole window (to within one grid step, 10% in kappa); otherwise the
        # comparison is undecided (UNKNOWN), not a refutation of rho or of the control's vector
        covered = bool(len(sel) > 0 and kap[sel].min() <= 1.1e-7 and kap[sel].max() >= 0.9e-3)
        if not covered:
            tally.note(f"seed {s}: the run does not cover kappa in [1e-7, 1e-3]")
            gate("rho").add(Observation(Verdict.UNKNOWN))
            continue
        gp = _perp(g[sel], ch.pi)
        dev = np.abs(gp / kap[sel, None] - target[None, :]).max(axis=1)
        j = int(np.argmax(dev))
        worst = float(dev[j])
        # the statement P_perp gamma / kappa = rho, componentwise on the window (the control: P_perp f/(2c))
        gate("rho").statement(statement_of("focus.stage3.mass_redistribution"),
                              {"g_perp": elementwise(gp), "kappa": elementwise(kap[sel, None]),
                               "rho": elementwise(target[None, :])}, part="rho",
                              tol=tol, counterexample=lambda: refuted(
            f"P_perp gamma/kappa off the target by {worst:.3g} > {tol} (componentwise) at "
            f"kappa = {kap[sel][j]:.3g}",
            seed=s, variant=variant, measured=(_perp(g[sel][j], ch.pi) / kap[sel][j]).tolist(),
            target=target.tolist()))
        rows[f"seed{s}"] = {"max_dev": worst, "at_kappa": float(kap[sel][j]), "points": int(len(sel)),
                            "dev_at_1e-7": float(dev[0]), "dev_at_1e-3": float(dev[-1])}
    tally.details.update({"rho": R["rho"].tolist(), "target": target.tolist(), "rows": rows})
    return gate.evidence()


def _rho_derivative_mp(ch: MarkovChain, dps: int = 40) -> tuple[list[Any], list[Any], Any]:
    """rho from a high-precision kappa-derivative: P_perp F / (2c), F = d/dkappa of
    -[G_M beta + kappa (G_Phi + G_Phi^T) gamma] at theta_c1 (central difference, h = 10^-(dps/3))."""
    ops = MPArithmetic(dps)
    ctx = ops.ctx
    pi_l, P_l = chain_mp(ch, ctx)
    f = reference_formulas(pi_l, P_l, log=ctx.log, sqrt=ctx.sqrt)
    pi = np.array(pi_l, dtype=object)
    P = np.array(P_l, dtype=object)
    gam = np.array(f["gamma1"], dtype=object)
    bet = np.array(f["beta1"], dtype=object)

    def field(k: Any) -> Any:
        M = gam[:, None] * bet[None, :]
        Phi = k * gam[:, None] * gam[None, :]
        GM, GPhi = grad_M_Phi(pi, P, M, Phi, ctx.mpf(1), ops)
        return -(GM @ bet + k * ((GPhi + GPhi.T) @ gam))

    h = ctx.mpf(10) ** (-(dps // 3))
    F = (field(h) - field(-h)) / (2 * h)
    n2 = f["n2"]
    proj = sum(F[k] * pi_l[k] for k in range(ch.d)) / n2
    rho_num = [(F[k] - proj * pi_l[k]) / (2 * f["c"]) for k in range(ch.d)]
    return rho_num, f.get("rho"), ctx


def rho_mp(*, seed: int, profile: Profile) -> Evidence:
    """mpmath at 40 digits on S_pi x S_P with |K2| >= 1e-2: rho from the kappa-derivative equals the
    closed form of spec §3 to 1e-20; and for F1 rho does not depend on lam (lam and lam/2 agree)."""
    from numerics.strategies import chains

    tol = 1e-20
    tally = Tally(precision="dps=40", backend="mpmath", tolerance=tol, seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if abs(_refs(ch)["K2"]) < 1e-2 or abs(_refs(ch)["K1"]) < 1e-6:
            reject()
        num, cf, ctx = _rho_derivative_mp(ch)
        err = float(max(abs(a - b) for a, b in zip(num, cf)))
        if not np.isfinite(err):
            return Observation(Verdict.UNKNOWN)
        if err <= tol:
            return Observation(Verdict.CONSISTENT, error=err, margin=tol - err)
        return Observation(Verdict.REFUTED, error=err, counterexample=refuted(f"rho mismatch {err:.3g}"))

    explore(chains(max_d=6), body, tally, seed=seed, max_examples=profile.pick(6, 20, 100),
            examples=[MarkovChain.lazy(E1_PI, "1/2"), symmetric_rare(5, Fraction(3, 5), Fraction(1, 2)),
                      anti_persistent(E1_PI)], describe=_describe_chain)
    # for F1, rho does not depend on lam: the 40-digit kappa-derivatives at lam = 1/2 and 1/4 agree to tol
    a = _rho_derivative_mp(MarkovChain.lazy(E1_PI, "1/2"))[0]
    b = _rho_derivative_mp(MarkovChain.lazy(E1_PI, "1/4"))[0]
    dlam = float(max(abs(x - y) for x, y in zip(a, b)))
    tally.close(dlam, 0.0, tol, counterexample=lambda: refuted(f"rho depends on lam: {dlam:.3g}"))
    tally.details["rho_E1"] = [float(x) for x in a]
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def rho_signs_certified(*, seed: int, profile: Profile) -> Evidence:
    """arb on S_pi x F1 (lam > 0): rho_1 > 0 and rho_d < 0 certified."""
    from numerics.precision import Tri, tri_negative, tri_positive
    from numerics.strategies import lazy_chains

    from ._hessians import ARB_BITS, _arb_refs, _iid

    tally = Tally(precision=f"arb {ARB_BITS} bits", backend="python-flint", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _iid(ch):
            reject()
        with arb_precision(ARB_BITS):
            rho = _arb_refs(ch)["rho"]
            a, b = tri_positive(rho[0]), tri_negative(rho[-1])
        if a is Tri.TRUE and b is Tri.TRUE:
            return Observation(Verdict.CERTIFIED)
        if a is Tri.FALSE or b is Tri.FALSE:
            return Observation(Verdict.REFUTED, counterexample=refuted("rho sign pattern fails", rho=str(rho)))
        return Observation(Verdict.UNKNOWN)

    explore(lazy_chains(min_d=2), body, tally, seed=seed, max_examples=profile.pick(20, 60, 300),
            examples=[MarkovChain.lazy(E1_PI, "1/2")], describe=_describe_chain)
    return tally.evidence()


def e1_flips(*, seed: int, profile: Profile) -> Evidence:
    """E1 run: the rare components of gamma = W0 a1 flip sign after the attention onset, rarest first
    (token 4, then 3, then 2; anchors 93, 96, 102 +- 20%), while gamma_1 grows."""
    tr = e1_run()
    W0 = tr.params[0]
    a1 = np.linalg.svd(W0[tr.at(54.0)])[2][0]
    g = W0 @ a1
    if g[tr.at(54.0)] @ tr.chain.pi < 0:
        g = -g
    tally = Tally(precision="float64", backend="scipy", seeds=(0,))  # the E1 reference run
    times = []
    for k in (3, 2, 1):
        times.append(first_time(tr.t, (g[:, k] < 0) & (tr.t > 54.0)))
    ok = all(x is not None for x in times) and times[0] <= times[1] <= times[2]
    tally.exact(bool(ok), level=Verdict.CONSISTENT, counterexample=lambda: refuted(
        "rare flips not rarest-first", times=times))
    for tt, anchor in zip(times, (92.8, 96.0, 102.0)):
        if tt is not None:
            tally.close(tt, anchor, 0.2, scale=anchor)
    tally.exact(bool(g[tr.at(150.0), 0] > g[tr.at(54.0), 0]), level=Verdict.CONSISTENT)
    tally.details["flip_times"] = times
    return tally.evidence(level_cap=Verdict.CONSISTENT)
