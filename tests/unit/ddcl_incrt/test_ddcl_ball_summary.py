"""The float summaries of critical_temperature read the ball's midpoint directly (hessian._ball_summary):
they must be exactly numerics.precision.arb_to_float's (the midpoint rounded once, None out of the normal
range), which stays the oracle."""

from __future__ import annotations

import flint
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.precision import arb_precision, arb_to_float
from tests.fuzzing import fuzz_examples
from theorems.ddcl_incrt.hessian import _ball_summary

_EDGES = [0, 1, -1, 2**53 - 1, 2**53 + 1, 2**54 - 1, (2**53 - 1) * 2**971, 2**1024 - 2**970, 2**1024]


@settings(deadline=None, max_examples=fuzz_examples(400))
@given(man=st.one_of(st.integers(-(2**400), 2**400), st.sampled_from(_EDGES),
                     st.sampled_from([-x for x in _EDGES])),
       exp=st.integers(-1200, 1200), rad=st.sampled_from([0, 1, 2**-60]))
@example(man=1, exp=-1022, rad=0)
@example(man=1, exp=-1023, rad=0)
@example(man=2**53 - 1, exp=971, rad=0)  # the largest float
@example(man=2**54 - 1, exp=970, rad=0)  # rounds up to 2**1024: out of range
@example(man=3, exp=-1075, rad=0)
def test_ball_summary_is_arb_to_float(man, exp, rad):
    with arb_precision(600):  # every midpoint exact: at most 401 bits
        mid = flint.arb(flint.fmpq(man) * flint.fmpq(2) ** exp)
        b = flint.arb(mid, flint.arb(rad) * abs(mid) + flint.arb(rad))
        assert b.mid() == mid and mid.is_exact()
    got, want = _summary_or_error(_ball_summary, b), _summary_or_error(arb_to_float, b)
    assert got == want and type(got) is type(want), (man, exp, got, want)


def _summary_or_error(f, b):
    """f(b), or the type of the error it raises (neither may raise: an error would show here as a
    mismatch with the other, or as the non-None result the out-of-range test below refuses)."""
    try:
        return f(b)
    except OverflowError as e:
        return type(e)


def test_ball_summary_of_non_finite_balls():
    for b in (flint.arb("nan"), flint.arb("inf"), flint.arb(1, "inf")):
        assert _ball_summary(b) is None and arb_to_float(b) is None


def test_a_midpoint_rounding_beyond_the_largest_float_has_no_summary():
    """Between the largest float and 2**1024 the midpoint rounds to 2**1024: no float summary (was an
    OverflowError out of arb_to_float)."""
    with arb_precision(600):
        for man, exp in ((2**54 - 1, 970), (-(2**54 - 1), 970), (2**60 - 1, 964)):
            b = flint.arb(flint.fmpq(man) * flint.fmpq(2) ** exp)
            assert arb_to_float(b) is None and _ball_summary(b) is None
