"""Evaluating a claim's statement where :meth:`verify.Tally.statement` does not reach directly.

* :func:`part_observation` -- one Observation of a statement part on one instance (for ``explore``
  bodies, which return an Observation instead of recording it), tagged with the part as sub-check;
* :func:`symbolic_truth` -- a statement part decided symbolically (sympy) after substituting
  symbolic observables (product code run on sympy matrices): PROVED-level evidence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from verify import Observation, Verdict

__all__ = ["part_observation", "symbolic_truth"]


def part_observation(statement: Any, values: Mapping[str, Any], part: str, *, tol: float | None = None,
                     **data: Any) -> Observation:
    """``statement``'s part ``part`` evaluated on ``values`` (verify's statement semantics); a
    refutation carries ``sub_check = part`` and ``data`` (the instance) in its counterexample."""
    from verify import observe

    arrays = {k: v for k, v in values.items() if type(v).__module__ == "numpy" and np.ndim(v) > 0}
    if arrays:  # elementwise: one evaluation per entry (broadcast), the first failing entry reported
        shape = np.broadcast_shapes(*(np.shape(v) for v in arrays.values()))
        wide = {k: np.broadcast_to(v, shape) for k, v in arrays.items()}
        worst = None
        for idx in np.ndindex(*shape):
            one = {k: (float(wide[k][idx]) if k in wide else v) for k, v in values.items()}
            o = part_observation(statement, one, part, tol=tol, **data, entry=list(idx))
            if o.level is not Verdict.CONSISTENT and o.level is not Verdict.CERTIFIED:
                return o
            if worst is None or (o.margin is not None and worst.margin is not None and o.margin < worst.margin):
                worst = o
        return worst if worst is not None else Observation(Verdict.CONSISTENT)
    return observe.statement(statement, values, part=part, tol=tol, **data)


def symbolic_truth(expr: Any, subs: Mapping[Any, Any]) -> bool | None:
    """The truth of the sympy Boolean ``expr`` (relations, And, Or, Not, Implies) once ``subs`` (symbol
    name -> sympy expression) is substituted: each relation is decided on ``simplify(lhs - rhs)``
    (its sign when that is a number, or zero); ``None`` when sympy cannot decide a relation."""
    import sympy as sp

    table = {sp.Symbol(k) if isinstance(k, str) else k: v for k, v in subs.items()}
    by_name = {str(k): v for k, v in table.items()}

    def leaf(rel: Any) -> bool | None:
        lhs = rel.lhs.xreplace({s: by_name[s.name] for s in rel.lhs.free_symbols if s.name in by_name})
        rhs = rel.rhs.xreplace({s: by_name[s.name] for s in rel.rhs.free_symbols if s.name in by_name})
        d = sp.simplify(sp.expand(lhs - rhs))
        name = type(rel).__name__
        if d == 0:
            return name in ("Equality", "LessThan", "GreaterThan")
        if not d.is_number or d.is_real is not True:
            return None if name in ("LessThan", "GreaterThan", "StrictLessThan", "StrictGreaterThan") \
                else ({"Equality": False, "Unequality": True}[name] if d.is_zero is False else None)
        pos = bool(d > 0)
        return {"Equality": False, "Unequality": True, "LessThan": not pos, "StrictLessThan": not pos,
                "GreaterThan": pos, "StrictGreaterThan": pos}[name]

    def dec(e: Any) -> bool | None:
        if isinstance(e, sp.core.relational.Relational):
            return leaf(e)
        if isinstance(e, sp.Not):
            r = dec(e.args[0])
            return None if r is None else not r
        if isinstance(e, (sp.And, sp.Or)):
            rs = [dec(a) for a in e.args]
            if isinstance(e, sp.And):
                return False if False in rs else (None if None in rs else True)
            return True if True in rs else (None if None in rs else False)
        if isinstance(e, sp.Implies):
            p = dec(e.args[0])
            if p is False:
                return True
            q = dec(e.args[1])
            return True if q is True else (None if p is None or q is None else False)
        if e is sp.true or e is sp.false:
            return bool(e)
        raise TypeError(f"symbolic_truth: not a Boolean of relations: {e}")

    return dec(expr)


def record(tally: Any, statement: Any, values: Mapping[str, Any], *, part: str, tol: float | None = None,
           counterexample: Any = None, sub: str | None = None) -> Observation:
    """``tally.statement(...)`` that also takes numpy arrays (evaluated entrywise by
    :func:`part_observation`), recorded as sub-check ``sub`` (default: the part); a refutation carries
    ``counterexample`` (a Counterexample or a callable) when given."""
    obs = part_observation(statement, values, part, tol=tol)
    if obs.level is Verdict.REFUTED:
        ce = obs.counterexample if counterexample is None else (
            counterexample() if callable(counterexample) else counterexample)
        obs = dataclasses.replace(obs, counterexample=dataclasses.replace(
            ce, data={**dict(ce.data), "sub_check": sub or part}))
    with tally.sub(sub or part):
        return tally.add(obs)


def rhs_value(statement: Any, part: str, values: Mapping[str, Any]) -> float:
    """The right-hand side of part ``part``'s relation (its first relation when the part is an And),
    evaluated on ``values``: the bound a witness must approach, read from the statement itself."""
    import sympy as sp

    from verify._evaluate import evaluate
    from verify._statement import select

    rel = select(statement, part)
    rel = rel if isinstance(rel, sp.core.relational.Relational) else rel.args[0]
    return float(evaluate(rel.rhs, values))
