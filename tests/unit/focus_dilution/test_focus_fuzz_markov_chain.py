"""Bad-input fuzzing of ``MarkovChain(P, pi=...)`` (issue "Trust").

A valid chain has a row-stochastic float P equal to the input, a stationary law pi > 0 with
pi P = pi -- checked independently in exact rationals when every entry is rational (``"p/q"`` strings
included), else in mpmath at 50 digits.  Bad input raises a VerifyError naming ``P`` or ``pi``.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.focus_dilution import MarkovChain

_special = st.sampled_from([0, 1, -1, 0.5, "1/2", "1/4", "3/4", "0.25", "x", "", "1/0", None, True, 1j,
                            float("nan"), float("inf"), 5e-324, 1e-300, 1e300, 10**400, Fraction(1, 3),
                            Fraction(1, 10**400), [0.5], b"1", np.float64(0.5)])
entries = st.one_of(_special, st.floats(0, 1), st.fractions(0, 1, max_denominator=12))


@st.composite
def matrices(draw):
    d = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(["stochastic", "garbage", "array", "ragged", "scalar", "string"]))
    if kind == "stochastic":  # valid rows: rational or float, then maybe one entry perturbed
        rows = []
        for _ in range(d):
            w = draw(st.lists(st.integers(0, 5), min_size=d, max_size=d))
            if sum(w) == 0:
                w[0] = 1
            exact = draw(st.booleans())
            rows.append([Fraction(x, sum(w)) if exact else x / sum(w) for x in w])
        if rows and draw(st.booleans()):
            i, j = draw(st.integers(0, d - 1)), draw(st.integers(0, d - 1))
            rows[i][j] = draw(entries)
        if rows and draw(st.booleans()):
            rows = [[str(x) if isinstance(x, Fraction) else x for x in r] for r in rows]  # "p/q" strings
        return rows
    if kind == "garbage":
        return [[draw(entries) for _ in range(d)] for _ in range(d)]
    if kind == "array":
        return np.full((d, d), 1.0 / max(d, 1))
    if kind == "ragged":
        return [[0.5, 0.5], [1.0]]
    if kind == "scalar":
        return draw(entries)
    return "ab"


def _fr(x):
    return Fraction(x) if not isinstance(x, Fraction) else x


def _check(P, pi=None):
    try:
        ch = MarkovChain(P, pi=pi)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError)), type(e)
        assert e.argument in {"P", "pi"} and repr(e.argument) in str(e), str(e)
        return None
    d = ch.d
    assert d >= 2 and np.all(np.isfinite(ch.P)) and np.all(np.isfinite(ch.pi)) and np.all(ch.pi > 0)
    if ch.P_exact is not None:  # independent exact check: pi P = pi, sum pi = 1, P = the input
        pe, Pe = ch.pi_exact, ch.P_exact
        assert sum(pe) == 1
        assert all(sum(pe[q] * Pe[q][k] for q in range(d)) == pe[k] for k in range(d))
        rows = P.tolist() if isinstance(P, np.ndarray) else P
        assert all(Pe[i][j] == _fr(rows[i][j]) for i in range(d) for j in range(d))
    else:  # mpmath at 50 digits: the residual of pi P = pi is at float level
        ctx = mpmath.mp.clone()
        ctx.dps = 50
        res = max(abs(sum(ctx.mpf(ch.pi[q]) * ctx.mpf(ch.P[q, k]) for q in range(d)) - ctx.mpf(ch.pi[k]))
                  for k in range(d))
        assert res <= 1e-12
    return ch


@settings(deadline=None, max_examples=fuzz_examples(150))
@given(P=matrices())
@example(P=[["1/2", "1/2"], ["1/4", "3/4"]])  # the docstring's "p/q" strings: was "not a real number"
@example(P=[["1/2", 0.5], ["1/4", "3/4"]])  # mixed strings and floats
@example(P=[["1/2", "x"], ["1/4", "3/4"]])
@example(P=[[10**400, 0], [0, 1]])  # was OverflowError converting to float
@example(P=[[1j, 0], [0, 1]])
@example(P=[[None, 1], [0.5, 0.5]])
@example(P="ab")
@example(P=5)
@example(P=np.array([["a", "b"], ["c", "d"]]))
@example(P=np.zeros((2, 2, 2)))
def test_markov_chain_fuzz(P):
    _check(P)


@settings(deadline=None, max_examples=fuzz_examples(40))
@given(pi=st.one_of(st.lists(entries, max_size=3), entries, st.just("ab")))
@example(pi=["1/3", "2/3"])
@example(pi=[0.9, 0.1])
@example(pi=5)
def test_markov_chain_given_pi_fuzz(pi):
    _check([["1/2", "1/2"], ["1/4", "3/4"]], pi=pi)


def test_p_over_q_strings_are_exact():
    ch = MarkovChain([["1/2", "1/2"], ["1/4", "3/4"]])
    assert ch.pi_exact == (Fraction(1, 3), Fraction(2, 3))
    with pytest.raises(InputError, match="'P'"):
        MarkovChain([["1/2", "1/3"], ["1/4", "3/4"]])
