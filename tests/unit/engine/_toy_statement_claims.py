"""A toy claim whose checks evaluate its own statement (module-level, so workers can import it)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verify import (
    AllOf,
    Check,
    Claim,
    Control,
    Derivation,
    ForAll,
    Source,
    Step,
    Tally,
    Verdict,
    statement_of,
)

ID = "toy.statement.square"
x, y, s = sp.symbols("x y s", positive=True)


def statement():
    return ForAll(x, "positive rationals x <= 10",
                  AllOf(square=sp.Eq(s, x**2 + 2 * x + 1), bound=sp.Le(s, (x + 1) ** 2 + 1)))


def derivation():
    return Derivation(
        Step("definition", (x + 1) ** 2),
        Step("expand", x**2 + 2 * x + 1, why="binomial"),
        Step("regroup", x * (x + 2) + 1),
        concludes="square")


def _observable(v, variant):
    # the "product code": (v + 1)^2 computed by repeated addition, independent of the formula
    acc = 0
    for _ in range(2):
        acc = acc + v + 1 if variant != "wrong" else acc + v + 2
    return acc * (v + 1) / 2 * 1


def exact_check(*, seed, profile, variant=None):
    st = statement_of(ID)
    t = Tally(precision="exact", backend="fractions")
    for k in range(1, 6):
        v = Fraction(k, 3)
        sv = _observable(v, variant)
        t.statement(st, {"x": v, "s": sv}, part="square")
        t.statement(st, {"x": v, "s": sv}, part="bound")
    return t.evidence()


def float_check(*, seed, profile, variant=None):
    st = statement_of(ID)
    t = Tally(precision="float64", backend="python")
    for k in range(1, 6):
        v = k / 3
        t.statement(st, {"x": v, "s": _observable(v, variant)}, part="square", tol=1e-12)
    return t.evidence()


CLAIM = Claim(
    id=ID, title="toy", source=Source("0000.00000", "toy", "§0"), statement=statement,
    derivation=derivation, reading="toy", strength="derived", expected=Verdict.CERTIFIED,
    checks=(Check("exact", exact_check), Check("float", float_check, role="corroborating")),
    controls=(Control("wrong", "observable off by x + 1", Check("exact", exact_check, {"variant": "wrong"}),
                      targets="square"),),
)
