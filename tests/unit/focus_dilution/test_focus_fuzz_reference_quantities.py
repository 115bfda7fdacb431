"""Bad-input fuzzing of ``reference_quantities(chain, dps, tau)`` (issue "Trust").

A valid result is finite at the requested precision; log d, H(pi) and H(Y|X) are recomputed
independently from the exact chain in mpmath at twice the digits, and every quantity agrees with the
run at dps + 20 (tau enters c exactly).  Bad input raises a VerifyError naming ``chain``, ``dps`` or
``tau`` -- ``tau = nan`` returned c = nan, ``tau = "1/2"`` raised a bare TypeError.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.focus_dilution import MarkovChain, reference_quantities

E1 = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
UNIFORM = MarkovChain.lazy(["1/3", "1/3", "1/3"], "1/2")
FLOATS = MarkovChain([[0.7, 0.3], [0.4, 0.6]])
KEYS = ("logd", "H", "HYX", "n2", "mu0", "sc2", "K1", "K2", "c")

taus = st.one_of(st.sampled_from([1, "1/2", Fraction(3, 2), 0.5, 1e-300, 1e300, 10**400, Fraction(1, 10**400),
                                  0, -1, 0.0, float("nan"), float("inf"), "x", None, True, 1j, [1]]),
                 st.floats(allow_nan=True, allow_infinity=True))
dpss = st.sampled_from([20, 40, 5, 4, 1, 0, -3, 2.5, "40", None, True, 10**9])
chains = st.sampled_from([E1, UNIFORM, FLOATS, None, 5, "E1", [[0.5, 0.5], [0.5, 0.5]]])


def _independent(chain, ctx):
    d = chain.d
    pi = [ctx.mpf(x.numerator) / x.denominator for x in chain.pi_exact] if chain.pi_exact else \
        [ctx.mpf(float(x)) for x in chain.pi]
    P = [[ctx.mpf(x.numerator) / x.denominator for x in r] for r in chain.P_exact] if chain.P_exact else \
        [[ctx.mpf(float(x)) for x in r] for r in chain.P]
    H = -sum(p * ctx.log(p) for p in pi)
    HYX = -sum(pi[q] * sum(P[q][y] * ctx.log(P[q][y]) for y in range(d) if P[q][y] > 0) for q in range(d))
    return ctx.log(d), H, HYX


def _check(chain, dps, tau):
    try:
        q = reference_quantities(chain, dps=dps, tau=tau)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError)), type(e)
        assert e.argument in {"chain", "dps", "tau"} and repr(e.argument) in str(e), str(e)
        return None
    for k in KEYS:
        assert mpmath.isfinite(getattr(q, k)), (k, getattr(q, k))
    ctx = mpmath.mp.clone()
    ctx.dps = 2 * dps
    tol = ctx.mpf(10) ** (-(dps - 3))
    for got, ref in zip((q.logd, q.H, q.HYX), _independent(chain, ctx)):
        assert abs(ctx.mpf(got) - ref) <= tol * max(1, abs(ref))
    hi = reference_quantities(chain, dps=dps + 20, tau=tau)
    for k in KEYS:
        a, b = ctx.mpf(getattr(q, k)), ctx.mpf(getattr(hi, k))
        assert abs(a - b) <= tol * max(1, abs(b)), (k, a, b)
    return q


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(chain=chains, dps=dpss, tau=taus)
@example(chain=E1, dps=40, tau=float("nan"))  # returned c = nan
@example(chain=E1, dps=40, tau="1/2")  # raised TypeError ('<=' between str and int)
@example(chain=E1, dps=0, tau=1)  # dps = 0
@example(chain=E1, dps=40, tau=10**400)
@example(chain=E1, dps=40, tau=Fraction(1, 10**400))
@example(chain=UNIFORM, dps=40, tau=1)
@example(chain=5, dps=40, tau=1)  # was AttributeError
def test_reference_quantities_fuzz(chain, dps, tau):
    _check(chain, dps, tau)


def test_documented_value():
    q = reference_quantities(E1, dps=30)
    assert round(float(q.c), 12) == 0.079784701432
    with pytest.raises(InputError, match="'tau'"):
        reference_quantities(E1, tau=float("nan"))
