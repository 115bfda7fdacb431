"""Statements as code (issue 11): forms, evaluation semantics, perturbations, checked derivations."""

from __future__ import annotations

import pickle
from dataclasses import replace
from fractions import Fraction

import flint
import pytest
import sympy as sp

import verify
from numerics.errors import InputError
from verify import AllOf, Exists, ForAll, Tally, Verdict, observe, perturbations, run_claim
from verify._evaluate import decide
from verify._statement import is_formula, statement_latex

from ._toy_statement_claims import CLAIM

a, b = sp.symbols("a b", real=True)


def _t():
    return Tally(precision="t", backend="t")


def test_forms_render_and_pickle():
    st = ForAll(a, "reals", AllOf(one=sp.Le(a, b), two=sp.Eq(b, 2 * a)))
    assert r"\forall a" in statement_latex(st) and "one" in statement_latex(st)
    assert "for all a in reals" in st.text()
    assert pickle.loads(pickle.dumps(st)) == st
    assert is_formula(st) and not is_formula("a sentence")
    assert is_formula(Exists((a, b), "pairs", sp.Gt(a, b)))


@pytest.mark.parametrize("rel,d,holds", [
    (sp.Le, 0.0, True), (sp.Le, 1e-13, True), (sp.Le, 1e-9, False),
    (sp.Gt, 1e-13, False), (sp.Gt, 1e-9, True),
    (sp.Eq, 1e-13, True), (sp.Ne, 1e-13, False), (sp.Ne, 1e-9, True),
    (sp.Lt, -1e-13, False), (sp.Ge, -1e-13, True),
])
def test_float_relation_and_negation_are_complements(rel, d, holds):
    r, _, _ = decide(rel(a, b), {"a": 1.0 + d, "b": 1.0}, tol=1e-12)
    assert r is holds
    r2, _, _ = decide(rel(a, b).negated, {"a": 1.0 + d, "b": 1.0}, tol=1e-12)
    assert r2 is (not holds)


def test_exact_and_ball_semantics():
    assert decide(sp.Eq(a, b / 3), {"a": Fraction(1, 3), "b": 1})[0] is True
    assert decide(sp.Lt(a, b), {"a": Fraction(1, 3), "b": Fraction(1, 3)})[0] is False
    # balls: a straddle is undecided, never coerced
    assert decide(sp.Le(a, b), {"a": flint.arb(1, 1e-3), "b": flint.arb(1)})[0] is None
    assert decide(sp.Le(a, b), {"a": flint.arb(0.5, 1e-3), "b": flint.arb(1)})[0] is True
    assert decide(sp.Eq(a, 2 * b), {"a": flint.arb(2), "b": flint.arb(1)})[0] is True
    # 1 + 1e-30 vs 1 at 50 digits is not equal within 1e-35 (no float rounding of each side)
    import mpmath

    ctx = mpmath.MPContext()
    ctx.dps = 50
    assert decide(sp.Eq(a, b), {"a": ctx.mpf(1) + ctx.mpf("1e-30"), "b": ctx.mpf(1)}, tol=1e-35)[0] is False


def test_missing_symbol_and_tolerance_are_input_errors():
    with pytest.raises(InputError, match="missing 'b'"):
        decide(sp.Eq(a, b), {"a": 1})
    with pytest.raises(InputError, match="tolerance"):
        decide(sp.Eq(a, b), {"a": 1.0, "b": 1.0})


def test_tally_statement_names_the_part():
    st = AllOf(p=sp.Eq(a, b))
    obs = _t().statement(st, {"a": Fraction(1), "b": Fraction(2)}, part="p")
    assert obs.level is Verdict.REFUTED
    assert obs.counterexample.data["sub_check"] == "p"
    assert "fails" in obs.counterexample.description


def test_torch_values_elementwise():
    torch = pytest.importorskip("torch")
    st = sp.Eq(a, 2 * b)
    ok = _t().statement(st, {"a": torch.tensor([2.0, 4.0]), "b": torch.tensor([1.0, 2.0])}, tol=1e-12)
    bad = _t().statement(st, {"a": torch.tensor([2.0, 4.1]), "b": torch.tensor([1.0, 2.0])}, tol=1e-12)
    assert ok.level is Verdict.CONSISTENT and bad.level is Verdict.REFUTED


def test_observe_builders_are_pure():
    t = _t()
    o = observe.close(1.0, 1.0 + 1e-3, 1e-6)
    assert o.level is Verdict.REFUTED and t.instances == 0


def test_toy_claim_passes_and_its_perturbations_are_refuted():
    out = run_claim(CLAIM)
    assert out.verdict is Verdict.CERTIFIED and out.passed
    names = [c.name for c in out.checks]
    assert "derivation" in names
    der = next(c for c in out.checks if c.name == "derivation").evidence
    assert der.level is Verdict.PROVED
    assert [r["status"] for r in der.details["steps"]] == ["GIVEN", "PROVED", "PROVED", "PROVED"]
    variants = perturbations(CLAIM.resolved_statement())
    assert len(variants) == 3  # square negated, its constant scaled, bound negated
    from verify._perturb import perturbation_outcomes

    for o in perturbation_outcomes(CLAIM):
        assert o.refuted, o
        assert o.sub_check == o.part


def test_a_broken_derivation_step_is_reported_and_refutes():
    der = CLAIM.resolved_derivation()
    broken = der.replace_step(2, expr=x_wrong())
    out = run_claim(replace(CLAIM, derivation=lambda: broken))
    assert out.verdict is Verdict.REFUTED
    ev = next(c for c in out.checks if c.name == "derivation").evidence
    assert ev.counterexample.data["step"] == 2
    assert ev.details["steps"][2]["status"] == "REFUTED"
    assert ev.details["steps"][1]["status"] == "PROVED"


def x_wrong():
    x = sp.Symbol("x", positive=True)
    return x * (x + 2) + 2


def test_spot_checked_step_records_its_level():
    x = sp.Symbol("x", positive=True)
    d = verify.Derivation(verify.Step("start", sp.sqrt(x**2)), verify.Step("simplify", x))
    ev = verify.check_derivation(d)
    assert ev.level is Verdict.PROVED  # sympy knows x > 0
    d2 = verify.Derivation(verify.Step("start", sp.gamma(x + 1) / sp.gamma(x)), verify.Step("rec", x))
    ev2 = verify.check_derivation(d2)
    assert ev2.level in (Verdict.PROVED, Verdict.UNKNOWN, Verdict.CONSISTENT)


def test_conclusion_needs_both_sides_or_an_observable():
    x = sp.Symbol("x", positive=True)
    obs = sp.Symbol("q", positive=True)
    chain = verify.Derivation(verify.Step("start", x**2 + 1), verify.Step("bound", x**2 + 2, relation="<="),
                              concludes=True)
    assert verify.check_derivation(chain, sp.Le(obs, x**2 + 2)).level is Verdict.PROVED
    # the bound side altered: the chain's end is no longer the statement's bound
    bad = verify.check_derivation(chain, sp.Le(obs, x**2 + 3))
    assert bad.level is Verdict.REFUTED and bad.details["steps"][-1]["status"] == "REFUTED"
    # both sides formulas: one matching end is not enough
    y = sp.Symbol("y", positive=True)
    assert verify.check_derivation(chain, sp.Le(x**2 + 1, 2 * y)).level is Verdict.REFUTED


def test_numpy_arrays_are_evaluated_elementwise():
    import numpy as np

    ok = _t().statement(sp.Eq(a, 2 * b), {"a": np.array([2.0, 4.0]), "b": np.array([1.0, 2.0])}, tol=1e-12)
    bad = _t().statement(sp.Eq(a, 2 * b), {"a": np.array([2.0, 4.1]), "b": np.array([1.0, 2.0])}, tol=1e-12)
    assert ok.level is Verdict.CONSISTENT and bad.level is Verdict.REFUTED


def test_a_step_losing_symbols_is_refuted_not_unknown():
    x, y = sp.symbols("x y", positive=True)
    d = verify.Derivation(verify.Step("start", x * y + x), verify.Step("wrong", x))
    ev = verify.check_derivation(d)
    assert ev.level is Verdict.REFUTED and ev.details["steps"][1]["status"] == "REFUTED"


def test_strict_steps_are_decided_symbolically():
    x = sp.Symbol("x", positive=True)
    ev = verify.check_derivation(verify.Derivation(verify.Step("a", x), verify.Step("b", x + 1, relation="<")))
    assert ev.level is Verdict.PROVED
    ev = verify.check_derivation(verify.Derivation(verify.Step("a", x), verify.Step("b", x, relation="<")))
    assert ev.level is Verdict.REFUTED


def test_observe_statement_is_public():
    obs = observe.statement(sp.Eq(a, b), {"a": Fraction(1), "b": Fraction(1)})
    assert obs.level is Verdict.CERTIFIED


def test_scaling_a_constant_touches_one_coefficient_not_exponents():
    g, b = sp.symbols("g b", real=True)
    st = sp.Eq(g, 2 * b**2 + 2)
    variants = [p for d, _, p in perturbations(st) if "scaled" in d]
    assert len(variants) == 1
    new = variants[0]
    assert new != st and sp.simplify(new.rhs - (sp.Rational(9, 4) * b**2 + 2)) == 0 or \
        sp.simplify(new.rhs - (2 * b**2 + sp.Rational(9, 4))) == 0
    assert all(p.exp == 2 for p in new.rhs.atoms(sp.Pow))


def test_torch_statement_broadcasts_scalars():
    torch = pytest.importorskip("torch")
    st = sp.Eq(a, b + 1)
    ok = _t().statement(st, {"a": torch.tensor([2.0, 3.0]), "b": torch.tensor([1.0, 2.0])}, tol=1e-12)
    assert ok.level is Verdict.CONSISTENT


def test_observe_statement_names_its_part_and_carries_the_instance():
    obs = observe.statement(AllOf(p=sp.Eq(a, b)), {"a": Fraction(1), "b": Fraction(2)}, part="p", instance=7)
    assert obs.level is Verdict.REFUTED
    assert obs.counterexample.data["sub_check"] == "p" and obs.counterexample.data["instance"] == 7
