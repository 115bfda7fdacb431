"""Bad-input fuzzing of ``run_flow(chain, T=, m=, mk=, eps=, seed=, theta0=, tau=, ...)`` (issue "Trust").

A valid trajectory is finite; its loss starts at log d (near the origin), never increases (a gradient
flow) and never goes below the Bayes loss H(Y|X), recomputed independently from the chain in mpmath.
Bad input raises a VerifyError naming the argument -- ``tau = 0.0`` returned a NaN trajectory with
only a RuntimeWarning; a flow that leaves the float range raises FlowError.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.flows import FlowError
from theorems.focus_dilution import MarkovChain, run_flow

E1 = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
TWO = MarkovChain([["1/2", "1/2"], ["1/4", "3/4"]])
ARGS = {"chain", "T", "m", "mk", "eps", "seed", "theta0", "tau", "method", "rtol", "atol", "t0", "per_decade",
        "variant"}
junk = st.sampled_from([None, "x", "", True, 1j, float("nan"), float("inf"), -1, 0, 0.0, 10**400, [1], b"1"])


def _bayes(chain):
    ctx = mpmath.mp.clone()
    ctx.dps = 30
    pi = [ctx.mpf(x.numerator) / x.denominator for x in chain.pi_exact]
    P = [[ctx.mpf(x.numerator) / x.denominator for x in r] for r in chain.P_exact]
    d = chain.d
    return float(-sum(pi[q] * sum(P[q][y] * ctx.log(P[q][y]) for y in range(d) if P[q][y] > 0)
                      for q in range(d)))


def _check(chain, **kw):
    try:
        tr = run_flow(chain, **kw)
    except FlowError as e:
        assert "float64 range" in str(e) or "failed" in str(e), str(e)
        return None
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError)), type(e)
        assert e.argument in ARGS and repr(e.argument) in str(e), str(e)
        return None
    L = tr.loss
    assert np.all(np.isfinite(tr.y)) and np.all(np.isfinite(L))
    assert np.all(np.diff(L) <= 1e-7 * (1 + np.abs(L[:-1]))), "the loss of a gradient flow increased"
    assert L.min() >= _bayes(chain) - 1e-7
    if kw.get("theta0") is None and float(kw.get("eps", 1e-3)) <= 1e-2:
        assert abs(L[0] - math.log(chain.d)) <= 1e-2
    return tr


BASE = dict(T=5.0, m=2, mk=2, eps=1e-3, seed=0, tau=1.0, per_decade=5)


@settings(deadline=None, max_examples=fuzz_examples(40))
@given(chain=st.one_of(st.sampled_from([E1, TWO]), junk), T=st.one_of(st.just(5.0), junk, st.just("5")),
       m=st.one_of(st.just(2), junk, st.sampled_from([2.5, "2", 10**6])),
       tau=st.one_of(st.sampled_from([1.0, "1/2", Fraction(2), 1e-300, 1e300]), junk),
       eps=st.one_of(st.just(1e-3), junk, st.sampled_from([-1e-3, 1e-2])),
       seed=st.one_of(st.just(0), junk, st.sampled_from([2.5, "0", 2**70])),
       method=st.one_of(st.just("LSODA"), junk, st.sampled_from(["RK45", "euler"])),
       per_decade=st.one_of(st.just(5), junk, st.sampled_from([10**9, 2.5])))
@example(chain=TWO, T=5.0, m=2, tau=0.0, eps=1e-3, seed=0, method="LSODA", per_decade=5)  # NaN trajectory
@example(chain=TWO, T=5.0, m=2, tau=-1.0, eps=1e-3, seed=0, method="LSODA", per_decade=5)
@example(chain=TWO, T=5.0, m=2, tau=float("nan"), eps=1e-3, seed=0, method="LSODA", per_decade=5)
@example(chain=TWO, T=5.0, m=2, tau=1e-300, eps=1e-3, seed=0, method="LSODA", per_decade=5)
@example(chain=5, T=5.0, m=2, tau=1.0, eps=1e-3, seed=0, method="LSODA", per_decade=5)  # AttributeError
@example(chain=TWO, T=5.0, m=0, tau=1.0, eps=1e-3, seed=0, method="LSODA", per_decade=5)
@example(chain=TWO, T=0.0, m=2, tau=1.0, eps=1e-3, seed=0, method="LSODA", per_decade=5)
@example(chain=TWO, T=5.0, m=2, tau=1.0, eps=float("nan"), seed=0, method="LSODA", per_decade=5)
@example(chain=TWO, T=5.0, m=2, tau=1.0, eps=0.0, seed=0, method="LSODA", per_decade=5)  # raw ValueError
@example(chain=TWO, T=5.0, m=2, tau="1/2", eps=1e-3, seed=0, method="LSODA", per_decade=5)  # float("1/2")
def test_run_flow_fuzz(chain, T, m, tau, eps, seed, method, per_decade):
    _check(chain, T=T, m=m, mk=2, tau=tau, eps=eps, seed=seed, method=method, per_decade=per_decade)


@settings(deadline=None, max_examples=fuzz_examples(20))
@given(theta0=st.one_of(junk, st.sampled_from([np.zeros(3), "abc", [[1.0]], np.full(20, np.nan)]),
                        st.lists(st.floats(-1, 1), min_size=0, max_size=30)))
@example(theta0=np.full(20, np.nan))
def test_run_flow_theta0_fuzz(theta0):
    _check(TWO, theta0=theta0, **{k: v for k, v in BASE.items() if k not in ("eps", "seed")})


def test_zero_temperature_is_refused():
    with pytest.raises(InputError, match="'tau'"):
        run_flow(TWO, T=5.0, m=2, mk=2, tau=0.0)
