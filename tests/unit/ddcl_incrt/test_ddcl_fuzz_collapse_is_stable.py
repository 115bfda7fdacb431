"""Bad-input fuzzing of ``collapse_is_stable`` (issue "Trust").

Every draw must give either a three-valued answer that agrees with an independent decision (c
lambda_1 of the exact Fraction covariance by mpmath at 60 digits, compared with tau), or a VerifyError
(InputError / InputTypeError) naming the argument.  Nothing else: no TypeError from Fraction(None), no
ValueError from Fraction("x"), no OverflowError, no warning.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.precision import Tri
from tests.unit.ddcl_incrt._oracles import matrices, reference_tau
from theorems.ddcl_incrt import collapse_is_stable

DPS = 60
ARGS = {"data", "K", "tau", "mode"}

_special = st.sampled_from([0, -1, 1, 0.0, -0.0, 5e-324, 1e-300, 1e300, 1.7e308, float("nan"), float("inf"),
                            -float("inf"), 10**400, Fraction(1, 3), Fraction(1, 10**400), True, None, "1.5",
                            "x", "3/2", 1j, [1], ()])
scalars = st.one_of(_special, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                    st.fractions(max_denominator=10**6))
numbers = st.one_of(st.integers(-9, 9), st.floats(-100, 100),
                    st.sampled_from([1e-300, -1e-200, 1e200, 10**300, Fraction(1, 7)]))




garbage_data = st.one_of(matrices(numbers), matrices(scalars), scalars, st.just([]), st.just([[]]),
                         st.just(np.zeros((2, 2, 2))))
Ks = st.one_of(st.integers(1, 5), st.sampled_from([0, -1, 2.0, "2", None, True, np.int64(3), 10**20]))
taus = st.one_of(st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=1000),
                 st.floats(1e-3, 1e3), scalars)
modes = st.one_of(st.sampled_from(["full", "free_energy", "stopgrad"]), st.sampled_from(["hard", None, 4, ["full"]]))




@settings(deadline=None, max_examples=fuzz_examples(100))
@given(data=garbage_data, K=Ks, tau=taus, mode=modes)
@example(data=[[1e-200, 0], [-1e-200, 0]], K=2, tau=Fraction(3, 10**400), mode="full")  # FALSE (4e-400 > tau)
@example(data=[[1, 2], [3, 4]], K=2, tau="x", mode="full")  # was a bare ValueError from Fraction("x")
@example(data=[[1, 2], [3, 4]], K=2, tau="3/2", mode="full")  # a string was silently read as 3/2
@example(data=[[1, 2], [3, 4]], K=2, tau=None, mode="full")  # was TypeError
@example(data=[[1, 2], [3, 4]], K=2, tau=True, mode="full")  # a bool was read as 1
@example(data=[[1, 2], [3, 4]], K=2, tau=float("nan"), mode="full")
@example(data=[[1, 2], [3, 4]], K=2, tau=1e300, mode="full")
@example(data=[[1, 2], [3, 4]], K=2, tau=5e-324, mode="full")
@example(data=[[1, 2], [3, 4]], K="2", tau=1, mode="full")
@example(data=[[1, 2], [3, 4]], K=2, tau=1, mode=["full"])  # was TypeError: unhashable
@example(data=[["a", 1], [2, 3]], K=2, tau=1, mode="full")
@example(data=[[10**400, 0], [0, 1]], K=3, tau=10**801, mode="full")  # huge exact data stay exact
def test_collapse_is_stable_fuzz(data, K, tau, mode):
    try:
        s = collapse_is_stable(data, K, tau, mode)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in ARGS and repr(e.argument) in str(e), str(e)
        return
    assert s.answer in (Tri.TRUE, Tri.FALSE, Tri.UNKNOWN)
    if K == 1:
        assert s.answer is Tri.TRUE
        return
    c = 4 if mode == "full" else 2
    ctx, cl = reference_tau(data, c, DPS)
    t = Fraction(tau)
    tm = ctx.mpf(t.numerator) / t.denominator
    band = abs(cl) * ctx.mpf(10) ** (10 - DPS)
    if tm > cl + band:
        assert s.answer is Tri.TRUE, (data, tau, cl)
    elif tm < cl - band:
        assert s.answer is Tri.FALSE, (data, tau, cl)


def test_degenerate_is_unknown_at_every_scale():
    for k in (-150, 0, 150):
        x = Fraction(10) ** k
        Z = [[-x], [x]]  # C = x^2, tau_c = 4 x^2 exactly
        assert collapse_is_stable(Z, 2, 4 * x * x, "full").answer is Tri.UNKNOWN
        assert collapse_is_stable(Z, 2, 4 * x * x * Fraction(1001, 1000), "full").answer is Tri.TRUE
        assert collapse_is_stable(Z, 2, 4 * x * x * Fraction(999, 1000), "full").answer is Tri.FALSE
    with pytest.raises(InputError, match="'tau'"):
        collapse_is_stable([[0], [1]], 2, 0, "full")
