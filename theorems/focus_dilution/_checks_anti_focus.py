"""Checks of focus.ext.anti_focus (spec §4.15): the sign of K2 decides focus vs anti-focus; the mixture
root theta*, the pinned F6/F7 closed forms and dynamic anchors, drawn chains.

Negative controls run through the same check function with a ``variant``: a variant is a false statement
about ONE quantity, so it asserts only the sub-check(s) about that quantity (:class:`verify.Gate`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from numerics.markov import MarkovChain, anti_persistent, metropolis, two_state_anti_focus
from numerics.precision import mp_context
from verify import (Evidence, Gate, Observation, Profile, Tally, Verdict, explore, refuted, reject,
                    observe, statement_of)

from ._checks_model import E1_PI, _describe_chain
from ._flow_runs import EPS, _first_plateau_alpha, _from_saddle, _kappa, _kappa_along, _local_flow, _refs
from .flow import Trajectory
from .population import chain_mp, reference_formulas, reference_quantities

# -- §4.15 anti-focus ------------------------------------------------------------------------------------
THETA_STAR = 0.3866842555          # spec §3, 10 digits
# (kind, args, T) of the fixed cases; full flows from eps = 1e-3, m = m_k = 4, LSODA, 100 points/decade.
# theta = 0.34 and 0.44 bracket theta* by 0.05 (|K2| ~ 8e-3, take-off at t ~ 650-820).
ANTI_CASES = (("F6", "anti_persistent", (E1_PI,), 3e4),
              ("theta=0.2", "lazy_anti_mixture", (E1_PI, "1/2", "1/5"), 3000.0),
              ("theta=0.34", "lazy_anti_mixture", (E1_PI, "1/2", "17/50"), 3000.0),
              ("theta=0.44", "lazy_anti_mixture", (E1_PI, "1/2", "11/25"), 3000.0),
              ("theta=0.6", "lazy_anti_mixture", (E1_PI, "1/2", "3/5"), 3000.0),
              ("theta=1", "lazy", (E1_PI, "1/2"), 3000.0), ("F7", "two_state_anti_focus", (), 3e4))
# 16-digit closed forms of spec §3 (to 1e-14 relative), and printed ones (to their last digit)
ANTI_CLOSED = {"F6": {"K2": (-0.06539116093604748, 1e-14), "c": (-0.050302781485389, 1e-13),
                      "HYX": (0.642189, 1e-6)},
               "F7": {"K1": (0.05793103448275862, 1e-14), "K2": (-0.0237243400908417, 1e-13),
                      "c": (-0.001864165844168557, 1e-14), "H": (0.6108643020548935, 1e-14),
                      "HYX": (0.5445871749448701, 1e-14)}}
# seed-0 dynamic anchors of spec §4.15 (attention, Phi, kappa +-0.02; loss plateau values +-2e-3, the
# §4.12 tolerance of a plateau value at eps = 1e-3; final loss vs H(Y|X) 1e-5, the §4.12 tolerance)
ANTI_PINNED_F2 = ((Fraction(3, 5), Fraction(1, 4), Fraction(3, 20)),
                  [[0, Fraction(2, 5), Fraction(2, 5)], [Fraction(2, 5), 0, Fraction(2, 5)],
                   [Fraction(2, 5), Fraction(2, 5), 0]])                       # K2 = +0.0329, c = +0.0091
ANTI_PINNED_F3 = [[Fraction(1, 18), Fraction(1, 18), Fraction(8, 9)],
                  [Fraction(1, 13), Fraction(2, 13), Fraction(10, 13)],
                  [Fraction(7, 40), Fraction(17, 40), Fraction(2, 5)]]      # K2 = -0.0298, c = -0.0073
ANTI_C_MIN = 2e-3   # drawn chains: |c| >= 2e-3 bounds the saddle run to t <= 6400 (about 0.2 s)


def _k2_mixture_root(dps: int = 30) -> Any:
    """theta* = the root of K2(theta) for P(theta) = theta F1(E1, 1/2) + (1 - theta) F6(E1), with K2 the
    closed form of spec §3 evaluated in mpmath at ``dps`` digits on the exact rational chains.

    P(theta) is the product's :func:`numerics.markov.lazy_anti_mixture`: its exact endpoints theta = 1 and 0
    are interpolated affinely (the root needs real theta), and the product's exact P(2/5) must equal that
    interpolation entry by entry -- so theta* is read off the very chains the flows use.  Returns
    (root, K2(root), K2(0.2), K2(0.6), problem): ``problem`` is None, or a dict naming the first entry where
    the product's P(2/5) is not the affine mixture (then the other values are None: the check reports it
    as a counterexample, it never raises)."""
    from numerics.markov import lazy_anti_mixture

    ctx = mp_context(dps)
    ends = {th: lazy_anti_mixture(E1_PI, "1/2", Fraction(th)) for th in (1, 0)}
    mid = Fraction(2, 5)
    Pmid = lazy_anti_mixture(E1_PI, "1/2", mid).P_exact
    if Pmid is None or ends[1].P_exact is None or ends[0].P_exact is None:
        return None, None, None, None, {"why": "lazy_anti_mixture returned no exact P"}
    for i, (rm, ra, rb) in enumerate(zip(Pmid, ends[1].P_exact, ends[0].P_exact)):
        for j, (m, x, y) in enumerate(zip(rm, ra, rb)):
            if m != mid * x + (1 - mid) * y:
                return None, None, None, None, {
                    "why": "lazy_anti_mixture(2/5) is not 2/5 F1 + 3/5 F6", "entry": [i + 1, j + 1],
                    "product": str(m), "affine": str(mid * x + (1 - mid) * y)}
    pi_m, Pa = chain_mp(ends[1], ctx)
    _, Pb = chain_mp(ends[0], ctx)

    def K2(th: Any) -> Any:
        P = [[th * x + (1 - th) * y for x, y in zip(ra, rb)] for ra, rb in zip(Pa, Pb)]
        return reference_formulas(pi_m, P, log=ctx.log, sqrt=ctx.sqrt)["K2"]

    try:
        root = ctx.findroot(K2, ctx.mpf("0.4"))
    except (ValueError, ZeroDivisionError) as exc:  # no convergence: undecided, not a refutation
        return None, None, K2(ctx.mpf("0.2")), K2(ctx.mpf("0.6")), {"why": f"findroot failed: {exc}",
                                                                     "undecided": True}
    return root, K2(root), K2(ctx.mpf("0.2")), K2(ctx.mpf("0.6")), None


def _take_off(tr: Trajectory) -> tuple[int, np.ndarray, float]:
    """(index of the first |kappa| > 1e-2 after the first plateau, kappa(t), plateau time), kappa along
    alpha1 = v1(W0) at the first plateau (spec §4 detectors)."""
    a1, tp = _first_plateau_alpha(tr)
    kap = _kappa_along(tr, a1)
    hit = np.flatnonzero((np.abs(kap) > 1e-2) & (tr.t >= tp))
    return (int(hit[0]) if len(hit) else -1), kap, tp


def anti_focus(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Spec §4.15 (an EXTENSION): sign(kappa) when |kappa| first exceeds 1e-2 equals sign(K2) ('kappa_sign'),
    and so does sign(A_11 - pi1) ('attention_sign'), on full flows from eps = 1e-3 (m = m_k = 4; seed 0 at
    quick, seeds 0-2 at ci/thorough, and the check's own seed at every profile) for F6 (E1's pi), P(theta) = theta F1 + (1 - theta) F6 at
    theta in {0.2, 0.34, 0.44, 0.6, 1} and F7; alpha1 = v1(W0) at the first plateau.  Also:

    * 'theta_star': theta* = root of the closed-form K2(theta) (mpmath findroot, 30 digits) equals the
      spec's 0.3866842555 to 1e-10, with K2(0.2) < 0 < K2(0.6);
    * 'closed_form': the 16-digit K1, K2, c, H, H(Y|X) of F6 and F7 (spec §3) at 40 digits;
    * 'anchors' (seed 0): F7 plateaus 0.69315 -> 0.61086 -> 0.54459 (+-2e-3), final L within 1e-5 of
      H(Y|X), Phi_11 -> -1.5416, A_11 -> 0.2656, A_21 -> 0.7752 (+-0.02); F6 kappa(200) = -0.247,
      A_11(200) = 0.209, A_11(end) = 0.138 (+-0.02), L(end) within 1e-5 of H(Y|X) = 0.64219;
    * 'drawn_sign': hypothesis F2/F3 chains (d <= 5 / d = 3) with |K2| >= 1e-2 and |c| >= 2e-3, plus a pinned
      F2 (K2 > 0) and F3 (K2 < 0) chain, from theta_c1 with W_Q, W_K of scale 1e-4 (LSODA rtol 1e-9):
      sign(kappa) at |kappa| = 1e-2 equals sign(K2), and sign(A_kk - pi_k) for the most frequent token k
      (quick 2, ci 8, thorough 30 draws).

    Variant 'universal_focus' (A_11 rises for every P) asserts only 'attention_sign' with sign +1 on the
    fixed cases; its counterexample lists every case that refutes it (F6, theta = 0.2, 0.34 and F7)."""
    from hypothesis import strategies as st

    from numerics.strategies import metropolis_chains, positive_chains

    tally = Tally(precision="float64 LSODA rtol 1e-9 / DOP853", backend="scipy",
                  seeds=tuple(profile.pick((0,), (0, 1, 2), (0, 1, 2))) + (seed,))  # flows; hypothesis draws
    gate = Gate(tally, variant, {"universal_focus": ("attention_sign",)})
    stmt = statement_of("focus.ext.anti_focus")
    # theta*
    root, k2root, k2lo, k2hi, problem = _k2_mixture_root()
    if problem is not None and problem.get("undecided"):
        gate("theta_star").add(Observation(Verdict.UNKNOWN))
        tally.note(f"theta*: {problem['why']}")
        tally.details["theta_star"] = problem
    elif problem is not None:
        # the product's P(theta) is not the mixture the statement (and theta*) is about: a counterexample
        gate("theta_star").exact(False, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
            f"P(theta) of lazy_anti_mixture is not theta F1 + (1 - theta) F6: {problem['why']}", **{
                k: v for k, v in problem.items() if k != "why"}))
        tally.details["theta_star"] = problem
    else:
        th = float(root)
        gate("theta_star").close(th, THETA_STAR, 1e-10, counterexample=lambda: refuted(
            f"theta* = {th:.12f} vs the spec's {THETA_STAR}"))
        # the root is found at 30 digits (findroot), so |K2(theta*)| is ~1e-30: 1e-25 leaves 5 guard digits
        gate("theta_star").exact(bool(k2lo < 0 < k2hi and abs(k2root) < 1e-25), level=Verdict.CONSISTENT,
                                 counterexample=lambda: refuted("K2(theta) does not change sign at theta*"))
        tally.details["theta_star"] = {"theta": th, "K2(0.2)": float(k2lo), "K2(0.6)": float(k2hi)}
    # closed forms
    for name, ch in (("F6", anti_persistent(E1_PI)), ("F7", two_state_anti_focus())):
        q = reference_quantities(ch, dps=40)
        for key, (anchor, rel) in ANTI_CLOSED[name].items():
            val = float(getattr(q, key))
            gate("closed_form").close(val, anchor, rel, scale=abs(anchor), counterexample=lambda: refuted(
                f"{name}: {key} = {val!r} vs the spec's {anchor!r}"))
    rows: dict[str, Any] = {}
    wrong: list[str] = []
    for name, kind, args, T in ANTI_CASES:
        for s in tally.seeds:
            tr = _local_flow(kind, args, T, EPS, s, m=4, mk=4, per_decade=100)
            ch = tr.chain
            R = _refs(ch)
            i, kap, tp = _take_off(tr)
            row: dict[str, Any] = {"K2": R["K2"], "c": R["c"], "plateau_t": tp}
            if i < 0:
                gate("kappa_sign").add(Observation(Verdict.UNKNOWN))
                gate("kappa_sign").note(f"{name}/seed{s}: |kappa| never exceeded 1e-2 by t = {T:g}")
                gate("attention_sign").add(Observation(Verdict.UNKNOWN))
                rows[f"{name}/seed{s}"] = row
                continue
            sk = float(np.sign(kap[i]))
            da = float(tr.A[i, 0, 0] - ch.pi[0])
            sa = float(np.sign(da))
            want = float(np.sign(R["K2"]))
            row.update({"t_take_off": float(tr.t[i]), "kappa": float(kap[i]), "A11_minus_pi1": da})
            # the statement: sign(kappa) = sign(K2) at take-off (a sign statement: tol 0)
            gate("kappa_sign").statement(stmt, {"kappa": float(kap[i]), "K_2": R["K2"]}, part="kappa_sign", tol=0.0,
                                         counterexample=lambda: refuted(
                f"{name}: sign(kappa) = {sk:+.0f} at take-off, sign(K2) = {want:+.0f}", seed=s))
            if variant == "universal_focus":
                ok = sa == 1.0
            else:
                ok = observe.statement(stmt, {"A_11": float(tr.A[i, 0, 0]), "pi_1": float(ch.pi[0]), "K_2": R["K2"]},
                                       part="attention_sign", tol=0.0).level is not Verdict.REFUTED
            if ok:
                gate("attention_sign").exact(True, level=Verdict.CONSISTENT)
            else:  # collected: one counterexample listing every case (below)
                wrong.append(f"{name}/seed{s} (A11 - pi1 = {da:+.3g}, K2 = {R['K2']:+.4f})")
            if s == 0 and name in ("F6", "F7"):
                stg = tr.stages()
                meas = ({"plateaus": stg.plateau_values[:3], "L_end_minus_HYX": float(tr.loss[-1] - R["HYX"]),
                         "Phi11_end": float(tr.Phi[-1, 0, 0]), "A11_end": float(tr.A[-1, 0, 0]),
                         "A21_end": float(tr.A[-1, 1, 0])} if name == "F7" else
                        {"kappa_200": tr.value_at(kap, 200.0), "A11_200": tr.value_at(tr.A[:, 0, 0], 200.0),
                         "A11_end": float(tr.A[-1, 0, 0]), "L_end_minus_HYX": float(tr.loss[-1] - R["HYX"])})
                checks = ([(f"plateau {k}", v, a, 2e-3) for k, (v, a) in
                           enumerate(zip(meas["plateaus"], (0.69315, 0.61086, 0.54459)))]
                          + [("Phi11_end", meas["Phi11_end"], -1.5416, 0.02),
                             ("A11_end", meas["A11_end"], 0.2656, 0.02),
                             ("A21_end", meas["A21_end"], 0.7752, 0.02)]) if name == "F7" else [
                    ("kappa_200", meas["kappa_200"], -0.247, 0.02), ("A11_200", meas["A11_200"], 0.209, 0.02),
                    ("A11_end", meas["A11_end"], 0.138, 0.02)]
                checks.append(("L_end - H(Y|X)", meas["L_end_minus_HYX"], 0.0, 1e-5))
                if name == "F7":
                    gate("anchors").exact(len(stg.plateau_values) == 3, level=Verdict.CONSISTENT,
                                          counterexample=lambda: refuted(
                                              f"F7: {len(stg.plateau_values)} plateaus, expected "
                                              "log 2 -> H(pi) -> H(Y|X)", plateaus=stg.plateau_values))
                for key, v, a, tol in checks:
                    gate("anchors").close(v, a, tol, counterexample=lambda: refuted(
                        f"{name}: {key} = {v:.5f} vs the spec's {a}"))
                row["anchors"] = meas
            rows[f"{name}/seed{s}"] = row
    if wrong:
        gate("attention_sign").add(Observation(Verdict.REFUTED, counterexample=refuted(
            ("A_11 does not rise above pi1 on: " if variant == "universal_focus" else
             "sign(A_11 - pi1) != sign(K2) on: ") + "; ".join(wrong), variant=variant, cases=wrong)))
    tally.details["cases"] = rows
    # hypothesis F2/F3 chains, sign law from a near-theta_c1 start
    drawn: list[dict[str, Any]] = []
    if gate.asserts("drawn_sign"):
        def body(ch: MarkovChain) -> Observation:
            R = _refs(ch)
            if abs(R["K2"]) < 1e-2 or abs(R["c"]) < ANTI_C_MIN:
                reject()
            T = np.log(1e-2 / 1e-11) / (2 * abs(R["c"])) + 100.0
            tr = _from_saddle(ch, T=T, scale=1e-4, m=4, mk=4, seed=seed, rtol=1e-9, atol=1e-12, n=800,
                              method="LSODA")
            kap = _kappa(tr)
            hit = np.flatnonzero(np.abs(kap) > 1e-2)
            k = int(np.argmax(ch.pi))
            row = {"family": ch.name, "d": ch.d, "K2": R["K2"], "c": R["c"]}
            drawn.append(row)
            if not len(hit):
                return Observation(Verdict.UNKNOWN)
            i = int(hit[0])
            sk, sa = np.sign(kap[i]), np.sign(tr.A[i, k, k] - ch.pi[k])
            row.update({"kappa": float(kap[i]), "Akk_minus_pik": float(tr.A[i, k, k] - ch.pi[k]),
                        "t": float(tr.t[i])})
            want = np.sign(R["K2"])
            ce = refuted(f"sign(kappa) = {sk:+.0f}, sign(A_kk - pi_k) = {sa:+.0f}, sign(K2) = {want:+.0f}")
            # the statement on this chain (for the most frequent token k in place of token 1)
            obs = [observe.statement(stmt, {"kappa": float(kap[i]), "K_2": R["K2"]}, part="kappa_sign", tol=0.0,
                                     counterexample=ce),
                   observe.statement(stmt, {"A_11": float(tr.A[i, k, k]), "pi_1": float(ch.pi[k]), "K_2": R["K2"]},
                                     part="attention_sign", tol=0.0, counterexample=ce)]
            bad = [o for o in obs if o.level is Verdict.REFUTED]
            return bad[0] if bad else Observation(Verdict.CONSISTENT)

        pinned = [metropolis(*ANTI_PINNED_F2), MarkovChain(ANTI_PINNED_F3, name="general_positive")]
        explore(st.one_of(metropolis_chains(min_d=3, max_d=5), positive_chains(d=3)), body,
                gate("drawn_sign"), seed=seed, max_examples=profile.pick(2, 8, 30), examples=pinned,
                describe=_describe_chain)
    tally.details["drawn"] = drawn
    return gate.evidence()
