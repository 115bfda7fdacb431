"""Hardmax (tie-averaging) and softmax self-attention, written once over any :mod:`arithmetic`.

Conventions (interpolation spec §2.3):

* score ``sc_il = <A x_i, x_l> = x_l^T A x_i`` -- token ``i`` is the query, ``l`` the key;
* ``A = alpha I + sum_k p_k q_k^T`` (low-rank plus identity), so
  ``sc_il = alpha <x_i, x_l> + sum_k (q_k . x_i)(p_k . x_l)``; a dense ``A`` is accepted too;
* hardmax: ``pi_il = 1/|C_i|`` on the set ``C_i`` of *all* maximisers of row ``i`` (ties averaged);
* softmax: ``pi_il = exp(sc_il / tau) / sum_k exp(sc_ik / tau)`` (row maximum subtracted first);
* a self-attention layer returns ``rho x_i + lam * sum_l pi_il x_l``.

Attention never crosses sequences: each call sees one sequence.  A row whose scores are all equal
(e.g. all zero) is a full tie, and both kernels return the sequence mean.

>>> from numerics.arithmetic import ExactArithmetic
>>> ar = ExactArithmetic("fraction")
>>> X = [(0, 1), (1, 0), (1, 1)]
>>> A = AttentionMatrix(alpha=1)
>>> [tuple(str(c) for c in y) for y in self_attention(X, A, kernel="hardmax", arith=ar)]
[('1/2', '1'), ('1', '1/2'), ('1', '1')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .arithmetic import Arithmetic, ExactArithmetic, MPArithmetic, arithmetic

__all__ = [
    "AttentionMatrix",
    "scores",
    "hardmax_weights",
    "softmax_weights",
    "mix",
    "self_attention",
]

Vector = Sequence[Any]


@dataclass(frozen=True)
class AttentionMatrix:
    """``A = alpha I + sum_k p_k q_k^T`` (``factors = ((p_1, q_1), ...)``) or a dense matrix.

    Exactly one of the structured form (``alpha``/``factors``) and ``dense`` is used.
    """

    alpha: Any = 0
    factors: tuple[tuple[Vector, Vector], ...] = ()
    dense: tuple[tuple[Any, ...], ...] | None = None

    @property
    def rank(self) -> int:
        return len(self.factors)

    def __post_init__(self) -> None:
        if self.dense is not None and (self.factors or self.alpha):
            raise ValueError("give either a dense A or alpha/factors, not both")
        for k, pair in enumerate(self.factors):
            if len(pair) != 2 or len(pair[0]) != len(pair[1]):
                raise ValueError(f"factor {k} must be a pair (p, q) of vectors of equal length")


def _validate(X: Sequence[Vector], ar: Arithmetic) -> list[tuple[Any, ...]]:
    if len(X) == 0:
        raise ValueError("attention needs a non-empty sequence of tokens")
    dims = {len(x) for x in X}
    if len(dims) != 1:
        raise ValueError(f"tokens of a sequence must share one dimension, got dimensions {sorted(dims)}")
    out = []
    for i, x in enumerate(X):
        for v in x:
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError(f"token {i} has a non-finite coordinate {v!r}")
        out.append(ar.vector(x))
    return out


def scores(X: Sequence[Vector], A: AttentionMatrix, ar: Arithmetic | str) -> list[list[Any]]:
    """The score matrix ``sc[i][l] = x_l^T A x_i``."""
    ar = arithmetic(ar)
    return _scores(_validate(X, ar), A, ar)


def _scores(Xc: list[tuple[Any, ...]], A: AttentionMatrix, ar: Arithmetic) -> list[list[Any]]:
    """:func:`scores` of tokens already validated and converted by :func:`_validate`."""
    d = len(Xc[0])
    n = len(Xc)
    if A.dense is not None:
        Ad = [ar.vector(r) for r in A.dense]
        if len(Ad) != d or any(len(r) != d for r in Ad):
            raise ValueError(f"dense A must be {d}x{d}")
        AX = [tuple(ar.dot(Ad[r], x) for r in range(d)) for x in Xc]  # A x_i
        return [[ar.dot(AX[i], Xc[l]) for l in range(n)] for i in range(n)]
    alpha = ar.convert(A.alpha)
    proj = []
    for p, q in A.factors:
        if len(p) != d:
            raise ValueError(f"factor vectors have length {len(p)}, tokens have dimension {d}")
        pc, qc = ar.vector(p), ar.vector(q)
        proj.append(([ar.dot(qc, x) for x in Xc], [ar.dot(pc, x) for x in Xc]))
    zero = ar.convert(0)
    out = []
    for i in range(n):
        row = []
        for l in range(n):
            s = alpha * ar.dot(Xc[i], Xc[l]) if alpha != zero else zero
            for qx, px in proj:
                s = s + qx[i] * px[l]
            row.append(s)
        out.append(row)
    return out


def hardmax_weights(row: Sequence[Any], ar: Arithmetic | str) -> list[Any]:
    """Uniform weights on the set of all maximisers of ``row`` (ties averaged), 0 elsewhere."""
    ar = arithmetic(ar)
    if len(row) == 0:
        raise ValueError("empty score row")
    if _has_balls(row):
        winners = _ball_maximisers(row)
    else:
        top = max(row)
        winners = [l for l, s in enumerate(row) if s == top]
    w = ar.convert(1) / len(winners)
    zero = ar.convert(0)
    winner_set = set(winners)
    return [w if l in winner_set else zero for l in range(len(row))]


def _has_balls(row: Sequence[Any]) -> bool:
    try:
        import flint
    except ImportError:  # pragma: no cover
        return False
    return any(isinstance(s, flint.arb) for s in row)


def _ball_maximisers(row: Sequence[Any]) -> list[int]:
    """The maximisers of a row of arb balls, decided rigorously (``max`` and ``==`` on balls are not:
    ``max`` picks an arbitrary one of overlapping balls and ``==`` is False unless both are exact).

    A ball is a candidate unless another ball is certainly greater; one candidate is certainly the
    maximum; several must be certainly equal (exact and equal), else the question is undecided at
    this precision and ArithmeticError is raised (a check reports UNKNOWN, never a guess).
    """
    from .precision import to_arb

    balls = [to_arb(s) for s in row]
    cands = [l for l, b in enumerate(balls) if not any(o > b for o in balls)]
    first = balls[cands[0]]
    if all(balls[l] == first for l in cands[1:]):
        return cands
    raise ArithmeticError(f"hardmax: the maximisers of the score balls {[str(balls[l]) for l in cands]} "
                          "cannot be decided at this precision")


def softmax_weights(row: Sequence[Any], tau: Any, ar: Arithmetic | str) -> list[Any]:
    """``exp((s_l - max s)/tau) / sum``; ``tau > 0``; not available in exact arithmetic."""
    ar = arithmetic(ar)
    return _softmax_row(row, _temperature(tau, ar), ar)


def _temperature(tau: Any, ar: Arithmetic) -> Any:
    """``tau`` converted to ``ar``, checked ``> 0`` (softmax needs exp(): not in exact arithmetic)."""
    if isinstance(ar, ExactArithmetic):
        raise TypeError("softmax needs exp(); use MPArithmetic or FloatArithmetic")
    t = ar.convert(tau)
    if not t > 0:
        raise ValueError(f"softmax temperature must be > 0, got {tau!r}")
    return t


def _softmax_row(row: Sequence[Any], t: Any, ar: Arithmetic) -> list[Any]:
    """:func:`softmax_weights` at the temperature ``t`` already converted by :func:`_temperature`."""
    if len(row) == 0:
        raise ValueError("empty score row")
    top = max(row)
    e = [ar.exp((s - top) / t) for s in row]
    z = ar.fsum(e)
    return [x / z for x in e]


def mix(X: Sequence[Vector], weights: Sequence[Any], ar: Arithmetic | str) -> tuple[Any, ...]:
    """``sum_l weights[l] * X[l]``."""
    ar = arithmetic(ar)
    if len(weights) != len(X):
        raise ValueError(f"{len(weights)} weights for {len(X)} tokens")
    d = len(X[0])
    if ar.exact:  # zero weights (every loser of a hardmax row) add exactly 0: skipped, same sums
        zero = ar.convert(0)
        pairs = [(w, x) for w, x in zip(weights, X) if w != zero]
        ws = [w for w, _ in pairs]
        return tuple(ar.dot(ws, [x[k] for _, x in pairs]) for k in range(d))  # dot: the same sum
    return tuple(ar.fsum(w * x[k] for w, x in zip(weights, X)) for k in range(d))


def self_attention(X: Sequence[Vector], A: AttentionMatrix, *, kernel: str = "hardmax",
                   tau: Any = None, rho: Any = 0, lam: Any = 1,
                   ar: Arithmetic | str | None = None, arith: Arithmetic | str | None = None,
                   ) -> list[tuple[Any, ...]]:
    """One self-attention layer: ``SA_i(X) = rho x_i + lam * sum_l pi_il(X, A) x_l``."""
    a = arithmetic(ar or arith or "exact")
    Xc = _validate(X, a)
    if kernel not in ("hardmax", "softmax"):
        raise ValueError(f"kernel must be 'hardmax' or 'softmax', got {kernel!r}")
    if kernel == "softmax" and tau is None:
        raise ValueError("softmax attention needs a temperature tau")
    rho_c, lam_c = a.convert(rho), a.convert(lam)
    zero = a.convert(0)
    if lam_c == zero:  # identity-type layer: no attention is computed
        if rho_c == a.convert(1) and (a.exact or isinstance(a, MPArithmetic)):
            return Xc  # 1 * v = v: exact for rationals, and for mpf values already rounded to the context
        return [tuple(rho_c * v for v in x) for x in Xc]
    S = _scores(Xc, A, a)
    t = _temperature(tau, a) if kernel == "softmax" else None  # converted once, not once per row
    uniform = A.dense is None and not A.factors and a.convert(A.alpha) == zero  # every score is 0
    # rho = 0, lam = 1 (the collapse): 0 x_i + 1 m = m, exactly for rationals and for mpf values rounded
    # to the context (0 * x is mpmath's unsigned zero, which adds nothing)
    mean_only = rho_c == zero and lam_c == a.convert(1) and (a.exact or isinstance(a, MPArithmetic))
    out = []
    for i, x in enumerate(Xc):
        if i == 0 or not uniform:  # rows of zero scores all have row 0's weights, hence its mix
            w = hardmax_weights(S[i], a) if kernel == "hardmax" else _softmax_row(S[i], t, a)
            m = mix(Xc, w, a)
        out.append(m if mean_only else tuple(rho_c * xv + lam_c * mv for xv, mv in zip(x, m)))
    return out
