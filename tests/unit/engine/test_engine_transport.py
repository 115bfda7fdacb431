"""A statement or derivation reaches a worker process as it was built (verify/_transport.py).

Found in a two-worker run: pickle re-evaluates sympy objects, so the derivation fact ``Eq(0, 0,
evaluate=False)`` of ``ddcl.growth.signal_structure`` (and one of ``interp.tikhonov.linear_scaling``)
arrived as ``True`` and the derivation check crashed (UNKNOWN) at two workers while it PROVED its steps at
one."""

from __future__ import annotations

import pickle

import sympy as sp

from verify import Check, Claim, Derivation, Source, Step, Verdict, catalogue, run_claims
from verify._transport import exact, opened

from ._toy_sharded import squares

_AFFECTED = ("ddcl.growth.signal_structure", "interp.tikhonov.linear_scaling",
             "focus.stage4.degenerate_point_certified")


def _round_trip(value):
    return opened(pickle.loads(pickle.dumps(exact(value))))


def test_the_seal_survives_a_hop_that_unpickles_and_pickles_again():
    # a dask scheduler unpickles a task's arguments and pickles them again for the worker
    built = (sp.Eq(0, 0, evaluate=False), sp.Mul(sp.Symbol("x"), sp.Symbol("x"), evaluate=False))
    hop = pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(exact(built)))))
    assert sp.srepr(opened(hop)) == sp.srepr(built)
    assert opened(built) is built  # an unsealed value (in-process) is passed through


def test_unevaluated_objects_arrive_unevaluated():
    x, y = sp.symbols("x y", positive=True)
    for built in (sp.Eq(0, 0, evaluate=False), sp.Mul(x, x, evaluate=False), sp.Add(x, x, evaluate=False),
                  sp.Pow(sp.Integer(4), sp.Rational(1, 2), evaluate=False), sp.Le(x, x, evaluate=False)):
        assert pickle.loads(pickle.dumps(built)) != built or sp.srepr(pickle.loads(pickle.dumps(built))) \
            != sp.srepr(built)  # the premise: plain pickle re-evaluates it
        assert sp.srepr(_round_trip(built)) == sp.srepr(built)


def test_evaluated_objects_arrive_identical():
    x, y = sp.symbols("x y", positive=True)
    for built in (sp.Sum(x**2, (x, 1, y)), sp.Piecewise((x**2 + sp.sin(y), x > 1), (y / 3, True)),
                  sp.exp(x) * sp.log(y) / (x + y) ** 3, sp.Max(x, y, 1), sp.Matrix([[x, y], [1, 2]]),
                  sp.And(x > 1, y < 2), sp.Float("1.5") * x + sp.sqrt(2)):
        assert sp.srepr(_round_trip(built)) == sp.srepr(built)


def test_every_catalogue_statement_and_derivation_arrives_as_built():
    cat = catalogue()
    for claim in cat:
        value = (claim.resolved_statement(), claim.resolved_derivation())
        assert repr(_round_trip(value)) == repr(value), claim.id
    for cid in _AFFECTED:  # the claims that plain pickle alters (the reason for the transport)
        c = cat.get(cid)
        value = (c.resolved_statement(), c.resolved_derivation())
        assert repr(pickle.loads(pickle.dumps(value))) != repr(value), cid


def _fact_claim():
    x = sp.Symbol("x")
    return Claim(id="toy.transport.fact", title="toy", source=Source("0000.00000", "toy", "§0"),
                 statement="v^2 = v^2", reading="toy", strength="derived", expected=Verdict.CERTIFIED,
                 checks=(Check("exact", squares),), controls=(),
                 derivation=lambda: Derivation(Step("square", (x + 1) ** 2),
                                               Step("expand", x**2 + 2 * x + 1),
                                               Step("a fact", sp.Eq(0, 0, evaluate=False))))


def test_a_derivation_fact_is_checked_alike_in_a_worker():
    def derivation(result):
        (ev,) = [c.evidence for c in result.outcomes[0].checks if c.name == "derivation"]
        return ev

    one, two = derivation(run_claims([_fact_claim()])), derivation(run_claims([_fact_claim()], workers=2))
    assert one.level is Verdict.PROVED, one.notes
    assert (two.level, two.details, two.notes) == (one.level, one.details, one.notes)
