"""Check of the as-stated Stage-II focus sentence of the seed (002 L31), spec focus_dilution.md §4.7-§4.8:
the attention parameters grow exponentially along the unstable eigendirection of theta_c^1 and the attention
focuses on the most frequent token.

It reuses the product's Hessian of L at theta_c^1 (`saddle_hessian_arb`, float midpoints), the product's
flow from theta_c^1 (`_from_saddle`), the rate fit with its derived budget (`_rate_budget`) and the cached
E1 reference runs (`e1_run`) with the product's events; it asserts only what the seed's sentence says (no
closed form of Delta A, which is the strengthened focus.stage2.focus_direction).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.markov import MarkovChain
from numerics.precision import arb_precision
from numerics.strategies import lazy_chains
from verify import Evidence, Gate, Observation, Profile, Tally, Verdict, explore, refuted, reject, statement_of

from ._checks_focus_direction import FOCUS_C_MIN, FOCUS_PINNED
from ._flow_runs import RATE_SAFETY, SADDLE_E_INT, _event_time, _from_saddle, _rate_budget, _refs, e1_run
from ._checks_model import _describe_chain
from ._hessians import ARB_BITS, _att_index, saddle_hessian_arb
from ._statements_common import part_observation

FOCUS_ID = "focus.stage2.focus_as_stated"
FOCUS_AS_STATED_TARGETS = {"decays": ("growth",), "stable_eigvec": ("direction",),
                           "least_frequent": ("saddle_focus",), "every_query_stage": ("stage_focus",)}
M, MK = 2, 1            # m_k = 1: the unstable eigendirection is unique (focus.stage2.saddle_as_stated)
NORM2_WINDOW = (1e-9, 1e-6)  # fit window of |(W_Q, W_K)|^2 (start scale 1e-6: |.|^2 ~ 1e-12)
DA_RESOLVED = 1e-13     # a gain must exceed 1e-13: 1000x the float64 rounding of A's entries (<= 1)
START_TOL = 1e-4        # |A_11(T_I) - pi_1|: attention still at its plateau value 1 pi^T when Stage II starts
DIR_SAFETY = 2.0


def _unstable_pair(ch: MarkovChain) -> tuple[float, np.ndarray, np.ndarray, int]:
    """(top eigenvalue of J = -Hessian(L)(theta_c1), its unit eigenvector restricted to (W_Q, W_K), the
    attention-block eigenvector of the most negative eigenvalue, n0) from the product's arb Hessian."""
    with arb_precision(ARB_BITS):
        _, _, H, _ = saddle_hessian_arb(ch, M, MK)
    J = -np.array([[float(x.mid()) for x in row] for row in H])
    w, V = np.linalg.eigh(J)
    n0, _, _ = _att_index(ch.d, M, MK)
    u = V[:, -1]
    if np.linalg.norm(u[:n0]) > 1e-8:
        raise ValueError("the unstable eigenvector of J has an outer component (see saddle_as_stated)")
    att_only = [j for j in range(len(w)) if np.linalg.norm(V[:n0, j]) <= 1e-8]
    js = min(att_only, key=lambda j: w[j])
    return float(w[-1]), u[n0:] / np.linalg.norm(u[n0:]), V[n0:, js] / np.linalg.norm(V[n0:, js]), n0


def _saddle_run(gate: Gate, ch: MarkovChain, seed: int, variant: str) -> dict[str, Any]:
    lam_u, u, s, _ = _unstable_pair(ch)
    R = _refs(ch)
    lo, hi = NORM2_WINDOW
    tr = _from_saddle(ch, T=np.log(hi / 1e-13) / (2 * lam_u) + 20.0, m=M, mk=MK, seed=seed)
    _, _, WQ, WK = tr.params
    att = np.concatenate([WQ.reshape(len(tr.t), -1), WK.reshape(len(tr.t), -1)], axis=1)
    n2 = np.sum(att ** 2, axis=1)
    # growth: |(W_Q, W_K)|^2 = e^{2 lam_u t} |P_u a0|^2 + (non-growing part, <= |P_perp a0|^2 when every other
    # eigenvalue is <= 0): a relative perturbation of log |.|^2 of at most |P_perp a0|^2 / lo on the window
    perp0 = float(np.linalg.norm(att[0] - (att[0] @ u) * u))
    rate, budget, info = _rate_budget(tr.t, n2, lo, hi, SADDLE_E_INT + perp0 ** 2 / lo, RATE_SAFETY)
    st = statement_of(FOCUS_ID)
    observed = -rate if variant == "decays" else rate  # the control's world: the same law, decaying
    gate("growth").add(part_observation(st, {r"\mathrm{rate}(\|(W_Q, W_K)\|^2)": observed, "lambda_u": lam_u}, "growth",
                                        tol=budget, chain=ch.name, variant=variant))
    # direction: at the window end (first |.|^2 >= hi) the angle to the eigenvector; the non-growing part
    # stays <= |P_perp a0| (linear) and the nonlinear terms are O(|a|^3), relative O(|a|^2)
    ie = int(np.argmax(n2 >= hi))
    a = att[ie] / np.sqrt(n2[ie])
    vec = s if variant == "stable_eigvec" else u
    sin = float(np.sqrt(max(0.0, 1.0 - float(a @ vec) ** 2)))
    sin0 = float(np.sqrt(max(0.0, 1.0 - float(att[0] @ vec / np.sqrt(n2[0])) ** 2)))
    dbud = DIR_SAFETY * (perp0 / np.sqrt(n2[ie]) + n2[ie])
    gate("direction").add(part_observation(st, {r"\sin \angle((W_{Q}, W_{K}), u)": sin, "b_dir": dbud}, "direction",
                                           tol=0.0, chain=ch.name, variant=variant, start=sin0))
    # focus: every query's attention on the most frequent key(s) rose above its start pi_k* (A = 1 pi^T at
    # theta_c1 exactly); the control: on the least frequent key(s)
    pe = ch.pi_exact if ch.pi_exact is not None else list(ch.pi)
    ext = min(pe) if variant == "least_frequent" else max(pe)
    keys = [k for k in range(ch.d) if pe[k] == ext]
    dA = tr.A[ie][:, keys] - ch.pi[None, keys]
    worst = float(dA.min())
    A_low = tr.A[ie][:, keys].min(axis=0)
    for j, k in enumerate(keys):
        gate("saddle_focus").add(part_observation(st, {r"\min_q A_{q k^*}": float(A_low[j]), r"\pi_{k^*}": float(ch.pi[k])},
                                                  "saddle_focus", tol=DA_RESOLVED, key=k + 1, variant=variant))
    return {"pi": [float(x) for x in ch.pi], "lam_u": lam_u, "c": R["c"], "rate": rate, "2lam_u": 2 * lam_u,
            "rate_budget": info, "sin_end": sin, "sin_start": sin0, "sin_budget": dbud,
            "att_norm_end": float(np.sqrt(n2[ie])), "keys": [k + 1 for k in keys], "min_gain": worst}


def _stage_focus(gate: Gate, lam: str, variant: str) -> dict[str, Any]:
    """Sub-check 'stage_focus' on the cached E1 run at ``lam`` (see :func:`focus_as_stated`)."""
    from .flow import events

    tr = e1_run(lam)
    ch = tr.chain
    R = _refs(ch)
    TI = _event_time(tr.t, tr.loss <= R["H"] + 0.05, "T_I (L <= H(pi) + 0.05)")
    tf = events(tr)["focus"]
    gate("stage_focus").exact(tf is not None, level=Verdict.CONSISTENT, counterexample=lambda: refuted(
        f"lam = {lam}: A_11 never reaches 0.9 (no focus event)"))
    if tf is None:
        return {"T_I": TI, "focus": None}
    i0, i1 = tr.at(TI), tr.at(tf)
    start = float(tr.A[i0, 0, 0] - ch.pi[0])
    gate("stage_focus").le(abs(start), START_TOL, 0.0, counterexample=lambda: refuted(
        f"lam = {lam}: A_11(T_I) - pi1 = {start:.3g}: not at the plateau value when Stage II starts"))
    # the control's world: every query's A_q1 in the place of the most frequent query's
    qs = range(ch.d) if variant == "every_query_stage" else (0,)
    gains = {f"A_{q + 1}1": tr.A[i0 + 1:i1 + 1, q, 0] - ch.pi[0] for q in qs}
    F = tr.focus_mass[i0 + 1:i1 + 1]
    for q in qs:
        gate("stage_focus").add(part_observation(statement_of(FOCUS_ID), {
            r"\min_{T_I < t \le t_{\mathrm{focus}}} A_{11}": float(tr.A[i0 + 1:i1 + 1, q, 0].min()),
            r"\min_{T_I < t \le t_{\mathrm{focus}}} F": float(F.min()), "pi_1": float(ch.pi[0])}, "stage_focus",
            tol=DA_RESOLVED, lam=lam, query=q + 1, focus_event=tf, T_I=TI, variant=variant))
    gains["F"] = F - ch.pi[0]
    return {"T_I": TI, "focus": tf, "A11_minus_pi1_at_T_I": start,
            "min_gain": {n: float(g.min()) for n, g in gains.items()}}


def focus_as_stated(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """(1) From theta_c^1 (m = 2, m_k = 1; W_Q, W_K random of scale 1e-6 from ``seed``; DOP853 rtol 1e-11)
    on the pinned chains E1 (lam = 1/2), (0.5, 0.3, 0.1, 0.1) (lam = 1/2), the tie (0.4, 0.4, 0.1, 0.1)
    (lam = 9/10) and hypothesis F1 chains (lazy_chains, K2 > 0, c >= 0.01; quick 3, ci 10, thorough 30):

    * 'growth': the rate of log |(W_Q, W_K)|^2 on |.|^2 in [1e-9, 1e-6] is > 0 and equals 2 lam_u, lam_u
      the top eigenvalue of J = -Hessian(L)(theta_c1) (the product's arb Hessian, float midpoints), within
      the budget of `_rate_budget` (fit curvature + integration error + the non-growing components'
      |P_perp a0|^2 / 1e-9, safety 2);
    * 'direction': at |.|^2 = 1e-6 the sine of the angle between (W_Q, W_K) and lam_u's eigenvector is
      <= 2 (|P_perp a0| / |a| + |a|^2) (the non-growing part over the grown norm, plus the nonlinear term);
    * 'saddle_focus': A_qk - pi_k >= 1e-13 there for EVERY query q and every most frequent key k (ties:
      all of them), A(theta_c1) = 1 pi^T being the start.

    (2) 'stage_focus', the cached E1 runs (e1_run; quick lam = 1/2, ci/thorough also 9/10): from T_I (L <=
    H(pi) + 0.05, |A_11(T_I) - pi_1| <= 1e-4) to the product's focus event (A_11 >= 0.9, which must occur),
    the most frequent query's A_11 and the focus mass F = sum_q pi_q A_q1 stay above pi_1.

    Variants (each asserts only its sub-check): 'decays' (rate = -2 lam_u), 'stable_eigvec' (the direction
    is the attention block's stable eigenvector), 'least_frequent' (every query gains on the least frequent
    key), 'every_query_stage' (every query's A_q1 stays above pi_1 up to the focus event: false in E1, the
    rare queries fall back below pi_1 just before it)."""
    tally = Tally(precision="float64 DOP853 rtol 1e-11 / LSODA rtol 1e-9; Hessian arb midpoints",
                  backend="scipy + python-flint", seeds=(seed, 0))
    gate = Gate(tally, variant, FOCUS_AS_STATED_TARGETS)
    rows: list[dict[str, Any]] = []
    if any(gate.asserts(n) for n in ("growth", "direction", "saddle_focus")):
        def body(ch: MarkovChain) -> Observation:
            R = _refs(ch)
            if not (R["K2"] > 0 and R["c"] >= FOCUS_C_MIN):
                reject()
            local = gate.child()
            rows.append(_saddle_run(local, ch, seed, variant))
            return local.observation()

        pinned = [MarkovChain.lazy(pi, lam) for pi, lam in FOCUS_PINNED]
        explore(lazy_chains(max_d=6), body, tally, seed=seed, max_examples=profile.pick(3, 10, 30),
                examples=pinned, describe=_describe_chain)
    tally.details["saddle"] = rows
    if gate.asserts("stage_focus"):
        tally.details["E1"] = {lam: _stage_focus(gate, lam, variant)
                               for lam in profile.pick(("1/2",), ("1/2", "9/10"), ("1/2", "9/10"))}
    return gate.evidence()
