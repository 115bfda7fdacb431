"""A-posteriori eigenvalue enclosures (numerics.aposteriori) against an exact oracle.

The oracle is independent of the product: the characteristic polynomial of the exact rational matrix
(python-flint ``fmpq_mat.charpoly``) and its roots isolated at 300 bits (``complex_roots``), expanded
by multiplicity and sorted; the k-th exact eigenvalue must lie in the cluster that holds index k.
Matrices have clustered and exactly repeated eigenvalues and scales from 2**-700 to 2**700 (1e-211 ..
1e211); covariance data reach 2**+-1000 (outside that range of squares, the route must refuse).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import flint
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.aposteriori import covariance_spectrum, refine_eigenvectors, symmetric_enclosures
from numerics.linalg import symmetric_ball_spectrum
from numerics.precision import arb_precision
from tests.fuzzing import fuzz_examples


def _exact_eigenvalues(rows: list[list[Fraction]]) -> list:
    """The eigenvalues of the rational symmetric matrix, with multiplicity, ascending (300-bit balls)."""
    n = len(rows)
    m = flint.fmpq_mat(n, n, [flint.fmpq(x.numerator, x.denominator) for r in rows for x in r])
    with arb_precision(300):
        roots = m.charpoly().complex_roots()
        balls = sorted(((flint.arb(r.real), int(k)) for r, k in roots), key=lambda t: t[0].lower())
        for (a, _), (b, _) in pairwise(balls):
            assert a.upper() < b.lower()  # isolated, so ordered exactly
    return [b for b, k in balls for _ in range(k)]


def _assert_encloses(clusters, exact) -> None:
    assert sum(c.multiplicity for c in clusters) == len(exact)
    k = 0
    with arb_precision(300):
        for a, b in pairwise(clusters):
            assert a.enclosure.upper() < b.enclosure.lower()  # disjoint, ascending
        for c in clusters:
            for x in exact[k:k + c.multiplicity]:
                assert c.enclosure.contains(x), (c.enclosure, x)
            k += c.multiplicity


def _fractions(M: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(float(x)) for x in r] for r in M]


@st.composite
def clustered_symmetric(draw):
    """Q diag(w) Q^T in floats with w drawn from a few values (repeats) plus tiny splits, or an integer
    symmetric matrix (exact repeated eigenvalues), times 2**k."""
    n = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        base = draw(st.lists(st.integers(-3, 3), min_size=1, max_size=3))
        w = np.array([base[i % len(base)] for i in range(n)], dtype=float)
        w += rng.choice([0.0, 1e-13, 1e-7], n) * rng.standard_normal(n)
        Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
        G = (Q * w) @ Q.T
    else:
        G = rng.integers(-2, 3, (n, n)).astype(float)
        if draw(st.booleans()):
            G = np.ones((n, n)) * float(rng.integers(1, 4))  # eigenvalue 0 with multiplicity n - 1
    G = np.triu(G) + np.triu(G, 1).T
    return np.ldexp(G, draw(st.integers(-700, 700)))


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(G=clustered_symmetric())
@example(G=np.zeros((3, 3)))
@example(G=np.eye(4) * 2.0**-700)
def test_symmetric_enclosures_contain_the_exact_eigenvalues(G):
    cl = symmetric_enclosures(G)
    assert cl is not None
    _assert_encloses(cl, _exact_eigenvalues(_fractions(G)))


def test_weyl_widening_covers_a_perturbation():
    G = np.array([[2.0, 1.0], [1.0, 2.0]])  # eigenvalues 1, 3
    S = [[Fraction(2), Fraction(1) + Fraction(1, 10**6)], [Fraction(1) + Fraction(1, 10**6), Fraction(2)]]
    cl = symmetric_enclosures(G, Fraction(2, 10**6))
    _assert_encloses(cl, _exact_eigenvalues(S))
    assert symmetric_enclosures(np.array([[np.inf]])) is None


def _exact_cov(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    return [[sum((r[a] - mu[a]) * (r[b] - mu[b]) for r in rows) / N for b in range(d)] for a in range(d)]


@st.composite
def datasets(draw):
    N, d = draw(st.integers(2, 9)), draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-3, 3, d))
    if d > 1 and draw(st.booleans()):
        Z[:, -1] = Z[:, 0]  # a repeated direction: an exact zero eigenvalue
    if draw(st.booleans()):
        Z = np.round(Z)  # ties and exact repeats
    return np.ldexp(Z, draw(st.sampled_from([0, -660, 660, -1000, 1000, draw(st.integers(-900, 900))])))


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(Z=datasets())
@example(Z=np.array([[1e-200, 0.0], [-1e-200, 0.0]]))
@example(Z=np.array([[1e300, 0.0], [-1e300, 1.0]]))  # mixed scales: refused or still correct
@example(Z=np.array([[5e-324], [0.0]]))
def test_covariance_spectrum_contains_the_exact_eigenvalues(Z):
    cl = covariance_spectrum(Z)
    if cl is None:  # the float route refused (a subnormal would lose bits): callers go exact
        return
    _assert_encloses(cl, _exact_eigenvalues(_exact_cov(_fractions(Z))))


@st.composite
def top_datasets(draw):
    """Data whose top eigenvalues are simple, tied, or nearly tied (planted scales), N up to 300."""
    N, d = draw(st.integers(2, 300)), draw(st.integers(1, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scales = np.exp(rng.uniform(-3, 3, d))
    if d > 1 and draw(st.booleans()):
        scales[:2] = scales.max() * (1 + draw(st.sampled_from([0.0, 1e-12, 1e-6, 1e-2])))  # (near) tie on top
    Z = rng.standard_normal((N, d)) * scales
    if d > 2 and draw(st.booleans()):
        Z[:, 1] = Z[:, 0]  # a repeated direction
    return np.ldexp(Z, draw(st.sampled_from([0, -660, 660, draw(st.integers(-900, 900))])))


@settings(deadline=None, max_examples=fuzz_examples(80))
@given(Z=top_datasets())
@example(Z=np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]))  # an exact double top
def test_top_only_route_decides_as_the_full_one(Z):
    """``top=True`` (the top cluster and the hull of the rest, numerics.rayleigh's route) says the top
    eigenvalue is simple exactly when the full cluster list does, and then gives the same upper end
    of the next cluster."""
    from numerics.aposteriori import covariance_spectrum_and_vectors

    full, top = covariance_spectrum_and_vectors(Z), covariance_spectrum_and_vectors(Z, top=True)
    assert (full is None) == (top is None)
    if full is None or full[1] is None:
        return
    f, t = full[1]["ends"], top[1]["ends"]
    assert (f[-1][2] == 1) == (t[-1][2] == 1)
    assert sum(c for *_, c in t) == Z.shape[1]
    if f[-1][2] == 1:
        assert f[-1] == t[-1]  # the top cluster
        if len(f) > 1:  # and the upper end of the next one (the hull of the rest)
            assert len(t) == 2 and f[-2][1] == t[-2][1]
        else:
            assert len(t) == 1
    else:
        assert t[-1][2] >= 2


def test_covariance_spectrum_width_is_of_the_float_order():
    rng = np.random.default_rng(3)
    Z = rng.standard_normal((2000, 32)) * np.exp(rng.uniform(-3, 3, 32))
    top = covariance_spectrum(Z)[-1].enclosure
    rel = float(top.rad() / top.mid())
    assert 0 < rel < 2000 * 32 * 2.0**-52  # N d u: the a-priori rounding bound of the Gram matrix


def test_refined_eigenvectors_give_tight_ball_spectra():
    n = 5
    J = [[Fraction(1, 3)] * n for _ in range(n)]  # eigenvalues 5/3 (once) and 0 (n - 1 times, exactly)
    with arb_precision(256):
        A = flint.arb_mat([[flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in r] for r in J])
        X = refine_eigenvectors(A, 256)
        R = X.transpose() * X
        assert all(abs(R[i, j] - (1 if i == j else 0)) < flint.arb(2) ** -240
                   for i in range(n) for j in range(n))
        cl = symmetric_ball_spectrum(J, bits=256)
        assert [c.multiplicity for c in cl] == [n - 1, 1]
        assert cl[0].enclosure.contains(0) and cl[0].enclosure.rad() < flint.arb(2) ** -200
        assert cl[1].enclosure.contains(flint.fmpq(5, 3)) and cl[1].enclosure.rad() < flint.arb(2) ** -200


@pytest.mark.parametrize("angle,stretch", [(1e-3, 0.0), (1e-6, 0.0), (0.0, 1e-4), (1e-5, 1e-5)])
def test_enclosures_hold_for_any_approximate_eigenvectors(monkeypatch, angle, stretch):
    """A posteriori means whatever V the float solver returns: rotated (off-diagonal mass of V^T G V,
    Gershgorin) or non-orthonormal (Ostrowski's 1 -+ delta) eigenvectors still give true enclosures."""
    import numerics.aposteriori as ap

    real_eigh = ap._eigh  # the module's float solver (LAPACK dsyev)

    def bad_eigh(G):
        w, V = real_eigh(G)
        n = V.shape[0]
        rng = np.random.default_rng(n)
        K = rng.standard_normal((n, n)) * angle
        V = V @ (np.eye(n) + K - K.T)  # a first-order rotation by ~angle
        return w, V * (1 + stretch * rng.uniform(-1, 1, n))

    monkeypatch.setattr(ap, "_eigh", bad_eigh)
    rng = np.random.default_rng(7)
    for n in (3, 6):
        _, Q = np.linalg.eigh(rng.standard_normal((n, n)) + rng.standard_normal((n, n)).T)
        G = (Q * np.arange(1.0, n + 1)) @ Q.T
        G = np.triu(G) + np.triu(G, 1).T
        cl = symmetric_enclosures(G)
        assert cl is not None
        _assert_encloses(cl, _exact_eigenvalues(_fractions(G)))


@pytest.mark.parametrize("sign", [1, -1])
def test_covariance_enclosures_survive_the_worst_gram_rounding(monkeypatch, sign):
    """Any float Gram matrix within the rounding model (|G - Y^T Y| <= gamma_N |Y|^T |Y|, whatever the
    BLAS summation order) must still give true enclosures: an adversarial Gram off by 0.9 gamma_N."""
    import numerics.aposteriori as ap

    def worst(Y):
        N = Y.shape[0]
        return Y.T @ Y + sign * 0.9 * N * 2.0**-53 * (np.abs(Y).T @ np.abs(Y))

    monkeypatch.setattr(ap, "_gram", worst)
    rng = np.random.default_rng(5)
    Z = rng.standard_normal((400, 2)) * np.array([1.0, 3.0])
    cl = covariance_spectrum(Z)
    assert cl is not None
    _assert_encloses(cl, _exact_eigenvalues(_exact_cov(_fractions(Z))))


def _merge_by_sweep(ivs):
    """The reference merge: sort by lower end, sweep, merge overlapping or touching intervals."""
    out = []
    for lo, hi, c in sorted(([a, b, k] for a, b, k in ivs), key=lambda t: t[0]):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
            out[-1][2] += c
        else:
            out.append([lo, hi, c])
    return out


@settings(deadline=None, max_examples=fuzz_examples(300))
@given(ivs=st.lists(st.tuples(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0]),
                              st.sampled_from([0.0, 0.5, 1.0, 3.0]), st.integers(1, 3)),
                    min_size=0, max_size=4))
def test_merge_equals_the_sorted_sweep(ivs):
    """numerics.aposteriori._merge (two intervals unrolled) against the plain sorted sweep: the same
    intervals and counts, touching ends merged, in any input order."""
    from numerics.aposteriori import _merge

    ivs = [[a, a + w, k] for a, w, k in ivs]
    assert _merge([list(t) for t in ivs]) == _merge_by_sweep(ivs)
