"""Users' models (issue 12): a user-written one-layer transformer checked for the saddle eigenstructure
and the growth rate c at theta_c1 (torch.func.hessian), and along the gradient flow of its loss from
theta_c1 (focus growth, mass redistribution); broken variants are caught."""

from __future__ import annotations

import pytest

from examples.focus_user_transformer import (
    AttentionOverQueries,
    DetachedScores,
    MyTransformer,
    ScaledScores,
    UniformKeys,
)
from verify import Verdict, check_model

CLAIM = "focus.stage2.saddle_eigenstructure"


def test_a_user_transformer_has_the_saddle_eigenstructure():
    out = check_model(CLAIM, MyTransformer())
    assert out.verdict is Verdict.CONSISTENT and out.passed


@pytest.mark.parametrize("model,part", [(ScaledScores(), "c_formula"), (AttentionOverQueries(), "spectrum")],
                         ids=lambda x: type(x).__name__ if not isinstance(x, str) else x)
def test_broken_transformers_are_caught_at_the_part_they_break(model, part):
    out = check_model(CLAIM, model)
    ce = out.checks[0].evidence.counterexample
    assert out.verdict is Verdict.REFUTED
    assert ce.description.startswith(f"{CLAIM} on {type(model).__name__}") and "margin" in ce.description
    assert ce.data["sub_check"] == part and "chain" in ce.data["values"]["instance"]


def test_condensation_stage_origin_spectrum_on_a_user_transformer():
    assert check_model("focus.stage1.origin_spectrum", MyTransformer()).passed
    # a score scaling does not matter at the origin (attention is frozen there) ...
    assert check_model("focus.stage1.origin_spectrum", ScaledScores()).passed
    # ... an attention normalised over the wrong axis does
    out = check_model("focus.stage1.origin_spectrum", AttentionOverQueries())
    assert out.verdict is Verdict.REFUTED


def test_condensation_rate_of_a_user_transformer_flow():
    """focus.stage1.condensation (parts 'rate', 'mu0_spectrum'): the gradient flow of the user's loss from
    eps = 1e-3 grows sigma1(W0) at mu0 = |pi||v| within the budget derived from the run."""
    out = check_model("focus.stage1.condensation", MyTransformer())
    ev = out.checks[0].evidence
    assert out.verdict is Verdict.CONSISTENT and out.passed
    (row,) = ev.details["rates"]
    assert abs(row["rate"] - row["mu0"]) <= row["budget"] < 0.05 * row["mu0"]
    # the score scaling does not touch the condensation (attention is frozen near the origin) ...
    assert check_model("focus.stage1.condensation", ScaledScores()).passed
    # ... the attention over the wrong axis changes both mu0 and the rate
    bad = check_model("focus.stage1.condensation", AttentionOverQueries())
    ce = bad.checks[0].evidence.counterexample
    assert bad.verdict is Verdict.REFUTED
    assert ce.description.startswith("focus.stage1.condensation on AttentionOverQueries") and "margin" in ce.description
    (brow,) = bad.checks[0].evidence.details["rates"]
    assert abs(brow["rate"] - brow["mu0"]) > brow["budget"]


def test_transverse_mode_at_the_degenerate_point_of_a_user_transformer():
    """focus.stage4.transverse_mode (parts 'top_vs_sigma', 'transverse'): at the product's theta2_delta (F5,
    delta = 1e-3, m = 2, m_k = 1) the top eigenvalue of -Hessian of the user's loss is sigma_max(G_M) and
    its eigenvector is transverse; an attention over the wrong axis moves the top eigenvalue."""
    out = check_model("focus.stage4.transverse_mode", MyTransformer())
    ev = out.checks[0].evidence
    assert out.verdict is Verdict.CONSISTENT and out.passed
    assert abs(ev.details["top_full"] - ev.details["sigma_max_GM"]) <= ev.details["top_vs_sigma_tolerance"]
    assert ev.details["transverse_weight"] >= 0.999
    bad = check_model("focus.stage4.transverse_mode", AttentionOverQueries())
    ce = bad.checks[0].evidence.counterexample
    assert bad.verdict is Verdict.REFUTED and ce.data["sub_check"] == "top_vs_sigma"
    assert ce.description.startswith("focus.stage4.transverse_mode on AttentionOverQueries") and "margin" in ce.description
    assert ce.data["values"]["instance"]["chain"] == "F5"


def test_focus_growth_from_the_saddle_of_a_user_transformer():
    """focus.stage2.focus_as_stated (parts 'growth', 'direction', 'saddle_focus') on the flow of the user's
    loss from theta_c1: |(W_Q, W_K)|^2 grows at 2 lam_u (lam_u from the user's Hessian) along the unstable
    eigenvector and the frequent token gains attention; an attention over the wrong axis grows at another
    rate than its own Hessian predicts."""
    out = check_model("focus.stage2.focus_as_stated", MyTransformer())
    assert out.verdict is Verdict.CONSISTENT and out.passed
    (row,) = out.checks[0].evidence.details["saddle"]
    assert abs(row["rate"] - row["2lam_u"]) <= row["budget"] < 0.01 * row["2lam_u"]
    assert row["sin_end"] <= row["sin_budget"] and row["u_outer_weight"] < 1e-8
    bad = check_model("focus.stage2.focus_as_stated", AttentionOverQueries())
    ce = bad.checks[0].evidence.counterexample
    assert bad.verdict is Verdict.REFUTED and ce.data["sub_check"] == "growth"
    assert ce.description.startswith("focus.stage2.focus_as_stated on AttentionOverQueries") and "margin" in ce.description
    assert ce.data["values"]["instance"]["chain"] == ["3/4", "19/100", "1/20", "1/100"]
    (brow,) = bad.checks[0].evidence.details["saddle"]
    # the rate is the broken model's own (the toolkit's flow would grow at 2c = 0.16)
    assert brow["rate"] > 0.5 and abs(brow["rate"] - brow["2lam_u"]) > brow["budget"]


def test_mass_redistribution_along_the_flow_of_a_user_transformer():
    """focus.stage3.mass_redistribution (part 'rho') on the flow of the user's loss from theta_c1:
    P_pi^perp gamma / kappa = rho on kappa in [1e-7, 1e-3]."""
    out = check_model("focus.stage3.mass_redistribution", MyTransformer())
    assert out.verdict is Verdict.CONSISTENT and out.passed
    (row,) = out.checks[0].evidence.details["rows"].values()
    assert row["max_dev"] <= row["tol"] and row["e_rk4"] < 1e-6 and row["points"] >= 50


def test_a_stop_gradient_on_the_scores_is_caught_only_by_the_redistribution():
    """DetachedScores reads the embedding through .detach() in the scores: its Hessians at the origin and at
    theta_c1 and its focus growth are the paper's, but along the flow the embedding misses the forcing
    kappa (G_Phi + G_Phi^T) gamma and moves by about 0.35 rho."""
    for claim in ("focus.stage1.origin_spectrum", "focus.stage2.saddle_eigenstructure"):
        assert check_model(claim, DetachedScores()).passed, claim
    bad = check_model("focus.stage3.mass_redistribution", DetachedScores())
    ce = bad.checks[0].evidence.counterexample
    assert bad.verdict is Verdict.REFUTED and ce.data["sub_check"] == "rho"
    assert ce.description.startswith("focus.stage3.mass_redistribution on DetachedScores") and "margin" in ce.description
    assert ce.data["values"]["instance"]["chain"] == ["3/4", "19/100", "1/20", "1/100"]
    (row,) = bad.checks[0].evidence.details["rows"].values()
    assert row["max_dev"] > 100 * row["tol"]


def test_opposite_motion_of_a_user_transformer_flow():
    """focus.stage3.opposite_motion_as_stated (part 'prefix_split') on the measured P_pi^perp gamma / kappa of
    the user's flow: E1's most frequent token moves up, the three others down (k = 1), every sign decided
    beyond the run's error; an attention without the keys' frequencies has no such split."""
    out = check_model("focus.stage3.opposite_motion_as_stated", MyTransformer())
    assert out.verdict is Verdict.CONSISTENT and out.passed
    (row,) = out.checks[0].evidence.details["rows"].values()
    assert row["k"] == 1 and row["prefix_min_minus_err"] > 0 > row["rest_max_plus_err"]
    bad = check_model("focus.stage3.opposite_motion_as_stated", UniformKeys())
    ce = bad.checks[0].evidence.counterexample
    assert bad.verdict is Verdict.REFUTED and ce.data["sub_check"] == "prefix_split"
    assert ce.description.startswith("focus.stage3.opposite_motion_as_stated on UniformKeys") and "margin" in ce.description
    assert ce.data["values"]["instance"]["chain"] == ["3/4", "19/100", "1/20", "1/100"]
