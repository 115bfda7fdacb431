"""Users' models (issue 12): torch.nn.MultiheadAttention dropped into the paper's softmax
interpolating transformer interpolates within the dtype-derived budget; broken sublayers are caught."""

from __future__ import annotations

import pytest

from verify import Verdict, check_model

from examples.interp_user_attention import MHASublayer, ResidualInside, SoftmaxOverQueries


def test_multihead_attention_interpolates_the_datasets():
    out = check_model("interp.softmax.exact", MHASublayer())
    ev = out.checks[0].evidence
    assert out.verdict is Verdict.CONSISTENT and ev.instances >= 3 and ev.margin_min >= 0


@pytest.mark.parametrize("layer", [SoftmaxOverQueries(), ResidualInside()], ids=lambda l: type(l).__name__)
def test_broken_sublayers_are_caught(layer):
    out = check_model("interp.softmax.exact", layer)
    ce = out.checks[0].evidence.counterexample
    assert out.verdict is Verdict.REFUTED
    assert ce.description.startswith(f"interp.softmax.exact on {type(layer).__name__}") and "margin" in ce.description
    assert "inputs" in ce.data["values"]["instance"]


def test_a_sublayer_returning_the_wrong_shape_gets_a_clear_error():
    from verify import InputError

    with pytest.raises(InputError, match="attention_layer"):
        check_model("interp.softmax.exact", lambda X, A, V, tau: X[:1])


def test_the_fixture_takes_a_model(verify_claim):
    assert verify_claim("interp.softmax.exact", model=MHASublayer()).passed


def test_hardmax_theorem_on_a_user_sublayer():
    import torch

    from theorems.interpolation.models import ToolkitAttention

    assert check_model("interp.hardmax.exact", ToolkitAttention()).passed

    def softmax_not_hardmax(X, A, V, tau):  # ignores tau=None: a softmax at temperature 1
        return torch.softmax(X @ A @ X.T, dim=-1) @ X @ V.T

    out = check_model("interp.hardmax.exact", softmax_not_hardmax)
    assert out.verdict is Verdict.REFUTED and "margin" in out.checks[0].evidence.counterexample.description


def test_tikhonov_upper_bound_with_a_user_sublayer_in_the_tau1_parametrisation():
    """interp.tikhonov.upper_bound (parts 'tau1_exact', 'bound'): with tau0 = tau_c absorbed into A, the
    construction run with nn.MultiheadAttention at tau = 1 has E = 0 within the float budget, so
    J_eps(theta_dag) <= eps |theta_dag|^2; a broken sublayer gives E > 0."""
    from theorems.interpolation.models import ToolkitAttention

    for layer in (MHASublayer(), ToolkitAttention()):
        out = check_model("interp.tikhonov.upper_bound", layer)
        ev = out.checks[0].evidence
        assert out.verdict is Verdict.CONSISTENT and ev.instances >= 6 and ev.margin_min >= 0
    out = check_model("interp.tikhonov.upper_bound", SoftmaxOverQueries())
    ce = out.checks[0].evidence.counterexample
    assert out.verdict is Verdict.REFUTED and ce.data["sub_check"] == "tau1_exact"
    assert ce.description.startswith("interp.tikhonov.upper_bound on SoftmaxOverQueries") and "margin" in ce.description
    assert ce.data["values"]["instance"]["tau"] > 0

