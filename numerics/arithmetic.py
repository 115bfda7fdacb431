"""A small arithmetic interface, so that kernels are written once (as mpmath's contexts do).

Three implementations:

* :class:`ExactArithmetic` -- rationals (python-flint ``fmpq`` or ``Fraction``); no ``exp``.
* :class:`MPArithmetic`    -- an mpmath context at a chosen number of digits (local, never global).
* :class:`ArbArithmetic`   -- python-flint arb balls: every result is a rigorous enclosure.  Use it as
  a context manager (``with ArbArithmetic(256) as ar: ...``), which sets and restores arb's
  working precision around the block.
* :class:`FloatArithmetic` -- IEEE float64 (Python floats).

Kernels only use ``convert``, ``exp``, ``fsum``, the ring operators of the converted values, and
``==`` / ``<`` on them; where a decision must stay rigorous for balls, the three-valued ``le`` and the
upper bound ``upper``.  Ties are detected by ``==``: exact in :class:`ExactArithmetic`, at the working
precision otherwise (a float or mpf tie test is not a proof of a tie -- see the spec's pitfall 2).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from .exact import HAVE_FLINT, _check_backend, _default_backend, is_rational, rational, to_fraction
from .precision import FLOAT64_EPS, Tri, fixed_mp_context, mp_context, tolerance_for

if HAVE_FLINT:
    from flint import fmpq as _FMPQ
else:  # pragma: no cover - python-flint is a declared dependency
    _FMPQ = None

__all__ = [
    "ArbArithmetic",
    "Arithmetic",
    "ExactArithmetic",
    "FloatArithmetic",
    "MPArithmetic",
    "TabulatedArithmetic",
    "TorchArithmetic",
    "SympyArithmetic",
    "arithmetic",
    "arithmetic_of",
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

    def log(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def sqrt(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def abs(self, x: Any) -> Any:
        return abs(x)

    def floor(self, x: Any) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def fsum(self, xs: Iterable[Any]) -> Any:
        total = self.convert(0)
        for x in xs:
            total = total + x
        return total

    def dot(self, xs: Iterable[Any], ys: Iterable[Any]) -> Any:
        """sum_i x_i y_i in this arithmetic (the one ``dot`` every kernel uses)."""
        return self.fsum(x * y for x, y in zip(xs, ys, strict=True))

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
    """Rationals; ``exp``/``log``/``sqrt`` only where the value is rational (exp(0), log(1), the root
    of a rational square), else ``TypeError`` -- never a rounded value."""

    exact = True

    def __init__(self, backend: str | None = None):
        self.backend = _check_backend(backend or _default_backend())
        self.name = f"exact[{self.backend}]"

    @property
    def precision(self) -> str:
        return "exact"

    def convert(self, x: Any) -> Any:
        # fast paths (hot in the exact evaluators): a value already of this backend's type is returned
        # as is (fmpq and Fraction are immutable and canonical), an int is wrapped directly
        t = type(x)
        if self.backend == "flint":
            if t is _FMPQ:
                return x
            if t is int:
                return _FMPQ(x)
        elif t is Fraction:
            return x
        elif t is int:
            return Fraction(x)
        elif t is _FMPQ:  # what rational() returns for it: the same canonical p/q
            return Fraction(int(x.p), int(x.q))
        return rational(x, backend=self.backend)

    def vector(self, v: Iterable[Any]) -> tuple[Any, ...]:
        """``tuple(convert(x) for x in v)``; a vector whose entries are all of this backend's type already
        is returned as a tuple of the same values (what ``convert`` returns for each of them)."""
        out = tuple(v)
        q = _FMPQ if self.backend == "flint" else Fraction
        for x in out:
            if type(x) is not q:
                return tuple(self.convert(x) for x in out)
        return out

    def dot(self, xs: Iterable[Any], ys: Iterable[Any]) -> Any:
        """sum_i x_i y_i; for Fractions on (numerator, denominator) integer pairs with one ``Fraction``
        (one gcd) at the end instead of one per operation (the same canonical rational)."""
        if self.backend == "fraction":
            xs = xs if isinstance(xs, (tuple, list)) else tuple(xs)  # read twice if a non-Fraction shows
            ys = ys if isinstance(ys, (tuple, list)) else tuple(ys)
            n, d = 0, 1
            for x, y in zip(xs, ys, strict=True):
                if type(x) is not Fraction or type(y) is not Fraction:
                    break
                xd, yd = x.denominator, y.denominator
                n, d = n * xd * yd + x.numerator * y.numerator * d, d * xd * yd
            else:
                return Fraction(n, d)
        return super().dot(xs, ys)

    def exp(self, x: Any) -> Any:
        if x == 0:
            return self.convert(1)
        raise TypeError(
            "exact rational arithmetic has no exp(); use hardmax, or an MPArithmetic context"
        )

    def log(self, x: Any) -> Any:
        if x == 1:
            return self.convert(0)
        raise TypeError("exact rational arithmetic has no log() of a number other than 1; use an "
                        "MPArithmetic or ArbArithmetic context")

    def sqrt(self, x: Any) -> Any:
        """The exact square root of a rational square (else TypeError: it is not rational)."""
        import math as _m

        from .exact import to_fraction

        f = to_fraction(self.convert(x))
        if f >= 0:
            n, d = _m.isqrt(f.numerator), _m.isqrt(f.denominator)
            if n * n == f.numerator and d * d == f.denominator:
                return self.convert(n) / d
        raise TypeError(f"exact rational arithmetic has no sqrt({f}): not the square of a rational")

    def floor(self, x: Any) -> Any:
        from .exact import to_fraction

        return self.convert(math.floor(to_fraction(self.convert(x))))

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
        ctx = self.ctx
        if type(x) is ctx.mpf:  # fast path: a value of this context; rounding it to ctx.prec
            if x._mpf_[3] <= ctx._prec_rounding[0]:  # is the identity when its mantissa has <= prec bits
                return x
            return ctx.mpf(x)
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            return self.ctx.mpf(x)
        if isinstance(x, Fraction) or (HAVE_FLINT and type(x).__name__ in ("fmpq", "fmpz")):
            f = to_fraction(x)
            return self.ctx.mpf(f.numerator) / f.denominator
        return self.ctx.mpf(x)

    def vector(self, v: Iterable[Any]) -> tuple[Any, ...]:
        """``tuple(convert(x) for x in v)``; a vector of values of this context with at most ``prec``
        mantissa bits (``convert``'s identity case) is returned as a tuple of the same values."""
        out = tuple(v)
        ctx = self.ctx
        mpf, prec = ctx.mpf, ctx._prec_rounding[0]
        for x in out:
            if type(x) is not mpf or x._mpf_[3] > prec:
                return tuple(self.convert(x) for x in out)
        return out

    def exp(self, x: Any) -> Any:
        return self.ctx.exp(x)

    def log(self, x: Any) -> Any:
        return self.ctx.log(x)

    def sqrt(self, x: Any) -> Any:
        return self.ctx.sqrt(x)

    def floor(self, x: Any) -> Any:
        return self.ctx.floor(x)

    def fsum(self, xs: Iterable[Any]) -> Any:
        return self.ctx.fsum(xs)

    def tolerance(self, scale: float = 1.0) -> float:
        return tolerance_for(self.dps, scale=scale, guard_digits=12 if self.dps > 20 else 3)


class _NoBlock:
    def __exit__(self, *exc: object) -> None:
        return None


_NO_BLOCK = _NoBlock()


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

    def __exit__(self, *exc: object) -> None:
        self._stack.pop().__exit__(*exc)

    @classmethod
    def current(cls) -> ArbArithmetic:
        """Arithmetic on balls that exist already, at arb's working precision (no block to enter)."""
        import flint

        ar = cls(int(flint.ctx.prec))
        ar._stack.append(_NO_BLOCK)
        return ar

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

    def log(self, x: Any) -> Any:
        self._require_active()
        return x.log()

    def sqrt(self, x: Any) -> Any:
        self._require_active()
        return x.sqrt()

    def floor(self, x: Any) -> Any:
        self._require_active()
        return x.floor()

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
        t = type(x)
        if t is float:  # fast path: the float itself (NaN rejected as below)
            if math.isnan(x):
                raise ValueError("NaN is not a valid input")
            return x
        if t is int:  # fast path: what the general path does for an int (float(x), never NaN)
            return float(x)
        if is_rational(x) and not isinstance(x, int):
            return float(to_fraction(x))
        if type(x).__module__ == "numpy" and getattr(x, "ndim", 0) > 0:  # arrays: elementwise float64
            import numpy as np

            return np.asarray(x, dtype=np.float64)
        v = float(x)
        if math.isnan(v):
            raise ValueError("NaN is not a valid input")
        return v

    def exp(self, x: Any) -> Any:
        return _np_or(math.exp, "exp", x)

    def log(self, x: Any) -> Any:
        return _np_or(math.log, "log", x)

    def sqrt(self, x: Any) -> Any:
        return _np_or(math.sqrt, "sqrt", x)

    def floor(self, x: Any) -> Any:
        return _np_or(math.floor, "floor", x)

    def fsum(self, xs: Iterable[Any]) -> Any:
        return math.fsum(xs)

    def tolerance(self, scale: float = 1.0) -> float:
        return 1e3 * FLOAT64_EPS * max(float(scale), 1.0)


class TabulatedArithmetic(Arithmetic):
    """A field's own arithmetic (sympy field elements, rationals, ...) whose ``exp`` and ``log`` are
    known only at tabulated points -- the exact values a closed-form derivation needs (``exp(0) = 1``,
    ``exp(l_k) = pi_k T``, ``log T = LT``...); any other point raises ``ArithmeticError`` naming it.

    What a forward-mode jet (:class:`numerics.krawczyk.Jet2`) over a symbolic field uses, instead of a
    local class with ``exp``/``log``.
    """

    exact = True

    def __init__(self, one: Any, exp_table: Iterable[tuple[Any, Any]] = (),
                 log_table: Iterable[tuple[Any, Any]] = (), name: str = "tabulated"):
        self.one = one
        self.exp_table = tuple(exp_table)
        self.log_table = tuple(log_table)
        self.name = name

    @property
    def precision(self) -> str:
        return "exact"

    def convert(self, x: Any) -> Any:
        return self.one * x

    @staticmethod
    def _look(table: tuple[tuple[Any, Any], ...], v: Any, fn: str) -> Any:
        for k, val in table:
            if v == k:
                return val
        raise ArithmeticError(f"{fn}({v}) is not one of the tabulated points")

    def exp(self, x: Any) -> Any:
        if x == 0:
            return self.one
        return self._look(self.exp_table, x, "exp")

    def log(self, x: Any) -> Any:
        if x == self.one:
            return self.one * 0
        return self._look(self.log_table, x, "log")

    def tolerance(self, scale: float = 1.0) -> float:
        return 0.0


def _np_or(scalar: Any, name: str, x: Any) -> Any:
    """``scalar(x)`` for a Python number, numpy's ufunc ``name`` for an array (elementwise)."""
    if type(x).__module__ == "numpy":
        import numpy as np

        return getattr(np, name)(x)
    return scalar(x)


class TorchArithmetic(Arithmetic):
    """torch tensors of one floating dtype (elementwise; batches evaluate in one tensor program).

    The tolerance scales with the dtype's machine epsilon, as :class:`FloatArithmetic`'s does with
    float64's, so a float32 model is held to float32 precision and no finer.
    """

    def __init__(self, dtype: Any = None):
        import torch

        self.torch = torch
        self.dtype = dtype if dtype is not None else torch.float64
        if not self.dtype.is_floating_point:
            raise TypeError(f"TorchArithmetic needs a floating dtype, got {self.dtype}")
        self.name = f"torch[{str(self.dtype).replace('torch.', '')}]"

    @property
    def precision(self) -> str:
        return str(self.dtype).replace("torch.", "")

    def convert(self, x: Any) -> Any:
        from .exact import is_rational, to_fraction

        if isinstance(x, self.torch.Tensor):
            return x.to(self.dtype)
        if is_rational(x) and not isinstance(x, int):
            x = float(to_fraction(x))
        return self.torch.as_tensor(x, dtype=self.dtype)

    def exp(self, x: Any) -> Any:
        return self.torch.exp(self.convert(x))

    def log(self, x: Any) -> Any:
        return self.torch.log(self.convert(x))

    def sqrt(self, x: Any) -> Any:
        return self.torch.sqrt(self.convert(x))

    def abs(self, x: Any) -> Any:
        return self.torch.abs(self.convert(x))

    def floor(self, x: Any) -> Any:
        return self.torch.floor(self.convert(x))

    def fsum(self, xs: Iterable[Any]) -> Any:
        """Elementwise sum; scalars and tensors of broadcastable shapes are broadcast first."""
        ts = self.torch.broadcast_tensors(*[self.convert(x) for x in xs])
        return self.torch.stack(ts).sum(0)

    def tolerance(self, scale: float = 1.0) -> float:
        eps = float(self.torch.finfo(self.dtype).eps)
        return 1e3 * eps * max(float(scale), 1.0)


class SympyArithmetic(Arithmetic):
    """sympy expressions: exact and symbolic (``exp``, ``log`` stay unevaluated where irrational).

    Subclass it to steer the form an identity is decided in (e.g. an ``exp`` that expands its argument).
    """

    name = "sympy"
    exact = True

    @property
    def precision(self) -> str:
        return "symbolic"

    def convert(self, x: Any) -> Any:
        import sympy as sp

        from .exact import is_rational, to_fraction

        if is_rational(x) and not isinstance(x, int):
            f = to_fraction(x)
            return sp.Rational(f.numerator, f.denominator)
        return sp.sympify(x)

    def exp(self, x: Any) -> Any:
        import sympy as sp

        return sp.exp(x)

    def log(self, x: Any) -> Any:
        import sympy as sp

        return sp.log(x)

    def tolerance(self, scale: float = 1.0) -> float:
        return 0.0


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


@functools.lru_cache(maxsize=64)
def _shared_mp(dps: int) -> MPArithmetic:
    """``MPArithmetic(dps)`` on :func:`~numerics.precision.fixed_mp_context` (one per ``dps`` in the process,
    its precision fixed): the conversions and operations of a fresh context at ``dps``, without making
    one (~0.4 ms) for every statement evaluated on mpmath values."""
    ar = MPArithmetic(dps)  # validates dps
    ar.ctx = fixed_mp_context(ar.dps)
    return ar


def arithmetic_of(values: Iterable[Any]) -> Arithmetic:
    """The arithmetic in which ``values`` (numbers a check computed) are to be combined.

    The least exact kind present decides: a torch tensor -> :class:`TorchArithmetic` (its dtype), a
    float or numpy value -> :class:`FloatArithmetic`, an mpmath number -> :class:`MPArithmetic` (its
    context's digits), a python-flint arb ball -> :class:`ArbArithmetic` (arb's working precision, no
    ``with`` block needed: the balls exist already), otherwise (int, Fraction, fmpz/fmpq) exact.
    Mixing kinds never raises the rigour of the result: floats among balls make a float comparison.
    """
    kinds = {"torch": None, "float": None, "mp": None, "arb": None}
    for v in values:
        mod = type(v).__module__ or ""
        if isinstance(v, bool):
            continue
        if mod.startswith("torch"):  # the widest floating dtype present (integer tensors: float64)
            dt = v.dtype if v.dtype.is_floating_point else None
            if dt is None:
                kinds["torch_int"] = True
            elif kinds["torch"] is None or dt.itemsize > kinds["torch"].itemsize:
                kinds["torch"] = dt
        elif isinstance(v, float) or mod == "numpy":
            kinds["float"] = True
        elif mod.startswith("mpmath"):
            # the context's digits, but at least the digits the value itself carries: an mpf made
            # inside ``mp.workdps(50)`` reports the global context's 15 digits afterwards, and
            # rounding it there would hide a 1e-40 discrepancy below a 1e-45 tolerance
            dps = int(getattr(getattr(v, "context", None), "dps", 15))
            for part in (getattr(v, "_mpf_", None),) + tuple(getattr(v, "_mpc_", None) or ()):
                if part is not None and part[1]:
                    dps = max(dps, int(int(part[3]) * 0.30103) + 3)
            kinds["mp"] = max(kinds["mp"] or 0, dps)
        elif mod.startswith("flint") and type(v).__name__ in ("arb", "acb"):
            kinds["arb"] = True
    if kinds["torch"] is not None:
        return TorchArithmetic(kinds["torch"])
    if kinds.get("torch_int"):
        import torch

        return TorchArithmetic(torch.float64)
    if kinds["float"]:
        return FloatArithmetic()
    if kinds["mp"]:
        return _shared_mp(kinds["mp"])
    if kinds["arb"]:

        return ArbArithmetic.current()
    return ExactArithmetic()
