"""Independent oracles and garbage strategies shared by the DDCL trust and fuzz tests.

The reference critical temperature is c lambda_1 of the *exact* covariance (Fractions), with the
eigenvalue by mpmath at ``dps`` digits: nothing of the product's covariance or spectrum code is used.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

from numerics.precision import mp_context

__all__ = ["exact_covariance", "reference_tau", "encloses", "matrices"]


def exact_covariance(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """The population covariance of ``rows`` in exact rationals."""
    N, d = len(rows), len(rows[0])
    mu = [sum(r[j] for r in rows) / N for j in range(d)]
    return [[sum((r[a] - mu[a]) * (r[b] - mu[b]) for r in rows) / N for b in range(d)] for a in range(d)]


def reference_tau(data: Any, c: int, dps: int) -> tuple[Any, Any]:
    """``(ctx, c lambda_1(C))`` for the exact covariance C of ``data``, by mpmath at ``dps`` digits."""
    rows = np.asarray(data, dtype=object).tolist() if isinstance(data, np.ndarray) else list(data)
    rows = [[Fraction(x) for x in (r if isinstance(r, (list, tuple)) else [r])] for r in rows]
    C = exact_covariance(rows)
    ctx = mp_context(dps)
    d = len(C)
    M = ctx.matrix(d, d)
    for a in range(d):
        for b in range(d):
            M[a, b] = ctx.mpf(C[a][b].numerator) / C[a][b].denominator
    lam = max(ctx.eigsy(M, eigvals_only=True)) if d > 1 else M[0, 0]
    return ctx, c * lam


def encloses(enclosure: Any, ctx: Any, v: Any, dps: int) -> bool:
    """The arb ball ``enclosure`` contains the mpmath value ``v``, up to mpmath's own rounding at
    ``dps`` digits (relative 10**-(dps - 10))."""
    mid = ctx.mpf(enclosure.mid().str(dps + 5, radius=False))
    rad = ctx.mpf(enclosure.rad().str(20, radius=False))
    return abs(v - mid) <= rad + abs(v) * ctx.mpf(10) ** (-(dps - 10))


@st.composite
def matrices(draw: Any, entries: Any, kinds: tuple[str, ...] = ("list", "array", "ragged", "column")) -> Any:
    """Data matrices of up to 4 x 3 entries, as lists, tuples, arrays, ragged lists or a bare column."""
    n, d = draw(st.integers(0, 4)), draw(st.integers(0, 3))
    rows = [[draw(entries) for _ in range(d)] for _ in range(n)]
    kind = draw(st.sampled_from(kinds))
    if kind == "tuple":
        return tuple(tuple(r) for r in rows)
    if kind == "array":
        try:
            return np.array(rows, dtype=float)
        except (OverflowError, ValueError, TypeError):
            return rows
    if kind == "ragged" and rows:
        return rows[:-1] + [rows[-1] + [draw(entries)]]
    if kind == "column":
        return [r[0] if r else draw(entries) for r in rows]
    return rows
