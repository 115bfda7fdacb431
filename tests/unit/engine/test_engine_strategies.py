"""Public strategies validate their arguments eagerly, with a dedicated error."""

import pytest
from hypothesis import given
from hypothesis.errors import InvalidArgument

from numerics.strategies import StrategyArgumentError, attention_rows, rationals, simplex_rows


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: simplex_rows(0, 3), "n must be >= 1"),
        (lambda: simplex_rows(2, 3, kinds=("weird",)), "kinds"),
        (lambda: rationals(5, 1), "min_value=5 > max_value=1"),
        (lambda: rationals(max_denominator=0), "max_denominator must be >= 1"),
        (lambda: attention_rows(n_max=1.5), "n_max must be an int"),
    ],
)
def test_bad_arguments_raise_at_call_time(call, match):
    with pytest.raises(StrategyArgumentError, match=match):
        call()
    assert issubclass(StrategyArgumentError, InvalidArgument)


@given(simplex_rows(3, 4))
def test_simplex_rows_are_exact_distributions(rows):
    assert len(rows) == 3
    for r in rows:
        assert sum(r) == 1 and all(x >= 0 for x in r)
