"""Issue "Trust": certified DDCL results never pass through floats (ordering, scales, summaries).

The reference values are computed independently: the covariance exactly with Fractions (floats read
as the dyadic rationals they are), its top eigenvalue with mpmath at 80 digits.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError
from numerics.precision import Tri, arb_precision, tri_contains
from tests.unit.ddcl_incrt._oracles import encloses, reference_tau
from theorems.ddcl_incrt import collapse_is_stable, critical_temperature

DPS = 80




def _contains(enclosure, ctx, v) -> bool:
    """v lies in the enclosure, up to mpmath's own rounding (relative 10**-(DPS - 10))."""
    return encloses(enclosure, ctx, v, DPS)


def _fraction(b) -> Fraction:
    man, exp = b.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


def _agree_with_stability(ct, data, K: int = 2) -> None:
    """tau below the enclosure: collapse unstable; above: stable (collapse_is_stable, exact)."""
    lo, hi = _fraction(ct.enclosure.lower()), _fraction(ct.enclosure.upper())
    if lo > 0:
        assert collapse_is_stable(data, K, lo * Fraction(1023, 1024), ct.mode).answer is Tri.FALSE
    tau_hi = hi * Fraction(1025, 1024) if hi > 0 else Fraction(1, 10**400)
    assert collapse_is_stable(data, K, tau_hi, ct.mode).answer is Tri.TRUE


# -- the reported case ------------------------------------------------------------------------------
def test_tiny_scale_enclosure_contains_the_true_value():
    data = [[1e-200, 0], [-1e-200, 0]]
    ct = critical_temperature(data)
    x = Fraction(1e-200)
    exact = 4 * x * x  # C = diag(x^2, 0), tau_c = 4 x^2 = 4.000...e-400
    with arb_precision(512):
        assert tri_contains(ct.enclosure, exact) is Tri.TRUE
    assert ct.enclosure > 0  # the old result was the ball 0
    ctx, ref = reference_tau(data, 4, DPS)
    assert _contains(ct.enclosure, ctx, ref)
    assert ct.value_or_none is None  # 4e-400 is not a float64: never a wrong 0
    with pytest.raises(InputError, match="data"):
        _ = ct.value
    _agree_with_stability(ct, data)


@pytest.mark.parametrize("s", [1e160, 1e200, 1e300])
def test_huge_scale_has_an_enclosure_and_no_nan(s):
    data = [[s, 0.0], [-s, 1.0]]
    ct = critical_temperature(data)
    ctx, ref = reference_tau(data, 4, DPS)
    assert _contains(ct.enclosure, ctx, ref)
    with pytest.raises(InputError, match="data"):
        _ = ct.value  # tau_c ~ 4e320 and beyond: not a float, and never NaN or inf
    with pytest.raises(InputError, match="data"):
        critical_temperature(data, certified=False)
    _agree_with_stability(ct, data)


def test_big_integer_data_exact_and_certified():
    big = 10**350
    data = [[big + 1, 3], [big - 1, -3], [big, 0], [big + 7, 12345678901234567890]]
    ct = critical_temperature(data, mode="free_energy")
    ctx, ref = reference_tau(data, 2, DPS)
    assert _contains(ct.enclosure, ctx, ref)
    assert ct.value == pytest.approx(float(ref), rel=1e-14)
    _agree_with_stability(ct, data)
    huge = [[10**400, 0], [-(10**400), 1]]
    ct = critical_temperature(huge)
    ctx, ref = reference_tau(huge, 4, DPS)
    assert _contains(ct.enclosure, ctx, ref) and ct.value_or_none is None


# -- every scale 10^k, k in [-300, 300] --------------------------------------------------------------
@settings(deadline=None, max_examples=25)
@given(k=st.integers(-300, 300), n=st.integers(2, 4), d=st.integers(1, 3), data=st.data())
@example(k=-200, n=2, d=2, data=None)
@example(k=160, n=2, d=2, data=None)
def test_every_scale_certified_and_consistent(k, n, d, data):
    if data is None:
        ints = [[1, 0], [-1, 0]] if k < 0 else [[1, 0], [-1, 1]]
    else:
        ints = data.draw(st.lists(st.lists(st.integers(-9, 9), min_size=d, max_size=d), min_size=n,
                                  max_size=n))
    Z = [[float(m) * 10.0**k for m in r] for r in ints]
    for mode, c in (("full", 4), ("free_energy", 2)):
        ct = critical_temperature(Z, mode=mode)
        ctx, ref = reference_tau(Z, c, DPS)
        assert _contains(ct.enclosure, ctx, ref), (Z, mode, ct.enclosure, ref)
        v = ct.value_or_none
        if v is None:
            assert not (ctx.mpf(2) ** -1022 <= abs(ref) <= ctx.mpf(1.7976931348623157e308)) or ref == 0
            with pytest.raises(InputError):
                _ = ct.value
        else:
            assert np.isfinite(v) and abs(v - ref) <= abs(ref) * ctx.mpf(2) ** -50
        try:
            fv = critical_temperature(Z, mode=mode, certified=False).value
        except InputError:
            pass
        else:
            assert np.isfinite(fv) and abs(fv - ref) <= abs(ref) * 1e-9 + 1e-300 * (ref == 0)
        _agree_with_stability(ct, Z, K=3)
