"""A small arithmetic interface, so that kernels are written once (as mpmath's contexts do).

Three implementations:

* :class:`ExactArithmetic` -- rationals (python-flint ``fmpq`` or ``Fraction``); no ``exp``.
* :class:`MPArithmetic`    -- an mpmath context at a chosen number of digits (local, never global).
* :class:`ArbArithmetic`   -- python-flint arb balls: every result is a rigorous enclosure.  Use it as
  a context manager (``with ArbArithmetic(256) as ar: ...``), which sets and restores arb's
  working precision around the block.
* :class:`FloatArithmetic` -- IEEE float64 (Python floats).

Kernels only use ``convert``, ``exp``, ``sqrt``, ``abs``, ``fsum``, the ring operators of the converted
values, ``==`` / ``<`` on them, and -- where a decision must stay rigorous for balls -- the three-valued
``le`` and the upper bound ``upper``.  Ties are detected by ``==``: exact in :class:`ExactArithmetic`, at the working
precision otherwise (a float or mpf tie test is not a proof of a tie -- see the spec's pitfall 2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .exact import _check_backend, _default_backend, rational
from .precision import FLOAT64_EPS, Tri, mp_context, tolerance_for

__all__ = [
    "Arithmetic",
    "ExactArithmetic",
    "MPArithmetic",
    "ArbArithmetic",
    "FloatArithmetic",
    "arithmetic",
]


class Arithmetic:
    """Interface; see the module docstring."""

    name: str = "abstract"
    exact: bool = False

    @property
    def precision(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def convert(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def exp(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def sqrt(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def abs(self, x: Any) -> Any:
        return abs(x)

    def fsum(self, xs: Iterable[Any]) -> Any:
        total = self.convert(0)
        for x in xs:
            total = total + x
        return total

    def le(self, a: Any, b: Any) -> Tri:
        """``a <= b`` three-valued: TRUE / FALSE when decided, UNKNOWN otherwise (a NaN; for balls,
        overlapping enclosures -- python-flint's ``<=`` / ``>`` hold only when certain)."""
        if a <= b:
            return Tri.TRUE
        if a > b:
            return Tri.FALSE
        return Tri.UNKNOWN

    def upper(self, x: Any) -> Any:
        """A value of this arithmetic >= every number ``x`` stands for (``x`` itself for points)."""
        return x

    def tolerance(self, scale: float = 1.0) -> float:
        """The comparison tolerance this arithmetic supports at magnitude ``scale``."""
        raise NotImplementedError  # pragma: no cover

    def vector(self, v: Iterable[Any]) -> tuple[Any, ...]:
        return tuple(self.convert(x) for x in v)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.precision}>"


class ExactArithmetic(Arithmetic):
    exact = True

    def __init__(self, backend: str | None = None):
        self.backend = _check_backend(backend or _default_backend())
        self.name = f"exact[{self.backend}]"

    @property
    def precision(self) -> str:
        return "exact"

    def convert(self, x: Any) -> Any:
        return rational(x, backend=self.backend)

    def exp(self, x: Any) -> Any:
        raise TypeError(
            "exact rational arithmetic has no exp(); use hardmax, or an MPArithmetic context"
        )

    def sqrt(self, x: Any) -> Any:
        raise TypeError("exact rational arithmetic has no sqrt(); use an MPArithmetic or ArbArithmetic context")

    def tolerance(self, scale: float = 1.0) -> float:
        return 0.0


class MPArithmetic(Arithmetic):
    def __init__(self, dps: int):
        self.dps = int(dps)
        self.ctx = mp_context(self.dps)
        self.name = f"mpmath[dps={self.dps}]"

    @property
    def precision(self) -> str:
        return f"dps={self.dps}"

    def convert(self, x: Any) -> Any:
        from fractions import Fraction

        from .exact import HAVE_FLINT, to_fraction

        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return self.ctx.mpf(x)
        if isinstance(x, Fraction) or (HAVE_FLINT and type(x).__name__ in ("fmpq", "fmpz")):
            f = to_fraction(x)
            return self.ctx.mpf(f.numerator) / f.denominator
        return self.ctx.mpf(x)

    def exp(self, x: Any) -> Any:
        return self.ctx.exp(x)

    def sqrt(self, x: Any) -> Any:
        return self.ctx.sqrt(x)

    def fsum(self, xs: Iterable[Any]) -> Any:
        return self.ctx.fsum(xs)

    def tolerance(self, scale: float = 1.0) -> float:
        return tolerance_for(self.dps, scale=scale, guard_digits=12 if self.dps > 20 else 3)


class ArbArithmetic(Arithmetic):
    """Ball arithmetic at ``bits`` bits.  Operations must run inside ``with ArbArithmetic(...)``."""

    def __init__(self, bits: int):
        self.bits = int(bits)
        self.name = f"arb[{self.bits} bits]"
        self._stack: list[Any] = []

    @property
    def precision(self) -> str:
        return f"arb {self.bits} bits"

    def __enter__(self) -> ArbArithmetic:
        from .precision import arb_precision

        cm = arb_precision(self.bits)
        cm.__enter__()
        self._stack.append(cm)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.pop().__exit__(*exc)

    def _require_active(self) -> None:
        if not self._stack:
            raise RuntimeError("use ArbArithmetic inside a 'with' block (it sets arb's precision)")

    def convert(self, x: Any) -> Any:
        from .precision import to_arb

        self._require_active()
        return to_arb(x)

    def exp(self, x: Any) -> Any:
        self._require_active()
        return x.exp()

    def sqrt(self, x: Any) -> Any:
        self._require_active()
        return x.sqrt()

    def upper(self, x: Any) -> Any:
        """The exact upper endpoint of the ball (radius 0), so that ``max`` of such points is decided."""
        return x.upper()

    def tolerance(self, scale: float = 1.0) -> float:
        return 0.0  # enclosures carry their own radius


class FloatArithmetic(Arithmetic):
    name = "float64"

    @property
    def precision(self) -> str:
        return "float64"

    def convert(self, x: Any) -> Any:
        from .exact import is_rational, to_fraction

        if is_rational(x) and not isinstance(x, int):
            return float(to_fraction(x))
        v = float(x)
        if math.isnan(v):
            raise ValueError("NaN is not a valid input")
        return v

    def exp(self, x: Any) -> Any:
        return math.exp(x)

    def sqrt(self, x: Any) -> Any:
        return math.sqrt(x)

    def fsum(self, xs: Iterable[Any]) -> Any:
        return math.fsum(xs)

    def tolerance(self, scale: float = 1.0) -> float:
        return 1e3 * FLOAT64_EPS * max(float(scale), 1.0)


def arithmetic(spec: str | Arithmetic) -> Arithmetic:
    """``"exact"``, ``"fraction"``, ``"flint"``, ``"float64"`` or ``"mp:50"`` (dps) to an Arithmetic."""
    if isinstance(spec, Arithmetic):
        return spec
    if spec == "exact":
        return ExactArithmetic()
    if spec in ("fraction", "flint"):
        return ExactArithmetic(spec)
    if spec == "float64":
        return FloatArithmetic()
    if spec.startswith("mp:"):
        return MPArithmetic(int(spec[3:]))
    raise ValueError(f"unknown arithmetic {spec!r}; use exact, fraction, flint, float64 or mp:<dps>")
