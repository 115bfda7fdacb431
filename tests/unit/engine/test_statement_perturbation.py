"""Issue 11 acceptance: the statement is what the checks evaluate.

For every claim whose statement is a formula and which is expected to hold (PROVED / CERTIFIED /
CONSISTENT), each perturbation of its statement (a part negated; a constant of an identity scaled by
9/8; :func:`verify.perturbations`) is run through the claim's checks at the quick profile -- no check or
product code touched -- and must be REFUTED.  Claims expected REFUTED or UNKNOWN are reported by
``verify perturb`` but not required here: a refuted (or undecided) statement's negation need not fail.
"""

from __future__ import annotations

import pytest

from verify import Verdict, catalogue
from verify._perturb import perturbation_outcomes
from verify._statement import is_formula

HOLDING = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONSISTENT)
CLAIMS = [c for c in catalogue() if c.expected in HOLDING and is_formula(c.resolved_statement())]


def test_most_claims_expected_to_hold_are_formulas():
    holding = [c for c in catalogue() if c.expected in HOLDING]
    assert len(CLAIMS) >= 0.9 * len(holding), sorted({c.id for c in holding} - {c.id for c in CLAIMS})


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_perturbed_statement_is_refuted(claim):
    outs = perturbation_outcomes(claim, profile="quick")
    assert outs, f"{claim.id}: a formula statement has perturbations"
    missed = [(o.part, o.description, o.verdict.value) for o in outs if not o.refuted]
    assert not missed, f"{claim.id}: perturbed statements not refuted: {missed}"
