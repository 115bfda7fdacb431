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
