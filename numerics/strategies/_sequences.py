"""Hypothesis strategies for interpolation datasets, arXiv:2502.02270 (spec §4.0).

A drawn dataset is a pair ``(inputs, outputs)`` of lists of sequences of tokens (tuples of
:class:`fractions.Fraction`), ready for ``theorems.interpolation.Dataset(inputs, outputs)``.

* :func:`interpolation_datasets` -- valid datasets: ``d in [d_min, d_max]``, ``N in [1, N_max]``; a shared
  pool of integer tokens in ``[-pool, pool]^d`` forces tokens shared between sequences; each ``X^j`` has
  ``n_j in [1, n_max]`` distinct tokens and is distinct as a set from the others; ``m_j in [1, n_j]``
  distinct targets (small integers or dyadic rationals, possibly equal to input tokens or to the targets
  of other sequences).
* :func:`invalid_datasets` -- one violated assumption per ``kind`` (see :data:`INVALID_KINDS`).
* :func:`edge_case_datasets` -- the spec's edge cases, pinned as explicit examples.
* :func:`token_lists` -- finite lists of rational tokens (for the attention lemmas).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import strategies as st

from ._core import StrategyArgumentError, check_int, shared_strategy

__all__ = ["interpolation_datasets", "invalid_datasets", "edge_case_datasets", "token_lists",
           "INVALID_KINDS", "NESTED_CHAIN"]

#: kinds of invalid datasets (spec §4.0): each violates exactly one assumption
INVALID_KINDS = ("permutation", "repeated_token", "too_many_targets", "repeated_target",
                 "empty_targets", "mixed_dimensions", "d1", "non_finite")

F = Fraction

#: the nested chain {0} ⊂ {0, e1} ⊂ {0, e1, e2} ⊂ {0, e1, e2, e1+e2} with the spec's targets
NESTED_CHAIN = (
    [[(F(0), F(0))], [(F(0), F(0)), (F(1), F(0))], [(F(0), F(0)), (F(1), F(0)), (F(0), F(1))],
     [(F(0), F(0)), (F(1), F(0)), (F(0), F(1)), (F(1), F(1))]],
    [[(F(5), F(5))], [(F(-3), F(2))], [(F(1), F(1)), (F(2), F(2))],
     [(F(0), F(0)), (F(9), F(9)), (F(-9), F(9))]],
)


def _vec(*xs):
    return tuple(F(x) for x in xs)


def edge_case_datasets() -> list[tuple[list, list]]:
    """The spec's edge cases (§4.0), always included as explicit examples."""
    cases = [
        ([[_vec(1, 2), _vec(3, 4)]], [[_vec(0, 0)]]),  # N = 1
        ([[_vec(1, 1)], [_vec(2, 1)]], [[_vec(7, 7)], [_vec(-1, 0)]]),  # n_j = 1
        ([[_vec(0, 1), _vec(1, 0)], [_vec(0, 1), _vec(1, 1)]],
         [[_vec(3, 3), _vec(4, 4)], [_vec(5, 5), _vec(6, 6)]]),  # m_j = n_j
        NESTED_CHAIN,
        # all sequences share one token; a token at 0; targets shared across sequences
        ([[_vec(0, 0), _vec(1, 2)], [_vec(0, 0), _vec(2, 1)], [_vec(0, 0), _vec(-1, -1)]],
         [[_vec(1, 1)], [_vec(1, 1)], [_vec(1, 1), _vec(0, 0)]]),
        # coordinates up to 10^6 and tokens 10^-6 apart
        ([[_vec(10 ** 6, -10 ** 6), _vec(0, 0)], [_vec(0, 0), _vec(F(1, 10 ** 6), 0)]],
         [[_vec(1, 0)], [_vec(0, 1), _vec(2, 2)]]),
        # d = 3, tokens that differ only in the last coordinate (tie-prone)
        ([[_vec(1, 1, 0), _vec(1, 1, 1)], [_vec(1, 1, 1), _vec(1, 1, 2)], [_vec(1, 1, 0), _vec(1, 1, 2)]],
         [[_vec(0, 0, 1)], [_vec(0, 1, 0), _vec(1, 0, 0)], [_vec(2, 2, 2)]]),
    ]
    # the 15 unions of non-empty subsets of the antipodal pairs +-(1,0), +-(0,1), +-(2,0), +-(0,2)
    pairs = [(_vec(1, 0), _vec(-1, 0)), (_vec(0, 1), _vec(0, -1)), (_vec(2, 0), _vec(-2, 0)),
             (_vec(0, 2), _vec(0, -2))]
    ins, outs = [], []
    for k in range(1, 5):
        for sub in combinations(range(4), k):
            ins.append([t for i in sub for t in pairs[i]])
            outs.append([_vec(len(ins), 0)])
    cases.append((ins, outs))
    return cases


def _check_range(lo_name: str, lo: int, hi_name: str, hi: int) -> None:
    if lo > hi:
        raise StrategyArgumentError(f"{lo_name} = {lo} must be <= {hi_name} = {hi}")


def _target_value():
    return st.one_of(st.integers(-4, 4).map(F),
                     st.tuples(st.integers(-16, 16), st.sampled_from([2, 4, 8])).map(lambda t: F(t[0], t[1])))


@shared_strategy
def interpolation_datasets(*, d_min: int = 2, d_max: int = 5, N_max: int = 6, n_max: int = 8,
                           pool: int = 3, m_max: int | None = None) -> st.SearchStrategy:
    """Valid datasets ``(inputs, outputs)`` with tokens shared across sequences (spec §4.0)."""
    check_int("d_min", d_min, 1)
    check_int("d_max", d_max, 1)
    check_int("N_max", N_max, 1)
    check_int("n_max", n_max, 1)
    check_int("pool", pool, 1)
    if m_max is not None:
        check_int("m_max", m_max, 1)
    _check_range("d_min", d_min, "d_max", d_max)
    if n_max > (2 * pool + 1) ** d_min:
        raise StrategyArgumentError(f"n_max = {n_max} exceeds the pool size (2*pool+1)^d_min")

    # strategies built once, not per draw: the same descriptions, so the same draws; with ``coord`` and
    # ``target`` persistent, hypothesis' strategy cache serves the tuples/lists built from them
    d_of, N_of = st.integers(d_min, d_max), st.integers(1, N_max)
    size_of = st.integers(max(2, n_max), max(2, n_max) + 4)
    coord = st.integers(-pool, pool).map(F)
    target = _target_value()

    @st.composite
    def draw(dr):
        d = dr(d_of)
        N = dr(N_of)
        size = dr(size_of)
        P = dr(st.lists(st.tuples(*[coord] * d), min_size=size, max_size=size, unique=True))
        inputs, seen = [], set()
        for _ in range(N):
            n = dr(st.integers(1, min(n_max, len(P))))
            idx = dr(st.lists(st.integers(0, len(P) - 1), min_size=n, max_size=n, unique=True))
            s = [P[i] for i in idx]
            key = frozenset(s)
            if key in seen:
                continue
            seen.add(key)
            inputs.append(s)
        outputs = []
        for s in inputs:
            hi = len(s) if m_max is None else min(len(s), m_max)
            m = dr(st.integers(1, hi))
            source = st.one_of(st.tuples(*[target] * d), st.sampled_from(s + P))
            ys = dr(st.lists(source, min_size=m, max_size=m, unique=True))
            outputs.append(ys)
        return inputs, outputs

    return draw()


@shared_strategy
def invalid_datasets(kind: str) -> st.SearchStrategy:
    """Datasets violating exactly one assumption; ``kind`` is one of :data:`INVALID_KINDS`."""
    if kind not in INVALID_KINDS:
        raise StrategyArgumentError(f"kind must be one of {INVALID_KINDS}, got {kind!r}")
    base = interpolation_datasets(d_min=2, d_max=3, N_max=4, n_max=5)

    @st.composite
    def draw(dr):
        inputs, outputs = dr(base)
        inputs = [list(s) for s in inputs]
        outputs = [list(y) for y in outputs]
        j = dr(st.integers(0, len(inputs) - 1))
        d = len(inputs[0][0])
        if kind == "permutation":
            perm = dr(st.permutations(inputs[j]))
            if len(perm) == 1 or list(perm) == inputs[j]:
                perm = list(reversed(inputs[j])) if len(inputs[j]) > 1 else inputs[j]
            inputs.append(list(perm))
            outputs.append([tuple(v + 1 for v in outputs[j][0])])
        elif kind == "repeated_token":
            i = dr(st.integers(0, len(inputs[j]) - 1))
            inputs[j].append(inputs[j][i])
        elif kind == "too_many_targets":
            extra = [tuple(F(100 + k) for _ in range(d)) for k in range(len(inputs[j]) + 1 - len(outputs[j]))]
            outputs[j] = outputs[j] + extra
        elif kind == "repeated_target":
            inputs[j].append(tuple(F(50) for _ in range(d)))
            outputs[j].append(outputs[j][0])
        elif kind == "empty_targets":
            outputs[j] = []
        elif kind == "mixed_dimensions":
            inputs[j][0] = inputs[j][0] + (F(0),)
        elif kind == "d1":
            inputs = [[(F(i),), (F(i + 100),)] for i in range(len(inputs))]
            outputs = [[(F(-i),)] for i in range(len(inputs))]
        elif kind == "non_finite":
            inputs[j][0] = (float("nan"),) + inputs[j][0][1:]
        return inputs, outputs

    return draw()


@shared_strategy
def token_lists(*, d_min: int = 1, d_max: int = 5, n_min: int = 1, n_max: int = 8, lo: int = -6,
                hi: int = 6, max_denominator: int = 4) -> st.SearchStrategy:
    """Lists of ``n`` rational tokens in ``Q^d`` (entries p/q with |p/q| bounded), duplicates allowed."""
    check_int("d_min", d_min, 1)
    check_int("d_max", d_max, 1)
    check_int("n_min", n_min, 1)
    check_int("n_max", n_max, 1)
    check_int("max_denominator", max_denominator, 1)
    _check_range("d_min", d_min, "d_max", d_max)
    _check_range("n_min", n_min, "n_max", n_max)
    _check_range("lo", lo, "hi", hi)
    val = st.tuples(st.integers(lo * max_denominator, hi * max_denominator),
                    st.integers(1, max_denominator)).map(lambda t: F(t[0], t[1]))

    @st.composite
    def draw(dr):
        d = dr(st.integers(d_min, d_max))
        n = dr(st.integers(n_min, n_max))
        return [tuple(dr(val) for _ in range(d)) for _ in range(n)]

    return draw()
