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


def test_shared_strategy_keys_on_exact_immutable_arguments():
    from fractions import Fraction

    from numerics.strategies import lazy_chains, spd_matrices

    assert rationals(-3, 3) is rationals(-3, 3)
    assert rationals(-3, 3) is not rationals(-3, 4)
    assert spd_matrices(1, 3, log10_range=(-1.0, 1.0)) is not spd_matrices(1, 3, log10_range=(-1.0, 2.0))
    # the type is part of the key: an equal value of another type is validated on its own
    assert lazy_chains(3, max_lam=Fraction(1, 2)) is not lazy_chains(3, max_lam=0.5)
    with pytest.raises(StrategyArgumentError):
        rationals(-3, 3.0)
    # a mutable argument is never shared (the strategy closes over it)
    kinds = ["random"]
    assert simplex_rows(2, 3, kinds=kinds) is not simplex_rows(2, 3, kinds=kinds)
    # an invalid call is not stored: it raises every time
    for _ in range(2):
        with pytest.raises(StrategyArgumentError):
            rationals(5, 1)
