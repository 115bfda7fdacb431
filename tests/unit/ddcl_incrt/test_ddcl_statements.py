"""Statements as code for the pruning, Lyapunov, growth and tracker claims (issue 11): the statement
builders, their evaluation helpers, the product functions the checks now call, and the derivations."""

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from numerics.errors import InputError, InputTypeError
from theorems.ddcl_incrt import _statements_growth as sg
from theorems.ddcl_incrt import _statements_lyapunov as sl
from theorems.ddcl_incrt import _statements_pruning as sp_
from theorems.ddcl_incrt import _statements_tracker as st_
from theorems.ddcl_incrt._statement_eval import part_observation, record, rhs_value, symbolic_truth
from theorems.ddcl_incrt.incrt import dwell_time_code, dwell_time_normalised, growth_signal
from verify import Tally, Verdict, check_derivation, is_formula, perturbations

BUILDERS = [sg.signal_statement, sg.spectral_order_statement, sg.unique_statement, sg.only_minimal_statement,
            sg.unique_online_statement, sp_.safety_statement, sp_.force_kept_statement, sp_.margin_statement,
            sp_.per_head_statement, sl.free_energy_statement, sl.full_gradient_statement,
            st_.convergence_statement, st_.coupled_thresholds_statement, st_.mca_statement,
            st_.dwell_code_statement, st_.dwell_normalised_statement]


@pytest.mark.parametrize("build", BUILDERS, ids=lambda f: f.__name__)
def test_statements_are_formulas_with_perturbations(build):
    st = build()
    assert is_formula(st)
    assert perturbations(st), "every formula statement has at least one false variant"
    assert st.text() and st.latex()


def test_lyapunov_as_stated_is_a_predicate_not_a_formula():
    assert not perturbations(sl.as_stated_statement())


@pytest.mark.parametrize("pair", [(sg.signal_derivation, sg.signal_statement, Verdict.PROVED),
                                  (sg.spectral_order_derivation, sg.spectral_order_statement, Verdict.PROVED),
                                  (sp_.safety_derivation, sp_.safety_statement, Verdict.CONSISTENT),
                                  (sl.free_energy_derivation, sl.free_energy_statement, Verdict.PROVED),
                                  (st_.dwell_normalised_derivation, st_.dwell_normalised_statement,
                                   Verdict.CONSISTENT)],
                         ids=lambda p: p[0].__name__)
def test_derivations_check_and_conclude(pair):
    der, stmt, level = pair
    ev = check_derivation(der(), stmt())
    assert ev.level is level, ev.details["steps"]
    assert ev.details["steps"][-1]["status"] == "PROVED"  # the conclusion is the statement's part


def test_derivation_refutes_a_broken_step():
    # the M-cat chain with its last bound's sqrt term dropped: epsilon alone does not bound the drop
    der = sp_.safety_derivation()
    eps = sp.Symbol("epsilon", nonnegative=True)
    broken = der.replace_step(len(der.steps) - 1, expr=eps)
    assert check_derivation(broken, sp_.safety_statement()).level is Verdict.REFUTED


def test_part_observation_is_entrywise_on_arrays():
    st = sg.signal_statement()
    G = np.diag([3.0, 2.0, 1.0])
    M = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 2.0], [0.0, -2.0, 0.0]])
    S = growth_signal(G, M)
    ok = part_observation(st, {"S": S, "GM_a": G @ M, "M_aG": M @ G}, "commutator", tol=1e-12)
    assert ok.level is Verdict.CONSISTENT
    bad = part_observation(st, {"S": S, "GM_a": G @ M, "M_aG": G @ M}, "commutator", tol=1e-12, case="x")
    assert bad.level is Verdict.REFUTED
    assert bad.counterexample.data["sub_check"] == "commutator" and bad.counterexample.data["case"] == "x"


def test_record_names_the_sub_check():
    st = sp_.safety_statement()
    t = Tally(precision="float64", backend="numpy")
    record(t, st, {"drop_kl": 9.0, "N": 2, "epsilon_tr": 1.0, "n_min": 1.0}, part="R3", tol=0.0, sub="other")
    ev = t.evidence()
    assert ev.level is Verdict.REFUTED and ev.counterexample.data["sub_check"] == "other"


def test_symbolic_truth_three_valued():
    x = sp.Symbol("x", real=True)
    st = sg.signal_statement()
    from verify._statement import select

    expr = select(st, "traceless")
    assert symbolic_truth(expr, {"tr_S": sp.Integer(0)}) is True
    assert symbolic_truth(expr, {"tr_S": sp.Integer(1)}) is False
    assert symbolic_truth(sp.Le(sp.Symbol("a"), 0), {"a": x}) is None
    assert symbolic_truth(sp.Implies(sp.Le(sp.Symbol("a"), 0), sp.Eq(sp.Symbol("b"), 1)),
                          {"a": sp.Integer(1), "b": sp.Integer(5)}) is True


def test_rhs_value_reads_the_bound_from_the_statement():
    st = sp_.safety_statement()
    assert rhs_value(st, "R2_Mcat", {"delta_j": 0.0, "epsilon": 1.0, "lambda_1": 4.0}) == pytest.approx(3.0)
    assert rhs_value(st, "R3", {"drop_kl": 0.0, "N": 2, "epsilon_tr": 1.0, "n_min": 1.0}) == pytest.approx(8.0)


@pytest.mark.parametrize("part,change", [("R2_Mcat", "no_sqrt"), ("R2_Madd", "sqrt_once"), ("R4", "halve:b_res"),
                                         ("R3", "constant:4/1")])
def test_variant_changes_only_its_part(part, change):
    st = sp_.safety_statement()
    v = sp_.variant(st, part, change)
    assert v.labels == (part,)
    from verify._statement import select

    assert select(v, part) != select(st, part)


def test_variant_rejects_a_change_that_changes_nothing():
    with pytest.raises(ValueError):
        sp_.variant(sp_.safety_statement(), "invariance", "no_sqrt")


def test_margin_variant_halves_the_premise_bound():
    v = sp_.variant(sp_.margin_statement(), "margin_count", "scale_premise_rhs:1/2")
    from verify._statement import select

    pre = select(v, "margin_count").args[0]
    assert sp.Rational(1, 2) in sp.preorder_traversal(pre.rhs) or pre.rhs.as_coeff_Mul()[0] == sp.Rational(1, 2)


def test_growth_signal_on_sympy_matrices_is_exact():
    a, b = sp.symbols("a b", real=True)
    G = sp.diag(a, b)
    M = sp.Matrix([[0, 1], [-1, 0]])
    S = growth_signal(G, M)
    assert sp.simplify(S - (G * M - M * G) / 2) == sp.zeros(2, 2)
    with pytest.raises(InputError):
        growth_signal(sp.eye(2), sp.zeros(3, 3))


def test_dwell_times():
    # the code's rule scales as c^-2, the normalised one is scale free (spec §5.5)
    A0 = np.array([1.0, 0.5, 0.2, 0.0, -0.2, -1.5])
    gap = 0.5
    assert dwell_time_code(1 / 60, gap) == math.ceil(2 * math.log(20) / (gap**2 / 60))
    assert dwell_time_code(1 / 60, 10 * gap) == 15
    T = {c: dwell_time_normalised(0.5, c * gap, c * float(np.abs(A0).max())) for c in (0.1, 1.0, 10.0)}
    assert len(set(T.values())) == 1 and T[1.0] == 36
    assert dwell_time_code(1 / 60, 1e-9) == 10**4
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(InputError):
            dwell_time_normalised(0.5, bad, 1.0)
    with pytest.raises(InputTypeError):
        dwell_time_code(True, 1.0)


def test_exact_values_evaluate_exactly():
    st = sp_.force_kept_statement()
    t = Tally(precision="exact", backend="fractions")
    obs = t.statement(st, {"n_u_sub": 0, "n_u_full": 1}, part="count")
    assert obs.level is Verdict.REFUTED
    st2 = sg.only_minimal_statement()
    obs2 = Tally(precision="exact", backend="fractions").statement(
        st2, {"lambda_max_alt": Fraction(1, 4), "theta": Fraction(1, 2), "cos2_alt_greedy": Fraction(3, 4)},
        part="unique")
    assert obs2.level is Verdict.REFUTED
