"""Users' models (issue 12): a user-written one-layer transformer checked for the saddle eigenstructure
and the growth rate c at theta_c1 (torch.func.hessian); broken variants are caught."""

from __future__ import annotations

import pytest

from verify import Verdict, check_model

from examples.focus_user_transformer import AttentionOverQueries, MyTransformer, ScaledScores

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
