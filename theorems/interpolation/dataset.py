"""Datasets of sequence-to-sequence interpolation and their validation (spec §2.1, §4.0).

A dataset is ``D = {(X^j, Y^j)}_{j=1..N}``: ``X^j = (x^j_1..x^j_{n_j})`` and ``Y^j = (y^j_1..y^j_{m_j})``
are lists of tokens in ``Q^d`` (floats are converted *exactly* to the dyadic rationals they are).
The assumptions of the theorems, made precise by the spec:

* A1 the tokens inside each ``X^j`` are pairwise distinct;
* A2 the ``X^j`` are pairwise distinct **as sets** (blocks carry no positional information, so two
  sequences that are permutations of each other get the same output set; spec §2.1);
* A3 the targets inside each ``Y^j`` are pairwise distinct;
* A4 ``1 <= m_j <= n_j``;
* ``d >= 2`` (``d = 1`` is refused; no impossibility is claimed, spec §2.6), every token of the same
  dimension, every coordinate finite.

A violation raises :class:`DatasetError` (a ``ValueError``) naming the sequence, the tokens and the rule.

>>> D = Dataset([[(0, 0), (1, 0)], [(0, 0), (0, 1)]], [[(5, 5)], [(-1, 2), (3, 3)]])
>>> D.N, D.M, D.d, D.n
(2, 3, 2, 2)
>>> Dataset([[(0, 0), (0, 0)]], [[(1, 1)]])
Traceback (most recent call last):
...
theorems.interpolation.dataset.DatasetError: A1 violated: input sequence 0 repeats the token (0, 0) at positions 0 and 1 (tokens inside each input sequence must be pairwise distinct)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from numerics.errors import InputError, InputTypeError
from numerics.exact import HAVE_FLINT, rational

if HAVE_FLINT:
    import flint

__all__ = ["Dataset", "DatasetError", "as_rational", "fmt_token", "token_key"]


class DatasetError(InputError):
    """A dataset violates an assumption of the interpolation theorems (the message names the rule).

    An :class:`~numerics.errors.InputError` (so also a ``ValueError``) whose argument is the dataset
    part at fault (``inputs``, ``outputs`` or ``dataset``).
    """

    def __init__(self, message: str, *, argument: str = "dataset"):
        self.argument, self.rule, self.value = argument, message, None
        ValueError.__init__(self, message)


def as_rational(x: Any, backend: str = "flint" if HAVE_FLINT else "fraction") -> Any:
    """An exact rational (fmpq or Fraction) from int / Fraction / fmpq / finite float / "p/q"."""
    if isinstance(x, float) and not math.isfinite(x):
        raise DatasetError(f"coordinate {x!r} is not finite")
    try:
        return rational(x, backend=backend)
    except (TypeError, ValueError) as e:
        raise DatasetError(f"coordinate {x!r} is not an exact real number: {e}") from None


def hausdorff_sq(P: Sequence[Sequence[Any]], Q: Sequence[Sequence[Any]]) -> Fraction:
    """Squared Hausdorff distance (Euclidean) between two finite token sets, exact for rational tokens:
    ``max(max_p min_q |p - q|^2, max_q min_p |p - q|^2)`` (spec §2.4); 0 iff set(P) = set(Q)."""
    from numerics.exact import to_fraction

    if not P or not Q:
        raise InputError("P, Q", "both token sets must be non-empty", (len(P), len(Q)), has_value=True)
    if HAVE_FLINT and all(type(v) is flint.fmpq for t in (*P, *Q) for v in t):
        A, B, zero = P, Q, flint.fmpq(0)  # fmpq tokens: the same rationals in flint's (C) arithmetic
    else:
        A = [tuple(to_fraction(v) for v in p) for p in P]
        B = [tuple(to_fraction(v) for v in q) for q in Q]
        zero = Fraction(0)

    def d2(u: tuple, v: tuple) -> Any:
        return sum(((a - b) * (a - b) for a, b in zip(u, v, strict=True)), zero)

    worst = max(max(min(d2(a, b) for b in B) for a in A), max(min(d2(a, b) for a in A) for b in B))
    return to_fraction(worst)


def _coord_key(v: Any) -> Any:
    if HAVE_FLINT and type(v) is flint.fmpq:
        return (v.p, v.q)
    if type(v) is Fraction:
        return (v.numerator, v.denominator)
    if type(v) is int:
        return (v, 1)
    return v


def token_key(t: Sequence[Any]) -> tuple:
    """A hashable key of an exact token, equal exactly when the tokens are equal, for sets and dicts of
    tokens: the canonical (numerator, denominator) pair of every coordinate (fmpq, Fraction, int; fmpz
    and int pairs compare and hash alike).  An fmpq hashes through a Fraction (~2.7 us a coordinate),
    its pair of fmpz ~10x faster.  Any other coordinate type is its own key."""
    try:
        return tuple([(v.p, v.q) for v in t])  # fmpq (and sympy Rational): canonical p, q
    except AttributeError:
        return tuple([_coord_key(v) for v in t])


def fmt_token(t: Sequence[Any]) -> str:
    """``(1, 1/2)`` style rendering of an exact token."""
    return "(" + ", ".join(str(v) for v in t) + ")"


def _tokens(seq: Any, what: str, j: int, backend: str) -> list[tuple[Any, ...]]:
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__len__"):
        raise DatasetError(f"{what} sequence {j} must be a list of tokens, got {type(seq).__name__}",
                           argument=what + "s")
    out = []
    for i, tok in enumerate(seq):
        if isinstance(tok, (str, bytes)) or not hasattr(tok, "__len__"):
            raise DatasetError(f"{what} sequence {j}, token {i} must be a vector, got {tok!r}",
                               argument=what + "s")
        try:
            out.append(tuple(as_rational(v, backend) for v in tok))
        except DatasetError as e:
            raise DatasetError(f"{what} sequence {j}, token {i}: {e}", argument=what + "s") from None
    return out


class Dataset:
    """A validated interpolation dataset (exact rational tokens); see the module docstring.

    Attributes: ``inputs`` and ``outputs`` (lists of lists of exact tuples), ``N``, ``M = sum m_j``,
    ``n = max n_j``, ``d``, ``lengths`` (the n_j) and ``target_counts`` (the m_j).
    ``allow_d1=True`` admits d = 1 for the lemma/equivariance checks only; the builder still refuses it.
    """

    def __init__(self, inputs: Sequence[Sequence[Sequence[Any]]],
                 outputs: Sequence[Sequence[Sequence[Any]]], *, backend: str | None = None,
                 allow_d1: bool = False, _skip_A2: bool = False):
        backend = backend or ("flint" if HAVE_FLINT else "fraction")
        if backend not in ("flint", "fraction") or (backend == "flint" and not HAVE_FLINT):
            raise InputError("backend", "must be 'flint' (python-flint installed) or 'fraction'", backend,
                             has_value=True)
        self.backend = backend
        for name, part in (("inputs", inputs), ("outputs", outputs)):
            if isinstance(part, (str, bytes)) or not hasattr(part, "__len__") or not hasattr(part, "__iter__"):
                raise InputTypeError(name, "must be a list of sequences, each a list of tokens (vectors of "
                                     "real numbers)", type(part).__name__, has_value=True)
        if len(inputs) == 0:
            raise DatasetError("the dataset is empty: at least one input sequence is required",
                               argument="inputs")
        if len(inputs) != len(outputs):
            raise DatasetError(f"{len(inputs)} input sequences but {len(outputs)} output sequences",
                               argument="outputs")
        X = [_tokens(s, "input", j, backend) for j, s in enumerate(inputs)]
        Y = [_tokens(s, "output", j, backend) for j, s in enumerate(outputs)]
        dims: dict[int, tuple[str, int, int]] = {}
        for what, seqs in (("input", X), ("output", Y)):
            for j, s in enumerate(seqs):
                for i, t in enumerate(s):
                    dims.setdefault(len(t), (what, j, i))
        if len(dims) > 1:
            desc = "; ".join(f"dimension {k} first at {w} sequence {j}, token {i}"
                             for k, (w, j, i) in sorted(dims.items()))
            raise DatasetError(f"mixed token dimensions ({desc}): every token must lie in the same R^d")
        d = next(iter(dims)) if dims else 0
        if d == 0:
            raise DatasetError("tokens must have at least one coordinate")
        if d < 2 and not allow_d1:
            raise DatasetError("d = 1 is refused: the construction needs d >= 2 (spec §2.6; the toolkit "
                               "claims no impossibility for d = 1)")
        for j, (x, y) in enumerate(zip(X, Y)):
            if len(y) == 0:
                raise DatasetError(f"A4 violated: output sequence {j} is empty (m_{j} = 0; need 1 <= m_j <= n_j)")
            if len(y) > len(x):
                raise DatasetError(f"A4 violated: output sequence {j} has m_{j} = {len(y)} targets but input "
                                   f"sequence {j} has only n_{j} = {len(x)} tokens (need m_j <= n_j)")
            for what, rule, seq in (("input", "A1", x), ("output", "A3", y)):
                seen: dict[tuple[Any, ...], int] = {}  # by token_key: equal keys iff equal tokens
                for i, t in enumerate(seq):
                    tk = token_key(t)
                    if tk in seen:
                        kind = "tokens inside each input sequence" if rule == "A1" else "targets inside each output sequence"
                        raise DatasetError(f"{rule} violated: {what} sequence {j} repeats the token {fmt_token(t)} "
                                           f"at positions {seen[tk]} and {i} ({kind} must be pairwise distinct)")
                    seen[tk] = i
        sets: dict[frozenset, int] = {}
        for j, x in enumerate(X):
            key = frozenset(map(token_key, x))
            if key in sets and not _skip_A2:
                k = sets[key]
                raise DatasetError(
                    f"A2 violated: input sequences {k} and {j} are equal as sets "
                    f"{{{', '.join(fmt_token(t) for t in sorted(x, key=lambda t: tuple(Fraction(str(v)) for v in t)))}}} "
                    "(every network of the class is permutation-equivariant, so the inputs must be "
                    "pairwise distinct as sets)")
            sets[key] = j
        self.inputs = X
        self.outputs = Y
        self.N = len(X)
        self.d = d
        self.lengths = [len(x) for x in X]
        self.target_counts = [len(y) for y in Y]
        self.M = sum(self.target_counts)
        self.n = max(self.lengths)

    @property
    def num_tokens(self) -> int:
        return sum(self.lengths)

    def __repr__(self) -> str:
        return f"<Dataset N={self.N} M={self.M} d={self.d} n={self.n} tokens={self.num_tokens}>"

    def to_json(self) -> dict[str, Any]:
        return {"inputs": [[[str(v) for v in t] for t in s] for s in self.inputs],
                "outputs": [[[str(v) for v in t] for t in s] for s in self.outputs]}

    @classmethod
    def from_json(cls, obj: dict[str, Any], **kw: Any) -> Dataset:
        return cls(obj["inputs"], obj["outputs"], **kw)
