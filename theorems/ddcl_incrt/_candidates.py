"""Undetermined seed sentences: run every candidate reading's decisive check and report them all.

Shared by :mod:`._checks_faithful` (objective alone, temperature, MLP) and
:mod:`._checks_faithful_growth` (Lyapunov), which each hold their own candidate tables.
"""

from __future__ import annotations

from verify import Evidence, Profile, Verdict, refuted

__all__ = ["run_candidates"]

_CANDIDATE_CACHE: dict[tuple, Evidence] = {}


def run_candidates(which: str, candidates, *, seed: int, profile: Profile,
                   variant: str = "statement") -> Evidence:
    """Run each candidate reading's decisive check (the same functions and arguments as the candidate
    claims, at this check's ``seed``: the candidate claims' own seed where the claim declares it with
    ``Check.seed_of``, as ddcl.temperature.scale_specialisation does).  ``variant="statement"``: the
    seed's reading is undetermined, so the verdict is UNKNOWN with the candidates' verdicts in
    ``details`` (UNKNOWN too when a candidate fails to give a verdict).  ``variant="determined"`` (control): "the reading is determined: all candidate readings
    agree", REFUTED when two candidates reach opposite definite verdicts (one holds, one refuted)."""
    from verify import get_profile

    # the candidates run at the profile, capped at ci: their thorough sweeps are their own claims' runs
    # (the headline needs their verdicts, not a second copy of the sweep); one run per (which,
    # candidate, seed, profile) per process: the control takes the check's seed (Check.seed_of), so in
    # one process the control re-reads the check's candidate runs
    cand_profile = get_profile("ci") if profile.name == "thorough" else profile
    verdicts: dict[str, str] = {}
    evs: dict[str, Evidence] = {}
    holds, refutes = [], []
    for name, fn, kw in candidates:
        key = (which, name, seed, cand_profile.name)
        if key not in _CANDIDATE_CACHE:
            _CANDIDATE_CACHE[key] = fn(seed=seed, profile=cand_profile, **kw)
        ev = evs[name] = _CANDIDATE_CACHE[key]
        verdicts[name] = ev.level.name
        if ev.level is Verdict.REFUTED:
            refutes.append(name)
        elif ev.level.holds:
            holds.append(name)
    details = {"candidates": verdicts, "hold": holds, "refuted": refutes,
               "candidate_profile": cand_profile.name}
    if variant == "determined":
        if holds and refutes:
            return Evidence(Verdict.REFUTED, instances=len(verdicts), details=details, seeds=(seed,),
                            counterexample=refuted(
                                f"the candidate readings disagree: {', '.join(holds)} hold(s), "
                                f"{', '.join(refutes)} refuted", candidates=verdicts,
                                sub_check="candidates_agree"),
                            notes="candidates disagree, so the seed's sentence has no single reading")
        return Evidence(Verdict.UNKNOWN, instances=len(verdicts), details=details, seeds=(seed,),
                        notes="the candidates did not reach opposite definite verdicts")
    # the readings decide the verdict only when they agree: all hold -> the weakest of their levels,
    # all refuted -> REFUTED; a split (or a candidate without a verdict) -> UNKNOWN
    if holds and not refutes and len(holds) == len(verdicts):
        level = min((evs[n].level for n in holds), key=lambda v: v.strength)
        return Evidence(level, instances=len(verdicts), details=details, seeds=(seed,),
                        notes="every candidate reading holds: the reading does not matter")
    if refutes and not holds and len(refutes) == len(verdicts):
        return Evidence(Verdict.REFUTED, instances=len(verdicts), details=details, seeds=(seed,),
                        counterexample=evs[refutes[0]].counterexample,
                        notes="every candidate reading is refuted")
    note = ("the seed's reading is undetermined: " + "; ".join(f"{k}: {v}" for k, v in verdicts.items()))
    return Evidence(Verdict.UNKNOWN, instances=len(verdicts), details=details, seeds=(seed,), notes=note)
