"""``dataset.token_key``: the hash key of an exact token, equal exactly when the tokens are equal, whatever
rational type (fmpq, Fraction, int) carries the coordinates -- sets and dicts of tokens rely on it."""

from __future__ import annotations

from fractions import Fraction

import flint
from hypothesis import given
from hypothesis import strategies as st

from theorems.interpolation.dataset import token_key

coord = st.fractions(min_value=-3, max_value=3, max_denominator=4)
tokens = st.lists(coord, min_size=1, max_size=3).map(tuple)


def _as(kind, t):
    if kind == "fmpq":
        return tuple(flint.fmpq(v.numerator, v.denominator) for v in t)
    if kind == "int":
        return tuple(int(v) if v.denominator == 1 else v for v in t)
    return t


@given(tokens, tokens, st.sampled_from(["fmpq", "fraction", "int"]), st.sampled_from(["fmpq", "fraction", "int"]))
def test_equal_keys_exactly_for_equal_tokens(a, b, ka, kb):
    if len(a) != len(b):
        b = a if len(b) < len(a) else b[:len(a)]
    ta, tb = _as(ka, a), _as(kb, b)
    assert (token_key(ta) == token_key(tb)) == (a == b)
    if a == b:
        assert hash(token_key(ta)) == hash(token_key(tb))


def test_keys_tell_tokens_apart_in_every_coordinate():
    for t, u in [((Fraction(1), Fraction(2)), (Fraction(3), Fraction(2))),
                 ((Fraction(1, 2),), (Fraction(1, 3),))]:
        for kind in ("fmpq", "fraction", "int"):
            assert token_key(_as(kind, t)) != token_key(_as(kind, u))
