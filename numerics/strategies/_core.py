"""Shared hypothesis strategies and their argument validation.

Every public strategy validates its arguments *eagerly* (when it is called, not when it is drawn
from) and raises :class:`StrategyArgumentError` naming the bad argument, as hypothesis' own
strategies do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

__all__ = [
    "StrategyArgumentError",
    "shared_strategy",
    "check_int",
    "check_number",
    "rationals",
    "rational_vectors",
    "simplex_rows",
    "attention_rows",
]


class StrategyArgumentError(InvalidArgument):
    """A strategy of :mod:`numerics.strategies` was called with an invalid argument."""


_F = TypeVar("_F", bound=Callable[..., Any])
_SHARED_MAX = 256  # per constructor; the oldest entry goes first


class _Unshared(Exception):
    """An argument that is not an immutable value: the call is not memoised."""


def _exact_key(x: Any) -> Any:
    """A key equal for equal immutable values only: the type is part of it (1, 1.0, True and
    Fraction(1) differ) and a float is its repr (0.0 and -0.0 differ); a list, dict or any other
    object raises :class:`_Unshared` (a strategy closes over its arguments, so a mutable one must not
    be shared)."""
    if x is None or type(x) in (bool, int, str, Fraction):
        return (type(x).__name__, x)
    if type(x) is float:
        return ("float", repr(x))
    if type(x) is tuple:
        return ("tuple", tuple(_exact_key(v) for v in x))
    raise _Unshared


def shared_strategy(fn: _F) -> _F:
    """Memoise a strategy constructor on its exact (immutable) arguments.

    A strategy is an immutable description, so one object serves every caller (hypothesis caches its
    own ``st.integers`` etc. the same way); the draws are the same.  Building one costs 0.3-3 ms
    (``st.composite`` compiles a signature), and the quick catalogue rebuilt the same ~20 strategies
    ~600 times (e.g. ``interpolation_datasets()`` 41 times, 4 distinct argument sets).  Validation
    still runs on every new argument set (an invalid call raises and is not stored); calls with a
    mutable or unknown argument are not memoised."""
    memo: dict[Any, Any] = {}

    @functools.wraps(fn)
    def shared(*args: Any, **kwargs: Any) -> Any:
        try:
            key = (_exact_key(args), _exact_key(tuple(sorted(kwargs.items()))))
        except _Unshared:
            return fn(*args, **kwargs)
        strategy = memo.get(key)
        if strategy is None:
            strategy = fn(*args, **kwargs)
            if len(memo) >= _SHARED_MAX:
                memo.pop(next(iter(memo)))
            memo[key] = strategy
        return strategy

    shared.cache_clear = memo.clear  # type: ignore[attr-defined]
    return shared  # type: ignore[return-value]


def check_int(name: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StrategyArgumentError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if lo is not None and value < lo:
        raise StrategyArgumentError(f"{name} must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise StrategyArgumentError(f"{name} must be <= {hi}, got {value}")
    return value


def check_number(name: str, value: Any, lo: float | None = None, hi: float | None = None,
                 *, strict_lo: bool = False) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise StrategyArgumentError(f"{name} must be a real number, got {type(value).__name__}")
    if value != value or value in (float("inf"), float("-inf")):
        raise StrategyArgumentError(f"{name} must be finite, got {value!r}")
    if lo is not None and (value <= lo if strict_lo else value < lo):
        raise StrategyArgumentError(f"{name} must be {'>' if strict_lo else '>='} {lo}, got {value}")
    if hi is not None and value > hi:
        raise StrategyArgumentError(f"{name} must be <= {hi}, got {value}")
    return value


@shared_strategy
def rationals(min_value: int = -10, max_value: int = 10, max_denominator: int = 16
              ) -> st.SearchStrategy[Fraction]:
    """Fractions ``p/q`` in [min_value, max_value] with ``1 <= q <= max_denominator``."""
    check_int("min_value", min_value)
    check_int("max_value", max_value)
    check_int("max_denominator", max_denominator, 1)
    if min_value > max_value:
        raise StrategyArgumentError(f"min_value={min_value} > max_value={max_value}")

    @st.composite
    def _draw(draw: Any) -> Fraction:
        q = draw(st.integers(1, max_denominator))
        p = draw(st.integers(min_value * q, max_value * q))
        return Fraction(p, q)

    return _draw()


@shared_strategy
def rational_vectors(d: int, *, min_value: int = -10, max_value: int = 10,
                     max_denominator: int = 16) -> st.SearchStrategy[tuple[Fraction, ...]]:
    check_int("d", d, 1)
    return st.tuples(*[rationals(min_value, max_value, max_denominator)] * d)


@shared_strategy
def simplex_rows(n: int, k: int, *, exact: bool = True,
                 kinds: tuple[str, ...] = ("random", "one_hot", "uniform", "sparse"),
                 ) -> st.SearchStrategy[list[list[Any]]]:
    """``n`` rows on the probability simplex of dimension ``k``.

    Kinds: random (Dirichlet-like, from integer weights), one-hot rows, uniform rows and rows with
    exact zeros on a random support.  ``exact=True`` gives Fractions summing to exactly 1; otherwise
    floats normalised in float64.
    """
    check_int("n", n, 1)
    check_int("k", k, 1)
    allowed = {"random", "one_hot", "uniform", "sparse"}
    if not kinds or set(kinds) - allowed:
        raise StrategyArgumentError(f"kinds must be a non-empty subset of {sorted(allowed)}")

    @st.composite
    def _row(draw: Any) -> list[Any]:
        kind = draw(st.sampled_from(kinds))
        if kind == "one_hot":
            j = draw(st.integers(0, k - 1))
            w = [int(i == j) for i in range(k)]
        elif kind == "uniform":
            w = [1] * k
        else:
            w = draw(st.lists(st.integers(0 if kind == "sparse" else 1, 1000), min_size=k, max_size=k))
            if sum(w) == 0:
                w[draw(st.integers(0, k - 1))] = 1
        s = sum(w)
        return [Fraction(x, s) for x in w] if exact else [x / s for x in w]

    return st.lists(_row(), min_size=n, max_size=n)


@shared_strategy
def attention_rows(*, n_max: int = 12, d_max: int = 3, score_bound: int = 5,
                   max_denominator: int = 8) -> st.SearchStrategy[tuple[list[Fraction], list[tuple[Fraction, ...]]]]:
    """One attention row: rational scores (with forced ties) and rational value vectors.

    Returns ``(scores, values)`` with ``1 <= n <= n_max`` entries and values in Q^d, d <= d_max.
    About half of the rows get a tie at the maximum.
    """
    check_int("n_max", n_max, 1)
    check_int("d_max", d_max, 1)
    check_int("score_bound", score_bound, 1)
    check_int("max_denominator", max_denominator, 1)

    # strategies built once, not per draw (the same descriptions, so the same draws)
    score = rationals(-score_bound, score_bound, max_denominator)
    vectors = {d: rational_vectors(d, min_value=-score_bound, max_value=score_bound,
                                   max_denominator=max_denominator) for d in range(1, d_max + 1)}

    @st.composite
    def _draw(draw: Any) -> tuple[list[Fraction], list[tuple[Fraction, ...]]]:
        n = draw(st.integers(1, n_max))
        d = draw(st.integers(1, d_max))
        sc = draw(st.lists(score, min_size=n, max_size=n))
        ties = draw(st.integers(0, n - 1))
        top = max(sc)
        for i in draw(st.permutations(range(n)))[:ties]:
            if draw(st.booleans()):
                sc[i] = top
        vals = draw(st.lists(vectors[d], min_size=n, max_size=n))
        return sc, vals

    return _draw()
