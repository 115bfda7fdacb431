"""Argument checks shared by the public entry points (each raises an error of :mod:`numerics.errors`
naming the argument and the rule).

>>> check_dps(30)
30
>>> check_dps(0)
Traceback (most recent call last):
...
numerics.errors.InputError: argument 'dps': must be an integer >= 1 (decimal digits of precision) (got 0)
>>> check_positive_real(0.0, "tau")
Traceback (most recent call last):
...
numerics.errors.InputError: argument 'tau': must be a finite real number > 0 (got 0.0)
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

from .errors import InputError, InputTypeError

__all__ = ["check_dps", "check_int", "check_positive_real", "real_value"]

MAX_DPS = 1_000_000


def check_int(value: Any, argument: str, *, minimum: int | None = None,
              maximum: int | None = None, what: str = "") -> int:
    """``value`` as an ``int`` (bool refused), within ``[minimum, maximum]``."""
    rule = "must be an integer"
    if minimum is not None:
        rule += f" >= {minimum}"
    if maximum is not None:
        rule += f" and <= {maximum}" if minimum is not None else f" <= {maximum}"
    if what:
        rule += f" ({what})"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InputTypeError(argument, rule, value, has_value=True)
    v = int(value)
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        raise InputError(argument, rule, value, has_value=True)
    return v


def check_dps(dps: Any, argument: str = "dps", *, minimum: int = 1) -> int:
    """Decimal digits of precision: an integer in ``[minimum, 10^6]``."""
    if minimum == 1:
        if isinstance(dps, bool) or not isinstance(dps, numbers.Integral):
            raise InputTypeError(argument, "must be an integer >= 1 (decimal digits of precision)", dps,
                                 has_value=True)
        if not 1 <= int(dps) <= MAX_DPS:
            raise InputError(argument, "must be an integer >= 1 (decimal digits of precision)"
                             if int(dps) < 1 else f"must be an integer <= {MAX_DPS}", dps, has_value=True)
        return int(dps)
    return check_int(dps, argument, minimum=minimum, maximum=MAX_DPS, what="decimal digits of precision")


def _mpf_fraction(x: Any) -> Fraction:
    man, exp = x.man_exp
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


def real_value(x: Any, argument: str) -> Fraction | float:
    """An exact Fraction (int, Fraction, fmpq, finite float, numpy scalar, mpmath mpf, "p/q") or the float
    ``inf``/``nan`` it is; anything that is not a real number raises :class:`InputTypeError`."""
    if isinstance(x, str):  # "p/q" or a decimal, read exactly
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise InputTypeError(argument, "must be a real number (a string must read as 'p/q' or a decimal)",
                                 x, has_value=True) from None
    if isinstance(x, bool) or isinstance(x, bytes):
        raise InputTypeError(argument, "must be a real number", x, has_value=True)
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    if hasattr(x, "p") and hasattr(x, "q") and not callable(x.p):  # python-flint fmpq
        try:
            return Fraction(int(x.p), int(x.q))
        except (TypeError, ValueError):
            pass
    if isinstance(x, numbers.Real) or type(x).__name__ in ("mpf", "float64", "float32", "float16"):
        try:
            f = float(x)
        except (TypeError, ValueError, OverflowError):
            f = None
        if f is not None:
            if not math.isfinite(f):
                if type(x).__name__ == "mpf":
                    import mpmath

                    if mpmath.isfinite(x):  # beyond the float range, still a finite real
                        return _mpf_fraction(x)
                return f
            if type(x).__name__ == "mpf":
                return _mpf_fraction(x)
            return Fraction(f)
    raise InputTypeError(argument, "must be a real number", x, has_value=True)


def check_positive_real(x: Any, argument: str) -> Fraction:
    """A finite real number ``> 0``, returned exactly as a Fraction."""
    v = real_value(x, argument)
    if isinstance(v, float) or v <= 0:
        raise InputError(argument, "must be a finite real number > 0", x, has_value=True)
    return v
