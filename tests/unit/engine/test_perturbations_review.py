"""Perturbations of a statement (issue 11), review: every variant is false, and can be refuted only by
a check that evaluates the part where it matters.

(a) a constant scaled on both sides of an identity (2a = 2b -> 9/4 a = 9/4 b) is no false variant;
(b) an implication also gets P -> not Q, which only an instance meeting the premise refutes (P and
    not Q is refuted by any instance where P fails, so a check that never meets P would pass).
"""

from __future__ import annotations

import sympy as sp

from verify import AllOf, Tally, Verdict, perturbations

a, b, c = sp.symbols("a b c", real=True)


def test_a_scaled_constant_never_gives_an_equivalent_identity():
    from verify._statement import _equivalent_identity

    # one copy of the constant is scaled (2a = 9b/4, not 9a/4 = 9b/4, which would hold wherever 2a = 2b)
    st = sp.Eq(2 * a, 2 * b)
    for d, _, v in perturbations(st):
        if d.startswith("constant"):
            assert not _equivalent_identity(st, v), v
    assert any(d.startswith("constant") for d, _, _ in perturbations(sp.Eq(a, 2 * b)))
    # a = 2a scaled to a = 9a/4 holds exactly where a = 2a does (a = 0): not offered
    assert not any(d.startswith("constant") for d, _, _ in perturbations(sp.Eq(a, 2 * a, evaluate=False)))


def test_an_implication_is_perturbed_under_its_premise():
    st = AllOf(u=sp.Implies(sp.Le(a, b), sp.Eq(c, 1)))
    variants = perturbations(st)
    # a check that only meets instances outside the premise (a > b) refutes the negation ...
    off = {"a": 2, "b": 1, "c": 1}
    under = [v for d, _, v in variants if d.startswith("consequence")]
    assert len(under) == 1
    negated = next(v for d, _, v in variants if d.startswith("negated"))
    assert Tally(precision="t", backend="t").statement(negated, off, part="u").level is Verdict.REFUTED
    # ... but not the variant under the premise; an instance meeting the premise does
    t = Tally(precision="t", backend="t")
    assert t.statement(under[0], off, part="u").level is Verdict.CERTIFIED
    assert t.statement(under[0], {"a": 0, "b": 1, "c": 1}, part="u").level is Verdict.REFUTED
