"""Checked derivations (issue 11), review: a step or a conclusion is never PROVED / CONSISTENT
without the evidence its status names.

(a) a step off by a constant (its sides' difference has no free symbol) is spot-checked, not UNKNOWN;
(b) a spot check that examined no point (``assume`` excludes every sample) is UNKNOWN, not CONSISTENT;
(c) strict steps are strict: a tie is not ``<``, and a tie within the spot check's precision is
    UNKNOWN;
(d) a fact ``Ne(a, b)`` is checked as an inequation, never as ``Eq(a, b)``;
(e) a strict statement is concluded only by a chain with a strict step;
(f) sample points respect negative / nonpositive assumptions.
"""

from __future__ import annotations

import random

import sympy as sp

import verify
from verify import Verdict
from verify._derivation import _sample

x = sp.Symbol("x", positive=True)
q = sp.Symbol("q", positive=True)


def _status(ev, i=-1):
    return ev.details["steps"][i]["status"]


def test_a_step_off_by_a_constant_is_refuted():
    ev = verify.check_derivation(verify.Derivation(verify.Step("s", x**2), verify.Step("t", x**2 + 1)))
    assert ev.level is Verdict.REFUTED and _status(ev, 1) == "REFUTED"


def test_no_sample_point_in_the_assumptions_is_unknown():
    d = verify.Derivation(verify.Step("s", sp.gamma(x + 1) / sp.gamma(x)), verify.Step("t", x + 1),
                          assume=sp.Gt(x, 50))
    ev = verify.check_derivation(d)
    assert _status(ev, 1) == "UNKNOWN" and ev.level is not Verdict.CONSISTENT


def test_a_strict_step_is_not_a_tie():
    tie = verify.Derivation(verify.Step("s", sp.sin(x) ** 2 + sp.cos(x) ** 2), verify.Step("t", 1, relation="<"))
    assert verify.check_derivation(tie).level is Verdict.REFUTED
    ok = verify.Derivation(verify.Step("s", x), verify.Step("t", x + 1, relation="<"))
    assert verify.check_derivation(ok).level in (Verdict.PROVED, Verdict.CONSISTENT)


def test_an_inequation_fact_is_not_checked_as_an_equation():
    false_fact = verify.Derivation(verify.Step("f", sp.Ne(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, evaluate=False)))
    assert verify.check_derivation(false_fact).level is Verdict.REFUTED
    true_fact = verify.Derivation(verify.Step("f", sp.Ne(x**2 + 1, x, evaluate=False)))
    assert verify.check_derivation(true_fact).level is not Verdict.REFUTED


def test_a_strict_statement_needs_a_strict_chain():
    chain = verify.Derivation(verify.Step("s", x**2 + 1), verify.Step("b", x**2 + 2, relation="<="),
                              concludes=True)
    ev = verify.check_derivation(chain, sp.Lt(q, x**2 + 2))
    assert ev.level is Verdict.REFUTED and _status(ev) == "REFUTED"
    strict = verify.Derivation(verify.Step("s", x**2 + 1), verify.Step("b", x**2 + 2, relation="<"),
                               verify.Step("c", x**2 + 3, relation="<="), concludes=True)
    assert verify.check_derivation(strict, sp.Lt(q, x**2 + 3)).level is Verdict.PROVED
    assert verify.check_derivation(strict, sp.Le(q, x**2 + 3)).level is Verdict.PROVED
    mixed = verify.Derivation(verify.Step("s", x**2 + 1), verify.Step("b", x**2 + 2, relation="<="),
                              verify.Step("c", x**2 + 1, relation=">="), concludes=True)
    assert verify.check_derivation(mixed, sp.Le(q, x**2 + 1)).level is not Verdict.PROVED


def test_samples_respect_sign_assumptions():
    rng = random.Random(0)
    n = sp.Symbol("n", negative=True)
    k = sp.Symbol("k", nonpositive=True, integer=True)
    assert all(_sample(n, rng) < 0 for _ in range(50))
    assert all(_sample(k, rng) <= 0 for _ in range(50))


def test_a_chain_of_one_expression_proves_nothing():
    k = sp.Symbol("K", positive=True)
    d = verify.Derivation(verify.Step("only", x**2 + 1), concludes=True)
    ev = verify.check_derivation(d, sp.Eq(k, x**2 + 1))
    assert ev.level is Verdict.UNKNOWN


def test_a_defined_symbol_is_not_an_observable_of_the_conclusion():
    k = sp.Symbol("K", positive=True)
    chain = (verify.Step("a", (x + 1) ** 2), verify.Step("b", x**2 + 2 * x + 1))
    # K is defined as something else than the chain's start: the chain does not conclude K = ...
    wrong = verify.Derivation(verify.Step("K", sp.Eq(k, x**2 + 1), relation="def"), *chain, concludes=True)
    assert verify.check_derivation(wrong, sp.Eq(k, x**2 + 2 * x + 1)).level is Verdict.REFUTED
    right = verify.Derivation(verify.Step("K", sp.Eq(k, (x + 1) ** 2), relation="def"), *chain, concludes=True)
    assert verify.check_derivation(right, sp.Eq(k, x**2 + 2 * x + 1)).level is Verdict.PROVED
