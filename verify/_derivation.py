"""Checked derivations: a claim's derivation as sympy steps, each checked against the previous one.

A :class:`Derivation` is a chain ``e_0 (r_1) e_1 (r_2) e_2 ...`` of sympy expressions, each step
claiming ``e_{i-1} r_i e_i`` for its relation ``r_i`` (``=`` by default; ``<=``, ``>=``, ``<``,
``>`` for bounds), or a *fact* step whose expression is itself a relation that must hold
identically (``Eq(lhs, rhs)``).  Every step is checked under the symbols' assumptions:

1. symbolically: ``sympy.simplify(e_{i-1} - e_i) == 0`` (for ``=``) -> PROVED;
2. otherwise by a spot check in mpmath at 50 digits on seeded random points that respect the
   assumptions (positive / nonnegative / negative / nonpositive / integer / real, and ``assume``)
   after the step's ``subs`` -> CONSISTENT when every point agrees within 1e-40 relative, REFUTED at
   the first point that does not (the point is the counterexample); a step that cannot be evaluated
   numerically, a spot check with no point inside ``assume``, and a strict relation (``<``, ``>``,
   ``!=``) whose sides tie to 40 digits stay UNKNOWN.  Strict steps compose to a strict chain; a
   strict statement is concluded only by one.  A chain of one expression concludes nothing.

``concludes`` names the statement part (an :class:`~verify.AllOf` label, or ``True`` for the whole
body) that the chain's end-to-end relation ``e_0 r e_n`` establishes; that link is checked the same way.
The runner adds a corroborating check named ``derivation`` to every claim that has one: a broken step
refutes the claim, and the report carries every step with its status and method.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._verdict import Counterexample, Evidence, Verdict

__all__ = ["Derivation", "Step", "check_derivation", "derivation_check"]

_RELATIONS = ("=", "<=", ">=", "<", ">", "def", "note")
_DPS = 50
_POINTS = 8


@dataclass(frozen=True)
class Step:
    """One step: ``expr`` related to the previous step's expression by ``relation`` (``prev relation
    expr``), or, when ``expr`` is a sympy relation, a fact that must hold identically.  ``why`` says
    which rule or hypothesis the step uses; ``subs`` substitutes known relations (e.g. ``{q_2: 1 -
    q_1}``) on both sides before checking.  ``relation="def"`` with ``expr = Eq(symbol, value)``
    defines ``symbol`` (not checked; later steps are checked with the definition substituted);
    ``relation="note"`` is shown and not checked (status NOT CHECKED) -- what an older ``(label,
    relation)`` derivation reads as."""

    label: str
    expr: Any
    relation: str = "="
    why: str = ""
    subs: Mapping[Any, Any] | None = None

    def __post_init__(self) -> None:
        import sympy as sp

        from numerics.errors import InputError

        if self.relation not in _RELATIONS:
            raise InputError("relation", f"step {self.label!r}: one of {_RELATIONS}", self.relation)
        if self.relation == "def" and not (isinstance(self.expr, sp.Eq)
                                           and isinstance(self.expr.lhs, sp.Symbol)):
            raise InputError("expr", f"step {self.label!r}: a definition is Eq(symbol, value)",
                             str(self.expr))

    @property
    def is_fact(self) -> bool:
        import sympy as sp

        return isinstance(self.expr, sp.core.relational.Relational)


@dataclass(frozen=True)
class Derivation:
    steps: tuple[Step, ...]
    concludes: Any = None
    assume: Any = None

    def __init__(self, *steps: Step, concludes: Any = None, assume: Any = None):
        if not steps or not all(isinstance(s, Step) for s in steps):
            from numerics.errors import InputTypeError

            raise InputTypeError("steps", "Derivation takes Step objects (at least one)",
                                 [type(s).__name__ for s in steps])
        object.__setattr__(self, "steps", tuple(steps))
        object.__setattr__(self, "concludes", concludes)
        object.__setattr__(self, "assume", assume)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.steps, self.concludes, self.assume))

    def __iter__(self):  # (label, expr) pairs, as ``verify show`` prints them
        return iter((s.label, s.expr) for s in self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def replace_step(self, index: int, **changes: Any) -> Derivation:
        """A copy with step ``index`` changed (e.g. ``expr=...``): what the tests use to break one."""
        from dataclasses import replace

        steps = list(self.steps)
        steps[index] = replace(steps[index], **changes)
        return Derivation(*steps, concludes=self.concludes, assume=self.assume)


def _rebuild(steps: tuple[Step, ...], concludes: Any, assume: Any) -> Derivation:
    return Derivation(*steps, concludes=concludes, assume=assume)


def as_derivation(d: Any) -> Derivation | None:
    """A :class:`Derivation` from a claim's ``derivation`` (a Derivation, or the older sequence of
    ``(label, relation)`` pairs, read as fact steps); None when there is none."""
    if d is None:
        return None
    if isinstance(d, Derivation):
        return d
    steps = tuple(d)
    if not steps:
        return None

    return Derivation(*(s if isinstance(s, Step) else Step(str(s[0]), s[1], relation="note")
                        for s in steps))


# -- checking ----------------------------------------------------------------------------------
def _sample(sym: Any, rng: random.Random) -> Any:
    """A seeded point of ``sym``'s domain: its sign assumptions (positive / nonnegative / negative /
    nonpositive) and integrality are respected, so a spot check never refutes a step at a point
    the step's assumptions exclude."""
    from fractions import Fraction

    a = sym.assumptions0
    sign = -1 if (a.get("negative") or a.get("nonpositive")) else 1
    if a.get("integer"):
        if a.get("positive") or a.get("negative"):
            return sign * rng.randint(2, 7)
        if a.get("nonnegative") or a.get("nonpositive"):
            return sign * rng.randint(0, 7)
        return rng.randint(-5, 7)
    num = Fraction(rng.randint(1, 10**6), 10**6)
    if a.get("positive") or a.get("nonnegative") or a.get("negative") or a.get("nonpositive"):
        return sign * (Fraction(1, 10) + 3 * num)
    return 6 * num - 3


def _difference_holds(rel: str, d: Any, scale: Any, ctx: Any) -> bool | None:
    """Does ``prev rel expr`` hold at a point where ``d = prev - expr``: True / False, or None when
    ``|d|`` is within the spot check's precision and ``rel`` is strict (``<``, ``>``, ``!=``): a
    tie at 40 digits neither confirms nor refutes a strict relation."""
    tol = ctx.mpf(10) ** (-(_DPS - 10)) * (1 + abs(scale))
    if rel == "=":
        return abs(d) <= tol
    if rel == "<=":  # prev <= expr  <=>  prev - expr <= 0
        return d <= tol
    if rel == ">=":
        return d >= -tol
    if rel == "<":
        return True if d < -tol else (False if d > tol else None)
    if rel == ">":
        return True if d > tol else (False if d < -tol else None)
    if rel == "!=":
        return True if abs(d) > tol else None
    raise ValueError(f"unknown relation {rel!r}")


def _reduced(diff: Any, *, zero_test: bool = False) -> tuple[Any, str]:
    """(a reduced form of ``diff``, how): a difference that ``expand`` or ``cancel`` already takes to 0
    stops there (both are sound rewritings, and an order of magnitude cheaper than ``simplify``, which
    dominated the derivation checks); otherwise ``simplify``'s form, as before.  A nonzero cheap form
    never decides anything by itself: it is the full ``simplify`` that is returned then -- except with
    ``zero_test`` (the caller asks only ``== 0``) for a rational function with rational coefficients
    (:func:`_in_rational_field`): there ``cancel`` is a decision procedure (its numerator, in lowest
    terms, is 0 exactly when the function is), so its nonzero form answers "not 0" as ``simplify``'s
    would (a sound rewriting never takes a nonzero function to 0)."""
    import sympy as sp

    e = sp.sympify(diff)
    if e == 0:
        return e, "simplify"
    for name, fn in (("expand", sp.expand), ("cancel", sp.cancel)):
        try:
            r = fn(e)
        except Exception:  # noqa: BLE001 - a rewriting that does not apply: try the next
            continue
        if r == 0:
            return r, name
        if zero_test and name == "cancel" and _in_rational_field(e):
            return r, "cancel"
    return sp.simplify(e), "simplify"


def _in_rational_field(e: Any) -> bool:
    """``e`` is in Q(x_1..x_n), its free symbols: built from them and rational numbers by +, * and
    integer powers (no function, irrational constant, float or non-integer power)."""
    import sympy as sp

    try:
        return (bool(e.is_rational_function(*e.free_symbols))
                and all(a.is_Rational for a in e.atoms(sp.Number))
                and all(p.exp.is_Integer for p in e.atoms(sp.Pow))
                and not e.atoms(sp.NumberSymbol) and not e.has(sp.I))
    except Exception:  # noqa: BLE001 - not an expression sympy can classify: not decided here
        return False


def _check_pair(prev: Any, expr: Any, rel: str, subs: Mapping[Any, Any] | None, assume: Any,
                rng: random.Random) -> tuple[str, str, Any]:
    """(status, method, counterexample point or None) of ``prev rel expr``."""
    import sympy as sp

    from numerics.precision import mp_context

    from ._evaluate import evaluate

    if subs:
        prev, expr = sp.sympify(prev).subs(subs), sp.sympify(expr).subs(subs)
    diff = sp.sympify(prev) - sp.sympify(expr)
    if rel == "=":
        try:
            s, how = _reduced(diff)
            if s == 0:
                return "PROVED", f"sympy {how}", None
        except Exception:  # noqa: BLE001 - fall back to the spot check
            pass
    elif rel == "!=":
        try:
            s, how = _reduced(diff)
            if s.is_zero:
                return "REFUTED", f"sympy {how}: the two sides are identical", None
        except Exception:  # noqa: BLE001
            pass
    elif rel in ("<=", ">="):
        try:
            s, how = _reduced(diff)
            if s == 0 and rel in ("<=", ">="):
                return "PROVED", f"sympy {how} (equality)", None
            sign = {"<=": s.is_nonpositive, "<": s.is_negative, ">=": s.is_nonnegative, ">": s.is_positive}[rel]
            if sign:
                return "PROVED", "sympy sign under the assumptions", None
        except Exception:  # noqa: BLE001
            pass
    elif rel in ("<", ">"):
        try:
            s, how = _reduced(diff)
            if s == 0:
                return "REFUTED", f"sympy {how}: the two sides are identical (not strict)", None
            if (rel == "<" and s.is_negative) or (rel == ">" and s.is_positive):
                return "PROVED", "sympy sign under the assumptions", None
        except Exception:  # noqa: BLE001
            pass
    # every symbol of either side (a constant difference such as p - (p + 1) still needs p to
    # evaluate the scale)
    syms = sorted(diff.free_symbols | sp.sympify(prev).free_symbols | sp.sympify(expr).free_symbols,
                  key=lambda x: x.name)
    ctx = mp_context(_DPS)
    checked = 0
    undecided = None
    for _ in range(_POINTS):
        point = {s.name: _sample(s, rng) for s in syms}
        if assume is not None and sp.sympify(assume).subs({s: point[s.name] for s in syms}) is sp.false:
            continue
        try:
            vals = {k: (ctx.mpf(v.numerator) / v.denominator if hasattr(v, "numerator") else ctx.mpf(v))
                    for k, v in point.items()}
            d = evaluate(diff, vals)
            scale = evaluate(prev, vals)
        except Exception as e:  # noqa: BLE001 - not evaluable numerically
            return "UNKNOWN", f"not evaluable numerically ({type(e).__name__}: {e})"[:200], None
        if isinstance(d, type(ctx.mpc(0))) or isinstance(scale, type(ctx.mpc(0))):
            if abs(ctx.im(d)) > ctx.mpf(10) ** (-(_DPS - 10)) * (1 + abs(scale)):  # complex: no order
                return "UNKNOWN", f"complex value at a spot point (outside the real domain): {point}", None
            d, scale = ctx.re(d), ctx.re(scale)
        try:
            holds = _difference_holds(rel, d, scale, ctx)
        except TypeError as e:  # e.g. a complex value compared by order
            return "UNKNOWN", f"not comparable at a sample point ({e})"[:200], None
        checked += 1
        if holds is False:
            return "REFUTED", f"spot check at {_DPS} digits", {k: str(v) for k, v in point.items()}
        if holds is None and undecided is None:
            undecided = {k: str(v) for k, v in point.items()}
    if checked == 0:
        return "UNKNOWN", (f"no spot check: none of {_POINTS} seeded points satisfies the "
                           f"assumptions {assume}"), None
    if undecided is not None:
        return "UNKNOWN", (f"spot check undecided: the sides of the strict relation {rel!r} agree "
                           f"to {_DPS - 10} digits at {undecided}"), None
    return "CONSISTENT", f"spot check at {checked} seeded points, {_DPS} digits", None


def _conclusion(target: Any, first: Any, last: Any, chain: str, assume: Any,
                rng: random.Random) -> tuple[str, str, Any]:
    """Does the chain ``first (chain) last`` give the statement part ``target``?

    Either directly (``lhs - rhs`` is +-(``first - last``), with the relation's direction matching),
    or the chain derives one side of the statement: its last expression is the statement's formula
    side (``rhs`` or ``lhs``) and its first is the quantity the statement is about."""
    import sympy as sp

    if isinstance(target, sp.Ne):
        return "UNKNOWN", "a chain does not conclude an inequation", None
    is_eq = isinstance(target, sp.Eq)
    if is_eq != (chain == "="):
        return "REFUTED", "the chain's relation is not the statement's", None
    if isinstance(target, (sp.Lt, sp.Gt)) and chain not in ("<", ">"):
        return "REFUTED", (f"the statement is strict ({_text_rel(target)}) and the chain proves only "
                           f"the non-strict {chain!r}"), None

    def same(a: Any, b: Any) -> bool:
        try:
            return _reduced(a - b, zero_test=True)[0] == 0
        except Exception:  # noqa: BLE001 - undecided: not the same
            return False

    def observable(x: Any) -> bool:  # a quantity the check measures, not defined by the chain
        return isinstance(x, sp.Symbol) and x not in (sp.sympify(first).free_symbols
                                                      | sp.sympify(last).free_symbols)

    lr = target.lhs - target.rhs
    ours = first - last
    if not is_eq:
        # the chain first <= last gives small <= big with (small, big) = (first, last); >= mirrors it
        up = (chain == "<=") == isinstance(target, (sp.Le, sp.Lt))
        small, big = (target.lhs, target.rhs) if isinstance(target, (sp.Le, sp.Lt)) else (target.rhs, target.lhs)
        lo, hi = (first, last) if chain in ("<=", "<") else (last, first)
        del up
        ok_small, ok_big = same(small, lo), same(big, hi)
        if (ok_small and ok_big) or (ok_big and observable(small)) or (ok_small and observable(big)):
            return "PROVED", "sympy: the chain's ends are the statement's sides (or its bound side)", None
        return "REFUTED", "the chain's ends are not the statement's sides", None
    for cand in (ours, -ours):
        if same(lr, cand):
            return "PROVED", "sympy: first = last is the statement", None
    for side, other in ((target.rhs, target.lhs), (target.lhs, target.rhs)):
        for end in (last, first):
            if same(side, end) and observable(other):
                return "PROVED", "sympy: the chain derives the formula side of the statement", None
    status, method, point = _check_pair(lr, ours, "=", None, assume, rng)
    if status == "REFUTED":
        status, method, point = _check_pair(lr, -ours, "=", None, assume, rng)
    return status, method, point


def _text_rel(target: Any) -> str:
    return str(target)


def _compose(chain: str, rel: str) -> str:
    """The relation of ``e_0 ... e_i`` from that of ``e_0 ... e_{i-1}`` (``chain``) and step ``rel``:
    ``=`` steps keep it, steps of one direction compose (strict if any step is), opposite directions
    give ``mixed`` (nothing follows)."""
    if rel == "=" or chain == "mixed":
        return chain
    if chain == "=":
        return rel
    up = {"<=": True, "<": True, ">=": False, ">": False}
    if up[chain] != up[rel]:
        return "mixed"
    strict = chain in ("<", ">") or rel in ("<", ">")
    return ("<" if strict else "<=") if up[rel] else (">" if strict else ">=")


def _expand_defs(expr: Any, defs: Mapping[Any, Any]) -> Any:
    import sympy as sp

    e = sp.sympify(expr)
    for _ in range(len(defs) + 1):  # definitions may use earlier ones
        new = e.subs(defs)
        if new == e:
            break
        e = new
    return e


def check_derivation(derivation: Any, statement: Any = None, *, seed: int = 0) -> Evidence:
    """Check every step of ``derivation`` (and its conclusion against ``statement``)."""
    import sympy as sp

    from ._statement import body_of, parts_of, statement_latex

    der = as_derivation(derivation)
    if der is None:
        return Evidence(level=Verdict.UNKNOWN, notes="no derivation")
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    levels: list[Verdict] = []
    counterexample = None
    prev = None
    first = None
    chain = "="
    defs: dict[Any, Any] = {}
    for i, st in enumerate(der.steps):
        if st.relation == "def":
            defs[st.expr.lhs] = st.expr.rhs
            rows.append({"index": i, "label": st.label, "latex": sp.latex(st.expr), "relation": "def",
                         "why": st.why, "status": "DEFINITION", "method": "defines a symbol"})
            continue
        if st.relation == "note":
            rows.append({"index": i, "label": st.label, "latex": sp.latex(st.expr), "relation": "note",
                         "why": st.why, "status": "NOT CHECKED", "method": "shown only"})
            continue
        if defs:
            st = Step(st.label, _expand_defs(st.expr, defs), st.relation, st.why, st.subs)
        if st.is_fact:
            if isinstance(st.expr, sp.Eq):
                status, method, point = _check_pair(st.expr.lhs, st.expr.rhs, "=", st.subs, der.assume, rng)
            else:
                rel = {"LessThan": "<=", "GreaterThan": ">=", "StrictLessThan": "<",
                       "StrictGreaterThan": ">", "Unequality": "!="}[type(st.expr).__name__]
                status, method, point = _check_pair(st.expr.lhs, st.expr.rhs, rel, st.subs, der.assume, rng)
        elif prev is None:
            status, method, point = "GIVEN", "first expression of the chain", None
        else:
            status, method, point = _check_pair(prev, st.expr, st.relation, st.subs, der.assume, rng)
            chain = _compose(chain, st.relation)
        if not st.is_fact:
            if first is None:
                first = st.expr
            prev = st.expr
        rows.append({"index": i, "label": st.label, "latex": sp.latex(st.expr), "relation": st.relation,
                     "why": st.why, "status": status, "method": method})
        if status != "GIVEN":
            levels.append(Verdict[status])
        if status == "REFUTED" and counterexample is None:
            counterexample = Counterexample(
                description=f"derivation step {i} ({st.label!r}) does not follow from the previous one",
                data={"step": i, "label": st.label, "point": point, "sub_check": "derivation"})
    steps_checked = len(levels)  # steps compared with their predecessor (or facts), before the conclusion
    if der.concludes is not None and first is not None and prev is not None:
        status, method = "UNKNOWN", "no statement to compare with"
        if statement is not None:
            parts = parts_of(statement)
            target = body_of(statement) if der.concludes is True else parts.get(der.concludes)
            if defs and isinstance(target, sp.Basic):
                # a symbol the derivation defines is not an observable: the statement is read with
                # the definition (so the chain must start from it; Eq(K, K's definition) is no
                # relation left to conclude)
                target = _expand_defs(target, defs)
            if target is sp.false:
                status, method, point = "REFUTED", "with the derivation's definitions the statement is false", None
            elif target is sp.true:
                status, method, point = "UNKNOWN", "the statement holds by the derivation's definitions alone", None
            elif isinstance(target, sp.core.relational.Relational) and chain != "mixed":
                status, method, point = _conclusion(target, first, prev, chain, der.assume, rng)
            else:
                status, method, point = "UNKNOWN", "the concluded part is not a relation", None
        rows.append({"index": len(der.steps), "label": f"concludes {der.concludes!s}",
                     "latex": statement_latex(statement) if statement is not None else "",
                     "relation": chain, "why": "first and last expressions give the statement",
                     "status": status, "method": method})
        levels.append(Verdict[status])
        if status == "REFUTED" and counterexample is None:
            counterexample = Counterexample(
                description=f"the derivation does not conclude the statement's part {der.concludes!r}",
                data={"step": len(der.steps), "sub_check": "derivation"})
    if counterexample is not None:
        level = Verdict.REFUTED
    elif not levels or steps_checked == 0:
        # a conclusion matched against a chain of one expression derives nothing: no step was checked
        level = Verdict.UNKNOWN
    else:
        order = [Verdict.UNKNOWN, Verdict.CONSISTENT, Verdict.CERTIFIED, Verdict.PROVED]
        level = min(levels, key=order.index)
    return Evidence(level=level, instances=len(rows), precision=f"symbolic / dps={_DPS} spot checks",
                    backend="sympy, mpmath", seeds=(seed,), counterexample=counterexample,
                    details={"steps": rows})


def derivation_check(*, seed: int, profile: Any, claim_id: str) -> Evidence:
    """The check the runner adds to a claim with a derivation (reads the running claim's own
    derivation and statement, so an altered step reaches it)."""
    from ._statement import current_claim

    cur = current_claim()
    if cur is not None and cur[0] == claim_id:
        _, statement, derivation = cur
    else:
        from ._registry import catalogue

        claim = catalogue().get(claim_id)
        statement, derivation = claim.resolved_statement(), claim.resolved_derivation()
    return check_derivation(derivation, statement, seed=seed)
