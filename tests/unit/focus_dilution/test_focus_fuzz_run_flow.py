"""Bad-input fuzzing of ``run_flow(chain, T=, m=, mk=, eps=, seed=, theta0=, tau=, ...)`` (issue "Trust").

A valid trajectory is finite; its loss starts at log d (near the origin), never increases (a gradient
flow) and never goes below the Bayes loss H(Y|X), recomputed independently from the chain in mpmath.
Bad input raises a VerifyError naming the argument -- ``tau = 0.0`` returned a NaN trajectory with
only a RuntimeWarning; a flow that leaves the float range raises FlowError.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.flows import FlowError
from tests.fuzzing import fuzz_examples
from theorems.focus_dilution import MarkovChain, run_flow

E1 = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
TWO = MarkovChain([["1/2", "1/2"], ["1/4", "3/4"]])
ARGS = {"chain", "T", "m", "mk", "eps", "seed", "theta0", "tau", "method", "rtol", "atol", "t0", "per_decade",
        "variant", "max_evals"}
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
        assert any(w in str(e) for w in ("float64 range", "failed", "field evaluations")), str(e)
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


def test_a_collapsing_step_raises_flow_error():
    """tau = 1e-300 at eps = 0.5 makes the softmax a hardmax: LSODA's step collapses near t = 88 and it
    crawled without end (no FlowError, no return within minutes); the evaluation budget ends it."""
    with pytest.raises(FlowError, match="within 20000 field evaluations"):
        run_flow(E1, T=100.0, m=2, mk=2, eps=0.5, tau=1e-300, max_evals=20_000)
    tr = run_flow(E1, T=100.0, m=2, mk=2, eps=0.5, tau=1.0, max_evals=20_000)  # a smooth field fits in it
    assert np.all(np.isfinite(tr.y))


@pytest.mark.parametrize("bad", [0, -1, 2.5, "10", True])
def test_max_evals_is_validated(bad):
    with pytest.raises(VerifyError, match="'max_evals'"):
        run_flow(TWO, T=5.0, m=2, mk=2, max_evals=bad)


def test_integrate_budget_counts_calls_only():
    """Inside the budget the solution is solve_ivp's, bit for bit; a chattering field (y' = -sign y, whose
    step size collapses at y = 0) spends the budget and raises FlowError instead of crawling."""
    from scipy.integrate import solve_ivp

    from numerics.flows import integrate

    grid = np.linspace(0.0, 3.0, 31)
    t, Y = integrate(lambda t, y: -y, np.array([1.0]), grid, max_evals=10_000)
    ref = solve_ivp(lambda t, y: -y, (0.0, 3.0), np.array([1.0]), method="LSODA", t_eval=grid, rtol=1e-9,
                    atol=1e-12)
    assert np.array_equal(Y[:, 0], ref.y[0])
    calls = [0]

    def chatter(t, y):
        calls[0] += 1
        assert calls[0] <= 100_000, "the budget of 2000 evaluations was not enforced"
        return -np.sign(y)

    with pytest.raises(FlowError, match="within 2000 field evaluations"):
        integrate(chatter, np.array([1.0]), grid, max_evals=2_000)
    assert calls[0] == 2_000  # the call over budget raises before evaluating the field
