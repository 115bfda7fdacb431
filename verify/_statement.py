"""Statements as code: quantified forms over sympy relations, evaluated on a check's observables.

A claim's statement is the single source of truth for its formula (issue 11; docs/writing_claims.md).
It is a sympy Relational / Boolean, an :class:`AllOf` (a labelled conjunction whose labels are the
sub-check names the controls target), or a quantified form :class:`ForAll` / :class:`Exists` over a
named domain of such a body.  A check never restates the formula: it computes observables from the
product code and evaluates the claim's own statement on them::

    st = statement_of("ddcl.separation.critical_temperature")
    tally.statement(st, {"tau_c": tau_c, "lambda_1": lam1}, part="threshold")

Semantics of one evaluation (one instance of the domain; for :class:`Exists` the check supplies the
witness):

* values in exact arithmetic (int, Fraction, fmpz/fmpq): relations decided exactly -> CERTIFIED /
  REFUTED;
* arb balls: three-valued (Kleene) logic -> CERTIFIED / REFUTED / UNKNOWN, never coerced;
* floats, mpmath, numpy, torch: within the tolerance ``tol`` derived from the precision -> CONSISTENT
  / REFUTED.  The non-strict relations are lenient (``a <= b`` holds when ``a <= b + tol``, ``a = b``
  when ``|a - b| <= tol``), the strict ones and ``!=`` demand the margin (``a < b`` needs ``a < b -
  tol``), so that a relation and its negation are exact complements: negating a statement that holds
  on an instance always refutes it there.  That is what :func:`perturbations` relies on.
"""

from __future__ import annotations

import contextvars
import functools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "AllOf",
    "Exists",
    "ForAll",
    "body_of",
    "decide",
    "evaluate",
    "is_formula",
    "parts_of",
    "perturbations",
    "statement_latex",
    "statement_of",
    "statement_text",
]


# -- forms ------------------------------------------------------------------------------------
class AllOf:
    """A labelled conjunction ``part_1 and part_2 and ...``; each label is a sub-check name.

    ``AllOf(identity=sp.Eq(a, b), nonneg=sp.Ge(v, 0))`` or ``AllOf(("identity", ...), ...)``.
    """

    __slots__ = ("parts",)

    def __init__(self, *pairs: tuple[str, Any], **named: Any):
        parts = tuple((str(k), v) for k, v in pairs) + tuple(named.items())
        if not parts:
            raise ValueError("AllOf needs at least one part")
        labels = [k for k, _ in parts]
        if len(set(labels)) != len(labels):
            raise ValueError(f"AllOf labels must be distinct, got {labels}")
        object.__setattr__(self, "parts", parts)

    def __setattr__(self, *_: Any) -> None:
        raise AttributeError("AllOf is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (AllOf, tuple(self.parts))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AllOf) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.parts)

    def __getitem__(self, label: str) -> Any:
        for k, v in self.parts:
            if k == label:
                return v
        raise KeyError(label)

    def replace(self, label: str, expr: Any) -> AllOf:
        return AllOf(*((k, expr if k == label else v) for k, v in self.parts))

    def latex(self) -> str:
        return r" \;\wedge\; ".join(
            rf"\underbrace{{{_latex(v)}}}_{{\text{{{k.replace('_', ' ')}}}}}" for k, v in self.parts)

    def text(self) -> str:
        return " and ".join(f"[{k}] {_text(v)}" for k, v in self.parts)

    def _repr_latex_(self) -> str:
        return f"${self.latex()}$"

    def __repr__(self) -> str:
        return f"AllOf({', '.join(f'{k}={v}' for k, v in self.parts)})"


@dataclass(frozen=True, init=False)
class _Quantified:
    variables: tuple[Any, ...]
    domain: str
    body: Any
    where: Any = None

    _SYMBOL = ""
    _WORD = ""

    def __init__(self, variables: Any, domain: str, body: Any, where: Any = None):
        import sympy as sp

        vs = tuple(variables) if isinstance(variables, (tuple, list)) else (variables,)
        if not vs or not all(isinstance(v, sp.Symbol) for v in vs):
            raise TypeError(f"{type(self).__name__}: variables must be sympy Symbols, got {variables!r}")
        if not isinstance(domain, str) or not domain.strip():
            raise TypeError(f"{type(self).__name__}: domain must be a non-empty text naming the set")
        object.__setattr__(self, "variables", vs)
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "where", where)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.variables, self.domain, self.body, self.where))

    def with_body(self, body: Any) -> _Quantified:
        return type(self)(self.variables, self.domain, body, self.where)

    def latex(self) -> str:
        import sympy as sp

        vs = ", ".join(sp.latex(v) for v in self.variables)
        where = rf"\ \text{{with}}\ {_latex(self.where)}" if self.where is not None else ""
        return (rf"{self._SYMBOL} {vs} \in \text{{{_tex_text(self.domain)}}}{where}:\ "
                rf"{_latex(self.body)}")

    def text(self) -> str:
        vs = ", ".join(str(v) for v in self.variables)
        where = f" with {_text(self.where)}" if self.where is not None else ""
        return f"{self._WORD} {vs} in {self.domain}{where}: {_text(self.body)}"

    def _repr_latex_(self) -> str:
        return f"${self.latex()}$"

    def __str__(self) -> str:
        return self.text()


class ForAll(_Quantified):
    """For every point of ``domain`` (named in words; the checks draw its instances), ``body``."""

    _SYMBOL = r"\forall"
    _WORD = "for all"


class Exists(_Quantified):
    """Some point of ``domain`` satisfies ``body`` (the check supplies the witness)."""

    _SYMBOL = r"\exists"
    _WORD = "there exist"


def _tex_text(s: str) -> str:
    return s.replace("\\", r"\textbackslash ").replace("_", r"\_").replace("{", r"\{").replace(
        "}", r"\}").replace("^", r"\^{}").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")


def _latex(x: Any) -> str:
    import sympy as sp

    if hasattr(x, "latex") and not isinstance(x, sp.Basic):
        return x.latex()
    if isinstance(x, sp.Basic):
        return sp.latex(x)
    return rf"\text{{{_tex_text(str(x))}}}"


def _text(x: Any) -> str:
    if hasattr(x, "text") and callable(x.text):
        return x.text()
    return str(x)


def statement_latex(statement: Any) -> str:
    """The LaTeX of a statement (a sympy object, a quantified form or an AllOf; text as ``\\text``)."""
    return _latex(statement)


def statement_text(statement: Any) -> str:
    return _text(statement)


# -- structure --------------------------------------------------------------------------------
def body_of(statement: Any) -> Any:
    """The statement without its quantifiers (the body a check evaluates on one instance)."""
    while isinstance(statement, _Quantified):
        statement = statement.body
    return statement


def _rewrap(statement: Any, body: Any) -> Any:
    if isinstance(statement, _Quantified):
        return statement.with_body(_rewrap(statement.body, body))
    return body


def parts_of(statement: Any) -> dict[str | None, Any]:
    """``{label: expr}`` of the body's AllOf parts, or ``{None: body}``."""
    body = body_of(statement)
    if isinstance(body, AllOf):
        return dict(body.parts)
    return {None: body}


def _relations(expr: Any) -> Iterator[Any]:
    import sympy as sp

    if isinstance(expr, sp.core.relational.Relational):
        yield expr
    elif isinstance(expr, sp.Basic):
        for a in expr.args:
            yield from _relations(a)


def is_formula(statement: Any) -> bool:
    """True if some part of the body is (or contains) a sympy relation: a statement the perturbation
    test can falsify.  A statement given as text, or as predicates only, is not a formula."""
    return any(any(True for _ in _relations(e)) for e in parts_of(statement).values())


def _negate(expr: Any) -> Any:
    import sympy as sp

    return expr.negated if isinstance(expr, sp.core.relational.Relational) else sp.Not(expr)


def _scale_constant(expr: Any) -> Any | None:
    """``expr`` with its first numeric constant c (not 0, +-1) of an Eq replaced by 9c/8, or None."""
    import sympy as sp

    for rel in _relations(expr):
        if not isinstance(rel, sp.Eq):
            continue
        for sub in sp.preorder_traversal(rel):
            if isinstance(sub, (sp.Integer, sp.Rational, sp.Float)) and sub not in (0, 1, -1):
                new = rel.xreplace({sub: sub * sp.Rational(9, 8)})
                if new != rel:
                    return expr.xreplace({rel: new})
    return None


def perturbations(statement: Any) -> list[tuple[str, str | None, Any]]:
    """False variants of a formula statement: ``[(description, part label, perturbed statement)]``.

    For every part containing a relation: the part negated (each relation flipped: = to !=, <= to >,
    < to >=; an implication P -> Q to P and not Q), and, where the part is an identity with a
    numeric constant, that constant scaled by 9/8.  A check that evaluates the claim's statement on
    instances where the part holds refutes every one of them; a check that restates the formula
    does not notice them.
    """
    body = body_of(statement)
    out: list[tuple[str, str | None, Any]] = []
    for label, expr in parts_of(statement).items():
        if not any(True for _ in _relations(expr)):
            continue

        def put(new: Any, label: str | None = label) -> Any:
            return _rewrap(statement, body.replace(label, new) if isinstance(body, AllOf) else new)

        out.append((f"negated: {_text(_negate(expr))}", label, put(_negate(expr))))
        scaled = _scale_constant(expr)
        if scaled is not None:
            out.append((f"constant scaled by 9/8: {_text(scaled)}", label, put(scaled)))
    return out


# -- the running claim's statement -------------------------------------------------------------
_RUNNING: contextvars.ContextVar[tuple[str, Any, Any] | None] = contextvars.ContextVar(
    "verify_running_claim", default=None)


class running:
    """Context: checks run here belong to ``claim_id`` whose statement (and derivation) are given --
    set by the runner around each task, so that a perturbed statement reaches the checks."""

    def __init__(self, claim_id: str, statement: Any, derivation: Any = None):
        self.value = (claim_id, statement, derivation)

    def __enter__(self) -> running:
        self._token = _RUNNING.set(self.value)
        return self

    def __exit__(self, *exc: Any) -> None:
        _RUNNING.reset(self._token)


def current_claim() -> tuple[str, Any, Any] | None:
    """``(claim id, statement, derivation)`` of the claim being run, or None outside a run."""
    return _RUNNING.get()


@functools.lru_cache(maxsize=None)
def _registry_statement(claim_id: str) -> Any:
    from ._registry import catalogue

    return catalogue().get(claim_id).resolved_statement()


def statement_of(claim_id: str) -> Any:
    """The statement a check of ``claim_id`` evaluates: the running claim's own (the runner ships it
    with the task, so ``dataclasses.replace(claim, statement=...)`` reaches the checks), else the
    catalogue's."""
    cur = _RUNNING.get()
    if cur is not None and cur[0] == claim_id:
        return cur[1]
    return _registry_statement(claim_id)


# -- evaluation --------------------------------------------------------------------------------
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
            return ar.convert(vals[e.name])
        if isinstance(e, sp.Integer):
            return ar.convert(int(e))
        if isinstance(e, sp.Rational):
            return ar.convert(Fraction(int(e.p), int(e.q)))
        if isinstance(e, sp.Float):
            return ar.convert(Fraction(*float(e).as_integer_ratio()))
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
        results = [_decide_float(rel, float(x), float(tol)) for x in dv]
    elif type(d).__module__ == "numpy":
        import numpy as np

        dv = np.asarray(d, dtype=float).reshape(-1)
        if not np.isfinite(dv).all():
            return None, math.nan
        results = [_decide_float(rel, float(x), float(tol)) for x in dv]
    else:
        if kind == "MPArithmetic" and not ar.ctx.isfinite(d):
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


def _decide_exact(rel: Any, d: Fraction, t: Fraction) -> bool:
    name = type(rel).__name__
    return {"Equality": abs(d) <= t, "Unequality": abs(d) > t,
            "LessThan": d <= t, "StrictLessThan": d < -t,
            "GreaterThan": d >= -t, "StrictGreaterThan": d > t}[name]


def _decide_float(rel: Any, d: Any, tol: float, exact_diff: bool = False) -> tuple[bool, float]:
    """(holds, margin) of one relation from ``d = lhs - rhs`` (a float or an mpf) within ``tol``."""
    if exact_diff:
        from ._tally import _exact

        dd = _exact(d)
        t = Fraction(tol)
        holds = _decide_exact(rel, dd, t)
        df = _fl(dd)
    else:
        holds = _decide_exact(rel, Fraction(d), Fraction(tol))
        df = float(d)
    return holds, _margin(rel, df, tol)


def _margin(rel: Any, df: float, tol: float) -> float:
    """How far ``d = lhs - rhs`` is from flipping the relation (>= 0 when it holds)."""
    return {"Equality": tol - abs(df), "Unequality": abs(df) - tol,
            "LessThan": tol - df, "StrictLessThan": -df - tol,
            "GreaterThan": df + tol, "StrictGreaterThan": df - tol}[type(rel).__name__]


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

    vals = {str(k): v for k, v in values.items()}
    ar = _arith(vals)

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
            return _kleene_and([r for r, _ in rs]), min(m for _, m in rs)
        if isinstance(e, sp.Or):
            rs = [dec(a) for a in e.args]
            return _kleene_or([r for r, _ in rs]), max(m for _, m in rs)
        if isinstance(e, sp.Implies):
            p, q = e.args
            rp, mp_ = dec(p)
            if rp is False:
                return True, -mp_
            rq, mq = dec(q)
            return _kleene_or([None if rp is None else not rp, rq]), max(-mp_, mq)
        raise InputError("statement", "a statement part to evaluate is a relation or a Boolean "
                         "(And, Or, Not, Implies) of relations", str(e))

    r, m = dec(sp.sympify(expr) if not isinstance(expr, sp.Basic) else expr)
    return r, m, ar


def _kleene_and(rs: list[bool | None]) -> bool | None:
    if any(r is False for r in rs):
        return False
    return None if any(r is None for r in rs) else True


def _kleene_or(rs: list[bool | None]) -> bool | None:
    if any(r is True for r in rs):
        return True
    return None if any(r is None for r in rs) else False


def select(statement: Any, part: str | None) -> Any:
    """The body of ``statement`` (``part=None``) or its AllOf part labelled ``part``."""
    from numerics.errors import InputError

    body = body_of(statement)
    if part is None:
        return body
    if not isinstance(body, AllOf):
        raise InputError("part", "a part can be selected only from an AllOf statement body", part)
    try:
        return body[part]
    except KeyError:
        raise InputError("part", f"the statement's parts are {list(body.labels)}", part) from None


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
        return Observation(level, margin=m, error=None)
    if counterexample is None:
        shown = {k: _show(v) for k, v in values.items()}
        counterexample = Counterexample(
            description=(f"statement{'' if part is None else f' part {part!r}'} fails on this "
                         f"instance: {_text(expr)} (margin {m:.3g}, {ar.precision}"
                         f"{'' if tol is None else f', tolerance {tol:.3g}'})"),
            data={"values": shown, "part": part}, margin=m)
    return Observation(Verdict.REFUTED, margin=m, counterexample=_observe._ce(counterexample, ""))


def _show(v: Any) -> Any:
    """A JSON-friendly short form of one observable."""
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    mod = type(v).__module__ or ""
    if mod.startswith("torch") or mod == "numpy":
        try:
            flat = v.reshape(-1).tolist()
        except Exception:  # noqa: BLE001 - a repr is enough for the report
            return repr(v)[:200]
        return flat if len(flat) <= 8 else flat[:8] + ["..."]
    return str(v)[:200]
