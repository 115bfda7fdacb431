"""Users' models (issue 12): a user's prototype block against the DDCL model-checkable claims, through
verify.check_model, the verify_claim fixture and `verify run --model`; broken variants are caught with
a message naming the claim, the instance and the margin."""

from __future__ import annotations

import pytest
import torch

from examples.ddcl_user_prototype_block import (
    MeanOverFeatures,
    MyBlock,
    SoftmaxOverSamples,
    SumOverSamples,
    TemperatureOnWrongTerm,
)
from verify import Verdict, check_model
from verify._cli import main

CLAIMS = ("ddcl.dictionary.decomposition", "ddcl.dictionary.gradients", "ddcl.separation.critical_temperature",
          "ddcl.lyapunov.free_energy", "ddcl.separation.amplification", "ddcl.pruning.force_kept_with_margin")


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_correct_float32_block_satisfies_the_claims(claim):
    out = check_model(claim, MyBlock())
    assert out.verdict is Verdict.CONSISTENT and out.passed


@pytest.mark.parametrize("block,claim", [(SoftmaxOverSamples(), "ddcl.dictionary.decomposition"),
                                         (SoftmaxOverSamples(), "ddcl.dictionary.gradients"),
                                         (TemperatureOnWrongTerm(), "ddcl.dictionary.gradients"),
                                         (TemperatureOnWrongTerm(), "ddcl.separation.critical_temperature"),
                                         (SumOverSamples(), "ddcl.lyapunov.free_energy"),
                                         (MeanOverFeatures(), "ddcl.separation.amplification"),
                                         (TemperatureOnWrongTerm(), "ddcl.pruning.force_kept_with_margin"),
                                         (MeanOverFeatures(), "ddcl.pruning.force_kept_with_margin")])
def test_broken_blocks_are_caught_with_claim_instance_and_margin(block, claim):
    out = check_model(claim, block)
    assert out.verdict is Verdict.REFUTED and not out.passed
    ce = out.checks[0].evidence.counterexample
    assert ce.description.startswith(f"{claim} on {type(block).__name__}")
    assert "margin" in ce.description
    assert "Z" in ce.data["values"]["instance"]


def test_the_fixture_takes_a_model(verify_claim):
    assert verify_claim("ddcl.dictionary.gradients", model=MyBlock()).passed
    assert not verify_claim("ddcl.dictionary.gradients", model=TemperatureOnWrongTerm()).passed


def test_the_cli_takes_a_model(capsys):
    assert main(["run", "ddcl.dictionary.gradients", "--model",
                 "examples.ddcl_user_prototype_block:MyBlock", "--no-progress"]) == 0
    assert main(["run", "ddcl.dictionary.gradients", "--model",
                 "examples.ddcl_user_prototype_block:TemperatureOnWrongTerm", "--no-progress"]) == 1
    assert "on TemperatureOnWrongTerm" in capsys.readouterr().out
    assert main(["list", "--model-checkable"]) == 0
    assert "ddcl.dictionary.gradients" in capsys.readouterr().out


def test_a_model_missing_a_member_gets_an_error_naming_it():
    from verify import InputTypeError

    class NoLoss:
        tau = 1.0

        def assignments(self, Z, P):
            return torch.softmax(-torch.cdist(Z, P), dim=1)

    with pytest.raises(InputTypeError, match="missing 'loss'"):
        check_model("ddcl.dictionary.gradients", NoLoss())
    class NoSecondDerivative(MyBlock):
        def _sqdist(self, Z, P):
            return torch.cdist(Z, P) ** 2

    with pytest.raises(InputTypeError.__mro__[1], match="twice differentiable"):
        check_model("ddcl.separation.critical_temperature", NoSecondDerivative())
    with pytest.raises(Exception, match="model-checkable"):
        check_model("ddcl.separation.unconditional", MyBlock())


def test_free_energy_descent_on_the_toolkit_block_records_its_budget():
    from theorems.ddcl_incrt.models import ToolkitBlock

    out = check_model("ddcl.lyapunov.free_energy", ToolkitBlock())
    ev = out.checks[0].evidence
    assert out.passed and ev.instances >= 6
    assert ev.details["eta"] == 0.5 and ev.details["worst_rise_over_tolerance"] <= 1.0
    # the reduction bug is caught at its first rise: the counterexample is the step pair, on the statement part
    ce = check_model("ddcl.lyapunov.free_energy", SumOverSamples()).checks[0].evidence.counterexample
    assert ce.data["sub_check"] == "descent"
    vals = ce.data["values"]
    assert vals["F_rel_next"] > vals["F_rel_prev"] and vals["instance"]["eta"] == 0.5


def test_temperature_sign_laws_on_a_user_block():
    """ddcl.temperature.sign_laws through autograd in model.tau: the float32 block satisfies the four parts;
    a temperature on the wrong term makes L_q fall as tau rises (part dLq_sign)."""
    from theorems.ddcl_incrt.models import ToolkitBlock

    for block in (MyBlock(), ToolkitBlock()):
        out = check_model("ddcl.temperature.sign_laws", block)
        ev = out.checks[0].evidence
        assert out.verdict is Verdict.CONSISTENT and ev.instances == 4 * 12
        assert isinstance(block.tau, float)  # restored after the check
    ce = check_model("ddcl.temperature.sign_laws", TemperatureOnWrongTerm()).checks[0].evidence.counterexample
    assert ce.data["sub_check"] == "dLq_sign" and "margin" in ce.description


def test_a_block_that_freezes_tau_gets_an_error_naming_it():
    from verify import InputError

    class FrozenTau(MyBlock):
        def assignments(self, Z, P):
            return torch.softmax(-self._sqdist(Z, P) / float(self.tau), dim=1)

    with pytest.raises(InputError, match="model.tau"):
        check_model("ddcl.temperature.sign_laws", FrozenTau())


def test_amplification_on_a_user_block_reads_both_hessians():
    """ddcl.separation.amplification (seed Theorem 2, M-cat): the unstable counts of the block's Hessian at
    collapse on Y and on [Y, O]; some pairs raise the count (the check is not comparing a count with
    itself), none is undecided for a correct block; a distance averaged over the features lowers it."""
    from theorems.ddcl_incrt.models import ToolkitBlock

    for block in (MyBlock(), ToolkitBlock()):
        ev = check_model("ddcl.separation.amplification", block).checks[0].evidence
        assert ev.level is Verdict.CONSISTENT and ev.instances >= 8
        assert ev.details["pairs_with_a_raised_count"] >= 1 and ev.details["undecided_pairs"] == 0
        assert isinstance(block.tau, float)  # restored after the check
    ce = check_model("ddcl.separation.amplification", MeanOverFeatures()).checks[0].evidence.counterexample
    vals = ce.data["values"]
    assert ce.data["sub_check"] == "count" and vals[r"n(C_{\mathrm{new}})"] < vals["n(C)"]
    assert {"Z", "O", "tau"} <= set(vals["instance"])


def test_pruning_margin_on_a_user_block_exercises_the_premise():
    """ddcl.pruning.force_kept_with_margin (seed Theorem 6, repaired): the premise (margin above R2's bound)
    is met on some instances (the pinned witness among them) and the pruned Hessian keeps the modes; a check
    whose premise is never met is UNKNOWN, never a pass."""
    from theorems.ddcl_incrt.models import ToolkitBlock

    ev = check_model("ddcl.pruning.force_kept_with_margin", ToolkitBlock()).checks[0].evidence
    assert ev.level is Verdict.CONSISTENT and ev.details["premise_met"] >= 2
    assert ev.details["undecided_instances"] == 0
    ce = check_model("ddcl.pruning.force_kept_with_margin",
                     TemperatureOnWrongTerm()).checks[0].evidence.counterexample
    assert ce.data["sub_check"] == "margin_count" and ce.data["values"]["n_u_sub"] < ce.data["values"]["j"]


def test_pruning_margin_without_a_met_premise_is_unknown(monkeypatch):
    import sympy as sp

    import verify._evaluate as ev_mod

    decide = ev_mod.decide
    # the premise (a strict inequality) never met; the statement's implication itself decided as before
    monkeypatch.setattr(ev_mod, "decide", lambda expr, values, tol=None: (False, -1.0, None)
                        if isinstance(expr, sp.StrictGreaterThan) else decide(expr, values, tol))
    out = check_model("ddcl.pruning.force_kept_with_margin", MyBlock())
    assert out.verdict is Verdict.UNKNOWN and not out.passed
    assert "margin condition" in str(out.checks[0].evidence.notes)


def test_the_cli_runs_the_new_model_checks(capsys):
    spec = "examples.ddcl_user_prototype_block:"
    assert main(["run", "ddcl.separation.amplification", "--model", spec + "MyBlock", "--no-progress"]) == 0
    assert main(["run", "ddcl.separation.amplification", "--model", spec + "MeanOverFeatures",
                 "--no-progress"]) == 1
    assert main(["run", "ddcl.pruning.force_kept_with_margin", "--model", spec + "TemperatureOnWrongTerm",
                 "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "on MeanOverFeatures" in out and "on TemperatureOnWrongTerm" in out
    assert main(["list", "--model-checkable"]) == 0
    listed = capsys.readouterr().out
    assert "ddcl.separation.amplification" in listed and "ddcl.pruning.force_kept_with_margin" in listed


@pytest.mark.parametrize("block", ["MyBlock", "ToolkitBlock"])
def test_a_trained_user_dictionary_beats_m_over_d_and_keeps_nothing_once_collapsed(block):
    """ddcl.mlp_vs_dictionary.trained (seed Theorem 4, R2) on a user's block: the quick hypotheses (N = 300,
    1500 steps, 2 seeds x 2 modes, collapse runs) trained in one batched program; every seed wins in both
    modes, every collapse run empties its span before the 3000-step budget."""
    from theorems.ddcl_incrt.models import ToolkitBlock

    model = MyBlock() if block == "MyBlock" else ToolkitBlock()
    tau0 = model.tau
    ev = check_model("ddcl.mlp_vs_dictionary.trained", model).checks[0].evidence
    assert ev.level is Verdict.CONSISTENT and ev.details["batched"] is True
    assert ev.details["N"] == 300 and ev.details["steps"] == 1500 and ev.details["runs"] == 8
    for mode in ("full", "stopgrad"):
        assert ev.details[mode]["wins"] == 2
        # the span nears the top-3 eigenspace: DI within 10 % of Ky Fan S_3 / tr C = 7 / 8.15 (random: 3/8)
        assert all(m == 3 and 0.9 * 7 / 8.15 < di < 7 / 8.15 for m, di in ev.details[mode]["(m, DI)"])
        assert all(100 <= s < 3000 for s in ev.details[mode]["collapse steps"])
    assert model.tau == tau0 and isinstance(model.tau, float)  # restored after the check


@pytest.mark.parametrize("block", [TemperatureOnWrongTerm(), SoftmaxOverSamples()])
def test_broken_blocks_fail_the_trained_dictionary_claim(block):
    """A temperature on the wrong term (or a softmax over the samples) does not collapse at 6/5 tau_c: the
    collapsed dictionary keeps variance (part collapsed_DI), named with claim, instance and margin."""
    claim = "ddcl.mlp_vs_dictionary.trained"
    out = check_model(claim, block)
    assert out.verdict is Verdict.REFUTED and not out.passed
    ce = out.checks[0].evidence.counterexample
    assert ce.description.startswith(f"{claim} on {type(block).__name__}") and "margin" in ce.description
    assert ce.data["sub_check"] == "collapsed_DI"
    vals = ce.data["values"]
    assert vals[r"\mathrm{DI}_0"] > 0 and {"seed", "N", "spectrum", "tau", "steps"} <= set(vals["instance"])


def _short_runs(model, steps=40):
    import numpy as np

    from theorems.ddcl_incrt._model_common import _dtype
    from theorems.ddcl_incrt._model_training import Run

    dtype, rng, runs = _dtype(model), np.random.default_rng(3), []
    for k, (mode, tau) in enumerate([("full", 1.0), ("stopgrad", 1.0), ("full", 3.0), ("stopgrad", 0.5)]):
        Z = torch.tensor(rng.normal(size=(12 + 3 * (k == 3), 3)) * [2.0, 1.0, 0.5], dtype=dtype)
        P = torch.tensor(rng.normal(size=(3, 3)) * 0.1, dtype=dtype)
        runs.append(Run(Z, P, tau, mode, steps - 7 * k))
    # one run with a collapse test that fires at step 10
    runs.append(Run(runs[0].Z, runs[0].P, 1.0, "full", steps, 10, lambda P: True))
    return runs


def test_the_batched_program_takes_the_sequential_steps():
    """train_batched (autograd through vmap, runs of different data, temperatures, modes and budgets; a
    collapse test) ends where train_sequential ends, run by run, up to reduction order (last bits)."""
    from theorems.ddcl_incrt._model_training import train_batched, train_sequential

    model = MyBlock()
    runs = _short_runs(model)
    seq = train_sequential(model, runs, 0.05)
    for how in ("grad_vmap", "vmap_grad"):
        bat = train_batched(model, runs, 0.05, how)
        assert [s for _, s in bat] == [s for _, s in seq] == [40, 33, 26, 19, 10]
        for (Pb, _), (Ps, _), r in zip(bat, seq, runs):
            assert not torch.equal(Ps, r.P)
            torch.testing.assert_close(Pb, Ps, rtol=0, atol=8 * 40 * torch.finfo(torch.float32).eps)


def test_a_block_vmap_cannot_trace_is_trained_run_by_run():
    """A block that reads its temperature as a Python float cannot be vmapped over tau: the runs fall back to
    the sequential loop (details batched False with the reason) and train the same."""
    from theorems.ddcl_incrt._model_checks_training import _train
    from theorems.ddcl_incrt._model_training import train_sequential

    class FloatTau(MyBlock):
        def assignments(self, Z, P):
            return torch.softmax(-self._sqdist(Z, P) / float(self.tau), dim=1)

    model = FloatTau()
    runs = _short_runs(model)
    out, how = _train(model, runs)
    assert how["batched"] is False and "batched_failure" in how
    for (P, s), (Ps, ss) in zip(out, train_sequential(model, runs, 0.05)):
        assert s == ss and torch.equal(P, Ps)
    assert _train(MyBlock(), runs)[1] == {"batched": True}


def test_a_diverging_training_is_refuted_not_a_nan_verdict():
    """A loss scaled by 1e3 (a step 1e3 times too long for eta = 0.05) diverges to non-finite prototypes:
    DI is undefined, no seed wins and the collapse part is refuted naming the divergence."""

    class Scaled(MyBlock):
        def loss(self, Z, P):
            return 1e3 * super().loss(Z, P)

    ce = check_model("ddcl.mlp_vs_dictionary.trained", Scaled()).checks[0].evidence.counterexample
    assert ce.data["sub_check"] == "collapsed_DI" and "training diverged" in ce.description
    assert "margin" in ce.description and {"seed", "tau", "steps"} <= set(ce.data["values"]["instance"])


def test_a_refuted_user_model_is_a_finding_about_the_model_and_its_report_reads_back(tmp_path, capsys):
    """REFUTED on a user's model says the model does not behave as the claim says -- never 'the source's
    statement does not hold' nor 'where a reading stops' (the claim's strength is about the source) --
    and the JSON report of a model run validates and reads back (it has no controls)."""
    from verify._report import from_json, refuted_summary, validate

    spec = "examples.ddcl_user_prototype_block:"
    path = tmp_path / "model.json"
    assert main(["run", "ddcl.separation.amplification", "--model", spec + "MeanOverFeatures",
                 "--no-progress", "--json", str(path)]) == 1
    out = capsys.readouterr().out
    assert "on a user's model" in out and "boundary" not in out and "source's statement" not in out
    import json

    obj = json.loads(path.read_text())
    validate(obj)
    assert obj["claims"][0]["model"] == "MeanOverFeatures"
    assert obj["summary"]["refuted_model"] == 1
    assert (obj["summary"]["refuted_source"], obj["summary"]["refuted_boundary"]) == (0, 0)
    res = from_json(obj)
    (o,) = res.outcomes
    assert o.refuted_model and not o.refuted_source and not o.refuted_boundary
    assert "user's model" in refuted_summary(res)
    assert main(["report", str(path)]) in (0, 1)
    obj["summary"]["refuted_model"] = 0
    with pytest.raises(ValueError, match="refuted_model"):
        validate(obj)
