"""Evaluating a statement on one instance's observables (see :mod:`verify._statement`).

Semantics of one evaluation (one instance of the domain; for :class:`Exists` the check supplies the
witness):

* values in exact arithmetic (int, Fraction, fmpz/fmpq): relations decided exactly -> CERTIFIED /
  REFUTED (a pass that needs ``tol`` is CONSISTENT); a statement with pi, exp, log or an irrational
  root has no rational value, so it is decided in arb balls at 256 bits (three-valued, rigorous);
* arb balls: three-valued (Kleene) logic -> CERTIFIED / REFUTED / UNKNOWN, never coerced;
* floats, mpmath, numpy, torch: within the tolerance ``tol`` derived from the precision -> CONSISTENT
  / REFUTED.  The non-strict relations are lenient (``a <= b`` holds when ``a <= b + tol``, ``a = b``
  when ``|a - b| <= tol``), the strict ones and ``!=`` demand the margin (``a < b`` needs ``a < b -
  tol``), so that a relation and its negation are exact complements: negating a statement that holds
  on an instance always refutes it there.  That is what :func:`perturbations` relies on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ._statement import _text, select

__all__ = ["decide", "evaluate", "observe_statement"]


def _arith(values: Mapping[str, Any]) -> Any:
    from numerics.arithmetic import arithmetic_of

    return arithmetic_of(values.values())


def evaluate(expr: Any, values: Mapping[str, Any], ar: Any = None) -> Any:
    """The value of the sympy expression ``expr`` with its symbols bound to ``values`` (by name),
    computed in the arithmetic of the values (:func:`numerics.arithmetic.arithmetic_of`) -- exact
    rationals stay exact, balls stay rigorous (constants enter as exact rationals)."""
    import sympy as sp

    from numerics.errors import InputError

    vals = {str(k): v for k, v in values.items()}
    ar = ar if ar is not None else _arith(vals)

    def ev(e: Any) -> Any:
        if isinstance(e, sp.Symbol):
            if e.name not in vals:
                raise InputError("values", f"every free symbol of the statement needs a value; "
                                 f"missing {e.name!r} (given: {sorted(vals)})", sorted(vals))
            v = vals[e.name]
            if isinstance(v, (str, bool, bytes)) or v is None:
                from numerics.errors import InputTypeError

                raise InputTypeError("values", f"the value of {e.name!r} must be a number (exact, "
                                     "float, mpmath, arb, numpy or torch)", v)
            if isinstance(v, float) and not math.isfinite(v) and not ar.exact and not hasattr(ar, "ctx"):
                return v  # a NaN / inf observable propagates (the comparison is then undecided)
            return ar.convert(v)
        if isinstance(e, sp.Integer):
            return ar.convert(int(e))
        if isinstance(e, sp.Rational):
            return ar.convert(Fraction(int(e.p), int(e.q)))
        if isinstance(e, sp.Float):  # its exact binary value at its own precision (not float64's)
            return ar.convert(_float_constant(e))
        if e is sp.pi:
            return _const(ar, "pi")
        if e is sp.E:
            return ar.exp(ar.convert(1))
        if isinstance(e, sp.Add):
            return ar.fsum(ev(a) for a in e.args)
        if isinstance(e, sp.Mul):
            out = ev(e.args[0])
            for a in e.args[1:]:
                out = out * ev(a)
            return out
        if isinstance(e, sp.Pow):
            b, x = e.args
            if isinstance(x, sp.Integer):
                n = int(x)
                bv = ev(b)
                return bv ** n if n >= 0 else ar.convert(1) / (bv ** (-n))
            if x == sp.Rational(1, 2):
                return ar.sqrt(ev(b))
            if x == -sp.Rational(1, 2):
                return ar.convert(1) / ar.sqrt(ev(b))
            return ar.exp(ev(x) * ar.log(ev(b)))
        if isinstance(e, sp.exp):
            return ar.exp(ev(e.args[0]))
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                return ar.log(ev(e.args[0])) / ar.log(ev(e.args[1]))
            return ar.log(ev(e.args[0]))
        if isinstance(e, sp.Abs):
            return ar.abs(ev(e.args[0]))
        if isinstance(e, sp.floor):
            return ar.floor(ev(e.args[0]))
        if isinstance(e, sp.ceiling):
            return -ar.floor(-ev(e.args[0]))
        if isinstance(e, (sp.Max, sp.Min)):
            xs = [ev(a) for a in e.args]
            return _extremum(ar, xs, isinstance(e, sp.Max))
        raise InputError("statement", "a statement evaluated on values uses + - * / powers, exp, "
                         "log, sqrt, Abs, floor, ceiling, Max, Min, pi and E only; got "
                         f"{type(e).__name__}", str(e))

    return ev(sp.sympify(expr))


def _float_constant(e: Any) -> Fraction:
    """A sympy Float as the exact rational it stores (mantissa * 2**exponent at its precision), so a
    50-digit constant is not rounded to float64 before a 50-digit comparison."""
    sgn, man, ex, _bc = e._mpf_
    f = Fraction(int(man)) * (Fraction(2) ** int(ex))
    return -f if sgn else f


def _const(ar: Any, name: str) -> Any:
    if ar.exact:
        raise TypeError(f"exact rational arithmetic has no {name}")
    if hasattr(ar, "ctx"):
        return getattr(ar.ctx, name)
    mod = type(ar).__name__
    if mod == "ArbArithmetic":
        import flint

        return flint.arb.pi()
    if mod == "TorchArithmetic":
        return ar.convert(math.pi)
    return math.pi


def _extremum(ar: Any, xs: list[Any], largest: bool) -> Any:
    if type(ar).__name__ == "ArbArithmetic":
        out = xs[0]
        for x in xs[1:]:
            out = out.max(x) if largest else out.min(x)
        return out
    if type(ar).__name__ == "TorchArithmetic":
        st = ar.torch.stack(xs)
        return st.max(0).values if largest else st.min(0).values
    if any(type(x).__module__ == "numpy" for x in xs):
        import numpy as np

        return (np.maximum if largest else np.minimum).reduce(xs)
    return max(xs) if largest else min(xs)


# three-valued outcome of one relation: True / False / None (undecided), with a float margin
def _leaf(rel: Any, values: Mapping[str, Any], tol: float | None, ar: Any) -> tuple[bool | None, float]:
    import sympy as sp

    from numerics.errors import InputError

    lhs = evaluate(rel.lhs, values, ar)
    rhs = evaluate(rel.rhs, values, ar)
    kind = type(ar).__name__
    if kind == "ExactArithmetic":
        from numerics.exact import to_fraction

        d = to_fraction(lhs) - to_fraction(rhs)
        t = Fraction(0) if tol is None else Fraction(float(tol))
        return _decide_exact(rel, d, t), _margin(rel, _fl(d), float(t))
    if kind == "ArbArithmetic":
        return _decide_ball(rel, lhs - rhs, 0 if tol is None else tol)
    if tol is None:
        raise InputError("tol", "a float, mpmath or torch comparison needs a tolerance derived from "
                         "its precision (numerics.precision.tolerance_for, or the arithmetic's "
                         "tolerance(scale))", tol)
    d = lhs - rhs
    if kind == "TorchArithmetic":
        import torch

        dv = d.detach().to(torch.float64).reshape(-1)
        if not bool(torch.isfinite(dv).all()):
            return None, math.nan
        if dv.numel():
            return _decide_floats(rel, dv.numpy(), float(tol))
        results = []
    elif type(d).__module__ == "numpy":
        import numpy as np

        dv = np.asarray(d, dtype=float).reshape(-1)
        if not np.isfinite(dv).all():
            return None, math.nan
        if dv.size:
            return _decide_floats(rel, dv, float(tol))
        results = []
    else:
        if kind == "MPArithmetic" and not ar.ctx.isfinite(d):
            return None, math.nan
        if kind != "MPArithmetic" and not math.isfinite(d):  # NaN / inf decides nothing
            return None, math.nan
        results = [_decide_float(rel, d, float(tol), exact_diff=kind == "MPArithmetic")]
    holds = all(r[0] for r in results)
    margin = min(r[1] for r in results)
    del sp
    return holds, margin


def _fl(x: Any) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _decide_exact(rel: Any, d: Any, t: Any) -> bool:
    """Whether ``d = lhs - rhs`` satisfies the relation within ``t``: exact for Fractions, and for
    finite doubles too (IEEE comparison, negation and abs are exact); only the relation's own
    comparison is made."""
    name = type(rel).__name__
    if name == "Equality":
        return abs(d) <= t
    if name == "Unequality":
        return abs(d) > t
    if name == "LessThan":
        return d <= t
    if name == "StrictLessThan":
        return d < -t
    if name == "GreaterThan":
        return d >= -t
    if name == "StrictGreaterThan":
        return d > t
    raise KeyError(name)


def _decide_float(rel: Any, d: Any, tol: float, exact_diff: bool = False) -> tuple[bool, float]:
    """(holds, margin) of one relation from ``d = lhs - rhs`` (a float or an mpf) within ``tol``."""
    if exact_diff:
        from ._tally import _exact

        dd = _exact(d)
        t = Fraction(tol)
        holds = _decide_exact(rel, dd, t)
        df = _fl(dd)
    else:  # finite doubles compare exactly as the rationals they are: no Fraction needed
        holds = bool(_decide_exact(rel, d, tol))
        df = float(d)
    return holds, _margin(rel, df, tol)


def _decide_floats(rel: Any, d: Any, tol: float) -> tuple[bool, float]:
    """(holds for every entry, least margin) of one relation on the float64 array ``d = lhs - rhs``
    within ``tol``, vectorised through :func:`_margin`: for finite doubles ``x - y >= 0`` exactly when
    ``x >= y`` (IEEE subtraction rounds to 0 only when x = y), so the margin's sign -- > 0 for a strict
    relation, >= 0 otherwise -- decides exactly what :func:`_decide_float` decides entry by entry
    through Fractions."""
    m = _margin(rel, d, tol)
    strict = type(rel).__name__ in ("Unequality", "StrictLessThan", "StrictGreaterThan")
    return bool((m > 0).all() if strict else (m >= 0).all()), float(m.min())


def _margin(rel: Any, df: float, tol: float) -> float:
    """How far ``d = lhs - rhs`` is from flipping the relation (>= 0 when it holds); only the relation's
    own expression is computed (``df`` may be an array)."""
    name = type(rel).__name__
    if name == "Equality":
        return tol - abs(df)
    if name == "Unequality":
        return abs(df) - tol
    if name == "LessThan":
        return tol - df
    if name == "StrictLessThan":
        return -df - tol
    if name == "GreaterThan":
        return df + tol
    if name == "StrictGreaterThan":
        return df - tol
    raise KeyError(name)


def _decide_ball(rel: Any, d: Any, tol: float) -> tuple[bool | None, float]:
    """Kleene decision of one relation from the ball ``d = lhs - rhs`` (never through floats: the
    ball's endpoints are compared as arb balls with the exact tolerance)."""
    import flint

    t = flint.arb(Fraction(tol).numerator) / Fraction(tol).denominator if tol else flint.arb(0)
    name = type(rel).__name__

    def le(a: Any, b: Any) -> bool | None:  # a <= b certainly / certainly not / undecided
        if a <= b:
            return True
        if a > b:
            return False
        return None

    def lt(a: Any, b: Any) -> bool | None:
        if a < b:
            return True
        if a >= b:
            return False
        return None

    if name == "Equality":
        r = le(abs(d), t) if tol else (True if (d == 0) else (False if d != 0 else None))
    elif name == "Unequality":
        r = lt(t, abs(d)) if tol else (True if d != 0 else (False if d == 0 else None))
    elif name == "LessThan":
        r = le(d, t)
    elif name == "StrictLessThan":
        r = lt(d, -t)
    elif name == "GreaterThan":
        r = le(-t, d)
    else:  # StrictGreaterThan
        r = lt(t, d)
    return r, _margin(rel, _fl(d.mid()), float(tol))


def decide(expr: Any, values: Mapping[str, Any], tol: float | None = None) -> tuple[bool | None, float, Any]:
    """Three-valued truth of ``expr`` (a relation or a Boolean of relations) on ``values``:
    ``(True | False | None, margin, arithmetic)``; the margin is >= 0 when it holds."""
    import sympy as sp

    from numerics.errors import InputError

    if not isinstance(values, Mapping):
        from numerics.errors import InputTypeError

        raise InputTypeError("values", "a mapping {symbol name: observable}", values)
    vals = {str(k): v for k, v in values.items()}
    ar = _arith(vals)
    tol = _check_tol(tol)

    def dec(e: Any) -> tuple[bool | None, float]:
        if isinstance(e, sp.core.relational.Relational):
            return _leaf(e, vals, tol, ar)
        if e is sp.true:
            return True, math.inf
        if e is sp.false:
            return False, -math.inf
        if isinstance(e, sp.Not):
            r, m = dec(e.args[0])
            return (None if r is None else not r), -m
        if isinstance(e, sp.And):
            rs = [dec(a) for a in e.args]
            return _kleene_and([r for r, _ in rs]), _nan_extremum([m for _, m in rs], min)
        if isinstance(e, sp.Or):
            rs = [dec(a) for a in e.args]
            return _kleene_or([r for r, _ in rs]), _nan_extremum([m for _, m in rs], max)
        if isinstance(e, sp.Implies):
            p, q = e.args
            rp, mp_ = dec(p)
            if rp is False:
                return True, -mp_
            rq, mq = dec(q)
            return _kleene_or([None if rp is None else not rp, rq]), _nan_extremum([-mp_, mq], max)
        raise InputError("statement", "a statement part to evaluate is a relation or a Boolean "
                         "(And, Or, Not, Implies) of relations", str(e))

    e = sp.sympify(expr) if not isinstance(expr, sp.Basic) else expr
    try:
        r, m = dec(e)
    except TypeError:
        if type(ar).__name__ != "ExactArithmetic":
            raise
        # exact values in a transcendental statement (pi, E, exp, log, an irrational root): no
        # rational value exists, so decide it rigorously in ball arithmetic (the values enter as
        # exact point balls; an undecided comparison is UNKNOWN) -- never through floats
        from numerics.arithmetic import ArbArithmetic

        with ArbArithmetic(_EXACT_FALLBACK_BITS) as ball:
            ar = ball
            r, m = dec(e)
    return r, m, ar


_EXACT_FALLBACK_BITS = 256


def _check_tol(tol: Any) -> float | None:
    """``tol`` as a float: None, or a finite number >= 0 (else InputError naming ``tol``)."""
    from numerics.errors import InputError

    if tol is None:
        return None
    try:
        t = float(tol)
    except (TypeError, ValueError):
        raise InputError("tol", "a tolerance is a finite number >= 0 (or None)", tol) from None
    if not math.isfinite(t) or t < 0:
        raise InputError("tol", "a tolerance is a finite number >= 0 (or None)", tol)
    return t


def _nan_extremum(ms: list[float], pick: Any) -> float:
    """min / max of margins ignoring NaN (an undecided part has none); NaN if all are."""
    real = [m for m in ms if not (isinstance(m, float) and math.isnan(m))]
    return pick(real) if real else math.nan


def _kleene_and(rs: list[bool | None]) -> bool | None:
    if any(r is False for r in rs):
        return False
    return None if any(r is None for r in rs) else True


def _kleene_or(rs: list[bool | None]) -> bool | None:
    if any(r is True for r in rs):
        return True
    return None if any(r is None for r in rs) else False


def observe_statement(statement: Any, values: Mapping[str, Any], *, part: str | None = None,
                      tol: float | None = None, counterexample: Any = None) -> Any:
    """One :class:`~verify.Observation` of ``statement`` (its body, or the part ``part``) on one
    instance's ``values`` -- the level set by the values' arithmetic (module docstring)."""
    from . import _observe
    from ._tally import Observation
    from ._verdict import Counterexample, Verdict

    expr = select(statement, part)
    r, margin, ar = decide(expr, values, tol)
    kind = type(ar).__name__
    m = None if margin is None or (isinstance(margin, float) and math.isnan(margin)) else margin
    if r is None:
        return Observation(Verdict.UNKNOWN, margin=m)
    if r:
        level = {"ExactArithmetic": Verdict.CERTIFIED, "ArbArithmetic": Verdict.CERTIFIED}.get(
            kind, Verdict.CONSISTENT)
        # exact values hold the statement itself only if they hold it without the tolerance; a pass
        # that needs the tolerance is a float-budget pass (as observe.close's)
        if kind == "ExactArithmetic" and tol and decide(expr, values, None)[0] is not True:
            level = Verdict.CONSISTENT
        return Observation(level, margin=m, error=None)
    if counterexample is None:
        shown = {k: _show(v) for k, v in values.items()}
        counterexample = Counterexample(
            description=(f"statement{'' if part is None else f' part {part!r}'} fails on this "
                         f"instance: {_text(expr)} (margin {_g(m)}, {ar.precision}"
                         f"{'' if tol is None else f', tolerance {tol:.3g}'})"),
            data={"values": shown, "part": part}, margin=m)
    return Observation(Verdict.REFUTED, margin=m, counterexample=_observe._ce(counterexample, ""))


def _g(m: Any) -> str:
    return "undecided" if m is None else f"{float(m):.3g}"


def _show(v: Any) -> Any:
    """A JSON-friendly short form of one observable."""
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    if isinstance(v, (dict, list, tuple)) and len(repr(v)) <= 4000:  # an instance a check attached
        return v
    mod = type(v).__module__ or ""
    if mod.startswith("torch") or mod == "numpy":
        try:
            flat = v.reshape(-1).tolist()
        except Exception:  # noqa: BLE001 - a repr is enough for the report
            return repr(v)[:200]
        return flat if len(flat) <= 8 else flat[:8] + ["..."]
    return str(v)[:200]
