"""The score-error term of the tau_c recursion (spec §3.5), pinned on synthetic layer summaries.

The claim checks see the certificate only through networks, and there the recursion is loose enough
that halving ``delta = ||A|| (2 B r + r^2)`` changes no certified tau_c (3 digits) of any instance.  The
term is needed for rigour: with A = I, one score moves by up to ``<e_l, xbar_i> + <xbar_l, e_i> + <e_l, e_i>``
= 2 B r + r^2 (e_l = r xbar_i/B, e_i = r xbar_l/B, |xbar_i| = |xbar_l| = B).  Two attention summaries:

* layer 1 (rho = 0, lam = 1): one row, n - 1 = 1, gap g1 = 1, D = 1, so r1 = exp(-1/tau);
* layer 2 (alpha = 1, B = 1): one row with gap g2 = 1; Cert needs g2 - 2 delta(r1) > 0.

Hence Cert(tau) iff r1 < r* = -1 + sqrt(3/2) (2 (2 r + r^2) = 1), i.e. tau < tau* = -1/ln r* = 0.66989...
A delta without its factor 2 would move the threshold to r = (sqrt 3 - 1)/2, tau = 0.99497...
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from numerics.arithmetic import ArbArithmetic, FloatArithmetic
from numerics.precision import Tri
from theorems.interpolation import softmax as sm

R_STAR = -1 + math.sqrt(1.5)
TAU_STAR = -1 / math.log(R_STAR)
TAU_HALVED = -1 / math.log((math.sqrt(3) - 1) / 2)


def _steps():
    one = Fraction(1)
    layer1 = sm._Step("sa_attn", (0, one, [(1, one, one)], one, (0, [(one, one)])))
    layer2 = sm._Step("sa_attn", (0, one, [(1, one, one)], one, (one, [])))
    return [layer1, layer2]


def test_thresholds_are_apart() -> None:
    assert TAU_STAR == pytest.approx(0.669887, rel=1e-5) and TAU_HALVED > 1.4 * TAU_STAR


def _thresholds(ar) -> tuple[Tri, Tri, Tri]:
    conv = float if isinstance(ar, FloatArithmetic) else Fraction
    return tuple(sm._run(_steps(), conv(t), {}, ar)
                 for t in (TAU_STAR * (1 - 1e-6), TAU_STAR * (1 + 1e-6), (TAU_STAR + TAU_HALVED) / 2))


@pytest.mark.parametrize("arith", ["float", "arb"])
def test_delta_threshold(arith: str) -> None:
    """One kernel, two numerics.arithmetic contexts: floats (the search) and arb balls (the certificate)."""
    if arith == "float":
        below, above, between = _thresholds(FloatArithmetic())
    else:
        with ArbArithmetic(128) as ar:
            below, above, between = _thresholds(ar)
    assert below is Tri.TRUE
    assert above is Tri.FALSE
    assert between is Tri.FALSE  # a halved delta would certify here


def test_undecided_ball_is_not_certified() -> None:
    """At 8 bits the enclosures at the threshold straddle it: the arb run says UNKNOWN, never TRUE."""
    with ArbArithmetic(8) as ar:
        out = sm._run(_steps(), Fraction(TAU_STAR), {}, ar)
    assert out is not Tri.TRUE


def test_out_of_float_range_goes_to_arb() -> None:
    """A gap below the normal float range is not flushed to 0 in the float search."""
    tiny = Fraction(1, 2**1100)
    one = Fraction(1)
    steps = [sm._Step("sa_attn", (0, one, [(1, tiny, one)], one, (0, [(one, one)])))]
    assert not sm._fits_float(steps, {}) and sm._fits_float(_steps(), {})
