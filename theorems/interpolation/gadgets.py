"""Gadgets and rational geometry of the explicit construction (spec §3.1).

The feed-forward gadgets (G1 hat, G2 translation, G3 plateau, G5 snap), the three self-attention
layers (S0 off, S1 rank-one "top" attention, S2 collapse ``A = I`` or its rank-2 variant), the rational
unit vectors of the slots (inverse stereographic ``Sph``, ``Sph^-``), the moment-curve directions
``w(k) = (1, k, .., k^{d-1})`` and the exact projection gaps the hats are sized by.

Bit sizes (spec pitfall 5): every half-width and gap is rounded *down* to a power of two
(:func:`pow2_floor`); the only other denominators are the data's, those of the token positions the hats
are centred on, and the steps ``eps_r = 1/(2^s - r)`` of stage S (see :mod:`.separation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.attention import AttentionMatrix
from numerics.exact import _as_fraction, dot

from .blocks import SA
from .exact_state import ExactState, to_Q
from .exact_state import _f as _float_or_inf
from .dataset import fmt_token, token_key
from .network import ConstructionError, _Q  # noqa: F401  (_Q re-exported)

__all__ = ["pow2_floor", "moment_vector", "sph", "sph_neg", "sph_neg_plane", "S0", "S2"]


def pow2_floor(x: Any) -> Fraction:
    """The largest power of two ``<= x`` (x > 0, exact), as a Fraction."""
    f = _as_fraction(x)
    if f <= 0:
        raise ValueError(f"pow2_floor needs x > 0, got {f}")
    n, q = f.numerator, f.denominator
    k = n.bit_length() - q.bit_length()  # 2^(k-1) < n/q < 2^(k+1)

    def at_most(k: int) -> bool:  # 2^k <= n/q, in integers
        return (q << k) <= n if k >= 0 else q <= (n << -k)

    while not at_most(k):
        k -= 1
    while at_most(k + 1):
        k += 1
    return Fraction(1 << k) if k >= 0 else Fraction(1, 1 << -k)


def moment_vector(d: int, k: int) -> tuple[int, ...]:
    """``w(k) = (1, k, k^2, ..., k^{d-1})`` (spec §3.1)."""
    return tuple(k ** i for i in range(d))


def sph(t: Sequence[Any], Q: Any) -> tuple[Any, ...]:
    """Inverse stereographic map ``Sph(t) = (2t, 1 - |t|^2)/(1 + |t|^2)``: a rational unit vector."""
    n2 = sum((Q(v) * Q(v) for v in t), Q(0))
    return tuple(2 * Q(v) / (1 + n2) for v in t) + ((1 - n2) / (1 + n2),)


def sph_neg(u: Any, d: int, Q: Any) -> tuple[Any, ...]:
    """``Sph^-(u) = -(2u, .., 2u, 1 - (d-1)u^2)/(1 + (d-1)u^2)``: unit, all coordinates < 0 (u < 1/d)."""
    u = Q(u)
    den = 1 + (d - 1) * u * u
    return tuple(-(2 * u) / den for _ in range(d - 1)) + (-(1 - (d - 1) * u * u) / den,)


def _norm1(v: Sequence[Any]) -> Any:
    return sum(abs(x) for x in v)


# -- gadgets (spec §3.1) ---------------------------------------------------------------------------------
def _hat(w, c0, h, D, Q) -> tuple[list, list, list]:
    """G1: rows w, w, w; b = (h - c0, -c0, -c0 - h); W = (D/h, -2D/h, D/h)."""
    U = [tuple(Q(v) for v in w)] * 3
    b = [h - c0, -c0, -c0 - h]
    W = [tuple(v / h for v in D), tuple(-2 * v / h for v in D), tuple(v / h for v in D)]
    return U, b, W


def _translation(T, d, Q) -> tuple[list, list, list]:
    """G2: U row 0, bias 1, W column T (adds T to every token)."""
    return [tuple(Q(0) for _ in range(d))], [Q(1)], [tuple(Q(v) for v in T)]


def _plateau(w, kinks, D, Q) -> tuple[list, list, list]:
    """G3: rows w; b = -(k1..k4); W = (D/g, -D/g, -D/g, D/g), g = k2 - k1 = k4 - k3."""
    k1, k2, k3, k4 = kinks
    g = k2 - k1
    U = [tuple(Q(v) for v in w)] * 4
    b = [-k1, -k2, -k3, -k4]
    W = [tuple(v / g for v in D), tuple(-v / g for v in D), tuple(-v / g for v in D), tuple(v / g for v in D)]
    return U, b, W


def _snap(e, kinks, y, Q) -> tuple[list, list, list]:
    """G5: rows e/|e|^2; b = -(k1..k4); W1 = (y - k2 e)/(k2 - k1), W2 = -e - W1, W4 = (y - k3 e)/(k4 - k3), W3 = e - W4."""
    k1, k2, k3, k4 = kinks
    e2 = dot(e, e)
    row = tuple(Q(v) / e2 for v in e)
    W1 = tuple((yv - k2 * ev) / (k2 - k1) for yv, ev in zip(y, e))
    W2 = tuple(-ev - w for ev, w in zip(e, W1))
    W4 = tuple((yv - k3 * ev) / (k4 - k3) for yv, ev in zip(y, e))
    W3 = tuple(ev - w for ev, w in zip(e, W4))
    return [row] * 4, [-k1, -k2, -k3, -k4], [W1, W2, W3, W4]


S0 = SA(1, 0)


def _S1(v, c, eps) -> SA:
    """Top attention: rho = 1, lam = eps, A = v c^T (p = v, q = c), so sc_il = (c.x_i)(v.x_l)."""
    return SA(1, eps, AttentionMatrix(factors=((tuple(v), tuple(c)),)))


S2 = SA(0, 1, AttentionMatrix(alpha=1))


def _S2_rank2(d: int, Q: Any) -> SA:
    """Rank-2 collapse: A = e1 e1^T + e2 e2^T (factors only, kappa = 4d), scores x1 z1 + x2 z2."""
    e = [tuple(Q(int(i == k)) for i in range(d)) for k in (0, 1)]
    return SA(0, 1, AttentionMatrix(factors=((e[0], e[0]), (e[1], e[1]))))


def sph_neg_plane(u: Any, d: int, Q: Any) -> tuple[Any, ...]:
    """Rank-2 sphere slot: -(1 - u^2, 2u, 0, .., 0)/(1 + u^2), unit, negative in the (e1, e2)-plane."""
    u = Q(u)
    den = 1 + u * u
    return (-(1 - u * u) / den, -(2 * u) / den) + tuple(Q(0) for _ in range(d - 2))


# -- projection helpers with a float filter --------------------------------------------------------------
def _proj_gap(state: ExactState, w: Sequence[int], p: tuple, Q: Any) -> Any:
    """``min_{z != p} |w.z - w.p|`` over the current points (exact where the float filter cannot decide).

    Returns 0 if some point z != p has the same projection (w does not isolate p); otherwise a
    rational lower bound of the exact minimum gap (exact for the candidates the filter kept).
    """
    wf = np.array([_float_or_inf(v) for v in w])
    c0 = dot(w, p)
    c0f = _float_or_inf(c0)  # +-inf beyond the float range: every point is then decided exactly
    with np.errstate(all="ignore"):
        proj = state.F @ wf
        err = (len(w) + 4) * 2.0 ** -49 * (np.abs(state.F) @ np.abs(wf)) + (len(w) + 4) * 2.0 ** -49 * abs(c0f) + 1e-300
        diff = np.abs(proj - c0f)
        lower = diff - 2 * err
    decided = (lower > 0) & np.isfinite(lower)  # an overflowed projection (inf) bounds nothing: exact
    close = np.nonzero(~decided)[0]
    best: Any = None
    for i in close:
        z = state.P[i]
        if z == p:
            continue
        g = abs(dot(w, z) - c0)
        if g == 0:
            return Q(0)
        best = g if best is None or g < best else best
    far = lower[decided]
    if far.size:
        lo = to_Q(float(far.min()), Q)
        best = lo if best is None or lo < best else best
    return best if best is not None else Q(1)


def _isolating_direction(state: ExactState, p: tuple, Q: Any, d: int) -> tuple[tuple[int, ...], Any]:
    """Smallest k >= 1 with w(k).p different from w(k).z for every current point z != p, and the gap."""
    for k in range(1, 10_000):
        w = moment_vector(d, k)
        g = _proj_gap(state, w, p, Q)
        if g > 0:
            return w, g
    raise ConstructionError(f"no moment-curve direction isolates {fmt_token(p)}")  # pragma: no cover


def _distinct_direction(points: Sequence[tuple], Q: Any, d: int) -> tuple[tuple[int, ...], Any, list]:
    """Smallest k with pairwise distinct projections w(k).z (exact), the minimum gap and projections."""
    pts = list({token_key(z): z for z in points}.values())  # distinct points (token_key: fmpq hashes slowly)
    for k in range(1, 10_000):
        w = moment_vector(d, k)
        pr = sorted(dot(w, z) for z in pts)
        gaps = [b - a for a, b in zip(pr, pr[1:])]
        if all(g > 0 for g in gaps):
            return w, (min(gaps) if gaps else Q(1)), pr
    raise ConstructionError("no moment-curve direction separates the points")  # pragma: no cover
