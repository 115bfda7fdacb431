"""focusA's focus claims carry their statements as code: formulas over observables, checked derivations,
and checks that read the claim's own statement (a false statement refutes them)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from numerics.markov import MarkovChain
from theorems.focus_dilution import _checks_origin as origin
from theorems.focus_dilution import _checks_saddle as saddle
from theorems.focus_dilution import _statements_spectra as sst
from theorems.focus_dilution._statements_common import first_refuted, part_observation
from verify import SUB_CHECK, Observation, Verdict, catalogue, check_derivation, get_profile
from verify._statement import is_formula, running

FOCUS_A = ("focus.model.population_limit", "focus.model.gradients", "focus.model.conservation",
           "focus.stage1.origin_spectrum", "focus.stage2.saddle_location", "focus.stage2.saddle_eigenstructure",
           "focus.stage2.growth_rate_sign", "focus.stage1.condensation_as_stated", "focus.stage2.saddle_as_stated",
           "focus.stage2.focus_as_stated", "focus.stage3.opposite_motion_as_stated",
           "focus.stage3.opposite_motion_singular", "focus.stage3.dilution_as_stated", "focus.cycle.four_stages")
DERIVED = ("focus.model.gradients", "focus.model.conservation", "focus.stage1.origin_spectrum",
           "focus.stage2.saddle_location", "focus.stage2.saddle_eigenstructure", "focus.stage2.growth_rate_sign")


@pytest.mark.parametrize("cid", FOCUS_A)
def test_statement_is_a_formula(cid):
    assert is_formula(catalogue().get(cid).resolved_statement())


@pytest.mark.parametrize("cid", DERIVED)
def test_derivation_is_proved(cid):
    c = catalogue().get(cid)
    ev = check_derivation(c.resolved_derivation(), c.resolved_statement())
    assert ev.level is Verdict.PROVED, [(r["label"], r["status"]) for r in ev.details["steps"]]


def test_root_multiplicities_read_the_factorisation():
    # x^3 (x^2 - 2)^2 (4x^2 - 1): zero x3; the largest squared root 2 with +- multiplicity 2
    import flint

    p = flint.fmpq_poly([0, 1]) ** 3 * flint.fmpq_poly([-2, 0, 1]) ** 2 * flint.fmpq_poly([-1, 0, 4])
    coeffs = [Fraction(int(c.p), int(c.q)) for c in p.coeffs()]
    assert origin._root_multiplicities(coeffs) == (3, Fraction(2), 2, 2)
    # rational roots +-1/2 come as two linear factors
    p = flint.fmpq_poly([-1, 0, 4]) * flint.fmpq_poly([0, 1])
    assert origin._root_multiplicities([Fraction(int(c.p), int(c.q)) for c in p.coeffs()]) == (
        1, Fraction(1, 4), 1, 1)


def test_part_observation_names_its_part_and_first_refuted_combines():
    st = sst.growth_rate_sign()
    ok = part_observation(st, {"c": Fraction(1, 3)}, "sign")
    bad = part_observation(st, {"c": Fraction(-1, 3)}, "sign", lam="1/2")
    assert ok.level is Verdict.CERTIFIED and bad.level is Verdict.REFUTED
    assert bad.counterexample.data[SUB_CHECK] == "sign" and bad.counterexample.data["lam"] == "1/2"
    assert first_refuted([ok, bad]) is bad
    assert first_refuted([ok, Observation(Verdict.CONSISTENT, margin=0.5)]).level is Verdict.CONSISTENT


def test_a_false_statement_refutes_the_checks_that_read_it():
    """growth_certified and origin_exact evaluate the running claim's statement, not an inline formula."""
    g = sst.growth_rate_sign()
    bad = g.with_body(g.body.replace("lambda_scaling", sp.Eq(sst.c_half, sst.c_ref / 3)))
    with running(saddle.GROWTH_ID, bad):
        ev = saddle.growth_certified(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.REFUTED and ev.counterexample.data[SUB_CHECK] == "lambda_scaling"
    o = sst.origin_spectrum()
    bad = o.with_body(o.body.replace("eigenvalue", sp.Eq(sst.mu0_sq, 2 * sst.n_pi2 * sst.n_v2)))
    with running(origin.ORIGIN_ID, bad):
        ev = origin.origin_exact(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.REFUTED and ev.counterexample.data[SUB_CHECK] == "eigenvalue"


def test_singular_reading_is_refuted_on_its_pinned_counterexample_only():
    from theorems.focus_dilution import _checks_headlines as hl

    ev = hl.opposite_motion(seed=0, profile=get_profile("quick"), variant="singular")
    assert ev.level is Verdict.REFUTED and ev.instances == 1
    assert ev.counterexample.data["pi"] == ["2/5", "7/20", "3/20", "1/10"]
    assert MarkovChain.lazy(*hl.SINGULAR_CE).d == 4


def test_cycle_check_attaches_the_loss_and_attention_figure():
    from theorems.focus_dilution._checks_as_stated_flows import cycle_as_stated

    ev = cycle_as_stated(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.CONSISTENT
    fig = ev.details["figures"][0]
    assert {h["label"] for h in fig["hlines"]} == {"log d", r"H(\pi)", "H(Y|X)"}
    assert [s["label"] for s in fig["series"]][:2] == ["loss L(t)", "A_11(t)"]
    assert "focus.cycle.four_stages" in fig["caption"] and len(fig["series"][0]["x"]) <= 500
