"""The references of the focus experiments (spec §5): the E1/E2/E5 chains and horizons, the E4 and
E5 tolerances, and the cached trajectories shared between the experiments.
"""

from __future__ import annotations

from fractions import Fraction

from ..flow import Trajectory, cached_flow

E1_PI = ("0.75", "0.19", "0.05", "0.01")
E2_C = (1, -1, Fraction(1, 2), Fraction(-1, 2))
E2_HORIZON = {0.005: 2e4, 0.01: 1.2e4, 0.02: 8e3}

# E4, expected shape in E1 (spec §5.4).  The values are the successive turning points of the curves (start,
# alternating local maxima / minima, end); spec §4.11 locates those of D-bar at t = 313, 436, 656, 741, 5395.
E4_DBAR_EXPECTED = (0.0, 0.286, 0.273, 0.316, 0.176, 1.045, 1.035)
E4_DBAR_TIMES = (None, 313.0, 436.0, 656.0, 741.0, 5395.0, None)
E4_KL1_EXPECTED = (0.0, 0.2875, 0.062, 0.993)
E4_S = 256  # context length of the reported positional entropy
E4_SWING = 0.005  # zigzag threshold of the D-bar / KL turning points
ROW_SWING = 0.10  # relative swing of a row-norm turning point
FLIP_WINDOW = 1.25  # a row-norm minimum within this factor in t of a sign flip is "at" the flip

# E5 and its sampled mode (spec §5.5)
E5_D = 32
E5_FLOW = dict(method="DOP853", rtol=1e-8, atol=1e-11, per_decade=500)  # spec §5: >= 500 per decade
E5S_N, E5S_S, E5S_LR = 2000, 128, 0.05
E5S_T = {"quick": 1000.0, "thorough": 3000.0}
TOL_FACTOR = 5.0  # "tolerances x5"
TOL_TIME_REL = 0.20  # base tolerance of event times: the spec's regression anchors, +-20 %
TOL_ABS = 0.02  # base tolerance of losses and attention values: the spec's |L - H(pi)| <= 0.02


def e1_trajectory() -> Trajectory:
    """The E1 reference run (T = 3e4, m = m_k = 8, eps = 1e-3, seed 0), cached per process."""
    return cached_flow("lazy", (E1_PI, "1/2"), T=3e4, eps=1e-3, seed=0)


def e2_trajectory(delta: float) -> Trajectory:
    """The E2 run at delta (d = 5, pi = (0.6, 0.1 x 4) + delta c, lam = 1/2, seed 0), cached per process."""
    df = Fraction(delta).limit_denominator(10**6)
    return cached_flow("perturbed_rare", (5, Fraction(3, 5), Fraction(1, 2), E2_C, df), T=E2_HORIZON[delta],
                       per_decade=100)


def e5_trajectory(T: float) -> Trajectory:
    """The population E5 run (Zipf d = 32, lam = 1/2, DOP853), cached per process."""
    return cached_flow("zipf", (E5_D,), T=T, **E5_FLOW)
