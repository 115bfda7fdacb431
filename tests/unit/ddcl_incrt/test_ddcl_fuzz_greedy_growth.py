"""Bad-input fuzzing of ``greedy_growth`` (issue "Trust").

Every draw must give either a valid growth (finite births in decreasing order, each above the
threshold, orthonormal directions, at most max_heads of them, the first birth equal to lambda_max(S)
computed independently by mpmath) or a VerifyError (InputError / InputTypeError) naming the argument.
``greedy_growth`` is a float64 routine (numpy eigh); the comparison tolerance is a float budget.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.precision import mp_context
from theorems.ddcl_incrt import greedy_growth

ARGS = {"signal", "threshold", "U0", "max_heads", "rng"}

_special = st.sampled_from([0, -1, 1, 0.0, 5e-324, 1e-300, 1e300, 1.7e308, float("nan"), float("inf"),
                            10**400, True, None, "0.5", "x", 1j, [1], ()])
scalars = st.one_of(_special, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True))


@st.composite
def symmetric(draw):
    d = draw(st.integers(1, 4))
    scale = draw(st.sampled_from([1.0, 1e-300, 1e-150, 1e150, 1e300, 2.0**-1070]))
    A = np.array([[draw(st.integers(-5, 5)) for _ in range(d)] for _ in range(d)], dtype=float)
    return (A + A.T) * scale


@st.composite
def garbage_matrix(draw):
    n, m = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    rows = [[draw(scalars) for _ in range(m)] for _ in range(n)]
    if draw(st.booleans()) and rows:
        rows[-1] = rows[-1] + [1.0]
    return rows


signals = st.one_of(symmetric(), garbage_matrix(), scalars,
                    st.just(np.array([[0.0, 1.0], [0.0, 0.0]])), st.just(np.ones((2, 3))))
thresholds = st.one_of(st.floats(1e-3, 3.0), st.sampled_from([1e-300, 1e300, 5e-324]), scalars)
max_heads = st.one_of(st.none(), st.integers(0, 5), st.sampled_from([-1, 2.5, "2", True, np.int64(1)]))
U0s = st.one_of(st.none(), st.sampled_from(["eye1", "bad", "nan", "wrong_rows", "string"]))


def _u0(kind, d):
    if kind is None:
        return None
    return {"eye1": np.eye(d)[:, :1], "bad": 2 * np.eye(d)[:, :1], "nan": np.full((d, 1), np.nan),
            "wrong_rows": np.eye(d + 1)[:, :1], "string": "u"}[kind]


def _lambda_max(S):
    ctx = mp_context(40)
    M = ctx.matrix(S.tolist())
    return max(ctx.eigsy(M, eigvals_only=True)) if S.shape[0] > 1 else M[0, 0]


@settings(deadline=None, max_examples=fuzz_examples(100))
@given(signal=signals, threshold=thresholds, heads=max_heads, u0=U0s, use_rng=st.booleans())
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold=0.3, heads=-1, u0=None, use_rng=False)  # -1: silently 0 heads
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold=0.3, heads=2.5, u0=None, use_rng=False)  # 2.5 read as 2
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold="0.3", heads=None, u0=None, use_rng=False)  # str accepted
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold=None, heads=None, u0=None, use_rng=False)  # was TypeError
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold=0.3, heads=None, u0="wrong_rows", use_rng=False)  # was reshape ValueError
@example(signal=np.diag([1.0, 0.5, -1.0]), threshold=0.3, heads=None, u0="bad", use_rng=False)
@example(signal=np.diag([1e300, 5e299, -1e300]) * 1.5, threshold=1e299, heads=None, u0=None, use_rng=False)
@example(signal=[[10**400]], threshold=1.0, heads=None, u0=None, use_rng=False)  # was OverflowError
@example(signal=[["a"]], threshold=1.0, heads=None, u0=None, use_rng=False)  # was a bare ValueError
@example(signal=np.array([[1.6e-322]]), threshold=1.0, heads=None, u0=None, use_rng=False)  # ldexp overflow
@example(signal=np.array([[0.0, 8e-323], [8e-323, 0.0]]), threshold=5e-324, heads=None, u0=None,
         use_rng=False)  # subnormal signal: births come back on the subnormal grid
@example(signal=np.array([[0.0, 1e150], [1e150, 2e150], ]), threshold=1e-300, heads=None, u0=None,
         use_rng=False)  # a noise "birth" in span(U) gave non-orthonormal directions
def test_greedy_growth_fuzz(signal, threshold, heads, u0, use_rng):
    try:
        d = np.shape(signal)[0] if np.ndim(signal) >= 1 and np.size(signal) else 1
    except ValueError:  # ragged garbage: the U0 shape does not matter
        d = 1
    rng = np.random.default_rng(0) if use_rng else None
    try:
        r = greedy_growth(signal, threshold, U0=_u0(u0, d), max_heads=heads, rng=rng)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in ARGS and repr(e.argument) in str(e), str(e)
        return
    S = np.asarray(signal, dtype=float).reshape(d, d)
    th = float(threshold)
    births = np.array(r.births)
    assert np.all(np.isfinite(births)) and np.isfinite(r.final_lambda_max)
    m0 = 0 if u0 is None else 1  # U0 columns are kept in front of the grown directions
    assert r.count == m0 + len(births) and r.count <= max(m0, d if heads is None else min(int(heads), d))
    assert np.all(births > th)
    norm = float(np.abs(S).max()) * d
    assert np.all(np.diff(births) <= 1e-9 * norm)
    D = r.directions
    assert np.allclose(D.T @ D, np.eye(D.shape[1]), atol=1e-8)
    if u0 is None and r.count:
        lam = _lambda_max(S)
        # float64 budget; births below 2**-1022 are subnormal floats (absolute resolution 2**-1074)
        assert abs(births[0] - lam) <= 1e-12 * norm + 4 * 2.0**-1074, (births[0], lam)


def test_max_heads_zero_is_valid_and_negative_is_not():
    S = np.diag([1.0, 0.5])
    assert greedy_growth(S, 0.1, max_heads=0).count == 0
    with pytest.raises(InputError, match="'max_heads'"):
        greedy_growth(S, 0.1, max_heads=-1)
