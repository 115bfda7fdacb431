"""Bad-input fuzzing of ``critical_temperature`` (issue "Trust").

Every draw must give either a valid result -- a certified enclosure containing tau_c computed
independently (exact Fraction covariance, mpmath eigenvalues at 60 digits), and a float summary that
is finite and close to it or an InputError -- or a VerifyError (InputError / InputTypeError) naming
the offending argument.  Nothing else: no TypeError, OverflowError, NaN, warning or hang.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from tests.unit.ddcl_incrt._oracles import encloses, matrices, reference_tau
from theorems.ddcl_incrt import critical_temperature

DPS = 60
ARGS = {"data", "mode", "certified", "bits"}

_special = st.sampled_from([0, -1, 1, 0.0, -0.0, 5e-324, 2.2e-308, 1e-300, 1e300, 1.7e308, float("nan"),
                            float("inf"), -float("inf"), 10**400, -(10**350), Fraction(1, 3),
                            Fraction(1, 10**400), True, None, "1.5", "x", 1j, b"1", [1], (), {}])
scalars = st.one_of(_special, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                    st.fractions(max_denominator=10**6), st.text(max_size=2))
numbers = st.one_of(st.integers(-20, 20), st.floats(-1e3, 1e3),
                    st.sampled_from([1e-300, -1e-200, 1e200, 10**300, Fraction(1, 7)]))


_KINDS = ("list", "tuple", "array", "ragged", "column")

garbage_data = st.one_of(matrices(numbers, _KINDS), matrices(scalars, _KINDS), scalars, st.just([]), st.just([[]]),
                         st.just(np.zeros((2, 2, 2))), st.just(np.array(["a", "b"])),
                         st.just(np.array([[1 + 1j, 2], [3, 4]])))
modes = st.one_of(st.sampled_from(["full", "free_energy", "stopgrad"]),
                  st.sampled_from(["hard", "", None, 4, ["full"], b"full"]))
bits = st.one_of(st.just(128), st.sampled_from([0, -1, 31, 32, 64, 2.5, "128", None, True, 10**9]))




def _check(data, mode, certified, bits_):
    try:
        ct = critical_temperature(data, mode, certified=certified, bits=bits_)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in ARGS and repr(e.argument) in str(e), str(e)
        return None
    ctx, ref = reference_tau(data, ct.c, DPS)
    if certified:
        enc = ct.enclosure
        assert enc.is_finite()
        assert encloses(enc, ctx, ref, DPS), (data, enc, ref)
    try:
        v = ct.value
    except InputError as e:
        assert e.argument == "data"
        assert not (ctx.mpf(2) ** -1022 <= abs(ref) <= ctx.mpf(1.7976931348623157e308)) or ref == 0
    else:
        assert isinstance(v, float) and np.isfinite(v)
        assert abs(v - ref) <= abs(ref) * (ctx.mpf(2) ** -48 if certified else ctx.mpf(1e-9)), (data, v, ref)
    return ct


@settings(deadline=None, max_examples=fuzz_examples(80))
@given(data=garbage_data, mode=modes, certified=st.one_of(st.booleans(), st.sampled_from([0, "yes", None])),
       bits_=bits)
@example(data=[[1e-200, 0], [-1e-200, 0]], mode="full", certified=True, bits_=128)  # was the ball 0
@example(data=[[1e200, 0], [-1e200, 1]], mode="full", certified=True, bits_=128)  # was "failed to isolate"
@example(data=[[1e300, 0], [-1e300, 1]], mode="full", certified=False, bits_=128)  # was value = nan
@example(data=[[10**400, 0], [0, 1]], mode="full", certified=True, bits_=128)  # was OverflowError
@example(data=[[10**400, 0], [0, 1]], mode="full", certified=False, bits_=128)
@example(data=[["a", "b"], ["c", "d"]], mode="full", certified=True, bits_=128)  # was a bare ValueError
@example(data=[[1, 2], [3]], mode="full", certified=True, bits_=128)  # ragged
@example(data=[[1, 2], [3, 4]], mode=["full"], certified=True, bits_=128)  # was TypeError: unhashable
@example(data=[[1, 2], [3, 4]], mode="full", certified=True, bits_=0)  # bits = 0 was accepted
@example(data=[[1, 2], [3, 4]], mode="full", certified="yes", bits_=128)
@example(data=[[None, 1], [2, 3]], mode="full", certified=True, bits_=128)  # was TypeError
@example(data=[[1 + 1j, 1], [2, 3]], mode="full", certified=True, bits_=128)  # was ComplexWarning
def test_critical_temperature_fuzz(data, mode, certified, bits_):
    _check(data, mode, certified, bits_)


def test_single_sample_and_constant_data():
    with pytest.raises(InputError, match="'data'"):
        critical_temperature([[1.0, 2.0]])
    ct = critical_temperature([[3, 3], [3, 3]])
    assert ct.enclosure == 0 and ct.value == 0.0 and ct.lambda_1 == 0.0
