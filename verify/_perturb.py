"""The statement is what the checks evaluate: run a claim's checks on false variants of its statement.

:func:`perturbation_outcomes` replaces the claim's statement by each of
:func:`verify.perturbations` (a part negated, a constant of an identity scaled by 9/8), runs the
claim's *checks* (no controls, no derivation, no change to any check or product code) and reports the
verdict.  A check that evaluates the claim's own statement on observables refutes every variant; one
that restates the formula inline does not notice them.  ``verify perturb ID`` prints the table;
``tests/unit/engine/test_statement_perturbation.py`` requires REFUTED for every formula claim that
is expected to hold.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ._claim import Claim
from ._statement import perturbations
from ._verdict import Verdict

__all__ = ["PerturbationOutcome", "perturbation_outcomes"]


@dataclass(frozen=True)
class PerturbationOutcome:
    claim_id: str
    description: str
    part: str | None
    verdict: Verdict
    sub_check: str | None
    wall_time: float

    @property
    def refuted(self) -> bool:
        return self.verdict is Verdict.REFUTED


def perturbation_outcomes(claim: Claim, *, profile: str = "quick", seed: int = 0,
                          workers: int = 1) -> list[PerturbationOutcome]:
    """Run ``claim``'s checks once per perturbation of its statement (empty if it is no formula)."""
    from ._runner import run_claims

    variants = perturbations(claim.resolved_statement())
    if not variants:
        return []
    claims = [replace(claim, id=f"{claim.id}.perturbed_{k}", statement=st, controls=(), derivation=(),
                      uses=())
              for k, (_, _, st) in enumerate(variants)]
    # the checks read the statement through statement_of(<original id>): run each variant under the
    # original id, one at a time, so the runner ships that variant with every task
    out = []
    for (desc, part, st), c in zip(variants, claims):
        res = run_claims([replace(c, id=claim.id)], profile=profile, seed=seed, workers=workers)
        o = res.outcomes[0]
        sub = None
        for ch in o.checks:
            ce = ch.evidence.counterexample
            if ce is not None:
                sub = ce.data.get("sub_check") or ch.name
                break
        out.append(PerturbationOutcome(claim.id, desc, part, o.verdict, sub, res.wall_time))
    return out
