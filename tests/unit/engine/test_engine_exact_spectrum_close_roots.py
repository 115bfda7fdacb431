"""exact_spectrum orders eigenvalues that agree to 40 digits (its refinement loop must take effect).

``ascending_disjoint`` compares ``upper()`` / ``lower()`` endpoints, which python-flint rounds outward
to the *current* arb precision; evaluated at the default 53 bits, two distinct eigenvalues 1e-41 apart
never separated and ``exact_spectrum`` raised ArithmeticError after doubling its precision 6 times.
"""

from __future__ import annotations

from fractions import Fraction as F

import flint

from numerics.linalg import exact_spectrum


def test_two_eigenvalues_1e41_apart_are_ordered():
    eps = F(1, 10**20)
    # diag(C, C') with C = [[4, 1], [1, 0]] and C' = C coupled to a channel of variance 1 by eps
    B = [[F(4), F(1), 0, 0, 0], [F(1), 0, 0, 0, 0], [0, 0, F(4), F(1), eps], [0, 0, F(1), 0, 0],
         [0, 0, eps, 0, F(1)]]
    B = [[F(x) for x in r] for r in B]
    spec = exact_spectrum(B)
    assert [c.multiplicity for c in spec] == [1] * 5
    assert flint.ctx.prec == 53  # restored
    top, second = spec[-1].enclosure, spec[-2].enclosure
    # lambda_1(C') - lambda_1(C) is about 3e-41 > 0: the top cluster is C''s, certainly above C's
    assert not top.overlaps(second)
    assert top.mid() > second.mid()
    assert abs(top.mid() - second.mid()) < flint.arb(10) ** -39


def test_tiny_scale_close_eigenvalues():
    s = F(1, 10**400)
    B = [[F(4) * s, s, 0], [s, 0, 0], [0, 0, F(4) * s + s / 10**30]]
    spec = exact_spectrum(B)
    assert len(spec) == 3
    assert spec[-1].enclosure > spec[-2].enclosure
