"""numerics.rayleigh: exact integer products with the covariance and the Kato-Temple enclosure (issue 14).

Oracles: the exact Fraction covariance (numerics.dyadic.exact_covariance_of_floats, itself tested against
Python Fractions in test_engine_dyadic) for the products; the exact characteristic-polynomial spectrum
(numerics.linalg.exact_spectrum at 400 bits) for lambda_max.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import rayleigh
from numerics.dyadic import exact_covariance_of_floats, fixed_point_format
from numerics.linalg import exact_spectrum
from numerics.precision import arb_precision
from tests.fuzzing import fuzz_examples


def _data(seed: int, N: int, d: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ldexp(rng.standard_normal((N, d)) * np.exp(rng.uniform(-3, 3, d)) + rng.uniform(-2, 2, d), k)


def _exact_top(Z: np.ndarray):
    C = exact_covariance_of_floats(Z)
    return C, exact_spectrum(C, bits=400)[-1].enclosure


@settings(deadline=None, max_examples=fuzz_examples(20))
@given(seed=st.integers(0, 2**32 - 1), N=st.sampled_from([2, 3, 17, 300, 2049, 4500]), d=st.integers(1, 6),
       k=st.sampled_from([0, -300, 300, -1000, 1000]), vbits=st.sampled_from([1, 20, 53, 106, 300]))
def test_exact_products_equal_the_fraction_covariance(seed, N, d, k, vbits):
    Z = _data(seed, N, d, k)
    f = fixed_point_format(Z)
    if f is None:
        pytest.skip("dynamic range beyond the slices")
    kk, sh = f
    ex = rayleigh._Exact(Z, kk, sh, 192)
    rng = np.random.default_rng(seed + 1)
    for _ in range(2):  # the second product reuses the resident slices and the column sums
        v = [int(x) * (1 << max(vbits - 30, 0)) + int(y) for x, y in zip(rng.integers(-2**30, 2**30, d),
                                                                      rng.integers(-2**20, 2**20, d))]
        C = exact_covariance_of_floats(Z)
        den = Fraction(N * N) * Fraction(2) ** (2 * sh)
        want = [sum(C[a][b] * v[b] for b in range(d)) * den for a in range(d)]
        assert ex.apply(v) == want


@settings(deadline=None, max_examples=fuzz_examples(20))
@given(seed=st.integers(0, 2**32 - 1), N=st.integers(2, 60), d=st.integers(1, 5),
       k=st.sampled_from([0, -660, 660]), bits=st.sampled_from([32, 64, 128, 256]))
def test_enclosure_contains_lambda_max_and_is_tight(seed, N, d, k, bits):
    Z = _data(seed, N, d, k)
    top = rayleigh.covariance_top_eigenvalue(Z, bits)
    if top is None:  # a top eigenvalue not certainly simple (tiny N): the caller's exact route
        return
    _, lam = _exact_top(Z)
    with arb_precision(600):
        assert top.overlaps(lam) and top.lower() <= lam.lower() and lam.upper() <= top.upper()
        assert top.rad() <= top.lower() * 2.0 ** -(bits + 4)


def test_generic_data_take_the_float_gram_step_and_beat_the_exact_route_radius():
    from theorems.ddcl_incrt import critical_temperature

    for seed in range(6):
        Z = _data(seed, 400, 8, 0)
        new = critical_temperature(Z)
        old = critical_temperature(Z.tolist())
        assert new.method == "kato-temple" and old.method == "arb"
        with arb_precision(400):
            assert old.enclosure.contains(new.enclosure)
            assert new.enclosure.rad() < old.enclosure.rad()


def test_double_top_eigenvalue_or_one_column_or_no_range():
    Z = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])  # C = I/2: lambda_max double
    assert rayleigh.covariance_top_eigenvalue(Z, 128) is None
    one = np.array([[1.0], [2.0], [4.0]])  # d = 1: the vector is an exact eigenvector
    top = rayleigh.covariance_top_eigenvalue(one, 128)
    with arb_precision(256):
        assert top.contains(flint.fmpq(14, 9)) and top.rad() <= 2.0**-180
    assert rayleigh.covariance_top_eigenvalue(np.array([[1e300, 0.0], [-1e-300, 1.0]]), 128) is None  # 8 slices
    assert rayleigh.covariance_top_eigenvalue(np.zeros((4, 2)), 128) is None
