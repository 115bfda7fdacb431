"""to_arb reads an mpf of a local mpmath context (numerics.precision.mp_context) exactly.

``mp_context`` builds its own mpf class, which is not ``mpmath.mpf``; to_arb used to let it fall through
to ``flint.arb(x)``, i.e. through a float: 1/3 + 1e-30 at 50 digits became the float 1/3, exactly.
"""

from __future__ import annotations

import mpmath

from numerics.precision import Tri, arb_precision, mp_context, to_arb, tri_gt


def test_local_context_mpf_is_exact():
    ctx = mp_context(50)
    third = ctx.mpf(1) / 3
    x = third + ctx.mpf(10) ** -30
    with arb_precision(256):
        bx, bt = to_arb(x), to_arb(third)
        assert bx.is_exact() and bt.is_exact()
        assert tri_gt(bx, bt) is Tri.TRUE
        assert 0.9e-30 < float(bx - bt) < 1.1e-30


def test_global_context_and_specials():
    with mpmath.workdps(40):
        y = mpmath.mpf(2) / 7
    with arb_precision(256):
        assert to_arb(y).is_exact()
    ctx = mp_context(30)
    for bad in (ctx.inf, ctx.nan):
        try:
            to_arb(bad)
        except ValueError:
            pass
        else:  # pragma: no cover
            raise AssertionError("a non-finite mpf must not become a ball")
