"""Statements as code: quantified forms over sympy relations, evaluated on a check's observables.

A claim's statement is the single source of truth for its formula (issue 11; docs/writing_claims.md).
It is a sympy Relational / Boolean, an :class:`AllOf` (a labelled conjunction whose labels are the
sub-check names the controls target), or a quantified form :class:`ForAll` / :class:`Exists` over a
named domain of such a body.  A check never restates the formula: it computes observables from the
product code and evaluates the claim's own statement on them::

    st = statement_of("ddcl.separation.critical_temperature")
    tally.statement(st, {"tau_c": tau_c, "lambda_1": lam1}, part="threshold")

How a statement is evaluated on one instance: :mod:`verify._evaluate`.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AllOf",
    "Exists",
    "ForAll",
    "body_of",
    "is_formula",
    "parts_of",
    "perturbations",
    "select",
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
        from numerics.errors import InputError

        parts = tuple((str(k), v) for k, v in pairs) + tuple(named.items())
        if not parts:
            raise InputError("parts", "AllOf needs at least one part", parts)
        labels = [k for k, _ in parts]
        if len(set(labels)) != len(labels):
            raise InputError("parts", "AllOf labels must be distinct", labels)
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

        from numerics.errors import InputTypeError

        vs = tuple(variables) if isinstance(variables, (tuple, list)) else (variables,)
        if not vs or not all(isinstance(v, sp.Symbol) for v in vs):
            raise InputTypeError("variables", f"{type(self).__name__}: variables must be sympy Symbols",
                                 variables)
        if not isinstance(domain, str) or not domain.strip():
            raise InputTypeError("domain", f"{type(self).__name__}: domain must be a non-empty text "
                                 "naming the set", domain)
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
    """``expr`` with ONE numeric constant c (not 0, +-1) of an Eq scaled to 9c/8 -- the first coefficient
    of a product or term of a sum met in the relation's sides, never an exponent (scaling every copy of
    2 would also turn b**2 into b**(9/4)) -- or None when the identity has no such constant."""
    import sympy as sp

    def scale_once(e: Any) -> tuple[Any, bool]:
        if isinstance(e, (sp.Integer, sp.Rational, sp.Float)) and e not in (0, 1, -1):
            return e * sp.Rational(9, 8), True
        if isinstance(e, sp.Pow):  # the base only: exponents stay
            b, done = scale_once(e.args[0])
            return (sp.Pow(b, e.args[1], evaluate=False), True) if done else (e, False)
        if isinstance(e, (sp.Add, sp.Mul)) or (isinstance(e, sp.Function) and e.args):
            args = list(e.args)
            for i, a in enumerate(args):
                new, done = scale_once(a)
                if done:
                    args[i] = new
                    return e.func(*args, evaluate=False), True
        return e, False

    for rel in _relations(expr):
        if not isinstance(rel, sp.Eq):
            continue
        for side in (1, 0):  # the formula side first (statements read observable = formula)
            new, done = scale_once(rel.args[side])
            if done:
                args = list(rel.args)
                args[side] = new
                new_rel = sp.Eq(*args, evaluate=False)
                if not _equivalent_identity(rel, new_rel):
                    return expr.xreplace({rel: new_rel})
    return None


def _equivalent_identity(rel: Any, new: Any) -> bool:
    """True when ``new`` holds exactly where ``rel`` does because one is the other times a constant
    (``2a = 2b`` scaled to ``9/4 a = 9/4 b``): such a variant is not false, it cannot refute."""
    import sympy as sp

    try:
        if not isinstance(new, sp.Eq):  # the scaled relation evaluated to True / False outright
            return new is sp.true
        d0, d1 = rel.lhs - rel.rhs, new.lhs - new.rhs
        ratio = sp.simplify(d1 / d0)
        return bool(ratio.is_number) and ratio != 0
    except Exception:  # noqa: BLE001 - undecided: keep the variant
        return False


def perturbations(statement: Any) -> list[tuple[str, str | None, Any]]:
    """False variants of a formula statement: ``[(description, part label, perturbed statement)]``.

    For every part containing a relation: the part negated (each relation flipped: = to !=, <= to >,
    < to >=; an implication P -> Q to P and not Q, and also to P -> not Q, which only an instance
    meeting the premise refutes), and, where the part is an identity with a numeric constant, that
    constant scaled by 9/8 (unless the scaled identity is the original times a constant).  A check that evaluates the claim's statement on
    instances where the part holds refutes every one of them; a check that restates the formula
    does not notice them.
    """
    import sympy as sp

    body = body_of(statement)
    out: list[tuple[str, str | None, Any]] = []
    for label, expr in parts_of(statement).items():
        if not any(True for _ in _relations(expr)):
            continue

        def put(new: Any, label: str | None = label) -> Any:
            return _rewrap(statement, body.replace(label, new) if isinstance(body, AllOf) else new)

        out.append((f"negated: {_text(_negate(expr))}", label, put(_negate(expr))))
        if isinstance(expr, sp.Implies) and any(True for _ in _relations(expr.args[1])):
            # P -> Q negated is P and not Q, refuted by every instance where P fails: a check that
            # never meets P would pass that test.  P -> not Q is refuted only where P and Q hold.
            flipped = sp.Implies(expr.args[0], _negate(expr.args[1]), evaluate=False)
            out.append((f"consequence negated under the premise: {_text(flipped)}", label,
                        put(flipped)))
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

    def __exit__(self, *exc: object) -> None:
        _RUNNING.reset(self._token)


def current_claim() -> tuple[str, Any, Any] | None:
    """``(claim id, statement, derivation)`` of the claim being run, or None outside a run."""
    return _RUNNING.get()


@functools.cache
def _registry_statement(claim_id: str) -> Any:
    from ._registry import catalogue

    return catalogue().get(claim_id).resolved_statement()


def statement_of(claim_id: str) -> Any:
    """The statement a check of ``claim_id`` evaluates: the running claim's own (the runner ships it
    with the task, so ``dataclasses.replace(claim, statement=...)`` reaches the checks), else the
    catalogue's."""
    from numerics.errors import InputError

    cur = _RUNNING.get()
    if cur is not None and cur[0] == claim_id:
        return cur[1]
    if not isinstance(claim_id, str):
        raise InputError("claim_id", "a claim id is a str", claim_id)
    try:
        return _registry_statement(claim_id)
    except KeyError as e:
        raise InputError("claim_id", f"must name a claim of the catalogue ({e.args[0]})",
                         claim_id) from None


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
