"""The fast exact evaluator for hardmax (spec §2.2-2.5): :class:`ExactState`.

Exact rational tokens plus a float64 *filter* (a shadow copy with a rigorous rounding bound, as in exact
geometric predicates).  A ReLU pre-activation whose float value is below ``-bound`` is certainly
negative, so the token is unchanged exactly; a score that is below the row maximum by more than twice
the bound is certainly not a maximiser.  Every other decision, and every changed token, is computed
exactly (fmpq / Fraction) and the attention weights on the surviving candidates come from
:func:`numerics.attention.hardmax_weights`.  The result is exact: no float value ever enters a token.
The reference it is checked against is :func:`.blocks.run_generic`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from numerics.arithmetic import ExactArithmetic
from numerics.attention import AttentionMatrix, hardmax_weights

if TYPE_CHECKING:  # annotations only: blocks imports this module (re-exports ExactState)
    from .blocks import FF, SA, Block

__all__ = ["ExactState", "to_Q"]

_U = 2.0 ** -50  #: relative rounding bound of the float filter (4 ulps per conversion, see ExactState)


def _f(x: Any) -> float:
    """The float64 shadow of an exact rational; beyond the float range it is +-inf, which the filters
    treat as undecided (the exact path then decides), so huge coordinates never leave the exact path."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def to_Q(x: Any, Q: Any) -> Any:
    """``x`` (int, float, Fraction, fmpq, "p/q") as the rational type ``Q`` (fmpq or Fraction), exactly."""
    if type(x) is Q:
        return x
    if type(x) is int:  # an int is its own numerator over 1
        return Q(x)
    from numerics.exact import to_fraction

    f = to_fraction(x)
    return Q(f.numerator, f.denominator)


def _vec_Q(v: Sequence[Any], Q: Any) -> tuple:
    """``tuple(to_Q(x, Q) for x in v)``; a vector already of type Q (the builder's weights) as it is."""
    for x in v:
        if type(x) is not Q:
            return tuple(to_Q(x, Q) for x in v)
    return tuple(v)


@dataclass
class _Group:
    """Neurons of one FF that share a U row w: ``g(s) = sum_k W_k relu(s + b_k)`` with ``s = w.x``.

    ``g = 0`` for ``s <= lo`` (every kink ``-b_k >= lo``); if ``sum W_k = 0`` and ``sum W_k b_k = 0``
    exactly (``right_zero``), also ``g = 0`` for ``s >= hi``: hats, plateaus and snap moves.
    """

    row: tuple
    neurons: list
    lo: Any
    hi: Any
    right_zero: bool
    wf: np.ndarray
    wabs: np.ndarray
    lo_f: float
    hi_f: float


@dataclass
class _FFCache:
    groups: list
    const: tuple | None  # the exact constant added by neurons whose U row is 0 (or None)
    eta: Any = None
    b: tuple = ()
    W: tuple = ()


class ExactState:
    """Exact tokens of all sequences of a dataset, evolved block by block under hardmax.

    ``P`` is the list of exact tokens (tuples of rationals) of all sequences concatenated; ``F`` the
    float64 shadow with ``|F - P| <= 2^-50 |F|`` entrywise (python-flint and Fraction convert to float
    with at most one rounding; 4 ulps leaves a safety factor).  A float dot product of length ``k``
    has error at most ``k u / (1 - k u)`` times the dot product of absolute values (Higham, Thm 3.1);
    the filter uses ``(k + 4) 2^-50`` times it, plus the shadow error, plus ``1e-300`` for underflow.
    """

    def __init__(self, sequences: Sequence[Sequence[Sequence[Any]]], Q: Any):
        self.Q = Q  # rational constructor (fmpq or Fraction)
        self.offsets = [0]
        P: list[tuple[Any, ...]] = []
        for s in sequences:
            P.extend(tuple(to_Q(v, Q) for v in t) for t in s)
            self.offsets.append(len(P))
        self.P = P
        self.d = len(P[0])
        self.F = np.array([[_f(v) for v in t] for t in P], dtype=np.float64).reshape(len(P), self.d)
        self.exact_updates = 0
        self.filter_undecided = 0
        self._cache: dict[int, Any] = {}

    # -- access -------------------------------------------------------------------------------
    @property
    def num_sequences(self) -> int:
        return len(self.offsets) - 1

    def sequence(self, j: int) -> list[tuple[Any, ...]]:
        return self.P[self.offsets[j]:self.offsets[j + 1]]

    def sequences(self) -> list[list[tuple[Any, ...]]]:
        return [self.sequence(j) for j in range(self.num_sequences)]

    def copy(self) -> ExactState:
        new = object.__new__(ExactState)
        new.Q, new.offsets, new.P, new.d = self.Q, list(self.offsets), list(self.P), self.d
        new.F = self.F.copy()
        new.exact_updates, new.filter_undecided, new._cache = 0, 0, self._cache
        return new

    def _set(self, i: int, t: tuple[Any, ...]) -> None:
        self.P[i] = t
        self.F[i] = [_f(v) for v in t]
        self.exact_updates += 1

    def _set_rows(self, a: int, rows: list[tuple[Any, ...]]) -> None:
        """``P[a:a+len(rows)] = rows`` and their float shadows, in one batch."""
        b = a + len(rows)
        changed = [i for i, (t, x) in enumerate(zip(rows, self.P[a:b])) if t != x]
        if not changed:
            return
        self.P[a:b] = rows
        try:
            self.F[a:b] = [tuple(map(float, t)) for t in rows]
        except OverflowError:
            self.F[a:b] = [[_f(v) for v in t] for t in rows]
        self.exact_updates += len(changed)

    # -- hooks (a subclass may keep tokens as base + a pending per-sequence translation) -----------
    def _shadows(self, a: int = 0, b: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Float shadows of tokens a..b and an entrywise bound ``B >= |F|`` such that every exact
        coordinate is within ``2^-49 B`` of its shadow (here ``B = |F|``, error ``<= 2^-50 |F|``)."""
        F = self.F[a:b]
        return F, np.abs(F)

    def _token(self, i: int) -> tuple[Any, ...]:
        return self.P[i]

    def _store(self, i: int, t: tuple[Any, ...]) -> None:
        self._set(i, t)

    def _translate_sequence(self, j: int, a: int, b: int, rho: Any, lm: tuple[Any, ...]) -> None:
        """Every token x of sequence j (tokens a..b) becomes ``rho x + lm``."""
        X = self.P[a:b]
        if rho == 0:
            new = [lm] * (b - a)
        elif rho == 1:
            new = [tuple(map(operator.add, x, lm)) for x in X]
        else:
            new = [tuple(rho * v + mv for v, mv in zip(x, lm)) for x in X]
        self._set_rows(a, new)

    # -- float filter helpers -----------------------------------------------------------------
    def _ffc(self, ff: FF) -> _FFCache:
        key = id(ff)
        c = self._cache.get(key)
        if c is None or c[0] is not ff:
            Q, d = self.Q, self.d
            qU = [_vec_Q(r, Q) for r in ff.U]
            qb = _vec_Q(ff.b, Q)
            qW = tuple(_vec_Q(r, Q) for r in ff.W)
            byrow: list[tuple[tuple, list[int]]] = []  # rows, first-seen order (== scan: fmpq hashes slowly)
            for k, r in enumerate(qU):
                for row, ks in byrow:
                    if row == r:
                        ks.append(k)
                        break
                else:
                    byrow.append((r, [k]))
            groups, const = [], None
            for row, ks in byrow:
                if all(u == 0 for u in row):
                    const = tuple(Q(0) for _ in range(d))
                    for k in ks:
                        if qb[k] > 0:
                            const = tuple(cv + w * qb[k] for cv, w in zip(const, qW[k]))
                    continue
                kinks = [-qb[k] for k in ks]
                sumW = [sum((qW[k][i] for k in ks), Q(0)) for i in range(d)]
                sumWb = [sum((qW[k][i] * qb[k] for k in ks), Q(0)) for i in range(d)]
                rz = all(v == 0 for v in sumW) and all(v == 0 for v in sumWb)
                wf = np.array([_f(u) for u in row], dtype=np.float64)
                lo, hi = min(kinks), max(kinks)
                groups.append(_Group(row, ks, lo, hi, rz, wf, np.abs(wf), _f(lo), _f(hi)))
            c = (ff, _FFCache(groups, const, to_Q(ff.eta, Q), qb, qW))
            self._cache[key] = c
        return c[1]

    # -- layers -------------------------------------------------------------------------------
    def apply_ff(self, ff: FF) -> None:
        """The FF layer, exactly.  A group of neurons sharing a row w is skipped for a token only when
        the float filter certifies ``w.x <= lo`` or (``right_zero`` and ``w.x >= hi``): there the
        group's output is exactly 0."""
        eta = to_Q(ff.eta, self.Q)
        T = self.offsets[-1]
        if ff.width == 0:
            if eta != 1:
                for i in range(T):
                    self._set(i, tuple(eta * v for v in self.P[i]))
            return
        c = self._ffc(ff)
        F, absF = self._shadows()
        active = []
        for g in c.groups:
            with np.errstate(all="ignore"):  # inf/nan shadows mark tokens for the exact path
                s = F @ g.wf
                # + an absolute term for subnormal shadows (|x - F| <= 2^-1074 each)
                err = ((self.d + 4) * 2 * _U) * (absF @ g.wabs) + 1e-300 * (1.0 + float(g.wabs.sum()))
                a = s + err + 2 * _U * abs(g.lo_f) > g.lo_f
                if g.right_zero:
                    a &= s - err - 2 * _U * abs(g.hi_f) < g.hi_f
                a |= ~np.isfinite(s) | ~np.isfinite(err)
            active.append(a)
        if eta != 1 or c.const is not None:
            rows = range(T)
        else:
            anyact = np.zeros(T, dtype=bool)
            for a in active:
                anyact |= a
            rows = np.nonzero(anyact)[0]
        Q = self.Q
        for i in rows:
            x = self._token(i)
            y = [eta * v for v in x] if eta != 1 else list(x)
            moved = eta != 1
            if c.const is not None:
                y = [yi + cv for yi, cv in zip(y, c.const)]
                moved = True
            for g, a in zip(c.groups, active):
                if not a[i]:
                    continue
                self.filter_undecided += 1
                sx = Q(0)
                for u, v in zip(g.row, x):
                    if u != 0:
                        sx = sx + u * v
                for k in g.neurons:
                    z = sx + c.b[k]
                    if z > 0:
                        y = [yi + wi * z for yi, wi in zip(y, c.W[k])]
                        moved = True
            if moved:
                t = tuple(y)
                if t != x:
                    self._store(i, t)

    def _sac(self, sa: SA) -> tuple[Any, list]:
        """``sa.A`` with exact entries of type Q, and the float shadows of its factors (cached)."""
        key = ("sa", id(sa))
        c = self._cache.get(key)
        if c is None or c[0] is not sa:
            Q, A = self.Q, sa.A
            if A is not None and A.dense is None:
                A = AttentionMatrix(alpha=to_Q(A.alpha, Q), factors=tuple(
                    (tuple(to_Q(v, Q) for v in p), tuple(to_Q(v, Q) for v in q)) for p, q in A.factors))
            fl = [] if A is None or A.dense is not None else [
                (np.array([_f(v) for v in p]), np.array([_f(v) for v in q])) for p, q in A.factors]
            c = (sa, A, fl)
            self._cache[key] = c
        return c[1], c[2]

    def apply_sa(self, sa: SA) -> None:
        rho, lam = to_Q(sa.rho, self.Q), to_Q(sa.lam, self.Q)
        if lam == 0:
            if rho != 1:
                for i in range(len(self.P)):
                    self._set(i, tuple(rho * v for v in self.P[i]))
            return
        A, fl = self._sac(sa)
        win = self._top_winners(fl[0]) if (A is not None and A.dense is None and A.alpha == 0
                                           and len(A.factors) == 1) else None
        for j in range(self.num_sequences):
            a, b = self.offsets[j], self.offsets[j + 1]
            if win is not None and win[j] >= 0:
                m = self._token(a + int(win[j]))
                self._translate_sequence(j, a, b, rho, m if lam == 1 else tuple(lam * mv for mv in m))
            else:
                self._sa_sequence(sa, a, b, j)

    def _top_winners(self, pq_f: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """Rank-one ``A = p q^T`` (alpha = 0), all sequences at once: scores ``(q.x_i)(p.x_l)``.  Where the
        filter certifies ``q.x_i > 0`` for every query of a sequence, every row's maximisers are those of
        ``p.x_l``; if the filter leaves one candidate key, it is every row's only winner.  Returns that
        key's index in its sequence, or -1 (undecided: the sequence goes through :meth:`_sa_sequence`).
        Bounds as in :meth:`apply_ff`: ``(d + 4) 2^-49 (B.|w|)`` per projection, ``B`` from :meth:`_shadows`."""
        pf, qf = pq_f
        F, B = self._shadows()
        off = np.asarray(self.offsets[:-1])
        T = self.offsets[-1]
        c = (self.d + 4) * 2 * _U
        with np.errstate(all="ignore"):
            qx, px = F @ qf, F @ pf
            eq = c * (B @ np.abs(qf)) + 1e-300 * (1.0 + float(np.abs(qf).sum()))
            ep = c * (B @ np.abs(pf)) + 1e-300 * (1.0 + float(np.abs(pf).sum()))
            fin = np.isfinite(qx) & np.isfinite(eq) & np.isfinite(px) & np.isfinite(ep)
            ok = np.logical_and.reduceat(fin & (qx - eq > 0), off)
            top = np.maximum.reduceat(np.where(fin, px - ep, -np.inf), off)
            seq = np.repeat(np.arange(len(off)), np.diff(self.offsets))
            cand = (px + ep >= top[seq]) | ~fin
        count = np.add.reduceat(cand.astype(np.int64), off)
        first = np.maximum.reduceat(np.where(cand, np.arange(T), -1), off)
        return np.where(ok & (count == 1), first - off, -1)

    def _sa_sequence(self, sa: SA, a: int, b: int, j: int = 0) -> None:
        Q = self.Q
        n = b - a
        rho, lam = to_Q(sa.rho, Q), to_Q(sa.lam, Q)
        A, fl = self._sac(sa)
        if A is None or (A.dense is None and A.alpha == 0 and not A.factors):
            X = self.P[a:b]
            # all scores are 0: uniform attention, exactly (hardmax full tie = softmax)
            mean = tuple(sum((x[k] for x in X), Q(0)) / n for k in range(self.d))
            for i, x in enumerate(X):
                self._set(a + i, tuple(rho * v + lam * m for v, m in zip(x, mean)))
            return
        if A.dense is not None:
            raise NotImplementedError("the fast exact evaluator handles structured A only; use run_generic")
        Fs, Fa = self._shadows(a, b)
        alpha = A.alpha
        with np.errstate(all="ignore"):  # inf/nan shadows mark rows for the exact path
            alf = abs(_f(alpha))
            S = _f(alpha) * (Fs @ Fs.T) if alpha != 0 else np.zeros((n, n))
            Sabs = alf * (Fa @ Fa.T) if alpha != 0 else np.zeros((n, n))
            proj = []
            for (p, q), (pf, qf) in zip(A.factors, fl):
                qx, px = Fs @ qf, Fs @ pf
                S = S + np.outer(qx, px)
                Sabs = Sabs + np.outer(Fa @ np.abs(qf), Fa @ np.abs(pf))
                proj.append((p, q))
            err = ((2 * self.d + 8) * (len(A.factors) + 1) * _U) * Sabs * 4 + 1e-300
            top_lo = (S - err).max(axis=1)
            cand = (S + err) >= top_lo[:, None]
            bad = ~(np.isfinite(S).all(axis=1) & np.isfinite(err).all(axis=1) & np.isfinite(top_lo))
        cand[bad] = True  # overflow: every key is a candidate, decided exactly
        only = cand.any(axis=0)
        if int(only.sum()) == 1:  # one key is every row's only candidate (e.g. top attention, c.x > 0)
            m = self._token(a + int(np.argmax(only)))
            self._translate_sequence(j, a, b, rho, m if lam == 1 else tuple(lam * mv for mv in m))
            return
        X = self.P[a:b]
        exact_proj = None
        lam_means: dict[tuple, tuple] = {}
        new = []
        for i in range(n):
            ls = np.nonzero(cand[i])[0]
            if len(ls) == 1:
                winners = [int(ls[0])]
            else:
                self.filter_undecided += 1
                if exact_proj is None:
                    exact_proj = [([sum((qq * v for qq, v in zip(q, x)), Q(0)) for x in X],
                                   [sum((pp * v for pp, v in zip(p, x)), Q(0)) for x in X]) for p, q in proj]
                row = []
                for l in ls:
                    s = Q(0)
                    if alpha != 0:
                        s = alpha * sum((u * v for u, v in zip(X[i], X[l])), Q(0))
                    for qx, px in exact_proj:
                        s = s + qx[i] * px[l]
                    row.append(s)
                w = hardmax_weights(row, ExactArithmetic())
                winners = [int(l) for l, wl in zip(ls, w) if wl != 0]
            key = tuple(winners)
            lm = lam_means.get(key)
            if lm is None:  # lam * (mean of the maximisers), shared by every row with these winners
                if len(winners) == 1:
                    m = X[winners[0]]
                else:
                    m = tuple(sum((X[l][k] for l in winners), Q(0)) / len(winners) for k in range(self.d))
                lm = m if lam == 1 else tuple(lam * mv for mv in m)
                lam_means[key] = lm
            if rho == 0:
                new.append(lm)
            elif rho == 1:
                new.append(tuple(v + mv for v, mv in zip(X[i], lm)))
            else:
                new.append(tuple(rho * v + mv for v, mv in zip(X[i], lm)))
        for i, t in enumerate(new):
            if t != X[i]:
                self._set(a + i, t)

    def apply(self, block: Block) -> None:
        self.apply_ff(block.ff)
        self.apply_sa(block.sa)

    def run(self, blocks: Sequence[Block]) -> ExactState:
        for blk in blocks:
            self.apply(blk)
        return self
