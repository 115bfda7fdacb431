"""The product functions the ddcl statements' observables come from, on exact instances.

``pairwise_variance(P, q)`` (its default, halved form) is the sample variance V_i of ``sample_terms``:
the decomposition check evaluates the statement ``V_i = S_i / 2`` on the unhalved sum, so the product's
default form is pinned here.
"""

from __future__ import annotations

from fractions import Fraction as F

from theorems.ddcl_incrt.dictionary import pairwise_variance, sample_terms


def test_pairwise_variance_default_is_the_sample_variance():
    P = [(F(0), F(0)), (F(1), F(0)), (F(0), F(1))]
    for q in ([F(1, 2), F(1, 4), F(1, 4)], [F(1), F(0), F(0)], [F(1, 3)] * 3):
        v = sample_terms((F(2), F(-1)), P, q)[2]
        assert pairwise_variance(P, q) == v
        assert pairwise_variance(P, q, half=False) == 2 * v
