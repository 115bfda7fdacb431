"""The attention kernels agree across exact, mpmath, arb and float64 back-ends on shared cases."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.arithmetic import ArbArithmetic, ExactArithmetic, FloatArithmetic, MPArithmetic, arithmetic
from numerics.attention import AttentionMatrix, hardmax_weights, scores, self_attention, softmax_weights
from numerics.exact import BACKENDS
from numerics.strategies import rational_vectors

F = Fraction

# One named case table shared by the tests (tracr style): tokens, attention matrix, expectation.
CASES = {
    # figure 2 of the paper: A = I, x_1 has two tied maximisers -> averaged
    "figure2_tie": ([(0, 1), (1, 0), (1, 1)], AttentionMatrix(alpha=1)),
    "zero_token_full_tie": ([(0, 0), (1, 2), (3, -1)], AttentionMatrix(alpha=1)),
    "rank_one_top": ([(1, 0), (2, 1), (3, -2), (1, 1)], AttentionMatrix(factors=(((1, 1), (1, 0)),))),
    "dense": ([(1, 2), (-1, 0), (F(1, 2), 3)], AttentionMatrix(dense=((1, F(1, 3)), (0, 2)))),
    "low_rank_plus_identity": ([(1, 0, 1), (0, 1, 1), (2, 2, 0)],
                               AttentionMatrix(alpha=F(1, 2), factors=(((1, 0, 0), (0, 1, 0)),
                                                                       ((0, 0, 1), (1, 1, 1))))),
}


def _as_float(vs):
    return [float(x) for v in vs for x in v]  # flattened (approx takes flat lists)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_hardmax_exact_matches_float_and_mp(case, backend):
    X, A = CASES[case]
    exact = self_attention(X, A, kernel="hardmax", ar=ExactArithmetic(backend))
    flt = self_attention(X, A, kernel="hardmax", ar=FloatArithmetic())
    mp = self_attention(X, A, kernel="hardmax", ar=MPArithmetic(30))
    assert _as_float(exact) == pytest.approx(_as_float(flt), abs=1e-15)
    assert _as_float(exact) == pytest.approx(_as_float(mp), abs=1e-15)


def test_figure2_tie_is_averaged():
    X, A = CASES["figure2_tie"]
    out = self_attention(X, A, kernel="hardmax", ar="fraction")
    assert out[0] == (F(1, 2), F(1)) and out[2] == (F(1), F(1))


def test_zero_score_row_goes_to_sequence_mean():
    X, A = CASES["zero_token_full_tie"]
    out = self_attention(X, A, kernel="hardmax", ar="fraction")
    assert out[0] == (F(4, 3), F(1, 3))
    soft = self_attention(X, A, kernel="softmax", tau=F(1, 10), ar=MPArithmetic(30))
    assert [float(v) for v in soft[0]] == pytest.approx([4 / 3, 1 / 3], abs=1e-25)


@pytest.mark.parametrize("case", sorted(CASES))
def test_softmax_mp_float_and_arb_agree(case):
    X, A = CASES[case]
    tau = F(1, 3)
    mp = self_attention(X, A, kernel="softmax", tau=tau, ar=MPArithmetic(40))
    flt = self_attention(X, A, kernel="softmax", tau=tau, ar=FloatArithmetic())
    assert _as_float(mp) == pytest.approx(_as_float(flt), rel=1e-12, abs=1e-12)
    with ArbArithmetic(200) as ar:
        balls = self_attention(X, A, kernel="softmax", tau=tau, ar=ar)
        for bv, mv in zip(balls, mp):
            for b, m in zip(bv, mv):
                assert b.contains(ar.convert(m)) or abs(float(b.mid()) - float(m)) < 1e-35


def test_softmax_tends_to_hardmax():
    X, A = CASES["figure2_tie"]
    hard = self_attention(X, A, kernel="hardmax", ar="fraction")
    soft = self_attention(X, A, kernel="softmax", tau=F(1, 200), ar=MPArithmetic(50))
    assert _as_float(soft) == pytest.approx(_as_float(hard), abs=1e-80)


@given(st.lists(rational_vectors(2, min_value=-3, max_value=3, max_denominator=2), min_size=1, max_size=6))
def test_hardmax_rows_sum_to_one_exactly(X):
    S = scores(X, AttentionMatrix(alpha=1), "fraction")
    for row in S:
        w = hardmax_weights(row, "fraction")
        assert sum(w) == 1 and all(x >= 0 for x in w)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="non-empty"):
        self_attention([], AttentionMatrix(alpha=1))
    with pytest.raises(ValueError, match="dimension"):
        self_attention([(1, 2), (1, 2, 3)], AttentionMatrix(alpha=1))
    with pytest.raises(ValueError, match="non-finite"):
        self_attention([(1.0, float("nan"))], AttentionMatrix(alpha=1), ar="float64")
    with pytest.raises(TypeError, match="exp"):
        softmax_weights([F(1)], 1, ExactArithmetic())
    with pytest.raises(ValueError, match="temperature"):
        softmax_weights([1.0, 2.0], 0.0, "float64")
    with pytest.raises(ValueError, match="either a dense"):
        AttentionMatrix(alpha=1, dense=((1,),))
    with pytest.raises(ValueError, match="unknown arithmetic"):
        arithmetic("float32")
    with pytest.raises(RuntimeError, match="with"):
        ArbArithmetic(64).convert(1)


def test_taylor_oracle_matches_closed_form_at_30_digits():
    from numerics.flows import taylor_mp
    from numerics.precision import mp_context

    ctx = mp_context(30)
    y = taylor_mp(lambda v: [v[1], -v[0]], [0, 1], 2, ctx)  # y = sin t
    assert abs(y[0] - ctx.sin(2)) < ctx.mpf(10) ** -28
    import pytest

    with pytest.raises(ValueError, match="finite time"):
        taylor_mp(lambda v: v, [1], -1, ctx)


def test_markov_stationary_law_by_flint_solve_is_exact():
    from fractions import Fraction

    from numerics.markov import _solve_exact

    P = [[Fraction(1, 2), Fraction(1, 2), 0], [Fraction(1, 3), 0, Fraction(2, 3)], [0, Fraction(1, 4), Fraction(3, 4)]]
    pi = _solve_exact(P)
    assert sum(pi) == 1
    assert all(sum(pi[i] * P[i][j] for i in range(3)) == pi[j] for j in range(3))
    import pytest

    with pytest.raises(ValueError, match="not unique"):
        _solve_exact([[1, 0], [0, 1]])
