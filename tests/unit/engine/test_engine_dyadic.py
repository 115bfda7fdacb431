"""Exact covariances of float data by error-free slice products (numerics.dyadic) against Fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from numerics.dyadic import exact_covariance_of_floats
from tests.fuzzing import fuzz_examples


def _oracle(Z: np.ndarray) -> list[list[Fraction]]:
    rows = [[Fraction(float(x)) for x in r] for r in Z]
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    return [[sum((r[a] - mu[a]) * (r[b] - mu[b]) for r in rows) / N for b in range(d)] for a in range(d)]


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(seed=st.integers(0, 2**32 - 1), N=st.integers(1, 12), d=st.integers(1, 4),
       k=st.integers(-1000, 1000), spread=st.integers(0, 60), rounded=st.booleans())
@example(seed=0, N=3, d=2, k=0, spread=0, rounded=True)
def test_exact_covariance_equals_the_fraction_oracle(seed, N, d, k, spread, rounded):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((N, d)) * np.exp2(rng.integers(-spread, spread + 1, (N, d)))
    if rounded:
        Z = np.round(Z)  # zeros and exact repeats
    with np.errstate(all="ignore"):
        Z = np.ldexp(Z, k)
    assume(np.all(np.isfinite(Z)))
    C = exact_covariance_of_floats(Z)
    if C is None:  # dynamic range beyond the slice budget: the caller's integer route
        assert spread >= 30
        return
    assert C == _oracle(Z)


def test_many_rows_use_several_exact_blocks():
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((5000, 3)) * np.array([1e-3, 1.0, 7e2])  # > 2**11 rows: blocked sums
    assert exact_covariance_of_floats(Z) == _oracle(Z)


def test_degenerate_inputs():
    assert exact_covariance_of_floats(np.zeros((3, 2))) == [[0, 0], [0, 0]]
    assert exact_covariance_of_floats(np.array([[1e300], [-1e-300]])) is None  # ~2000 bits of range
    assert exact_covariance_of_floats(np.array([[5e-324], [0.0]])) == _oracle(np.array([[5e-324], [0.0]]))
