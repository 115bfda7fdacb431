"""The exact hardmax evaluator with lazy per-sequence translations (the Bondy rounds at scale).

A top-attention round of stage S (spec §3.2.6, ``rho = 1``, ``lam = eps``) translates every token of a
sequence by the same exact vector ``lam * (mean of the maximisers)``.  :class:`ShiftState` keeps each
token as ``base_i + shift_j`` (``shift_j`` the exact sum of the pending translations of its sequence),
so such a round costs ``O(d)`` per sequence instead of ``O(n_j d)``; a token is materialised only where
the exact path needs it (an FF group the filter cannot decide, a winner's value), and all tokens when a
caller reads :attr:`P` or :attr:`F`.  The outputs are the exact outputs of
:class:`~theorems.interpolation.exact_state.ExactState` (the same exact decisions on the same exact values).

Float filter (the only place floats enter): ``F_eff = fl(F_base + F_shift)`` with both shadows the
roundings of exact rationals, so ``|F_eff - x| <= 2^-50(|F_base| + |F_shift|) + 2^-53 |F_eff|
<= 2^-49 B`` with ``B = |F_base| + |F_shift| >= |F_eff|`` entrywise; the filters of ExactState take
``B`` as their magnitude bound (their constants, ``(d + 4) 2^-49`` per dot product, already cover a
shadow error of ``2^-49 B``; see :meth:`ExactState._shadows`).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .exact_state import ExactState

__all__ = ["ShiftState"]


def _floats(t: tuple[Any, ...]) -> list[float]:
    try:
        return [float(v) for v in t]
    except OverflowError:
        from .exact_state import _f

        return [_f(v) for v in t]


class ShiftState(ExactState):
    """:class:`ExactState` whose whole-sequence translations are kept pending (exact, per sequence)."""

    def __init__(self, sequences: Sequence[Sequence[Sequence[Any]]], Q: Any):
        self._pending = 0
        super().__init__(sequences, Q)
        self._seq = np.repeat(np.arange(self.num_sequences), np.diff(self.offsets))
        self._shift: list[tuple | None] = [None] * self.num_sequences
        self._FS = np.zeros((self.num_sequences, self.d))

    # -- materialised views (flush every pending translation) ------------------------------------
    @property
    def P(self) -> list[tuple[Any, ...]]:
        self.flush()
        return self._B

    @P.setter
    def P(self, value: list[tuple[Any, ...]]) -> None:
        self._B = value

    @property
    def F(self) -> np.ndarray:
        self.flush()
        return self._FB

    @F.setter
    def F(self, value: np.ndarray) -> None:
        self._FB = value

    def flush(self, j: int | None = None) -> None:
        """Fold the pending translation of sequence j (of every sequence if None) into the tokens."""
        if not self._pending:
            return
        for k in (range(self.num_sequences) if j is None else (j,)):
            s = self._shift[k]
            if s is None:
                continue
            a, b = self.offsets[k], self.offsets[k + 1]
            B = self._B
            rows = [tuple(map(operator.add, B[i], s)) for i in range(a, b)]
            B[a:b] = rows
            self._FB[a:b] = [_floats(t) for t in rows]
            self._shift[k] = None
            self._FS[k] = 0.0
            self._pending -= 1

    # -- hooks ----------------------------------------------------------------------------------
    def _shadows(self, a: int = 0, b: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        FB = self._FB[a:b]
        if not self._pending:
            return FB, np.abs(FB)
        FS = self._FS[self._seq[a:b]]
        with np.errstate(all="ignore"):
            return FB + FS, np.abs(FB) + np.abs(FS)

    def _token(self, i: int) -> tuple[Any, ...]:
        s = self._shift[self._seq[i]] if self._pending else None
        x = self._B[i]
        return x if s is None else tuple(map(operator.add, x, s))

    def _store(self, i: int, t: tuple[Any, ...]) -> None:
        s = self._shift[self._seq[i]] if self._pending else None
        base = t if s is None else tuple(map(operator.sub, t, s))
        self._B[i] = base
        self._FB[i] = _floats(base)
        self.exact_updates += 1

    def _translate_sequence(self, j: int, a: int, b: int, rho: Any, lm: tuple[Any, ...]) -> None:
        if rho != 1:
            self.flush(j)
            super()._translate_sequence(j, a, b, rho, lm)
            return
        if all(v == 0 for v in lm):
            return
        s = self._shift[j]
        if s is None:
            self._pending += 1
            s = lm
        else:
            s = tuple(map(operator.add, s, lm))
        self._shift[j] = s
        self._FS[j] = _floats(s)
        self.exact_updates += b - a

    # -- access without flushing ----------------------------------------------------------------
    def token(self, i: int) -> tuple[Any, ...]:
        """The exact current token i (no flush)."""
        return self._token(i)

    def sequence(self, j: int) -> list[tuple[Any, ...]]:
        return [self._token(i) for i in range(self.offsets[j], self.offsets[j + 1])]

    def shadows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(F_eff, B)``: every exact coordinate is within ``2^-49 B`` of ``F_eff`` (no flush)."""
        return self._shadows()

    def copy(self) -> ShiftState:
        new = object.__new__(ShiftState)
        new.Q, new.offsets, new.d = self.Q, list(self.offsets), self.d
        new._B, new._FB = list(self._B), self._FB.copy()
        new._seq, new._shift, new._FS = self._seq, list(self._shift), self._FS.copy()
        new._pending = self._pending
        new.exact_updates, new.filter_undecided, new._cache = 0, 0, self._cache
        return new
