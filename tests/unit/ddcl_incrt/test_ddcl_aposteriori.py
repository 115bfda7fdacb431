"""The a-posteriori routes of ``critical_temperature(rtol=...)`` and ``collapse_is_stable`` (issue 14).

Oracle: the exact route of the same functions (the data as a list: exact fmpq covariance, refined ball
enclosure) and the exact inertia (numerics.linalg.inertia on the Fraction covariance of tests/_oracles).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.errors import InputError
from numerics.linalg import inertia
from numerics.precision import Tri, arb_precision
from tests.fuzzing import fuzz_examples
from tests.unit.ddcl_incrt._oracles import exact_covariance
from theorems.ddcl_incrt import collapse_is_stable, critical_temperature


def _data(seed: int, N: int, d: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ldexp(rng.standard_normal((N, d)) * np.exp(rng.uniform(-3, 3, d)), k)


@settings(deadline=None, max_examples=fuzz_examples(25))
@given(seed=st.integers(0, 2**32 - 1), N=st.integers(2, 40), d=st.integers(1, 5),
       k=st.sampled_from([0, -660, 660, -1000, 1000]), mode=st.sampled_from(["full", "free_energy"]))
def test_aposteriori_enclosure_contains_the_exact_one(seed, N, d, k, mode):
    Z = _data(seed, N, d, k)
    fast = critical_temperature(Z, mode, rtol=1e-9)
    exact = critical_temperature(Z.tolist(), mode)  # a list: never the float-array routes
    assert exact.method == "arb" and fast.method in ("a-posteriori", "kato-temple", "arb")
    with arb_precision(256):
        assert fast.enclosure.contains(exact.enclosure)  # exact tau_c lies in the exact route's ball
        if fast.method == "a-posteriori":
            assert fast.enclosure.rad() <= 1e-9 * fast.enclosure.lower()


def test_rtol_zero_or_none_is_a_tight_route_and_bad_rtol_is_named():
    Z = _data(1, 50, 3, 0)
    assert critical_temperature(Z, rtol=0).method == "kato-temple"
    assert critical_temperature(Z).method == "kato-temple"
    assert critical_temperature(Z.tolist()).method == "arb"
    assert critical_temperature(Z, rtol=1e-6).method == "a-posteriori"
    assert critical_temperature([[10**400, 0], [0, 1]], rtol=1e-3).method == "arb"  # not a float array
    for bad in (-1.0, 1.0, "1e-9", True, float("nan")):
        with pytest.raises(InputError, match="'rtol'"):
            critical_temperature(Z, rtol=bad)


@settings(deadline=None, max_examples=fuzz_examples(25))
@given(seed=st.integers(0, 2**32 - 1), N=st.integers(2, 30), d=st.integers(1, 4), k=st.sampled_from([0, -660, 660]),
       rel=st.sampled_from([Fraction(1, 2), Fraction(999, 1000), Fraction(1001, 1000), 2, Fraction(1, 10**12)]))
def test_stability_verdict_and_inertia_agree_with_the_exact_route(seed, N, d, k, rel):
    Z = _data(seed, N, d, k)
    C = exact_covariance([[Fraction(float(x)) for x in r] for r in Z])
    top = critical_temperature(Z).enclosure
    man, e = top.mid().man_exp()
    tau = 4 * Fraction(int(man)) * Fraction(2) ** int(e) * (rel if rel != Fraction(1, 10**12) else 1 + rel)  # near tau_c
    if tau <= 0:
        return
    s = collapse_is_stable(Z, 3, tau, "full")
    inn = inertia([[tau * (a == b) - 4 * C[a][b] for b in range(d)] for a in range(d)])
    want = Tri.FALSE if inn.negative else (Tri.UNKNOWN if inn.zero else Tri.TRUE)
    assert s.answer is want
    assert s.evidence["inertia(tau I - c C)"] == (inn.positive, inn.zero, inn.negative)
    assert s.evidence["negative_hessian_eigenvalues"] == 2 * inn.negative


def test_stability_takes_the_float_route_when_decided_and_the_exact_one_at_the_boundary():
    Z = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 0.5], [0.0, -0.5]])  # C = diag(1/2, 1/8): tau_c = 2
    assert collapse_is_stable(Z, 2, 3, "full").answer is Tri.TRUE
    assert "a-posteriori" in collapse_is_stable(Z, 2, 3, "full").evidence["method"]
    assert collapse_is_stable(Z, 2, 1, "full").answer is Tri.FALSE
    s = collapse_is_stable(Z, 2, 2, "full")  # tau = tau_c exactly: only the exact inertia can say
    assert s.answer is Tri.UNKNOWN and "Descartes" in s.evidence["method"]
