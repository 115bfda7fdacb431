"""Jet2 divided by a Python int stays exact (Fraction / fmpq jets must not turn into floats)."""

from __future__ import annotations

from fractions import Fraction

import flint

from numerics.krawczyk import hessian_forward


class _Fns:
    @staticmethod
    def exp(v):
        assert v == 0
        return v * 0 + 1

    @staticmethod
    def log(v):
        assert v == 1
        return v * 0


def test_division_by_int_is_exact():
    def f(x):
        return (x[0] * x[0] * x[1] + x[1] * x[1]) / 3

    def fr(x):
        return x if isinstance(x, Fraction) else Fraction(int(x.p), int(x.q))

    for zero in (Fraction(0), flint.fmpq(0)):
        v, g, H = hessian_forward(f, [zero + 2, zero + 5], _Fns)
        assert fr(v) == Fraction(45, 3) and type(v) is type(zero)
        assert [fr(x) for x in g] == [Fraction(20, 3), Fraction(14, 3)]
        assert [[fr(x) for x in r] for r in H] == [[Fraction(10, 3), Fraction(4, 3)], [Fraction(4, 3), Fraction(2, 3)]]
        assert all(type(x) is type(zero) for r in H for x in r)
