"""Bad-input fuzzing of ``symmetry_breaking_rate(pi1, d, lam, direction, delta, dps=, T=)`` (issue "Trust").

A valid result is a finite, non-negative mpmath number that agrees with the same rate at 10 more
digits; on the documented instance lambda_perp/delta is the spec's kappa_T = 0.0766.  Bad input raises
a VerifyError naming the argument (``d = 1`` raised a bare ValueError about c, ``dps = 0`` was
accepted silently).  Valid draws are kept few: each one integrates a flow and polishes a point.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.focus_dilution import symmetry_breaking_rate

ARGS = {"pi1", "d", "lam", "direction", "delta", "dps", "T"}
junk = st.sampled_from([None, "x", "", True, 1j, float("nan"), float("inf"), -1, 0, 10**400, [1], b"1"])


def _check(pi1, d, lam, direction, delta, dps, T):
    try:
        lp = symmetry_breaking_rate(pi1, d, lam, direction, delta, dps=dps, T=T)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError)), type(e)
        assert e.argument in ARGS and repr(e.argument) in str(e), str(e)
        return None
    ref_ = symmetry_breaking_rate(pi1, d, lam, direction, delta, dps=dps + 10, T=T)
    with mpmath.workdps(dps + 20):  # (mpf values of the function's own contexts)
        lp, ref = mpmath.mpf(lp), mpmath.mpf(ref_)
        assert mpmath.isfinite(lp) and lp >= 0
        assert abs(lp - ref) <= mpmath.mpf(10) ** (-(dps - 5)) * max(1, abs(ref)), (lp, ref)
    return lp


@settings(deadline=None, max_examples=fuzz_examples(40))
@given(pi1=st.one_of(st.just("3/5"), junk, st.sampled_from([0.1, "1/5", 1])),
       d=st.one_of(st.just(5), junk, st.sampled_from([1, 2, 3.0, "5", 10**6])),
       lam=st.one_of(st.just("1/2"), junk, st.sampled_from([1, "3/2"])),
       direction=st.one_of(st.just([1, -1, "1/2", "-1/2"]), junk, st.sampled_from([[], [1, 1, 1, 1], "abcd",
                                                                                    [1, -1, None, 0]])),
       delta=st.one_of(st.just("1/1000"), junk, st.sampled_from(["1/2", 1e300])),
       dps=st.one_of(st.just(20), junk, st.sampled_from([0, 4, 2.5, "20"])),
       T=st.one_of(st.just(2000.0), junk, st.sampled_from([0.5, 1e300, "2000"])))
@example(pi1="3/5", d=1, lam="1/2", direction=[1], delta="1/1000", dps=20, T=2000.0)  # was a raw ValueError
@example(pi1="3/5", d=5, lam="1/2", direction=[1, -1, "1/2", "-1/2"], delta="1/1000", dps=0, T=2000.0)  # dps=0
@example(pi1="3/5", d=5, lam="1/2", direction="abcd", delta="1/1000", dps=20, T=2000.0)
@example(pi1="3/5", d=5, lam="1/2", direction=[1, -1, "1/2", "-1/2"], delta=float("nan"), dps=20, T=2000.0)
@example(pi1=float("nan"), d=5, lam="1/2", direction=[1, -1, "1/2", "-1/2"], delta="1/1000", dps=20, T=2000.0)
def test_symmetry_breaking_rate_fuzz(pi1, d, lam, direction, delta, dps, T):
    _check(pi1, d, lam, direction, delta, dps, T)


def test_documented_rate():
    lp = _check("3/5", 5, "1/2", [1, -1, "1/2", "-1/2"], "1/1000", 20, 2000.0)
    assert abs(float(lp) / 1e-3 - 0.0766) < 1e-3
    with pytest.raises(InputError, match="'d'"):
        symmetry_breaking_rate("3/5", 1, "1/2", [1], "1/1000")


def test_dps_zero_refused_by_the_point_solvers():
    from theorems.focus_dilution.critical_points import degenerate_point, perturbed_point

    with pytest.raises(InputError, match="'dps'"):  # polish_reduced works at dps + 20: 0 passed silently
        degenerate_point(5, "3/5", "1/2", dps=0)
    with pytest.raises(InputError, match="'dps'"):
        perturbed_point(5, "3/5", "1/2", [1, -1, 0, 0], "1/1000", dps=0)
