"""The companion code's tracker as written: coupled Oja / MCA-EXIN (spec §2.4, §5.3).

One iteration is the product's :func:`incrt.tracker_step` with the coupling ON: gamma* = Delta_+ /
(Delta_+ + Delta_-) from the eigendecomposition of A, eta_+ = 1/(10 d) = 1/60 (d = 6), eta_- = eta_+/2 and
the coded MCA step (factor y).  Operator A = c A0, A0 = diag(1, 0.5, 0.2, 0, -0.2, -1.5) (gamma* = 5/18).

Start law (the code re-seeds at random after a birth): start j uses ``np.random.default_rng(j)``; u_+ is a
standard normal 6-vector normalised, then u_- a standard normal 6-vector projected off u_+ and normalised.

Derived thresholds [derived].  Near u_+ = v_1 with u_- = w (unit, w perp v_1), write u_+ = v_1 + delta,
B = lambda_1 - A on v_1-perp (eigenvalues c (0.5, 0.8, 1, 1.2, 2.5)).  The projection u_- perp u_+ gives
(u_+^T A u_-) = -delta^T B w to first order, so the coupled Oja step maps
delta -> (I - eta (I - (1 - gamma*) w w^T) B) delta.  The matrix (I - (1 - gamma*) w w^T) B is similar to
B - (1 - gamma*) (B^1/2 w)(B^1/2 w)^T: a rank-one PSD decrease of B, so its eigenvalues lie in
(0, lambda_1 - lambda_d] and, by interlacing, the largest is >= lambda_1 - lambda_{d-1}.  Hence
* c < c_lo = 2/(eta (lambda_1 - lambda_d)) = 48: v_1 is locally stable whatever u_- is: every start
  converges (the uncoupled threshold);
* c > c_hi = 2/(eta (lambda_1 - lambda_{d-1})) = 100: unstable whatever u_- is: every start stalls;
* 48 < c < 100: stability depends on where the (coded) MCA step leaves u_-, i.e. on the start.
Recorded (2e4 steps, starts j = 0..39): c = 47: 0 of 40 stall; c = 49: 3 of 40 (starts 4, 11, 19,
sin angle 0.101); c = 80: 0 of 40; c = 101: 39 of 40 (start 24 sits near v_1 at the end: at c = 101 the
growth factor is only |1 - 2.02| = 1.02 per step, so a run that passes near v_1 late needs ~1500 steps to
leave it again); c = 120: 20 of 20 (factor >= 1.4; start 0 ends at sin angle 0.824).  The regression case is therefore c = 120, not 100.
Confidence rule: 0 stalls in n independent starts bounds the stall probability below 3/n at 95 %
(rule of three); n stalls in n starts bounds it above 1 - 3/n.
"""

from __future__ import annotations

import math

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, refuted, statement_of

from ._checks_tracker import memo_batch, stacked_step

A0 = np.diag([1.0, 0.5, 0.2, 0.0, -0.2, -1.5])
ETA = 1 / 60
C_LO = 2 / (ETA * 2.5)   # 48
C_HI = 2 / (ETA * 1.2)   # 100
SIN_REG = 0.5  # c = 120, start 0: sin angle after 2e4 steps is 0.824 (recorded); >= 0.5 or the evidence is void


def gamma_star(A: np.ndarray) -> float:
    """gamma* = Delta_+/(Delta_+ + Delta_-) from a full eigendecomposition (spec §2.4)."""
    w = np.linalg.eigvalsh(A)
    dp, dm = w[-1] - w[-2], w[1] - w[0]
    return float(dp / (dp + dm))


def start(j: int, d: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Start j of the recorded law: default_rng(j); u_+ ~ N(0, I) normalised, u_- ~ N(0, I) perp u_+."""
    rng = np.random.default_rng(j)
    up = rng.standard_normal(d)
    up /= np.linalg.norm(up)
    um = rng.standard_normal(d)
    um -= (um @ up) * up
    return up, um / np.linalg.norm(um)


def coupled_run(A: np.ndarray, j: int, steps: int = 20000) -> float:
    """sin angle of u_+ to v_1 after ``steps`` coupled iterations (stops early below 1e-9)."""
    return coupled_runs([(A, j)], steps)[0]


_RUNS: dict[tuple, float] = {}


def coupled_runs(cases: list[tuple[np.ndarray, int]], steps: int = 20000) -> list[float]:
    """:func:`coupled_run` for each (A, start j): the runs not yet done stacked as the rows of one
    :func:`tracker_step` call (each row's trajectory is its lone run's, bit for bit; a row leaves the
    stack when it stops).  The claims and controls share the runs: one per exact input (A's bytes, j,
    steps) per process, at most 256."""
    arrs = [np.asarray(A, float) for A, _ in cases]
    keys = [(a.shape, a.tobytes(), int(j), int(steps)) for a, (_, j) in zip(arrs, cases)]
    return memo_batch(_RUNS, keys, cases, lambda c: c[0].shape[0], lambda group: _stacked(group, steps), limit=256)


def _stacked(cases: list[tuple[np.ndarray, int]], steps: int) -> list[float]:
    """The stacked runs of :func:`coupled_runs` (operators of one dimension)."""
    A = np.array([np.asarray(c[0], float) for c in cases])
    V = np.array([np.linalg.eigh(c[0])[1] for c in cases])  # v1 = last column, read in place (strided dot)
    st = [start(j, c.shape[0]) for c, j in cases]
    up, um = np.array([p for p, _ in st]), np.array([m for _, m in st])
    g = np.array([[gamma_star(c)] for c, _ in cases])
    live = list(range(len(cases)))
    out = [math.nan] * len(cases)
    for _ in range(steps):
        up, um = stacked_step(A, up, um, ETA, ETA / 2, g)
        proj = (up[:, None, :] @ V[:, :, -1:])[:, 0, 0]  # up @ v1 row by row (the same strided dot)
        stop = []
        for r, i in enumerate(live):
            out[i] = math.sqrt(max(0.0, 1 - float(proj[r]) ** 2))
            if out[i] < 1e-9:
                stop.append(r)
        if stop:
            keep = [r for r in range(len(live)) if r not in stop]
            live = [live[r] for r in keep]
            if not live:
                break
            A, V, up, um, g = A[keep], V[keep], up[keep], um[keep], g[keep]
    return out


def coupled_scales(*, seed: int, profile: Profile, max_scale: float = math.inf) -> Evidence:
    """Statement: the code's coupled tracker brings u_+ to sin angle < 1e-6 from every recorded start
    within 2e4 steps, at every scale c of A = c A0.  Scales 0.5, 1, 10, 47 (< c_lo), 80, 120 (> c_hi), 49,
    starts j = 0..n-1 (n = 2 / 5 / 10 at quick / ci / thorough; at c = 49 always starts 0..4, which hold
    the recorded stall start 4).  ``max_scale`` restricts the statement to c <= max_scale (a control:
    "below c_hi = 100 every start converges")."""
    st = statement_of("ddcl.growth.tracker_fixed_step")
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,), tolerance=1e-6)
    if abs(gamma_star(A0) - 5 / 18) > 1e-12:
        return Evidence(Verdict.UNKNOWN, notes="gamma* of A0 is not 5/18")
    n = profile.pick(2, 5, 10)
    counts = {}
    scales = [c for c in (0.5, 1.0, 10.0, 47.0, 80.0, 120.0, 49.0) if c <= max_scale]
    coupled_runs([(c * A0, j) for c in scales for j in range(max(n, 5) if c == 49.0 else n)])  # stacked
    for c in (0.5, 1.0, 10.0, 47.0, 80.0, 120.0, 49.0):  # 49 last: the control (c <= 99) reaches it
        if c > max_scale:
            continue
        A = c * A0
        stalls = []
        for j in range(max(n, 5) if c == 49.0 else n):
            s = coupled_run(A, j)
            if c == 120.0 and j == 0 and s < SIN_REG:
                return Evidence(Verdict.UNKNOWN, notes=f"regression case c = 120, start 0 ends at sin {s:.4f} "
                                f"(recorded 0.824; c > c_hi = 100 must stall)")
            if s > 1e-6:
                stalls.append(j)
            if max_scale == math.inf and not (c == 120.0 and j == 0):
                continue  # recorded only: the refuted statement is evaluated on the pinned case c = 120, start 0
            tally.statement(st, {"sin_angle": s}, part="convergence", tol=0.0, counterexample=lambda: refuted(
                f"the code's coupled tracker (gamma* = 5/18, eta_+ = 1/60, eta_- = 1/120) stalls at sin angle "
                f"{s:.3f} after 2e4 steps on A = {c:g} A0 from start {j} (default_rng({j}); "
                f"{'48 < c < c_hi = 100: stability depends on the start' if c < C_HI else 'c > c_hi = 100: unstable from every start'})",
                c=c, start=j, sin_angle=s, gamma=5 / 18, eta_plus=ETA, sub_check="convergence"))
            if tally.counterexample is not None:
                break
        counts[f"c={c:g}"] = {"starts": j + 1, "stalls": stalls}
        if tally.counterexample is not None:
            break
    tally.details.update({"stalls_by_scale": counts, "c_lo": C_LO, "c_hi": C_HI,
                          "start_law": "default_rng(j): u+ ~ N(0,I) normalised, u- ~ N(0,I) perp u+"})
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def coupled_thresholds(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Both sides of the derived thresholds: every recorded start converges at c = 47 < c_lo and stalls
    (sin angle > 1e-3 after 2e4 steps) at c = 120 > c_hi; n = 2 / 5 / 10 starts each.  At c = 80 (between
    the thresholds, where the uncoupled step stalls) the recorded starts converge (0 of 40 stall, recorded).  The stall
    fraction at n starts is recorded with its rule-of-three bound.  Controls: ``variant="stall_at_47"``
    claims every start stalls at c = 47; ``variant="converge_at_120"`` claims every start converges at 120."""
    if variant not in ("statement", "stall_at_47", "converge_at_120"):
        raise ValueError(f"unknown variant {variant!r}")
    st = statement_of("ddcl.growth.tracker_coupled_thresholds")
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    n = profile.pick(2, 5, 10)
    coupled_runs([(c * A0, j) for c in (47.0, 80.0, 120.0) for j in range(n)])  # stacked, shared
    # c = 80 lies between the thresholds: the recorded starts 0..39 all converge there (the coupling
    # stabilises where the uncoupled step, c* = 48, stalls from every start); it keeps the check
    # sensitive to the coupling term itself
    for c, stall_expected in ((47.0, variant == "stall_at_47"), (80.0, False),
                              (120.0, variant != "converge_at_120")):
        A = c * A0
        for j in range(n):
            s = coupled_run(A, j)
            ce = lambda: refuted(  # noqa: E731
                f"start {j} (default_rng({j})) on A = {c:g} A0 ends at sin angle {s:.3g} after 2e4 coupled "
                f"steps; {'stall' if stall_expected else 'convergence'} claimed", c=c, start=j, sin_angle=s,
                sub_check=f"c={c:g}")
            if variant == "statement" or c == 80.0:
                tally.statement(st, {f"sin_{c:g}": s}, part=f"c={c:g}", tol=0.0, counterexample=ce)
            else:  # the control's own (false) claim at its scale: the opposite outcome
                ok = (s > 1e-3) if stall_expected else (s < 1e-6)
                tally.named(f"c={c:g}").exact(bool(ok), level=Verdict.CONSISTENT, counterexample=ce)
            if tally.counterexample is not None:
                return tally.evidence(level_cap=Verdict.CONSISTENT)
        tally.details[f"c={c:g}"] = {"starts": n, "all": "stall" if stall_expected else "converge",
                                     "rule_of_three_95": 3 / n}
    return tally.evidence(level_cap=Verdict.CONSISTENT)
