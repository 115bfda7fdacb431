"""The certified spread of transverse_rate (focus.stage4.transverse_rate_certified) is decided in arb on the
balls' ends, not by ordering midpoints as floats."""

from __future__ import annotations

from fractions import Fraction

import flint

from numerics.precision import Tri
from theorems.focus_dilution._checks_transverse import ratio_spread

BOUND = Fraction(101, 100)


def _ball(mid: str, rad: str) -> flint.arb:
    return flint.arb(mid, rad)


def test_wide_ball_with_small_midpoint_holds_the_largest_value():
    # by midpoints the extremes are 1.005 and 1.0 (spread 1.005 <= 1.01: TRUE), but the wide ball
    # [1.004 +- 0.008] reaches 1.012 above and 0.996 below: max/min may be 1.016 > 1.01 -> undecided
    balls = [_ball("1.0", "0"), _ball("1.005", "0"), _ball("1.004", "0.008")]
    decision, hi, lo, hi_up, lo_low = ratio_spread(balls, BOUND)
    assert decision is Tri.UNKNOWN
    assert hi_up.contains(flint.arb("1.012")) or hi_up > flint.arb("1.0119")
    assert lo_low < flint.arb("0.9961")


def test_certain_inside_and_certain_outside():
    inside = [_ball("0.07661", "1e-12"), _ball("0.07665", "1e-12"), _ball("0.07663", "1e-10")]
    assert ratio_spread(inside, BOUND)[0] is Tri.TRUE
    outside = [_ball("1.0", "1e-9"), _ball("1.5", "1e-9")]
    assert ratio_spread(outside, BOUND)[0] is Tri.FALSE


def test_upper_end_is_not_rounded_down_through_float():
    # exact spread 1.01 + 2^-80: certainly > 1.01 yet float(upper) rounds it to 1.01
    eps = flint.arb(2) ** -80
    balls = [flint.arb(1), flint.arb(flint.fmpq(101, 100)) + eps]
    decision, hi, lo, *_ = ratio_spread(balls, BOUND)
    assert decision is not Tri.TRUE


def test_non_positive_ratio_is_undecided():
    assert ratio_spread([_ball("0", "1e-3"), _ball("1", "0")], BOUND)[0] is Tri.UNKNOWN
