"""Exact rationals on both back-ends; exact inertia and certified spectra."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.exact import BACKENDS, charpoly, matmul, rational, rational_matrix, to_fraction
from numerics.linalg import Inertia, ball_spectrum, exact_spectrum, inertia
from numerics.precision import Tri


@pytest.mark.parametrize("backend", BACKENDS)
def test_rational_conversions(backend):
    assert to_fraction(rational("1/3", backend=backend) + rational(1, 6, backend=backend)) == Fraction(1, 2)
    assert to_fraction(rational(0.1, backend=backend)) == Fraction(0.1)  # floats are exact dyadics
    with pytest.raises(ValueError, match="non-finite"):
        rational(float("inf"), backend=backend)
    with pytest.raises(TypeError):
        rational(True, backend=backend)


@given(st.lists(st.lists(st.integers(-5, 5), min_size=3, max_size=3), min_size=3, max_size=3))
def test_charpoly_and_matmul_agree_across_backends(rows):
    if "flint" not in BACKENDS:  # pragma: no cover
        pytest.skip("python-flint not installed")
    a, b = rational_matrix(rows, backend="flint"), rational_matrix(rows, backend="fraction")
    assert charpoly(a) == charpoly(b)
    from numerics.exact import matrix_rows

    assert matrix_rows(matmul(a, a)) == matrix_rows(matmul(b, b))


def test_inertia_is_exact():
    assert inertia([[2, 0, 0], [0, 0, 0], [0, 0, -3]]) == Inertia(1, 1, 1)
    assert inertia([[0, 1], [1, 0]]) == Inertia(1, 0, 1)
    assert inertia([[1, 1], [1, 1]]) == Inertia(1, 1, 0)
    # eigenvalues 1e-30 and -1 (a float eigensolver could not tell the first from 0)
    tiny = Fraction(1, 10**30)
    assert inertia([[tiny, 0], [0, -1]]) == Inertia(1, 0, 1)
    with pytest.raises(ValueError, match="symmetric"):
        inertia([[1, 2], [0, 1]])


def test_exact_spectrum_multiplicities():
    spec = exact_spectrum([[2, 1, 0], [1, 2, 0], [0, 0, 3]])
    assert [(round(float(c.enclosure.mid()), 12), c.multiplicity) for c in spec] == [(1.0, 1), (3.0, 2)]
    assert all(c.exact_multiplicity for c in spec)
    assert all(c.sign() is Tri.TRUE for c in spec)


def test_ball_spectrum_encloses_and_clusters():
    spec = ball_spectrum([[2, 1, 0], [1, 2, 0], [0, 0, 3]])
    mids = sorted(float(c.enclosure.mid()) for c in spec)
    assert mids[0] == pytest.approx(1.0)
    assert sum(c.multiplicity for c in spec) == 3
    assert spec[0].sign() is Tri.TRUE
