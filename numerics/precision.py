"""Precision management: local mpmath contexts, arb balls and three-valued comparisons.

Rules (developers' guide, "Tests stricter than production"):

* mpmath is used only through *local* contexts (:func:`mp_context`); the global ``mpmath.mp``
  precision is never mutated.
* python-flint's arb precision is a process-global setting (``flint.ctx.prec``); it is changed only
  inside :func:`arb_precision`, which restores it on exit.
* A comparison of balls is three-valued: :class:`Tri` ``TRUE`` when every point of the balls satisfies
  it, ``FALSE`` when none does, ``UNKNOWN`` otherwise.  ``bool(Tri.UNKNOWN)`` raises: an undecided
  comparison can never be used as a pass or a fail.
* Tolerances come from the precision used (:func:`tolerance_for`, :func:`float_tolerance`).
"""

from __future__ import annotations

import enum
import functools
import math
import numbers
from typing import Any

import mpmath

__all__ = [
    "Tri",
    "mp_context",
    "fixed_mp_context",
    "tolerance_for",
    "float_tolerance",
    "FLOAT64_EPS",
    "arb_precision",
    "to_arb",
    "tri_positive",
    "tri_negative",
    "tri_nonnegative",
    "tri_lt",
    "tri_le",
    "tri_gt",
    "tri_ge",
    "tri_contains",
    "arb_to_float",
]

FLOAT64_EPS = 2.0**-52


class Tri(enum.Enum):
    """A three-valued truth value."""

    TRUE = "TRUE"
    FALSE = "FALSE"
    UNKNOWN = "UNKNOWN"

    def __bool__(self) -> bool:
        raise TypeError("a Tri is three-valued; compare it with Tri.TRUE / Tri.FALSE / Tri.UNKNOWN")

    # the members are read from module globals (_TRUE, ...): an Enum attribute lookup costs ~3x more
    def __invert__(self) -> Tri:
        if self is _TRUE:
            return _FALSE
        if self is _FALSE:
            return _TRUE
        return _UNKNOWN

    def __and__(self, other: Tri) -> Tri:
        if self is _FALSE or other is _FALSE:
            return _FALSE
        if self is _TRUE and other is _TRUE:
            return _TRUE
        return _UNKNOWN

    def __or__(self, other: Tri) -> Tri:
        return ~((~self) & (~other))

    @staticmethod
    def all(values: Any) -> Tri:
        out = Tri.TRUE
        for v in values:
            out = out & v
        return out


_TRUE, _FALSE, _UNKNOWN = Tri.TRUE, Tri.FALSE, Tri.UNKNOWN


def _integral(x: Any) -> bool:
    """An integer (or an integral-valued finite real such as 30.0), not a bool."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    return isinstance(x, numbers.Integral) or (math.isfinite(x) and float(x).is_integer())


# -- mpmath ---------------------------------------------------------------------------------------
def mp_context(dps: int) -> mpmath.ctx_mp.MPContext:
    """A fresh mpmath context at ``dps`` decimal digits, independent of the global ``mpmath.mp``.

    >>> ctx = mp_context(40)
    >>> str(ctx.mpf(1) / 3)[:12]
    '0.3333333333'
    >>> mpmath.mp.dps  # the global context is untouched
    15
    """
    from .errors import InputTypeError, check_arg

    if not _integral(dps):
        raise InputTypeError("dps", "must be an integer number of decimal digits", dps)
    check_arg(int(dps) >= 5, "dps", "must be >= 5", dps)
    ctx = mpmath.MPContext()
    ctx.dps = int(dps)
    return ctx


class _FixedPrecisionMPContext(mpmath.MPContext):
    """An mpmath context whose precision cannot change after creation (setting ``prec`` or ``dps``
    raises): what makes one context per ``dps`` safe to share (:func:`fixed_mp_context`)."""

    def _fixed(ctx, n: Any) -> None:
        raise AttributeError("this mpmath context is shared (numerics.precision.fixed_mp_context) and its "
                             "precision is fixed; make a context of your own with mp_context()")

    prec = property(lambda ctx: ctx._prec, _fixed)
    dps = property(lambda ctx: ctx._dps, _fixed)


@functools.lru_cache(maxsize=64)
def fixed_mp_context(dps: int) -> mpmath.ctx_mp.MPContext:
    """One mpmath context per ``dps`` for the whole process, its precision fixed (a context costs ~0.4 ms
    to create): the same results as :func:`mp_context` ``(dps)``, for readers that never change it."""
    mp_context(dps)  # the same validation
    ctx = _FixedPrecisionMPContext()
    mpmath.MPContext._set_dps(ctx, int(dps))  # as mp_context does (ctx.dps = dps), past the fixed setter
    return ctx


def tolerance_for(dps: int, *, scale: float = 1.0, guard_digits: int = 10) -> float:
    """Tolerance of a computation carried at ``dps`` digits: ``scale * 10**-(dps - guard_digits)``.

    ``guard_digits`` absorbs rounding accumulated over the computation (the spec's "exact at
    precision p" uses 12).
    """
    if guard_digits >= dps:
        raise ValueError("guard_digits must be smaller than dps")
    return float(scale) * 10.0 ** (-(int(dps) - int(guard_digits)))


def float_tolerance(ops: int = 1, *, scale: float = 1.0, safety: float = 8.0) -> float:
    """A float64 error budget for ``ops`` rounding steps on values of size ``scale``.

    ``safety * ops * eps * scale`` with eps = 2**-52: a forward-error bound with a safety factor.
    """
    return float(safety) * max(int(ops), 1) * FLOAT64_EPS * max(float(scale), 1e-300)


# -- arb balls ------------------------------------------------------------------------------------
class _ArbPrecision:
    """The context manager of :func:`arb_precision` (a class: entered in every arb computation, where a
    generator-based one costs microseconds)."""

    __slots__ = ("bits", "old")

    def __init__(self, bits: int):
        self.bits = bits

    def __enter__(self) -> None:
        import flint

        self.old = flint.ctx.prec
        flint.ctx.prec = self.bits

    def __exit__(self, *exc: object) -> bool:
        import flint

        flint.ctx.prec = self.old
        return False


def arb_precision(bits: int) -> _ArbPrecision:
    """Run a block with python-flint's arb working precision at ``bits`` (restored on exit)."""
    if type(bits) is not int or not 2 <= bits <= 10**7:  # the common case (a plain int) skips the checks
        from .errors import InputTypeError, check_arg

        if not _integral(bits):
            raise InputTypeError("bits", "must be an integer number of bits", bits)
        check_arg(2 <= int(bits) <= 10**7, "bits", "must lie in [2, 10**7]", bits)
    return _ArbPrecision(int(bits))


def to_arb(x: Any) -> Any:
    """Convert an int / Fraction / fmpq / str / float / mpf to an arb ball (exact where possible)."""
    import flint
    from fractions import Fraction

    if isinstance(x, flint.arb):
        return x
    if isinstance(x, (int, flint.fmpz)):
        return flint.arb(x)
    if isinstance(x, Fraction):
        return flint.arb(flint.fmpq(x.numerator, x.denominator))
    if isinstance(x, flint.fmpq):
        return flint.arb(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"cannot make a ball of non-finite {x!r}")
        return flint.arb(x)  # floats are dyadic: exact
    if isinstance(x, mpmath.ctx_mp_python._mpf):
        # any context's mpf (mp_context() makes its own mpf class, which is *not* an mpmath.mpf: it
        # used to fall through to flint.arb(x), i.e. through a float, losing everything beyond 53 bits)
        # exactly, from the binary representation (a decimal string of the value would round it)
        if not mpmath.isfinite(x):
            raise ValueError(f"cannot make a ball of non-finite {x!r}")
        sgn, man, exp, _ = x._mpf_
        return flint.arb(((-1) ** sgn * int(man), int(exp)))  # (mantissa, exponent): exact
    return flint.arb(x)


_FLOAT_MIN_NORMAL = 2.0**-1022


def arb_to_float(x: Any) -> float | None:
    """A Python float summarising the ball ``x`` safely, or ``None`` when there is none.

    Never goes through ``float(ball)`` (which underflows to 0 and overflows to inf): the exact
    midpoint is read as a dyadic rational and rounded once, and only when it lies in the normal
    float64 range (or is exactly 0).  ``None`` for NaN / infinite balls and for midpoints below
    2**-1022 or above the largest float in magnitude -- a caller must then keep the ball.
    """
    import flint
    from fractions import Fraction

    b = to_arb(x)
    if not b.is_finite():
        return None
    m = b.mid()
    if m.is_zero():
        return 0.0
    a = abs(m)
    if a < flint.arb(_FLOAT_MIN_NORMAL) or a > flint.arb(1.7976931348623157e308):
        return None
    man, exp = m.man_exp()
    man, exp = int(man), int(exp)
    try:  # a midpoint just above the largest float rounds to 2**1024: out of range, no summary
        return float(Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp)))
    except OverflowError:
        return None


def tri_positive(x: Any) -> Tri:
    """x > 0 on the whole ball -> TRUE; x <= 0 on the whole ball -> FALSE; else UNKNOWN.

    A ball that touches zero from above (e.g. [0, 2]) gives UNKNOWN: its lower end may be 0.
    """
    b = to_arb(x)
    if b > 0:
        return Tri.TRUE
    if b <= 0:
        return Tri.FALSE
    return Tri.UNKNOWN


def tri_negative(x: Any) -> Tri:
    return tri_positive(-to_arb(x))


def tri_nonnegative(x: Any) -> Tri:
    b = to_arb(x)
    if b >= 0:
        return Tri.TRUE
    if b < 0:
        return Tri.FALSE
    return Tri.UNKNOWN


def tri_lt(a: Any, b: Any) -> Tri:
    return tri_positive(to_arb(b) - to_arb(a))


def tri_gt(a: Any, b: Any) -> Tri:
    return tri_positive(to_arb(a) - to_arb(b))


def tri_le(a: Any, b: Any) -> Tri:
    return tri_nonnegative(to_arb(b) - to_arb(a))


def tri_ge(a: Any, b: Any) -> Tri:
    return tri_nonnegative(to_arb(a) - to_arb(b))


def tri_contains(ball: Any, value: Any) -> Tri:
    """Does ``ball`` contain the exact ``value``?  TRUE if certainly, FALSE if certainly not."""
    b, v = to_arb(ball), to_arb(value)
    if v.is_exact() and b.contains(v):
        return Tri.TRUE
    if not b.overlaps(v):
        return Tri.FALSE
    if b.contains(v):
        return Tri.TRUE
    return Tri.UNKNOWN
