"""numerics.arithmetic: sqrt, abs, the three-valued le and the rigorous upper bound of each context."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from numerics.arithmetic import ArbArithmetic, ExactArithmetic, FloatArithmetic, MPArithmetic
from numerics.precision import Tri


def test_sqrt_and_abs_float_and_mp() -> None:
    fl, mp = FloatArithmetic(), MPArithmetic(40)
    assert fl.sqrt(fl.convert(F(9, 4))) == 1.5 and fl.abs(fl.convert(F(-3, 2))) == 1.5
    r = mp.sqrt(mp.convert(2))
    assert abs(r * r - 2) < mp.ctx.mpf(10) ** -38 and mp.abs(mp.convert(F(-1, 3))) == mp.convert(F(1, 3))


def test_sqrt_arb_encloses_and_exact_refuses() -> None:
    with ArbArithmetic(128) as ar:
        r = ar.sqrt(ar.convert(2))
        assert (r * r).contains(ar.convert(2)) and r.rad() < 2.0**-120
    with pytest.raises(TypeError, match="no sqrt"):
        ExactArithmetic().sqrt(F(2))


def test_le_is_three_valued() -> None:
    fl, ex = FloatArithmetic(), ExactArithmetic("fraction")
    assert fl.le(1.0, 2.0) is Tri.TRUE and fl.le(2.0, 1.0) is Tri.FALSE
    assert fl.le(math.nan, 1.0) is Tri.UNKNOWN and ~fl.le(math.nan, 0.0) is Tri.UNKNOWN  # NaN never passes
    assert ex.le(F(1, 3), F(1, 3)) is Tri.TRUE and ex.le(F(1, 2), F(1, 3)) is Tri.FALSE
    with ArbArithmetic(64) as ar:
        import flint

        a = flint.arb(1, 0.5)
        assert ar.le(a, ar.convert(2)) is Tri.TRUE and ar.le(ar.convert(2), a) is Tri.FALSE
        assert ar.le(a, ar.convert(F(6, 5))) is Tri.UNKNOWN  # overlapping: undecided, never coerced


def test_upper_is_an_exact_upper_endpoint() -> None:
    import flint

    with ArbArithmetic(64) as ar:
        a, b = flint.arb(1, 0.5), flint.arb(F(3, 2).numerator) / 2 - flint.arb(0, 2.0**-40)
        ua, ub = ar.upper(a), ar.upper(b)
        assert ua.is_exact() and ub.is_exact() and ua >= a.mid() + a.rad()
        top = max(ua, ub)  # exact points: the comparison is decided
        assert top >= ua and top >= ub
    assert FloatArithmetic().upper(2.5) == 2.5
