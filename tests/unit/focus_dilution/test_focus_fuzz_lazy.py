"""Bad-input fuzzing of ``MarkovChain.lazy(pi, lam)`` (issue "Trust").

A valid F1 chain has P = lam I + (1 - lam) 1 pi^T and stationary law pi -- checked independently in
exact rationals (every input rational, "p/q" strings included) or in floats to 1e-12.  Bad input
raises a VerifyError naming ``pi`` or ``lam``.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.focus_dilution import MarkovChain

_special = st.sampled_from([0, 1, -1, 0.5, "1/2", "1/4", "3/4", "0.25", "x", "", None, True, 1j,
                            float("nan"), float("inf"), -float("inf"), 5e-324, 1e-300, 1e300, 10**400,
                            Fraction(1, 3), Fraction(1, 10**400), [0.5], b"1", np.float64(0.5)])
scalars = st.one_of(_special, st.floats(-1, 2), st.fractions(-1, 2, max_denominator=12))


@st.composite
def laws(draw):
    kind = draw(st.sampled_from(["valid_exact", "valid_float", "strings", "garbage", "scalar", "array"]))
    d = draw(st.integers(0, 5))
    if kind.startswith("valid") or kind == "strings":
        w = draw(st.lists(st.integers(1, 9), min_size=d, max_size=d))
        s = sum(w) or 1
        if kind == "valid_exact":
            return [Fraction(x, s) for x in w]
        if kind == "strings":
            return [f"{x}/{s}" for x in w]
        return [x / s for x in w]
    if kind == "garbage":
        return draw(st.lists(scalars, max_size=4))
    if kind == "array":
        return np.full(max(d, 1), 1.0 / max(d, 1))
    return draw(st.one_of(scalars, st.just("ab")))


def _check(pi, lam):
    try:
        ch = MarkovChain.lazy(pi, lam)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError)), type(e)
        assert e.argument in {"pi", "lam", "P"} and repr(e.argument) in str(e), str(e)
        return None
    d = ch.d
    p = [Fraction(x) for x in (pi.tolist() if isinstance(pi, np.ndarray) else pi)]
    if ch.pi_exact is not None:
        lm = Fraction(lam)
        assert ch.pi_exact == tuple(p)
        assert all(ch.P_exact[i][j] == (lm if i == j else 0) + (1 - lm) * p[j] for i in range(d) for j in range(d))
    else:
        assert np.all(np.isfinite(ch.P)) and np.max(np.abs(ch.pi - np.array([float(x) for x in p]))) <= 1e-12
    return ch


@settings(deadline=None, max_examples=fuzz_examples(150))
@given(pi=laws(), lam=st.one_of(scalars, st.sampled_from(["1/2", "0", "9/10", 0.3])))
@example(pi=["3/4", "1/4"], lam="1/2")
@example(pi="ab", lam="1/2")  # a string is not a sequence of probabilities (was read letter by letter)
@example(pi=5, lam="1/2")  # was TypeError: len() of int
@example(pi=[0.5, 0.5], lam="x")
@example(pi=[0.5, 0.5], lam=None)  # was TypeError from float(None)
@example(pi=[0.5, 0.5], lam=1j)
@example(pi=[0.5, 0.5], lam=10**400)  # was OverflowError
@example(pi=[None, 0.5], lam=0.5)
def test_lazy_fuzz(pi, lam):
    _check(pi, lam)
