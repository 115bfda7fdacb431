"""Softmax attention tends to tie-averaging hardmax at rate exp(-gap/tau) (spec §4.10).

For one attention row with scores ``s_1..s_n`` and value vectors ``x_1..x_n``:

* ``C`` is the set of maximisers, ``c = |C|``, ``xbar_C`` their mean;
* the gap is ``Delta = max s - max_{l not in C} s_l`` (undefined when ``c = n``);
* ``D = max_l |x_l - xbar_C|`` (Euclidean).

Identity:  ``sum_l pi_l x_l - xbar_C = sum_{l not in C} pi_l (x_l - xbar_C)``  (weights on C are equal).
Bound:     ``|sum_l pi_l x_l - xbar_C| <= ((n - c)/c) * D * exp(-Delta/tau)``  for every tau > 0.
Limit:     ``exp(Delta/tau) (out - xbar_C) -> (1/c) sum_{l : s_l = max - Delta} (x_l - xbar_C)``.

The functions here are the single source of truth for these formulas: the claim's sympy statement
and its numeric checks all call them, with ``exp`` supplied by the arithmetic in use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["maximisers", "score_gap", "row_mean", "deviation_bound"]


def maximisers(scores: Sequence[Any]) -> list[int]:
    """Indices of all maximal scores (exact comparison; use exact or symbolic scores)."""
    if len(scores) == 0:
        raise ValueError("an attention row needs at least one score")
    top = max(scores)
    return [l for l, s in enumerate(scores) if s == top]


def score_gap(scores: Sequence[Any]) -> Any:
    """``Delta = max s - max_{l not in C} s_l``; ``None`` when every score is maximal."""
    top = max(scores)
    rest = [s for s in scores if s != top]
    return None if not rest else top - max(rest)


def row_mean(values: Sequence[Sequence[Any]], idx: Sequence[int]) -> tuple[Any, ...]:
    """Mean of ``values[l]`` over ``l`` in ``idx`` (exact for rational inputs)."""
    if not idx:
        raise ValueError("mean over an empty index set")
    d = len(values[0])
    return tuple(sum((Fraction(values[l][k]) for l in idx), Fraction(0)) / len(idx) for k in range(d))


def deviation_bound(n: int, c: int, D: Any, gap: Any, tau: Any, *, exp: Callable[[Any], Any],
                    exponent_factor: int = 1) -> Any:
    """``((n - c)/c) * D * exp(-exponent_factor * gap / tau)``; ``exponent_factor=2`` is the spec's
    deliberately wrong control (a).  ``exp`` comes from the arithmetic (sympy.exp, ctx.exp, ...)."""
    return (n - c) * D * exp(-exponent_factor * gap / tau) / c
