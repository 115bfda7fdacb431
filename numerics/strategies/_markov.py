"""Hypothesis strategies for Markov chains of the focus-and-dilution spec (arXiv:2605.01199, §4).

Constructive (never filtered): every drawn object satisfies the spec's requirements by construction.

* :func:`stationary_laws`   S_pi(d): integer weights, normalised (exact ``Fraction``), sorted descending,
                            min pi >= 1e-3 and |pi - 1/d| >= 1e-2 (by construction: the largest weight is
                            raised until pi_1 - pi_d >= 0.0142 > sqrt(2) 1e-2).  ``distinct=True`` adds
                            gaps pi_k - pi_{k+1} >= 1e-2.
* :func:`lazy_chains`       F1 on S_pi with lam in [0, max_lam] (rational).
* :func:`metropolis_chains` F2 on S_pi with a random connected symmetric Q (rows <= 0.9).
* :func:`positive_chains`   F3, entries in [1/20, 1] (rational), rows normalised.
* :func:`chains`            S_P: one of F1, F2, F3.
* :func:`symmetric_rare_params`  S_sym: (d, pi1, lam), d in [3, 8], pi1 in [0.3, 0.85], pi1 > pi_l,
                            lam in [0.2, 0.9].
* :func:`zero_sum_directions`    S_c: zero-sum c with max |c| = 1.

Every strategy validates its arguments eagerly and raises :class:`StrategyArgumentError`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from ._core import StrategyArgumentError, check_int, check_number, shared_strategy

__all__ = [
    "stationary_laws",
    "lazy_chains",
    "metropolis_chains",
    "positive_chains",
    "chains",
    "symmetric_rare_params",
    "zero_sum_directions",
]

_W_MAX = 1000
_W_MIN = 10  # 10 / (10 + 7 * 1130) > 1e-3 for d <= 8 (see the raise of the top weight below)
_GAP = Fraction(142, 10000)  # pi_1 - pi_d >= 0.0142 gives |v| >= (pi_1 - pi_d)/sqrt(2) > 1e-2


def _check_d_range(min_d: int, max_d: int) -> None:
    check_int("min_d", min_d, 2, 8)
    check_int("max_d", max_d, 2, 8)
    if min_d > max_d:
        raise StrategyArgumentError(f"min_d={min_d} > max_d={max_d}")


@shared_strategy
def stationary_laws(d: int | None = None, *, min_d: int = 2, max_d: int = 8, distinct: bool = False
                    ) -> st.SearchStrategy[tuple[Fraction, ...]]:
    """S_pi(d): exact probability vectors, sorted descending, min >= 1e-3, |v| >= 1e-2."""
    if d is not None:
        check_int("d", d, 2, 8)
        min_d = max_d = d
    _check_d_range(min_d, max_d)
    if not isinstance(distinct, bool):
        raise StrategyArgumentError(f"distinct must be a bool, got {distinct!r}")

    @st.composite
    def _draw(draw: Any) -> tuple[Fraction, ...]:
        n = draw(st.integers(min_d, max_d))
        if distinct:
            # w_n = base, w_k = w_{k+1} + G inc_k with inc_k in [10, 30]: the gaps G inc_k are >= S/100
            # as soon as G (100 min inc - sum of the partial sums of inc) >= n base, and
            # 100 * 10 - 28 * 30 > 0 keeps that denominator positive for n <= 8.
            base = draw(st.integers(_W_MIN, 200))
            incs = draw(st.lists(st.integers(10, 30), min_size=n - 1, max_size=n - 1))
            cum = [sum(incs[:k + 1]) for k in range(n - 1)]
            denom = 100 * min(incs) - sum(cum) if incs else 1
            G = max(1, math.ceil(n * base / denom)) if incs else 1
            w = [base] + [base + G * c for c in cum]
        else:
            w = draw(st.lists(st.integers(_W_MIN, _W_MAX), min_size=n, max_size=n))
        w = sorted(w, reverse=True)
        S = sum(w)
        need = (w[-1] + _GAP * (S - w[0])) / (1 - _GAP)
        if w[0] - w[-1] < _GAP * S:
            w[0] = math.ceil(need)
        S = sum(w)
        return tuple(Fraction(x, S) for x in w)

    return _draw()


def _lam(max_lam: Any) -> st.SearchStrategy[Fraction]:
    return st.integers(0, 20).map(lambda k: Fraction(k, 20) * Fraction(max_lam))


@shared_strategy
def lazy_chains(d: int | None = None, *, min_d: int = 2, max_d: int = 8, max_lam: Any = Fraction(19, 20),
                distinct: bool = False) -> st.SearchStrategy[Any]:
    """F1 chains P = lam I + (1 - lam) 1 pi^T with pi from S_pi and lam in {0, ..., max_lam}/20 grid."""
    check_number("max_lam", max_lam, 0, 0.99)
    laws = stationary_laws(d, min_d=min_d, max_d=max_d, distinct=distinct)

    from numerics.markov import MarkovChain

    return st.builds(lambda pi, lam: MarkovChain.lazy(pi, lam), laws, _lam(max_lam))


@shared_strategy
def metropolis_chains(d: int | None = None, *, min_d: int = 2, max_d: int = 8) -> st.SearchStrategy[Any]:
    """F2: pi-reversible Metropolis chains; Q symmetric, zero diagonal, connected (a random spanning
    path plus extra edges), rows <= 0.9 (entries are 9/10 / (d - 1) times a weight in (0, 1])."""
    laws = stationary_laws(d, min_d=min_d, max_d=max_d)

    from numerics.markov import metropolis

    @st.composite
    def _draw(draw: Any) -> Any:
        pi = draw(laws)
        n = len(pi)
        perm = draw(st.permutations(list(range(n))))
        unit = Fraction(9, 10 * (n - 1))
        Q = [[Fraction(0)] * n for _ in range(n)]
        for a, b in zip(perm, perm[1:]):
            w = Fraction(draw(st.integers(1, 10)), 10) * unit
            Q[a][b] = Q[b][a] = w
        for i in range(n):
            for j in range(i + 1, n):
                if Q[i][j] == 0 and draw(st.booleans()):
                    w = Fraction(draw(st.integers(1, 10)), 10) * unit
                    Q[i][j] = Q[j][i] = w
        return metropolis(pi, Q)

    return _draw()


@shared_strategy
def positive_chains(d: int | None = None, *, min_d: int = 2, max_d: int = 8) -> st.SearchStrategy[Any]:
    """F3: entries k/20 with k in [1, 20], rows normalised; pi is computed (exactly)."""
    if d is not None:
        check_int("d", d, 2, 8)
        min_d = max_d = d
    _check_d_range(min_d, max_d)

    from numerics.markov import MarkovChain

    @st.composite
    def _draw(draw: Any) -> Any:
        n = draw(st.integers(min_d, max_d))
        rows = []
        for _ in range(n):
            w = draw(st.lists(st.integers(1, 20), min_size=n, max_size=n))
            s = sum(w)
            rows.append([Fraction(x, s) for x in w])
        return MarkovChain(rows, name="general_positive")

    return _draw()


@shared_strategy
def chains(d: int | None = None, *, min_d: int = 2, max_d: int = 8,
           families: tuple[str, ...] = ("lazy", "metropolis", "positive")) -> st.SearchStrategy[Any]:
    """S_P: a chain from the listed families (F1 'lazy', F2 'metropolis', F3 'positive')."""
    known = {"lazy": lazy_chains, "metropolis": metropolis_chains, "positive": positive_chains}
    if not families or any(f not in known for f in families):
        raise StrategyArgumentError(f"families must be a non-empty subset of {tuple(known)}, got {families!r}")
    return st.one_of(*[known[f](d, min_d=min_d, max_d=max_d) for f in families])


@shared_strategy
def symmetric_rare_params(*, min_d: int = 3, max_d: int = 8, min_lam: Any = Fraction(1, 5),
                          max_lam: Any = Fraction(9, 10)) -> st.SearchStrategy[tuple[int, Fraction, Fraction]]:
    """S_sym: (d, pi1, lam) with pi1 in [max(0.3, 1/d + 1/100), 0.85] on a 1/200 grid (so pi1 > pi_l)."""
    check_int("min_d", min_d, 3, 8)
    check_int("max_d", max_d, 3, 8)
    if min_d > max_d:
        raise StrategyArgumentError(f"min_d={min_d} > max_d={max_d}")
    check_number("min_lam", min_lam, 0, 0.99)
    check_number("max_lam", max_lam, 0, 0.99)
    if min_lam > max_lam:
        raise StrategyArgumentError(f"min_lam={min_lam} > max_lam={max_lam}")
    lo_l, hi_l = Fraction(min_lam), Fraction(max_lam)

    @st.composite
    def _draw(draw: Any) -> tuple[int, Fraction, Fraction]:
        d = draw(st.integers(min_d, max_d))
        lo = max(Fraction(3, 10), Fraction(1, d) + Fraction(1, 100))
        k_lo = math.ceil(lo * 200)
        pi1 = Fraction(draw(st.integers(k_lo, 170)), 200)
        n_l = int((hi_l - lo_l) * 100)
        lam = lo_l + Fraction(draw(st.integers(0, max(n_l, 0))), 100) if n_l > 0 else lo_l
        return d, pi1, min(lam, hi_l)

    return _draw()


@shared_strategy
def zero_sum_directions(n: int) -> st.SearchStrategy[tuple[Fraction, ...]]:
    """S_c: c in Q^n with sum 0 and max |c| = 1 (n >= 2)."""
    check_int("n", n, 2, 16)

    @st.composite
    def _draw(draw: Any) -> tuple[Fraction, ...]:
        raw = draw(st.lists(st.integers(-10, 10), min_size=n - 1, max_size=n - 1))
        c = [Fraction(x) for x in raw]
        c.append(-sum(c))
        if all(x == 0 for x in c):
            c = [Fraction(1), Fraction(-1)] + [Fraction(0)] * (n - 2)
        mx = max(abs(x) for x in c)
        return tuple(x / mx for x in c)

    return _draw()
