"""Bad-input fuzzing of ``certify`` (issue "Trust").

A certified ``tau_c`` is checked independently: the softmax network evaluated in mpmath at ``tau_c``
(at enough digits for the data's magnitudes) is exact at that precision (spec §3.7).  Datasets with
coordinates 1e-300 / 1e308 / 10^400 used to raise OverflowError from the float search; the search now
moves to arb when a quantity leaves the float range.  Garbage arguments raise a VerifyError naming the
argument.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
import math
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.arithmetic import MPArithmetic
from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.interpolation import Dataset, build_interpolator, certify
from theorems.interpolation import softmax as sm
from theorems.interpolation.construction import _as_fraction

EXTREME = [1e308, -1e308, 1e-300, 5e-324, 10**400, Fraction(1, 10**400), 1e300, Fraction(1, 3)]
coords = st.one_of(st.integers(-3, 3), st.sampled_from(EXTREME))


def _digits(model) -> int:
    """Decimal digits that resolve every parameter and token of ``model`` (largest / smallest scale)."""
    vals = [_as_fraction(v) for x in model.dataset.inputs + model.dataset.outputs for t in x for v in t]
    for b in model.blocks:
        vals += [_as_fraction(v) for v in (b.ff.eta, *b.ff.b, b.sa.rho, b.sa.lam)]
        vals += [_as_fraction(v) for r in b.ff.U + b.ff.W for v in r]
    big = max((abs(v.numerator).bit_length() + v.denominator.bit_length() for v in vals if v), default=1)
    return 60 + int(big * 0.302) * 2


def _check_certificate(model):
    cert = certify(model)
    assert isinstance(cert.certified, bool)
    if not cert.certified:
        assert cert.tau_c is None
        return cert
    assert isinstance(cert.tau_c, float) and 0 < cert.tau_c < math.inf
    # independent: mpmath at D digits, at tau_c and below; the outputs are the targets up to rounding,
    # which is relative to the largest scale of the run (so an absolute 10^-(D/2), with D from _digits)
    D = _digits(model)
    ar = MPArithmetic(D)
    for tau in (Fraction(cert.tau_c), Fraction(cert.tau_c) / 1000):
        outs = sm.softmax_outputs(model, tau, D)
        worst = max(sm.hausdorff_mp(o, y, ar) for o, y in zip(outs, model.dataset.outputs))
        assert worst <= ar.ctx.mpf(10) ** (-(D // 2)), (cert, tau, worst)
    return cert


@st.composite
def two_sequence_datasets(draw):
    a = draw(coords)
    b = draw(coords)
    if Fraction(a) == 0 and Fraction(b) == 0:
        b = 1
    inputs = [[(0, 0), (a, b)], [(0, 0), (0, 1)] if (Fraction(a), Fraction(b)) != (0, 1) else [(0, 0), (1, 1)]]
    outputs = [[(draw(coords), 1)], [(2, draw(coords))]]
    return Dataset(inputs, outputs)


@settings(deadline=None, max_examples=fuzz_examples(8))
@given(D=two_sequence_datasets())
@example(D=Dataset([[(0, 0), (1e-300, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]))  # was OverflowError
@example(D=Dataset([[(0, 0), (1e308, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]))  # was OverflowError
@example(D=Dataset([[(0, 0), (10**400, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]))
def test_certify_extreme_datasets(D):
    try:
        model = build_interpolator(D, attention="softmax")
    except VerifyError as e:
        assert "stage" in str(e) or getattr(e, "argument", None), str(e)
        return
    _check_certificate(model)


CHAIN = Dataset([[(0, 0), (1, 0)], [(0, 0), (0, 1)]], [[(5, 5)], [(-1, 2), (3, 3)]])
SOFT = build_interpolator(CHAIN, attention="softmax")
HARD = build_interpolator(CHAIN)


@settings(deadline=None, max_examples=fuzz_examples(30))
@given(model=st.sampled_from([SOFT, HARD, None, 5, "softmax", CHAIN]),
       tau_max=st.sampled_from([100.0, 1.0, 0, -1, float("nan"), float("inf"), 1e-320, "1", None, 10**400]),
       bits=st.sampled_from([256, 64, 0, -3, 31, 2.5, "256", None, True, 10**9]))
@example(model=HARD, tau_max=100.0, bits=256)  # a hardmax model: InputError naming 'model'
@example(model=None, tau_max=100.0, bits=256)  # was AttributeError
@example(model=SOFT, tau_max=100.0, bits=0)
@example(model=SOFT, tau_max=10**400, bits=256)  # was OverflowError converting tau_max to a float
def test_certify_argument_fuzz(model, tau_max, bits):
    try:
        cert = sm.certify(model, tau_max=tau_max, bits=bits)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in {"model", "tau_max", "bits"} and repr(e.argument) in str(e), str(e)
        return
    assert cert.certified and 0 < cert.tau_c <= float(tau_max)
    assert sm.exact_at(model, Fraction(cert.tau_c), 60)[0]


def test_public_certify_refuses_hardmax():
    with pytest.raises(InputError, match="'model'"):
        certify(HARD)
    with pytest.raises(InputTypeError, match="'model'"):
        certify(None)
