"""The ddcl claims' checked derivations: every step is PROVED by sympy (CONSISTENT by 50-digit spot
checks where a step uses Max), and the decomposition and dL_q/dtau chains conclude their statement parts."""

from __future__ import annotations

import pytest

from verify import Verdict
from verify._derivation import check_derivation


@pytest.mark.parametrize("claim_id, level", [
    ("ddcl.dictionary.decomposition", Verdict.PROVED),
    ("ddcl.dictionary.gradients", Verdict.PROVED),
    ("ddcl.separation.critical_temperature", Verdict.PROVED),
    ("ddcl.separation.amplification", Verdict.CONSISTENT),
    ("ddcl.temperature.sign_laws", Verdict.PROVED),
    ("ddcl.mlp_vs_dictionary", Verdict.PROVED),
])
def test_derivation_steps_hold(claim_id, level):
    from verify._registry import catalogue

    claim = catalogue().get(claim_id)
    ev = check_derivation(claim.resolved_derivation(), claim.resolved_statement())
    assert ev.level is level, ev.details["steps"]
    if claim_id in ("ddcl.dictionary.decomposition", "ddcl.dictionary.gradients"):
        assert ev.details["steps"][-1]["label"].startswith("concludes")
        assert ev.details["steps"][-1]["status"] == "PROVED"


def test_a_broken_step_is_refuted():
    import dataclasses

    import sympy as sp

    from verify import Derivation
    from verify._registry import catalogue

    claim = catalogue().get("ddcl.dictionary.decomposition")
    der = claim.resolved_derivation()
    steps = list(der.steps)
    i = next(k for k, s in enumerate(steps) if s.label.startswith("expand"))
    steps[i] = dataclasses.replace(steps[i], expr=steps[i].expr + sp.Symbol("z", real=True) ** 2 / 8)
    ev = check_derivation(Derivation(*steps, concludes=der.concludes), claim.resolved_statement())
    assert ev.level is Verdict.REFUTED
