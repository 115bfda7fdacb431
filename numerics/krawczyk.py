"""Certified existence and uniqueness of zeros of smooth systems: the Krawczyk test in arb.

For ``F: R^n -> R^n`` given as sympy expressions, a box ``X = x0 + [-r, r]^n`` and ``Y`` an approximate
inverse of ``F'(x0)``, the Krawczyk operator

    K(X) = x0 - Y F(x0) + (I - Y F'(X)) (X - x0)

is evaluated in ball arithmetic (``F'(X)`` is the interval extension of the symbolic Jacobian over the
whole box).  Then

* ``K(X)`` inside the interior of ``X``  =>  ``F`` has exactly one zero in ``X``      (``Tri.TRUE``);
* some ``F_i`` enclosed over ``X`` excludes 0  =>  ``F`` has no zero in ``X``          (``Tri.FALSE``);
* otherwise                                                                            (``Tri.UNKNOWN``).

The sympy expressions are evaluated by :func:`sympy_to_arb`, a small interpreter over +, *, integer
powers, exp, log, sqrt and rational constants, so every constant stays exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .arithmetic import Arithmetic
from .precision import Tri, arb_precision, to_arb

__all__ = ["sympy_to_arb", "KrawczykResult", "krawczyk", "krawczyk_fn", "Dual", "Jet2", "JetArithmetic", "hessian_forward"]


def sympy_to_arb(expr: Any, env: Mapping[Any, Any], *, complex_balls: bool = False) -> Any:
    """Evaluate a sympy expression with arb balls substituted for its symbols (``env``).

    ``complex_balls=True`` evaluates in acb (complex balls) instead, so that ``I`` and powers of
    negative or complex bases are allowed; non-integer powers then take the principal branch,
    sympy's convention for numbers (e.g. eigenvalues written with complex cube roots)."""
    import flint
    import sympy as sp

    ball = flint.acb if complex_balls else flint.arb

    def rec(e: Any) -> Any:
        return sympy_to_arb(e, env, complex_balls=complex_balls)

    if expr in env:
        return env[expr]
    if isinstance(expr, sp.Rational):
        return ball(flint.arb(flint.fmpq(int(expr.p), int(expr.q))))
    if expr is sp.pi:
        return ball(flint.arb.pi())
    if expr is sp.I and complex_balls:
        return flint.acb(0, 1)
    if isinstance(expr, sp.Add):
        out = ball(0)
        for a in expr.args:
            out = out + rec(a)
        return out
    if isinstance(expr, sp.Mul):
        out = ball(1)
        for a in expr.args:
            out = out * rec(a)
        return out
    if isinstance(expr, sp.Pow):
        base = rec(expr.base)
        e = expr.exp
        if isinstance(e, sp.Integer):
            k = int(e)
            out = ball(1)
            for _ in range(abs(k)):
                out = out * base
            return out if k >= 0 else 1 / out
        if e == sp.Rational(1, 2):
            return base.sqrt()
        return (rec(e) * base.log()).exp()
    if isinstance(expr, sp.exp):
        return rec(expr.args[0]).exp()
    if isinstance(expr, sp.log):
        return rec(expr.args[0]).log()
    if isinstance(expr, sp.Symbol):
        raise KeyError(f"no value for symbol {expr}")
    raise TypeError(f"sympy_to_arb does not handle {type(expr).__name__}: {expr}")


@dataclass(frozen=True)
class KrawczykResult:
    """``decision``: TRUE (a unique zero in the box), FALSE (no zero in the box), UNKNOWN."""

    decision: Tri
    radius: float
    bits: int
    contraction: float | None  # max over i of rad(K_i) / r (< 1 is needed for TRUE)
    residual: float            # |F(x0)|_inf upper bound
    excluded_component: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"decision": self.decision.value, "radius": self.radius, "bits": self.bits,
                "contraction": self.contraction, "residual": self.residual,
                "excluded_component": self.excluded_component}


def _operator_test(x0: list[Any], F0: list[Any], J0: Any, JX: Any, box: list[Any], r: Any,
                   radius: Any, bits: int, residual: float) -> KrawczykResult:
    """K(X) = x0 - Y F(x0) + (I - Y F'(X))(X - x0) with Y = mid(J0)^-1; TRUE iff K(X) is inside X.

    Must run inside the caller's ``arb_precision`` block.
    """
    import flint

    n = len(x0)
    try:
        Y = J0.inv()
    except ZeroDivisionError:
        return KrawczykResult(Tri.UNKNOWN, float(radius), bits, None, residual, None)
    Y = flint.arb_mat([[flint.arb(Y[i, j].mid()) for j in range(n)] for i in range(n)])
    I = flint.arb_mat([[int(i == j) for j in range(n)] for i in range(n)])
    dX = flint.arb_mat([[flint.arb(0, r.upper())] for _ in range(n)])
    K = flint.arb_mat([[x] for x in x0]) - Y * flint.arb_mat([[f] for f in F0]) + (I - Y * JX) * dX
    inside = True
    worst = 0.0
    for i in range(n):
        ki = K[i, 0]
        inside = inside and bool(ki.lower() > box[i].lower()) and bool(ki.upper() < box[i].upper())
        dev = max(float(abs(ki.upper() - x0[i]).upper()), float(abs(x0[i] - ki.lower()).upper()))
        worst = max(worst, dev / float(r))
    return KrawczykResult(Tri.TRUE if inside else Tri.UNKNOWN, float(radius), bits, worst, residual, None)


def krawczyk(equations: Sequence[Any], unknowns: Sequence[Any], center: Sequence[Any], radius: Any, *,
             bits: int = 256, parameters: Mapping[Any, Any] | None = None) -> KrawczykResult:
    """The Krawczyk test for ``equations == 0`` on ``center + [-radius, radius]^n``.

    ``center`` may hold mpmath numbers, floats, strings or rationals; ``parameters`` maps other
    symbols to values (converted to balls).  The approximate inverse ``Y`` is computed from the
    midpoint Jacobian; any ``Y`` is valid, a good one only makes the test succeed.
    """
    import flint
    import sympy as sp

    n = len(unknowns)
    if len(equations) != n or len(center) != n:
        raise ValueError(f"need n equations, n unknowns and an n-vector center (got "
                         f"{len(equations)}, {n}, {len(center)})")
    jac = [[sp.diff(f, v) for v in unknowns] for f in equations]
    with arb_precision(bits):
        par = {k: to_arb(v) for k, v in (parameters or {}).items()}
        x0 = [to_arb(c) for c in center]
        r = to_arb(radius)
        box = [x + flint.arb(0, r.upper()) for x in x0]
        env0 = {**par, **dict(zip(unknowns, x0))}
        envX = {**par, **dict(zip(unknowns, box))}
        F0 = [sympy_to_arb(f, env0) for f in equations]
        FX = [sympy_to_arb(f, envX) for f in equations]
        residual = max(float(abs(f).upper()) for f in F0)
        for i, f in enumerate(FX):
            if f > 0 or f < 0:
                return KrawczykResult(Tri.FALSE, float(radius), bits, None, residual, i)
        J0 = flint.arb_mat([[flint.arb(sympy_to_arb(jac[i][j], env0).mid()) for j in range(n)]
                            for i in range(n)])
        JX = flint.arb_mat([[sympy_to_arb(jac[i][j], envX) for j in range(n)] for i in range(n)])
        return _operator_test(x0, F0, J0, JX, box, r, radius, bits, residual)


class Dual:
    """Forward-mode dual number over arb balls: a value and its gradient (a tuple of balls).

    Evaluating a function on duals whose values are balls gives enclosures of the function and of
    its gradient over the whole ball -- the interval Jacobian the Krawczyk operator needs.
    """

    __slots__ = ("v", "g")

    def __init__(self, v: Any, g: Sequence[Any]):
        self.v = v
        self.g = tuple(g)

    @staticmethod
    def _lift(x: Any, n: int) -> Dual:
        if isinstance(x, Dual):
            return x
        import flint

        return Dual(to_arb(x), (flint.arb(0),) * n)

    def __add__(self, o: Any) -> Dual:
        o = Dual._lift(o, len(self.g))
        return Dual(self.v + o.v, [a + b for a, b in zip(self.g, o.g)])

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(-self.v, [-a for a in self.g])

    def __sub__(self, o: Any) -> Dual:
        return self + (-Dual._lift(o, len(self.g)))

    def __rsub__(self, o: Any) -> Dual:
        return Dual._lift(o, len(self.g)) - self

    def __mul__(self, o: Any) -> Dual:
        o = Dual._lift(o, len(self.g))
        return Dual(self.v * o.v, [a * o.v + self.v * b for a, b in zip(self.g, o.g)])

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Dual:
        o = Dual._lift(o, len(self.g))
        inv = 1 / o.v
        return Dual(self.v * inv, [(a * o.v - self.v * b) * inv * inv for a, b in zip(self.g, o.g)])

    def __rtruediv__(self, o: Any) -> Dual:
        return Dual._lift(o, len(self.g)) / self

    def exp(self) -> Dual:
        e = self.v.exp()
        return Dual(e, [e * a for a in self.g])

    def log(self) -> Dual:
        return Dual(self.v.log(), [a / self.v for a in self.g])


def krawczyk_fn(F: Any, center: Sequence[Any], radius: Any, *, bits: int = 256) -> KrawczykResult:
    """The Krawczyk test for ``F(x) == 0`` where ``F`` maps a list of n scalars to n scalars using only
    + - * / and ``.exp()`` / ``.log()`` (so it runs on arb balls and on :class:`Dual` numbers).

    The interval Jacobian over the box comes from forward-mode differentiation in ball arithmetic.
    """
    import flint

    n = len(center)
    with arb_precision(bits):
        x0 = [to_arb(c) for c in center]
        r = to_arb(radius)
        box = [x + flint.arb(0, r.upper()) for x in x0]
        F0 = list(F(list(x0)))
        if len(F0) != n:
            raise ValueError(f"F returned {len(F0)} values for {n} unknowns")
        residual = max(float(abs(f).upper()) for f in F0)
        duals = [Dual(b, [flint.arb(int(i == j)) for j in range(n)]) for i, b in enumerate(box)]
        FX = list(F(duals))
        for i, f in enumerate(FX):
            if f.v > 0 or f.v < 0:
                return KrawczykResult(Tri.FALSE, float(radius), bits, None, residual, i)
        JX = flint.arb_mat([[FX[i].g[j] for j in range(n)] for i in range(n)])
        J0 = flint.arb_mat([[flint.arb(JX[i, j].mid()) for j in range(n)] for i in range(n)])
        return _operator_test(x0, F0, J0, JX, box, r, radius, bits, residual)


def _unit_exact_types() -> frozenset[type]:
    """Scalar types in which 1 * c and -1 * c are exactly c and -c, in the same normal form: int,
    Fraction, flint's fmpq, sympy's rational-function field elements (``FracElement``: reduced numerator
    and denominator with a canonical unit, which negating the numerator keeps)."""
    from fractions import Fraction

    out: set[type] = {int, Fraction}
    try:
        import flint

        out.add(flint.fmpq)
    except ImportError:  # pragma: no cover - flint is a declared dependency
        pass
    try:
        from sympy.polys.fields import FracElement

        out.add(FracElement)
    except ImportError:  # pragma: no cover - sympy is a declared dependency
        pass
    return frozenset(out)


_UNIT_EXACT: frozenset[type] | None = None  # filled on first use (sympy is imported lazily)


class Jet2:
    """Second-order forward-mode jet over any exact or ball scalar type: a value, its gradient and its
    Hessian, stored sparsely (``g``: index -> coefficient, ``h``: (i, j) with i <= j -> coefficient).

    Only + - * / and ``.exp()`` / ``.log()`` are supported, which is all the closed-form loss needs.  The
    scalar type only has to support + - * / and ``== 0``; the values of exp and log come from ``fns``, a
    :class:`numerics.arithmetic.Arithmetic` (its ``exp(v)`` and ``log(v)``): ``ExactArithmetic`` (exp
    only at 0, log only at 1), ``ArbArithmetic`` (balls; inside its ``with`` block or
    ``ArbArithmetic.current()``), ``TabulatedArithmetic`` (a symbolic field with tabulated exp/log).  Coefficients that are *exactly*
    zero (``x == 0`` is True: an exact rational zero, or an arb ball of radius 0 at 0) are not stored, so
    the sparsity pattern of the Hessian is a proven zero pattern, never an interval guess.
    """

    __slots__ = ("v", "g", "h", "fns")

    def __init__(self, v: Any, g: dict[int, Any], h: dict[tuple[int, int], Any], fns: Any):
        self.v = v
        self.g = g
        self.h = h
        self.fns = fns

    @staticmethod
    def variables(values: Sequence[Any], fns: Any) -> list[Jet2]:
        """Independent variables x_i = values[i] + e_i."""
        return [Jet2(v, {i: v * 0 + 1}, {}, fns) for i, v in enumerate(values)]

    @staticmethod
    def _acc(out: dict, k: Any, t: Any) -> None:
        """out[k] += t, dropping the entry when the sum is exactly zero."""
        if k in out:
            t = out[k] + t
        if t == 0:
            out.pop(k, None)
        else:
            out[k] = t

    @staticmethod
    def _axpy(out: dict, a: Any, x: dict) -> None:
        """out += a * x.  For canonical exact scalars (:data:`_UNIT_EXACT`) a product with a factor +-1
        is the other factor or its negative -- the same value in the same normal form -- and is not
        formed: a product in sympy's rational-function field cancels a polynomial gcd, and jet addition
        and negation scale by the int +-1, the jets' values and coefficients are often exactly 1.  Balls
        and floats always multiply (arb's product by an exact 1 can round the radius up)."""
        global _UNIT_EXACT
        if _UNIT_EXACT is None:
            _UNIT_EXACT = _unit_exact_types()
        unit = _UNIT_EXACT
        ta = type(a)
        if ta not in unit:
            for k, c in x.items():
                Jet2._acc(out, k, a * c)
            return
        if a == 1 or a == -1:
            one = a == 1
            for k, c in x.items():
                tc = type(c)
                # int * c has c's type; a Fraction 1 times an int would not be the int
                if tc in unit and (ta is int or ta is tc):
                    Jet2._acc(out, k, c if one else -c)
                else:
                    Jet2._acc(out, k, a * c)
            return
        for k, c in x.items():
            if type(c) is ta and (c == 1 or c == -1):
                Jet2._acc(out, k, a if c == 1 else -a)
            else:
                Jet2._acc(out, k, a * c)

    def _scaled(self, a: Any) -> Jet2:
        g: dict = {}
        h: dict = {}
        Jet2._axpy(g, a, self.g)
        Jet2._axpy(h, a, self.h)
        return Jet2(self.v * a, g, h, self.fns)

    def __add__(self, o: Any) -> Jet2:
        if not isinstance(o, Jet2):
            return Jet2(self.v + o, dict(self.g), dict(self.h), self.fns)
        g = dict(self.g)
        h = dict(self.h)
        Jet2._axpy(g, 1, o.g)
        Jet2._axpy(h, 1, o.h)
        return Jet2(self.v + o.v, g, h, self.fns)

    __radd__ = __add__

    def __neg__(self) -> Jet2:
        return self._scaled(-1)

    def __sub__(self, o: Any) -> Jet2:
        return self + (-o)

    def __rsub__(self, o: Any) -> Jet2:
        return (-self) + o

    def __mul__(self, o: Any) -> Jet2:
        if not isinstance(o, Jet2):
            return self._scaled(o)
        g: dict = {}
        h: dict = {}
        Jet2._axpy(g, self.v, o.g)
        Jet2._axpy(g, o.v, self.g)
        Jet2._axpy(h, self.v, o.h)
        Jet2._axpy(h, o.v, self.h)
        # the g_self g_o^T + g_o g_self^T term, on the upper triangle
        for i, a in self.g.items():
            for j, b in o.g.items():
                t = a * b
                Jet2._acc(h, (i, j) if i <= j else (j, i), t + t if i == j else t)
        return Jet2(self.v * o.v, g, h, self.fns)

    __rmul__ = __mul__

    def _compose(self, f0: Any, f1: Any, f2: Any) -> Jet2:
        """f(self) from f, f', f'' at the value: g = f' g, H = f' H + f'' g g^T."""
        g: dict = {}
        h: dict = {}
        Jet2._axpy(g, f1, self.g)
        Jet2._axpy(h, f1, self.h)
        items = sorted(self.g.items())
        for p, (i, a) in enumerate(items):
            fa = f2 * a  # f2 * a * b evaluates (f2 * a) * b: the same operations, f2 * a formed once per i
            for j, b in items[p:]:
                Jet2._acc(h, (i, j), fa * b)
        return Jet2(f0, g, h, self.fns)

    def reciprocal(self) -> Jet2:
        r = 1 / self.v
        return self._compose(r, -r * r, 2 * r * r * r)

    def __truediv__(self, o: Any) -> Jet2:
        if not isinstance(o, Jet2):
            # 1 / o in the values' own type: ``1 / 3`` would be a float and silently turn an exact
            # (Fraction / fmpq) jet into a float one
            return self._scaled((self.v * 0 + 1) / o)
        return self * o.reciprocal()

    def __rtruediv__(self, o: Any) -> Jet2:
        return self.reciprocal() * o

    def exp(self) -> Jet2:
        e = self.fns.exp(self.v)
        return self._compose(e, e, e)

    def log(self) -> Jet2:
        r = 1 / self.v
        return self._compose(self.fns.log(self.v), r, -r * r)

    def hessian(self, n: int, zero: Any) -> list[list[Any]]:
        """The dense symmetric n x n Hessian (``zero`` fills the entries that are exactly 0)."""
        H = [[zero] * n for _ in range(n)]
        for (i, j), c in self.h.items():
            H[i][j] = c
            H[j][i] = c
        return H

    def gradient(self, n: int, zero: Any) -> list[Any]:
        return [self.g.get(i, zero) for i in range(n)]


def hessian_forward(fn: Any, x0: Sequence[Any], fns: Any) -> tuple[Any, list[Any], list[list[Any]]]:
    """(f(x0), grad f(x0), Hessian f(x0)) by second-order forward mode (:class:`Jet2`).

    ``fn`` maps a list of n scalars to one scalar with + - * / and ``.exp()`` / ``.log()``; ``fns`` supplies
    exp and log on values (see :class:`Jet2`).  Entries that are exactly zero come out as ``x0[0] * 0``.
    """
    n = len(x0)
    out = fn(Jet2.variables(list(x0), fns))
    zero = x0[0] * 0
    if not isinstance(out, Jet2):  # fn does not depend on x
        return out, [zero] * n, [[zero] * n for _ in range(n)]
    return out.v, out.gradient(n, zero), out.hessian(n, zero)


class JetArithmetic(Arithmetic):
    """The arithmetic of :class:`Jet2` (and :class:`Dual`) values, so that a kernel written against
    :mod:`numerics.arithmetic` runs in forward mode: ``exp`` and ``log`` are the jets' own, whose values
    come from the jets' function provider ``fns``.  ``convert`` leaves numbers as they are (a jet combines
    with plain scalars as a constant)."""

    name = "jet2"

    @property
    def precision(self) -> str:
        return "forward-mode jets"

    def convert(self, x: Any) -> Any:
        return x

    def exp(self, x: Any) -> Any:
        return x.exp()

    def log(self, x: Any) -> Any:
        return x.log()

    def tolerance(self, scale: float = 1.0) -> float:
        return 0.0
