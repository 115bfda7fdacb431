"""The Krawczyk test: certified existence, certified absence, and undecided boxes."""

import pytest
import sympy as sp

from numerics.krawczyk import krawczyk, sympy_to_arb
from numerics.precision import Tri, arb_precision, to_arb

x, y = sp.symbols("x y")


def test_unique_zero_is_certified():
    r = krawczyk([x**2 + y**2 - 2, x - y], [x, y], [1, 1], "1e-10")
    assert r.decision is Tri.TRUE and r.contraction < 1


def test_no_zero_is_refuted():
    r = krawczyk([x**2 + y**2 - sp.Rational(5, 2), x - y], [x, y], [1, 1], "1e-10")
    assert r.decision is Tri.FALSE and r.excluded_component == 0


def test_transcendental_and_parameters():
    a = sp.Symbol("a")
    r = krawczyk([sp.exp(x) - a], [x], ["0.693147180559945309417232121458176568075500134360"], "1e-30",
                 parameters={a: 2})
    assert r.decision is Tri.TRUE


def test_box_too_large_is_unknown():
    # two zeros (+-1) inside the box [-2, 2]: neither existence-and-uniqueness nor absence is provable
    r = krawczyk([x**2 - 1], [x], [0.25], "1.75")
    assert r.decision is Tri.UNKNOWN


def test_sympy_to_arb_keeps_rationals_exact():
    with arb_precision(128):
        v = sympy_to_arb(sp.Rational(1, 3) * x + sp.log(2), {x: to_arb(3)})
        assert v.overlaps(to_arb(1) + to_arb(2).log())
    with pytest.raises(KeyError):
        sympy_to_arb(x + y, {x: to_arb(1)})
    with pytest.raises(ValueError):
        krawczyk([x], [x, y], [0, 0], "1e-3")


def test_sympy_to_arb_complex_balls_principal_branch():
    # casus irreducibilis: a real root of x^3 - 3x + 1 written with complex cube roots
    roots = sp.solve(x**3 - 3 * x + 1, x)
    with arb_precision(128):
        for r in roots:
            z = sympy_to_arb(r, {}, complex_balls=True)
            assert z.imag.contains(0) and abs(float(z.real.mid()) ** 3 - 3 * float(z.real.mid()) + 1) < 1e-12
        i = sympy_to_arb(sp.I**2, {}, complex_balls=True)
        assert i.real.overlaps(to_arb(-1)) and i.imag.contains(0)
        with pytest.raises(TypeError):
            sympy_to_arb(sp.I, {})


def test_krawczyk_fn_with_forward_mode_interval_jacobian():
    from numerics.krawczyk import krawczyk_fn

    ok = krawczyk_fn(lambda v: [v[0] * v[0] + v[1] * v[1] - 2, v[0] - v[1]], [1, 1], "1e-10")
    assert ok.decision is Tri.TRUE
    ln2 = "0.693147180559945309417232121458176568075500134360"
    assert krawczyk_fn(lambda v: [v[0].exp() - 2], [ln2], "1e-30").decision is Tri.TRUE
    none = krawczyk_fn(lambda v: [v[0] * v[0] + v[1] * v[1] - 3, v[0] - v[1]], [1, 1], "1e-10")
    assert none.decision is Tri.FALSE
    # a singular Jacobian (a curve of zeros through the centre) is never certified
    curve = krawczyk_fn(lambda v: [v[0] * v[0] - v[1] * v[1], v[0] * v[0] - v[1] * v[1]], [1, 1], "1e-10")
    assert curve.decision is Tri.UNKNOWN
