"""Full-gradient training has no finite limit on the spec's second control (spec §3.8, negative controls).

Z = {-0.3, +0.3}, K = 2, tau = 1/2, p(0) = (0, 2), eta = 1/2, full mode (descent on L_q through the
live assignments).  L_q is itself a Lyapunov function of this flow (non-increasing), so "a functional
decreases" is not what fails; what fails is convergence: p_1 -> 0 while p_2 increases at every step
(spec: 2.804, 3.066, 3.297 after 2e3, 2e4, 2e5 steps), and on the branch p_1 = 0 the partial derivative
dL_q/dp_2 (0, x) is negative at every x the run passes, so there is no stationary point there for p_2 to
converge to.  [derived] Asymptotically the outward pull on p_2 is ~ x^3 exp(-x^2/tau), so
p_2^2 ~ tau ln t: each decade of steps adds about tau ln 10 = 1.15 to p_2^2 (recorded, not asserted).
Stop-gradient training from the same start sends both prototypes to 0 (the sibling's mode; recorded and
required, else the evidence is void).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from verify import Evidence, Profile, Tally, Verdict, refuted, statement_of

from .dictionary import all_losses, descent_gradient, gibbs, grad_detached, grad_live_Lq

Z2 = np.array([[-0.3], [0.3]])
P0 = np.array([[0.0], [2.0]])
TAU, ETA = 0.5, 0.5
# spec §3.8: p_2 after 2e3, 2e4, 2e5 full-gradient steps (3 decimals); a product change that moves the
# trajectory voids the evidence (UNKNOWN) instead of hiding behind the expected refutation
P2_SPEC = {2000: 2.804, 20000: 3.066, 200000: 3.297}


def unbounded(*, seed: int, profile: Profile, max_rise: float = math.inf) -> Evidence:
    """Statement: the full-gradient trajectory from p(0) = (0, 2) converges to a finite limit.

    Refuted when, over the run (quick/ci 2e4 steps, thorough 2e5): L_q never increases (budget 1e-14,
    float64 rounding of an O(0.1) mean, per step over the first 2000 steps, then per block of 100 steps:
    L_q is evaluated every 100th step there), p_2 increases at every step, and dL_q/dp_2 (0, x) < 0
    on a grid of x across [2, p_2(end) + 1] (no stationary point on the branch p_1 = 0).
    ``max_rise`` (a control, 2e4 steps at every profile) tests the weaker statement "p_2 rises by at most
    max_rise between step 2000 and step 20000" (it rises 0.262).
    """
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    steps = profile.pick(20000, 20000, 200000) if max_rise == math.inf else 20000  # the control: 2e4 suffice
    worst_L, worst_p, p2_items, p1_end, p2_end, S_end, xs_last, dLdx = _runs(steps)
    p2 = dict(p2_items)
    for t, v in p2.items():
        if abs(v - P2_SPEC[t]) > 5e-4:
            return Evidence(Verdict.UNKNOWN, notes=f"p_2 after {t} full steps is {v:.6f}, not the regression "
                            f"value {P2_SPEC[t]} (spec §3.8)")
    if max(abs(x) for x in S_end) > 1e-9:
        return Evidence(Verdict.UNKNOWN, notes=f"stop-gradient from the same start ends at {list(S_end)}, "
                        "not at 0 (spec §3.8)")
    decades = sorted(p2)
    incr = [p2[b] ** 2 - p2[a] ** 2 for a, b in zip(decades, decades[1:])]
    tally.details.update({"steps": steps, "p2": p2, "p1_end": p1_end, "p2_end": p2_end,
                          "largest_Lq_step_rise": worst_L, "smallest_p2_step": worst_p,
                          "p2_squared_per_decade": incr, "tau_ln10": TAU * math.log(10),
                          "max_dLq_dp2_on_branch": max(dLdx), "stopgrad_end": list(S_end)})
    if max_rise < math.inf:
        rise = p2_end - p2[2000]
        tally.le(rise, max_rise, 0.0, counterexample=lambda: refuted(
            f"p_2 rises by {rise:.4f} > {max_rise} between step 2000 and step {steps}", p2=p2, p2_end=p2_end,
            sub_check="p2_rise"))
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    if worst_L > 1e-14:  # the setting of the claim (L_q is a Lyapunov function of the flow) is not met
        return Evidence(Verdict.UNKNOWN, notes=f"L_q rose by {worst_L:.3g} along the full-gradient run")
    # the statement: a finite limit needs p_2 to stop increasing or a stationary point ahead on p_1 = 0
    tally.statement(statement_of("ddcl.lyapunov.full_gradient"), {"min_p2_step": worst_p, "max_dLq_dp2": max(dLdx)},
                    part="converges", tol=0.0, counterexample=lambda: refuted(
        f"full-gradient training from p(0) = (0, 2) (Z = {{-0.3, 0.3}}, tau = 1/2, eta = 1/2) has no finite "
        f"limit: L_q never increases, yet p_2 increases at every step ({', '.join(f'{v:.3f}' for v in p2.values())} "
        f"after {', '.join(f'{t:.0e}' for t in p2)} steps; p_2^2 grows ~ tau ln t) and dL_q/dp_2 (0, x) < 0 for "
        f"every x in [2, {xs_last:.2f}], so no stationary point waits on the branch p_1 = 0",
        Z=[-0.3, 0.3], tau=TAU, eta=ETA, p0=[0.0, 2.0], p2=p2, p1_end=p1_end, sub_check="converges"))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


@functools.lru_cache(maxsize=2)
def _runs(steps: int) -> tuple:
    """The runs behind :func:`unbounded` (they depend on ``steps`` only, not on the seed, so the claim,
    its control and the as-stated headline's candidates share them in one process): the full-gradient
    run's worst L_q rise and smallest p_2 step, p_2 at the spec's steps, the end point, the stop-gradient
    run's end and dL_q/dp_2 (0, x) on the branch grid.  Immutable (tuples of floats)."""
    P = P0.copy()
    Lprev = all_losses(Z2, P, TAU)["L_q"]
    worst_L, worst_p, p2 = -math.inf, math.inf, {}
    grad = descent_gradient(Z2, TAU, "full", K=P.shape[0], d=P.shape[1])  # grad_live_Lq, validated once
    for t in range(1, steps + 1):
        Pn = P - ETA * grad(P)
        worst_p = min(worst_p, float(Pn[1, 0] - P[1, 0]))
        P = Pn
        if t <= 2000 or t % 100 == 0:  # L_q on every step early, then every 100th (monotone either way)
            L = all_losses(Z2, P, TAU)["L_q"]
            worst_L = max(worst_L, L - Lprev)
            Lprev = L
        if t in P2_SPEC:
            p2[t] = float(P[1, 0])
    S = P0.copy()
    for _ in range(2000):
        S = S - ETA * grad_detached(Z2, S, gibbs(Z2, S, TAU))["L_q"]
    xs = np.linspace(2.0, float(P[1, 0]) + 1.0, 200)
    dLdx = tuple(float(grad_live_Lq(Z2, np.array([[0.0], [x]]), TAU)[1, 0]) for x in xs)
    return (worst_L, worst_p, tuple(p2.items()), float(P[0, 0]), float(P[1, 0]), tuple(S.ravel().tolist()),
            float(xs[-1]), dLdx)
