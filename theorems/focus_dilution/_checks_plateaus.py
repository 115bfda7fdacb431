"""Checks of focus.plateaus (spec §4.12): the loss plateaus of the E1 runs (values, times, gaps to the
closed forms) and the order of the E1 events.

Negative controls run through the same check function with a ``variant``: a variant is a false statement
about ONE quantity, so it asserts only the sub-check(s) about that quantity (:class:`verify.Gate`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.flows import first_time
from verify import Evidence, Gate, Profile, Tally, Verdict, refuted, statement_of

from ._checks_model import E1_PI
from ._flow_runs import _local_flow, _refs, e1_run, elementwise

# -- §4.12 plateaus --------------------------------------------------------------------------------------
PLATEAU_VALUES = {"1/2": (0.72741, 0.63346, 0.61259, 0.60707, 0.56256), "9/10": (0.72859, 0.21682, 0.18807)}
PLATEAU_TIMES = {"1/2": (54.0, 216.0, 424.0, 557.0, 3603.0)}   # seed 0, +-20%
H_GAPS = {"1/2": (2.7e-4, None), "9/10": (1.45e-3, 4.5e-4)}   # seed 0 at eps 1e-3 and 1e-4, +-20%
PLATEAU_HALF_UNIT = 5e-6   # PLATEAU_VALUES are printed to 5 decimals
# the first plateau is the loss at the eps = 1e-3 start: L(theta(0)) = log d + O(eps^2) (M = O(eps^2));
# budget 10 eps^2 (observed < 1e-6)
L0_TOL = 10 * 1e-3 ** 2


def _plateau_figure(tally: Tally, tr: Any, R: dict[str, Any], vals: list[float]) -> None:
    """The E1 loss curve (seed 0, lam = 1/2) with the predicted plateaus log d, H(pi), H(Y|X) as lines."""
    sel = np.unique(np.geomspace(1, len(tr.t) - 1, 400).astype(int))
    tally.figure(
        title="E1 loss plateaus (lam = 1/2, seed 0, eps = 1e-3)",
        caption=(f"focus.plateaus: population loss L(t) of the E1 gradient flow; detected plateau values "
                 f"{', '.join(f'{v:.5f}' for v in vals)}; predicted log d = {R['logd']:.5f}, H(pi) = "
                 f"{R['H']:.5f}, H(Y|X) = {R['HYX']:.5f} (lines)"),
        series=[{"label": "L(t)", "x": tr.t[sel].tolist(), "y": tr.loss[sel].tolist()}],
        xlabel="t", ylabel="loss", xscale="log",
        hlines=[{"y": R["logd"], "label": "log d"}, {"y": R["H"], "label": "H(pi)"},
                {"y": R["HYX"], "label": "H(Y|X)"}])


def plateaus(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """E1 runs at lam = 1/2 and 9/10 (T = 3e4; seed 0 at quick, seeds 0-2 at ci/thorough), stage detector
    of spec §5 (S = -dL/dlog t, drops S > 0.02):

    * 'H_plateau': the first interior plateau is within 2e-3 of H(pi) at eps = 1e-3;
    * 'H_gap_shrinks': that gap is smaller at eps = 1e-4 (run to t = 150, same seed);
    * 'final': the last plateau is within 1e-5 of H(Y|X); 'decreasing': plateau values strictly decrease;
      'rank': the final numerical rank of W0 (threshold 0.1) is d - 1 = 3;
    * 'value_anchors' (+-2e-3, every seed): lam = 1/2: 0.72741, 0.63346, 0.61259, 0.60707, 0.56256;
      lam = 9/10: 0.72859, 0.21682, 0.18807 (then H(Y|X) = 0.18029);
    * 'value_budget' (seed 0): the same value anchors within the derived budget 2 x (printed half-unit 5e-6 +
      the loss change over one grid step at the plateau + 1e-6 |L| integration error) -- 2.6e-5 to 1.8e-4,
      observed <= 1.7e-5 -- beside the spec's +-2e-3 band, which stays the claim's reading;
    * 'time_anchors' (seed 0, +-20%): lam = 1/2 plateau times 54, 216, 424, 557, 3603; the H(pi) gaps
      2.7e-4 (lam = 1/2) and 1.45e-3 / 4.5e-4 (lam = 9/10 at eps = 1e-3 / 1e-4).
    Variant 'no_intermediate' (log d -> H(Y|X) with no plateau in between) asserts only 'no_H_plateau':
    no interior plateau lies within 2e-3 of H(pi) -- refuted by the detected H(pi) plateau.  Variant
    'value_shifted' asserts only 'value_budget' against the anchors + 1e-4 (a 1e-4 error the spec band
    accepts) -- refuted by the derived budget."""
    tally = Tally(precision="float64 LSODA rtol 1e-9", backend="scipy", tolerance=2e-3,
                  seeds=tuple(profile.pick((0,), (0, 1, 2), (0, 1, 2))))
    gate = Gate(tally, variant, {"no_intermediate": ("no_H_plateau",), "value_shifted": ("value_budget",)})
    stmt = statement_of("focus.plateaus")
    shift = 1e-4 if variant == "value_shifted" else 0.0  # control: anchors off by 1e-4 (inside +-2e-3)
    rows: dict[str, Any] = {}
    for lam in ("1/2", "9/10"):
        for s in tally.seeds:
            tr = e1_run(lam=lam, seed=s)
            ch = tr.chain
            R = _refs(ch)
            st = tr.stages()
            vals = st.plateau_values
            times = [p.t_value for p in st.plateaus]
            interior = vals[1:-1]
            near = [abs(v - R["H"]) for v in interior]
            if variant == "no_intermediate":
                k = int(np.argmin(near)) if near else -1
                closest = min(near) if near else float("inf")
                gate("no_H_plateau").le(2e-3, closest, 0.0, counterexample=lambda: refuted(
                    f"a plateau at L = {interior[k]:.5f} (t = {times[k + 1]:.1f}) lies {closest:.2g} from "
                    f"H(pi) = {R['H']:.5f}: there is an intermediate plateau", lam=lam, seed=s,
                    plateaus=vals))
            gap3 = vals[1] - R["H"]
            tr4 = _local_flow("lazy", (E1_PI, lam), 150.0, 1e-4, s)
            l1_fine = tr4.stages().plateaus[1].value
            gap4 = l1_fine - R["H"]
            # the claim's statement on this run (H(pi) is the statement's own formula, on pi_1..pi_4)
            pis = {f"pi_{k + 1}": float(p) for k, p in enumerate(ch.pi)}
            gate("log_d").statement(stmt, {"L_0": vals[0], "d": ch.d}, part="log_d", tol=L0_TOL,
                                    counterexample=lambda: refuted(
                f"the first plateau {vals[0]:.8f} is not log d = {np.log(ch.d):.8f}", lam=lam, seed=s))
            gate("H_plateau").statement(stmt, {"L_1": vals[1], **pis}, part="H_plateau", tol=0.0,
                                        counterexample=lambda: refuted(
                f"first interior plateau {vals[1]:.5f} is {gap3:.2g} from H(pi)", lam=lam, seed=s))
            gate("H_gap_shrinks").statement(stmt, {"L_1": vals[1], "L_1_fine": l1_fine, **pis},
                                            part="H_gap_shrinks", tol=0.0, counterexample=lambda: refuted(
                f"the H(pi) gap does not shrink with eps: {gap3:.3g} (1e-3) -> {gap4:.3g} (1e-4)", lam=lam,
                seed=s))
            gate("final").statement(stmt, {"L_final": vals[-1], "H_YX": R["HYX"]}, part="final", tol=1e-5,
                                    counterexample=lambda: refuted(
                f"final plateau {vals[-1]:.8f} vs H(Y|X) {R['HYX']:.8f}", lam=lam, seed=s))
            gate("decreasing").statement(stmt, {"L_prev": elementwise(vals[:-1]), "L_next": elementwise(vals[1:])},
                                         part="decreasing", tol=0.0, counterexample=lambda: refuted(
                "plateau values not decreasing", plateaus=vals))
            rank = int(np.sum(tr.sv_W0[-1] >= 0.1))
            gate("rank").statement(stmt, {"r_W0": rank, "d": ch.d}, part="rank", counterexample=lambda: refuted(
                f"final rank(W0) = {rank}, not d - 1", lam=lam, seed=s))
            anchors = PLATEAU_VALUES[lam]
            gate("value_anchors").exact(len(vals) >= len(anchors) + 2, level=Verdict.CONSISTENT,
                                        counterexample=lambda: refuted(
                                            f"{len(vals)} plateaus, expected {len(anchors) + 2}",
                                            plateaus=vals))
            for v, a in zip(vals[1:], anchors):
                gate("value_anchors").close(v, a, 2e-3, counterexample=lambda: refuted(
                    f"plateau {v:.5f} vs the anchor {a}", lam=lam, seed=s))
            if s == 0:
                # the derived budget beside the spec band (the anchors are seed-0 values printed to 5
                # decimals): 2 x (printed half-unit 5e-6 + the loss change over one grid step at the plateau
                # time -- the detector's reading may move by one sample -- + the integration error of L,
                # LSODA rtol 1e-9 over ~1e3 steps: 1e-6 |L|); observed <= 1.7e-5
                budgets = []
                for p, a in zip(st.plateaus[1:], [x + shift for x in anchors]):
                    i = tr.at(p.t_value)
                    step = max(abs(tr.loss[min(i + 1, len(tr.t) - 1)] - tr.loss[i]),
                               abs(tr.loss[i] - tr.loss[max(i - 1, 0)]))
                    bud = 2 * (PLATEAU_HALF_UNIT + float(step) + 1e-6 * abs(p.value))
                    v = p.value
                    budgets.append({"value": v, "anchor": a, "error": v - a, "budget": bud})
                    gate("value_budget").close(v, a, bud, counterexample=lambda: refuted(
                        f"plateau {v:.6f} (t = {p.t_value:.1f}) vs the seed-0 anchor {a}: off by {v - a:.2e} > the "
                        f"derived budget {bud:.2e}", lam=lam))
                rows[f"lam{lam}/value_budget"] = budgets
                for tv, a in zip(times[1:], PLATEAU_TIMES.get(lam, ())):
                    gate("time_anchors").close(tv, a, 0.2, scale=a, counterexample=lambda: refuted(
                        f"plateau time {tv:.1f} vs the anchor {a}", lam=lam))
                for gap, a in zip((gap3, gap4), H_GAPS[lam]):
                    if a is not None:
                        gate("time_anchors").close(gap, a, 0.2, scale=a, counterexample=lambda: refuted(
                            f"H(pi) gap {gap:.3g} vs the anchor {a}", lam=lam))
            if s == 0 and lam == "1/2":
                _plateau_figure(tally, tr, R, vals)
            rows[f"lam{lam}/seed{s}"] = {"plateaus": vals, "times": times, "gap_eps1e-3": gap3,
                                         "gap_eps1e-4": gap4, "final_rank": rank, "H": R["H"],
                                         "HYX": R["HYX"]}
    tally.details["rows"] = rows
    return gate.evidence()


# seed-0 event times of spec §5.1 as printed, with the half-unit of their last printed digit ("≈ 6000": +-50)
EVENT_ANCHORS = (("R1", 14.5, 0.05), ("onset", 67.7, 0.05), ("first_flip", 92.8, 0.05), ("focus", 94.0, 0.5),
                 ("focus_peak", 106.0, 0.5), ("new_direction", 245.0, 0.5), ("second_attention", 670.0, 5.0),
                 ("third_direction", 1831.0, 0.5), ("bayes", 6000.0, 50.0))


def event_order(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """E1 run: R1 < onset < {flip, focus, focus peak} < new direction < third direction (spec §5.1), and the
    seed-0 anchors.  The spec's +-20 % is its regression band for other implementations; this run is the
    spec's own setting (seed 0, LSODA rtol 1e-9), so the achievable error is the reading of a first-crossing
    time on the output grid (one local grid step h, 0.46 % of t at 500 points per decade) plus the rounding
    of the printed anchor (half a unit of its last digit, u): budget 2 (h + u), safety factor 2 (observed
    deviations <= 0.33 % of t, budgets 0.9-2.6 % of t); the +-20 % band is asserted as well.
    Variant 'focus_threshold_0.85': the focus event read at A_11 >= 0.85 (t = 88.6, inside +-20 % of 94)
    claimed at the anchor -- only the focus anchor is asserted; it must fall outside the budget."""
    from .flow import events

    if variant not in ("statement", "focus_threshold_0.85"):
        raise ValueError(f"unknown variant {variant!r}")
    tr = e1_run()
    ev = events(tr)
    t = tr.t
    tally = Tally(precision="float64", backend="scipy", seeds=(0,))  # the E1 reference run
    anchors = EVENT_ANCHORS
    if variant == "focus_threshold_0.85":
        ev["focus"] = first_time(t, tr.A[:, 0, 0] >= 0.85)
        anchors = tuple(a for a in EVENT_ANCHORS if a[0] == "focus")
    else:
        ok = (ev["R1"] < ev["onset"] < min(ev["first_flip"], ev["focus"], ev["focus_peak"])
              and max(ev["first_flip"], ev["focus"], ev["focus_peak"]) < ev["new_direction"]
              < ev["third_direction"])
        with tally.sub("order"):
            tally.exact(bool(ok), level=Verdict.CONSISTENT,
                        counterexample=lambda: refuted("event order differs", **ev))
    budgets = {}
    for k, a, u in anchors:
        got = ev[k]
        if got is None:
            with tally.sub("anchor_budget"):
                tally.exact(False, counterexample=lambda: refuted(f"event {k} never happens", variant=variant))
            continue
        i = max(int(np.searchsorted(t, got)), 1)
        budget = 2 * (float(t[i] - t[i - 1]) + u)
        budgets[k] = {"t": got, "anchor": a, "budget": budget, "deviation": abs(got - a)}
        with tally.sub("anchor_budget"):
            tally.close(got, a, budget, counterexample=lambda: refuted(
                f"event {k} at t = {got:.4g}, anchor {a:g} +- {budget:.3g} (2 x (grid step + printed "
                "half-unit))", variant=variant))
        with tally.sub("anchor_band"):
            tally.close(got, a, 0.2, scale=a)
    tally.details["events"] = ev
    tally.details["anchor_budgets"] = budgets
    return tally.evidence(level_cap=Verdict.CONSISTENT)
