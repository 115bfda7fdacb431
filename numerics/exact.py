"""Exact rational arithmetic: python-flint (``fmpq``, ``fmpq_mat``) with a ``fractions.Fraction`` fallback.

Everything piecewise-linear (hardmax attention, ReLU feed-forward layers, covariance identities with
rational data) is checked here with no rounding at all.  python-flint is a hard dependency of the
toolkit, but every function also runs on :class:`fractions.Fraction` (``backend="fraction"``), which
the benchmarks compare against and the tests use to cross-check.

>>> q = rational("1/3") + rational(1, 6)
>>> q == rational(1, 2)
True
>>> to_fraction(q)
Fraction(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

try:  # python-flint is a declared dependency; the fallback keeps the module importable without it
    import flint

    HAVE_FLINT = True
except ImportError:  # pragma: no cover - exercised only on machines without python-flint
    flint = None
    HAVE_FLINT = False

__all__ = [
    "HAVE_FLINT",
    "BACKENDS",
    "rational",
    "to_fraction",
    "is_rational",
    "rational_matrix",
    "matrix_rows",
    "matmul",
    "identity_matrix",
    "charpoly",
]

BACKENDS = ("flint", "fraction") if HAVE_FLINT else ("fraction",)


def _check_backend(backend: str) -> str:
    if backend not in ("flint", "fraction"):
        raise ValueError(f"unknown exact backend {backend!r}; use 'flint' or 'fraction'")
    if backend == "flint" and not HAVE_FLINT:
        raise ValueError("backend 'flint' requested but python-flint is not installed")
    return backend


def _default_backend() -> str:
    return "flint" if HAVE_FLINT else "fraction"


def rational(x: Any, den: Any = None, *, backend: str | None = None) -> Any:
    """An exact rational from an int, a pair, a string ``"p/q"``, a Fraction, an fmpq or a float.

    Floats are converted exactly (they are dyadic rationals); NaN and infinities are rejected.
    """
    backend = _check_backend(backend or _default_backend())
    if den is not None:
        f = Fraction(_as_fraction(x)) / Fraction(_as_fraction(den))
    else:
        f = _as_fraction(x)
    if backend == "flint":
        return flint.fmpq(f.numerator, f.denominator)
    return f


def _as_fraction(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise TypeError("booleans are not rationals")
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"cannot convert non-finite float {x!r} to a rational")
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x.strip())
    if HAVE_FLINT and isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    if HAVE_FLINT and isinstance(x, flint.fmpz):
        return Fraction(int(x))
    # sympy Rational / Integer, numpy integers
    if hasattr(x, "p") and hasattr(x, "q"):
        return Fraction(int(x.p), int(x.q))
    if hasattr(x, "numerator") and hasattr(x, "denominator"):
        return Fraction(int(x.numerator), int(x.denominator))
    raise TypeError(f"cannot convert {type(x).__name__} {x!r} to an exact rational")


def to_fraction(x: Any) -> Fraction:
    """Any supported rational to a :class:`fractions.Fraction`."""
    return _as_fraction(x)


def is_rational(x: Any) -> bool:
    return isinstance(x, (int, Fraction)) or (HAVE_FLINT and isinstance(x, (flint.fmpq, flint.fmpz)))


# -- matrices ---------------------------------------------------------------------------------------
def rational_matrix(rows: Iterable[Iterable[Any]], *, backend: str | None = None) -> Any:
    """An exact matrix: ``fmpq_mat`` (flint) or a tuple of tuples of Fractions (fallback)."""
    backend = _check_backend(backend or _default_backend())
    rows = [[_as_fraction(v) for v in r] for r in rows]
    ncols = {len(r) for r in rows}
    if len(ncols) > 1:
        raise ValueError(f"ragged matrix: row lengths {sorted(ncols)}")
    if backend == "flint":
        m = len(rows)
        n = ncols.pop() if ncols else 0
        out = flint.fmpq_mat(m, n)
        for i, r in enumerate(rows):
            for j, v in enumerate(r):
                out[i, j] = flint.fmpq(v.numerator, v.denominator)
        return out
    return tuple(tuple(r) for r in rows)


def matrix_rows(m: Any) -> list[list[Fraction]]:
    """Rows of an exact matrix as Fractions (either backend)."""
    if HAVE_FLINT and isinstance(m, flint.fmpq_mat):
        return [[Fraction(int(m[i, j].p), int(m[i, j].q)) for j in range(m.ncols())]
                for i in range(m.nrows())]
    return [[_as_fraction(v) for v in r] for r in m]


def identity_matrix(n: int, *, backend: str | None = None) -> Any:
    return rational_matrix([[int(i == j) for j in range(n)] for i in range(n)], backend=backend)


def matmul(a: Any, b: Any) -> Any:
    """Exact product of two matrices of the same backend."""
    if HAVE_FLINT and isinstance(a, flint.fmpq_mat):
        return a * b
    ra, rb = matrix_rows(a), matrix_rows(b)
    if ra and len(ra[0]) != len(rb):
        raise ValueError(f"shape mismatch: {len(ra)}x{len(ra[0])} @ {len(rb)}x{len(rb[0]) if rb else 0}")
    cols = list(zip(*rb))
    return tuple(tuple(sum((x * y for x, y in zip(r, c)), Fraction(0)) for c in cols) for r in ra)


def charpoly(m: Any) -> list[Fraction]:
    """Coefficients (lowest degree first) of det(x I - m), exactly.

    flint uses its own algorithm; the fallback uses the Faddeev--LeVerrier recursion.
    """
    if HAVE_FLINT and isinstance(m, flint.fmpq_mat):
        p = m.charpoly()
        return [_as_fraction(c) for c in p.coeffs()]
    a = matrix_rows(m)
    n = len(a)
    if any(len(r) != n for r in a):
        raise ValueError("charpoly needs a square matrix")
    coeffs = [Fraction(0)] * (n + 1)
    coeffs[n] = Fraction(1)
    mk = [[Fraction(0)] * n for _ in range(n)]
    for k in range(1, n + 1):
        # M_k = A M_{k-1} + c_{n-k+1} I ; c_{n-k} = -tr(A M_k)/k
        prod = [[sum((a[i][t] * mk[t][j] for t in range(n)), Fraction(0)) for j in range(n)]
                for i in range(n)]
        mk = [[prod[i][j] + (coeffs[n - k + 1] if i == j else 0) for j in range(n)] for i in range(n)]
        am = [[sum((a[i][t] * mk[t][j] for t in range(n)), Fraction(0)) for j in range(n)]
              for i in range(n)]
        coeffs[n - k] = -sum((am[i][i] for i in range(n)), Fraction(0)) / k
    return coeffs


def dot(u: Sequence[Any], v: Sequence[Any]) -> Any:
    if len(u) != len(v):
        raise ValueError(f"dot of vectors of lengths {len(u)} and {len(v)}")
    total = 0
    for x, y in zip(u, v):
        total = total + x * y
    return total
