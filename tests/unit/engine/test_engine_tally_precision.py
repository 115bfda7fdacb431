"""Tally.close compares high-precision values in their own arithmetic, not through floats.

Converting each side to float first rounds 1 + 1e-30 to 1.0: a 1e-30 discrepancy between two mpmath
values at 50 digits would then pass any tolerance.  The difference must be formed exactly (mpmath
numbers are dyadic rationals) and only then summarised as a float.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath

from numerics.precision import mp_context
from verify import Tally, Verdict


def _tally() -> Tally:
    return Tally(precision="dps=50", backend="mpmath")


def test_mpf_discrepancy_1e30_refuted_at_tol_1e35():
    ctx = mp_context(50)
    a = ctx.mpf(1) / 3
    b = a + ctx.mpf(10) ** -30
    assert float(a) == float(b)  # the float route cannot see it
    obs = _tally().close(b, a, 1e-35)
    assert obs.level is Verdict.REFUTED
    assert 0.9e-30 < obs.error < 1.1e-30


def test_mpf_discrepancy_1e30_accepted_at_tol_1e25():
    ctx = mp_context(50)
    a = ctx.mpf(1) / 3
    b = a + ctx.mpf(10) ** -30
    obs = _tally().close(b, a, 1e-25)
    assert obs.level is Verdict.CONSISTENT
    assert 0.9e-30 < obs.error < 1.1e-30


def test_global_context_mpf_fraction_and_fmpq():
    with mpmath.workdps(50):
        a = mpmath.mpf(2) / 7
        b = a - mpmath.mpf(10) ** -30
    assert _tally().close(a, b, 1e-35).level is Verdict.REFUTED
    assert _tally().close(a, b, 1e-25).level is Verdict.CONSISTENT
    x = Fraction(1, 3)
    y = x + Fraction(1, 10**30)
    assert _tally().close(y, x, 1e-35).level is Verdict.REFUTED
    assert _tally().close(flint.fmpq(1, 3) + flint.fmpq(1, 10**30), x, 1e-25).level is Verdict.CONSISTENT
    assert _tally().close(flint.fmpq(1, 3) + flint.fmpq(1, 10**30), x, 1e-35).level is Verdict.REFUTED


def test_scale_relative_and_special_values():
    ctx = mp_context(50)
    a = ctx.mpf(10) ** 40
    b = a + ctx.mpf(10) ** 10  # relative 1e-30 at scale 1e40
    assert _tally().close(b, a, 1e-35, scale=1e40).level is Verdict.REFUTED
    assert _tally().close(b, a, 1e-25, scale=1e40).level is Verdict.CONSISTENT
    # NaN / infinite mpmath values decide nothing, as for floats
    assert _tally().close(ctx.inf, a, 1.0).level is Verdict.UNKNOWN
    assert _tally().close(ctx.nan, a, 1.0).level is Verdict.UNKNOWN
    # floats keep the float route
    assert _tally().close(1.0, 1.0 + 2**-52, 1e-15).level is Verdict.CONSISTENT


def test_le_decides_exact_and_mp_sides_exactly():
    """Tally.le: 1 + 1e-30 <= 1 is false beyond a 1e-35 tolerance, true within 1e-25 (rule h')."""
    import mpmath

    from verify import Tally, Verdict

    ctx = mpmath.MPContext()
    ctx.dps = 50
    one, above = ctx.mpf(1), ctx.mpf(1) + ctx.mpf("1e-30")
    t = Tally(precision="dps=50", backend="mpmath")
    assert t.le(above, one, 1e-35).level is Verdict.REFUTED
    assert t.le(above, one, 1e-25).level is Verdict.CONSISTENT
    assert t.le(one, above, 0.0).level is Verdict.CONSISTENT
    from fractions import Fraction

    assert t.le(Fraction(1) + Fraction(1, 10**40), Fraction(1), 0.0).level is Verdict.REFUTED
