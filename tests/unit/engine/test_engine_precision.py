"""Three-valued comparisons on balls; local precision contexts."""

import flint
import mpmath
import pytest

from numerics.precision import (
    Tri,
    arb_precision,
    mp_context,
    to_arb,
    tolerance_for,
    tri_contains,
    tri_le,
    tri_lt,
    tri_negative,
    tri_nonnegative,
    tri_positive,
)


def ball(mid, rad):
    return flint.arb(mid, rad)


def test_ball_straddling_zero_is_unknown():
    b = ball(0.1, 0.5)  # [-0.4, 0.6]
    assert tri_positive(b) is Tri.UNKNOWN
    assert tri_negative(b) is Tri.UNKNOWN
    assert tri_nonnegative(b) is Tri.UNKNOWN
    with pytest.raises(TypeError, match="three-valued"):
        bool(tri_positive(b))


def test_ball_touching_zero():
    b = ball(1, 1)  # meant as [0, 2]; arb rounds radii outward, so its lower end is -1.9e-9
    assert b.lower() <= 0 <= b.upper()
    assert tri_positive(b) is Tri.UNKNOWN  # it may be 0: never decided as TRUE (nor FALSE)
    assert tri_nonnegative(b) is Tri.UNKNOWN
    assert tri_negative(b) is Tri.UNKNOWN
    below = ball(-1, 1)  # meant as [-2, 0]
    assert tri_negative(below) is Tri.UNKNOWN and tri_positive(below) is Tri.UNKNOWN
    clear_below = ball(-1, 0.5)
    assert tri_nonnegative(clear_below) is Tri.FALSE
    z = flint.arb(0)  # exactly zero
    assert tri_positive(z) is Tri.FALSE
    assert tri_nonnegative(z) is Tri.TRUE


def test_ball_clear_of_zero():
    assert tri_positive(ball(1, 0.5)) is Tri.TRUE
    assert tri_negative(ball(-1, 0.5)) is Tri.TRUE
    assert tri_positive(ball(-1, 0.5)) is Tri.FALSE
    assert tri_lt(1, 2) is Tri.TRUE
    assert tri_le(ball(1, 1), 1) is Tri.UNKNOWN


def test_tri_logic():
    assert (Tri.TRUE & Tri.UNKNOWN) is Tri.UNKNOWN
    assert (Tri.FALSE & Tri.UNKNOWN) is Tri.FALSE
    assert (Tri.TRUE | Tri.UNKNOWN) is Tri.TRUE
    assert ~Tri.UNKNOWN is Tri.UNKNOWN
    assert Tri.all([Tri.TRUE, Tri.TRUE]) is Tri.TRUE


def test_contains():
    assert tri_contains(ball(0, 1e-10), 0) is Tri.TRUE
    assert tri_contains(ball(1, 1e-10), 0) is Tri.FALSE


def test_local_contexts_do_not_touch_global_state():
    before_mp, before_prec = mpmath.mp.dps, flint.ctx.prec
    ctx = mp_context(60)
    third = ctx.mpf(1) / 3
    assert abs(third - ctx.mpf("0.3333333333333333333333333333333333333333333333333333333333")) < ctx.mpf(10) ** -58
    with arb_precision(300):
        assert flint.ctx.prec == 300
        x = to_arb(1) / 3
    assert x.rad() < 1e-80
    assert mpmath.mp.dps == before_mp and flint.ctx.prec == before_prec


def test_arb_precision_restores_on_error():
    prec = flint.ctx.prec
    with pytest.raises(RuntimeError):
        with arb_precision(500):
            raise RuntimeError("boom")
    assert flint.ctx.prec == prec


def test_tolerance_comes_from_precision():
    assert tolerance_for(50) == pytest.approx(1e-40)
    assert tolerance_for(30, scale=10.0, guard_digits=5) == pytest.approx(1e-24)
    with pytest.raises(ValueError):
        tolerance_for(5, guard_digits=10)
    with pytest.raises(ValueError):
        mp_context(2)
    with pytest.raises(ValueError, match="non-finite"):
        to_arb(float("nan"))
