"""Evaluating statements (issue 11), review: verdicts mean what a reader thinks.

(a) a NaN or infinite float observable decides nothing: UNKNOWN, never a crash or a pass;
(b) a Boolean whose undecided part has no margin still reports (the margin ignores NaN);
(c) exact values that satisfy a relation only within the tolerance are CONSISTENT, not CERTIFIED;
(d) a tolerance that is NaN, infinite or negative is an InputError naming ``tol``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from numerics.errors import InputError
from verify import Tally, Verdict
from verify._evaluate import decide

x, y = sp.symbols("x y", real=True)


def _t():
    return Tally(precision="t", backend="t")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, np.float64("nan")])
def test_non_finite_float_observable_is_unknown(bad):
    assert decide(sp.Le(x, 1), {"x": bad}, tol=1e-12)[0] is None
    assert _t().statement(sp.Le(x, 1), {"x": bad}, tol=1e-12).level is Verdict.UNKNOWN
    # the negation is undecided too (no pass either way)
    assert _t().statement(sp.Gt(x, 1), {"x": bad}, tol=1e-12).level is Verdict.UNKNOWN


@pytest.mark.parametrize("order", [("x", "y"), ("y", "x")])
def test_a_refuted_conjunction_with_an_undecided_part_reports(order):
    vals = {order[0]: np.array([2.0]), order[1]: np.array([np.nan])}
    obs = _t().statement(sp.And(sp.Le(x, 1), sp.Le(y, 1)), vals, tol=1e-12)
    assert obs.level is Verdict.REFUTED and obs.margin is not None and obs.margin < 0


def test_exact_values_within_the_tolerance_only_are_not_certified():
    near = {"x": Fraction(1) + Fraction(1, 10**20)}
    assert _t().statement(sp.Eq(x, 1), near, tol=1e-12).level is Verdict.CONSISTENT
    assert _t().statement(sp.Eq(x, 1), {"x": Fraction(1)}, tol=1e-12).level is Verdict.CERTIFIED
    assert _t().statement(sp.Eq(x, 1), near).level is Verdict.REFUTED


@pytest.mark.parametrize("tol", [math.nan, math.inf, -1e-9, "1e-9x"])
def test_a_bad_tolerance_names_tol(tol):
    with pytest.raises(InputError) as e:
        _t().statement(sp.Le(x, 1), {"x": 0.5}, tol=tol)
    assert "tol" in str(e.value)


def test_exact_values_in_a_transcendental_statement_are_decided_by_balls():
    # no rational value exists: decided rigorously (arb), never a crash, never through floats
    assert _t().statement(sp.Le(x, sp.pi), {"x": 3}).level is Verdict.CERTIFIED
    assert _t().statement(sp.Ge(x, sp.pi), {"x": Fraction(314159, 100000)}).level is Verdict.REFUTED
    assert _t().statement(sp.Lt(x, sp.sqrt(2)), {"x": Fraction(141421356, 10**8)}).level is Verdict.CERTIFIED
    assert _t().statement(sp.Eq(x, sp.exp(y)), {"x": 1, "y": 0}).level is Verdict.CERTIFIED
    assert _t().statement(sp.Eq(x, sp.pi), {"x": 3}).level is Verdict.REFUTED


def test_bad_input_raises_input_errors_naming_the_argument():
    from numerics.errors import InputTypeError
    from verify import AllOf, Derivation, ForAll, Step, statement_of

    cases = [
        (lambda: statement_of("no.such.claim"), InputError, "claim_id"),
        (lambda: _t().statement(sp.Le(x, 3), [1], tol=1e-12), InputTypeError, "values"),
        (lambda: _t().statement(sp.Le(x, 3), {"x": "2"}), InputTypeError, "values"),
        (lambda: _t().statement(sp.Le(x, 3), {"x": True}), InputTypeError, "values"),
        (lambda: ForAll("x", "reals", sp.Le(x, 1)), InputTypeError, "variables"),
        (lambda: AllOf(("a", sp.Le(x, 1)), ("a", sp.Le(x, 2))), InputError, "parts"),
        (lambda: Step("s", x, relation="=="), InputError, "relation"),
        (lambda: Derivation(), InputTypeError, "steps"),
    ]
    for fn, kind, arg in cases:
        with pytest.raises(kind) as e:
            fn()
        assert arg in str(e.value)


def test_integer_tensors_join_the_float_arithmetic():
    torch = pytest.importorskip("torch")
    obs = _t().statement(sp.Le(x, y), {"x": torch.tensor([2]), "y": torch.tensor([2.5], dtype=torch.float32)},
                         tol=1e-6)
    assert obs.level is Verdict.CONSISTENT
    assert _t().statement(sp.Le(x, 3), {"x": torch.tensor(4)}, tol=1e-12).level is Verdict.REFUTED


def test_a_high_precision_constant_is_not_rounded_to_float64():
    from numerics.precision import mp_context

    ctx = mp_context(40)
    obs = _t().statement(sp.Eq(x, sp.Float("0.1", 40)), {"x": ctx.mpf(1) / 10}, tol=1e-35)
    assert obs.level is Verdict.CONSISTENT
    assert _t().statement(sp.Eq(x, sp.Float("0.5")), {"x": Fraction(1, 2)}).level is Verdict.CERTIFIED


def test_mpmath_values_keep_their_own_digits_outside_their_block():
    import mpmath

    with mpmath.mp.workdps(50):
        a = mpmath.mpf(1) / 3
        b = a + mpmath.mpf(10) ** -40
    # after the block the values' context says 15 digits; they carry 50
    assert _t().statement(sp.Eq(x, y), {"x": a, "y": b}, tol=1e-45).level is Verdict.REFUTED
    assert _t().statement(sp.Eq(x, sp.Rational(1, 3)), {"x": a}, tol=1e-45).level is Verdict.CONSISTENT


@pytest.mark.parametrize("rel", [sp.Eq, sp.Ne, sp.Le, sp.Lt, sp.Ge, sp.Gt])
def test_vectorised_float_decision_is_the_entrywise_exact_one(rel):
    """An array observable is decided in one vectorised pass; it must decide exactly what the
    entrywise Fraction comparison decides, at the tolerance's edge (+-tol, +-0, a subnormal, the
    neighbours of tol) included, with the same least margin."""
    from verify._evaluate import _decide_float, _decide_floats

    tol = 0.1
    edge = [tol, -tol, np.nextafter(tol, 1), np.nextafter(tol, 0), -np.nextafter(tol, 1), 0.0, -0.0,
            5e-324, -5e-324, 3.0, -3.0]
    rng = np.random.default_rng(0)
    samples = [np.array(edge)] + [np.array([e]) for e in edge] + [rng.normal(0, 0.2, 7) for _ in range(20)]
    r = rel(x, 0)
    for d in samples:
        entry = [_decide_float(r, float(v), tol) for v in d]
        assert _decide_floats(r, d, tol) == (all(h for h, _ in entry), min(m for _, m in entry)), (rel, d)


_EDGE = [0.1, -0.1, float(np.nextafter(0.1, 1)), float(np.nextafter(0.1, 0)), 0.0, -0.0, 5e-324, -5e-324,
         3.0, -3.0, 1e308, -1e308]


@pytest.mark.parametrize("rel", [sp.Eq, sp.Ne, sp.Le, sp.Lt, sp.Ge, sp.Gt])
def test_float_decision_is_the_exact_rational_one(rel):
    """A float relation is decided by comparing the doubles themselves; that must be the decision of
    the exact rationals they are (Fractions), at the tolerance's edge, at 0 and -0, for subnormals and
    near overflow, and for a zero tolerance."""
    from hypothesis import given
    from hypothesis import strategies as st

    from verify._evaluate import _decide_exact, _decide_float

    r = rel(x, 0)

    def same(d: float, tol: float) -> None:
        assert _decide_float(r, d, tol)[0] is _decide_exact(r, Fraction(d), Fraction(tol)), (rel, d, tol)

    for tol in (0.1, 0.0, 5e-324):
        for d in _EDGE + [tol, -tol]:
            same(d, tol)

    @given(st.floats(allow_nan=False, allow_infinity=False), st.floats(0, 1e300))
    def prop(d, tol):
        same(d, tol)

    prop()
