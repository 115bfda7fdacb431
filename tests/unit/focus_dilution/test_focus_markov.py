"""Unit tests of numerics.markov and the Markov strategies (spec focus_dilution.md §2.2, §4)."""

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings

from numerics.markov import (MarkovChain, anti_persistent, lazy_anti_mixture, metropolis, perturbed_rare,
                             symmetric_rare, two_state_anti_focus, zipf)
from numerics.strategies import (StrategyArgumentError, chains, lazy_chains, stationary_laws,
                                 symmetric_rare_params, zero_sum_directions)


def test_lazy_exact_stationary():
    ch = MarkovChain.lazy(["3/4", "1/4"], "1/2")
    assert ch.pi_exact == (F(3, 4), F(1, 4))
    assert ch.P_exact[0][0] == F(7, 8)


@pytest.mark.parametrize("P, msg", [
    ([[0.5, 0.5]], "square"),
    ([[1.0]], "at least 2"),
    ([[0.5, 0.6], [0.5, 0.5]], "row-stochastic"),
    ([[-0.1, 1.1], [0.5, 0.5]], "negative"),
    ([[float("nan"), 1.0], [0.5, 0.5]], "non-finite"),
    ([[1, 0], [0, 1]], "irreducible"),
    ([[0, 1], [1, 0]], "periodic"),
])
def test_invalid_chains_raise(P, msg):
    with pytest.raises(ValueError, match=msg):
        MarkovChain(P)


def test_bad_lazy_arguments():
    with pytest.raises(ValueError, match="lam"):
        MarkovChain.lazy([0.5, 0.5], 1.0)
    with pytest.raises(ValueError, match="sum"):
        MarkovChain.lazy([0.5, 0.6], 0.2)
    with pytest.raises(ValueError, match="> 0"):
        MarkovChain.lazy([1.0, 0.0], 0.2)
    with pytest.raises(ValueError, match="stationary"):
        MarkovChain([[0.5, 0.5], [0.5, 0.5]], pi=[0.9, 0.1])


def test_families_keep_pi():
    pi = ["0.75", "0.19", "0.05", "0.01"]
    for ch in (anti_persistent(pi), lazy_anti_mixture(pi, "1/2", "1/5")):
        assert ch.pi_exact == tuple(F(x) for x in pi)
    f7 = two_state_anti_focus()
    assert f7.pi_exact == (F(7, 10), F(3, 10))
    assert symmetric_rare(5, F(3, 5), F(1, 2)).pi_exact[1] == F(1, 10)
    assert abs(sum(perturbed_rare(5, F(3, 5), F(1, 2), [1, -1, F(1, 2), F(-1, 2)], F(1, 100)).pi) - 1) < 1e-15
    assert zipf(8).pi_exact[0] > zipf(8).pi_exact[1]
    m = metropolis([F(1, 2), F(1, 3), F(1, 6)], [[0, F(1, 4), 0], [F(1, 4), 0, F(1, 4)], [0, F(1, 4), 0]])
    assert m.pi_exact == (F(1, 2), F(1, 3), F(1, 6))
    with pytest.raises(ValueError, match="pi1 > 1/2"):
        anti_persistent([0.4, 0.3, 0.3])


def test_entropies_e1():
    ch = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
    assert abs(ch.entropy() - 0.7271387991725298) < 1e-14
    assert abs(ch.entropy_rate() - 0.5536106019515923) < 1e-14


def test_sampling_frequencies():
    ch = MarkovChain.lazy([0.6, 0.3, 0.1], 0.5)
    X = ch.sample(2000, 50, np.random.default_rng(0))
    freq = np.bincount(X.ravel(), minlength=3) / X.size
    assert np.max(np.abs(freq - ch.pi)) < 0.02


@settings(max_examples=30, deadline=None)
@given(stationary_laws(distinct=True))
def test_stationary_laws_constructive(pi):
    p = np.array([float(x) for x in pi])
    assert sum(pi) == 1 and p.min() >= 1e-3 and np.linalg.norm(p - 1 / len(p)) >= 1e-2
    assert np.all(np.diff(p) <= -1e-2 + 1e-15)


@settings(max_examples=20, deadline=None)
@given(chains(max_d=5), symmetric_rare_params(), zero_sum_directions(4))
def test_chain_strategies(ch, sym, c):
    assert ch.stationarity_residual <= 1e-12
    d, pi1, lam = sym
    assert pi1 > (1 - pi1) / (d - 1) and F(1, 5) <= lam <= F(9, 10)
    assert sum(c) == 0 and max(abs(x) for x in c) == 1


@pytest.mark.parametrize("call", [
    lambda: stationary_laws(1), lambda: stationary_laws(min_d=5, max_d=3), lambda: lazy_chains(max_lam=2),
    lambda: chains(families=("nope",)), lambda: symmetric_rare_params(min_d=2), lambda: zero_sum_directions(1),
])
def test_strategy_arguments_validated_eagerly(call):
    with pytest.raises(StrategyArgumentError):
        call()
