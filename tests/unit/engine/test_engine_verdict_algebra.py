"""Properties of the verdict algebra (hypothesis): ``combine`` and the claim verdict against roles.

``combine`` is a meet on PROVED > CERTIFIED > CONSISTENT > UNKNOWN with REFUTED absorbing: commutative,
associative (on non-empty parts), idempotent, never stronger than any input, UNKNOWN for nothing.
``claim_verdict`` is REFUTED if any check (decisive or corroborating) refutes, else ``combine`` of the
decisive levels; controls never enter it.  The last property runs real claims through ``run_claim``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verify import Check, CheckOutcome, Claim, Control, Evidence, Source, Verdict, claim_verdict, combine, refuted
from verify import run_claim

verdicts = st.sampled_from(list(Verdict))
lists = st.lists(verdicts, max_size=8)
nonempty = st.lists(verdicts, min_size=1, max_size=8)
roles = st.sampled_from(["decisive", "corroborating"])


def _ev(v: Verdict) -> Evidence:
    return Evidence(v, instances=1, counterexample=refuted("r") if v is Verdict.REFUTED else None)


def _outcome(k: int, v: Verdict, role: str, kind: str = "check") -> CheckOutcome:
    return CheckOutcome(f"c{k}", kind, role if kind == "check" else "control", "", "t", 0, _ev(v))


def model(pairs):
    """The rule as stated in the README, written independently of the engine."""
    if any(v is Verdict.REFUTED for v, _ in pairs):
        return Verdict.REFUTED
    decisive = [v for v, r in pairs if r == "decisive"]
    if not decisive:
        return Verdict.UNKNOWN
    order = [Verdict.UNKNOWN, Verdict.CONSISTENT, Verdict.CERTIFIED, Verdict.PROVED]
    return min(decisive, key=order.index)


@given(nonempty, st.randoms())
def test_combine_is_commutative(vs, rnd):
    """combine does not depend on the order of its inputs."""
    shuffled = list(vs)
    rnd.shuffle(shuffled)
    assert combine(shuffled) is combine(vs)


@given(nonempty, nonempty)
def test_combine_is_associative(a, b):
    """combine of the parts' combinations equals combine of the whole (non-empty parts)."""
    assert combine([combine(a), combine(b)]) is combine(a + b)


@given(verdicts, lists)
def test_combine_is_idempotent(v, vs):
    """combine([v, v]) is v, and repeating the inputs changes nothing."""
    assert combine([v, v]) is v and combine([v]) is v
    assert combine(vs + vs) is combine(vs)


@given(lists)
def test_refuted_is_absorbing(vs):
    """Adding one REFUTED makes anything REFUTED."""
    assert combine(vs + [Verdict.REFUTED]) is Verdict.REFUTED
    assert combine([Verdict.REFUTED] + vs) is Verdict.REFUTED


@given(nonempty)
def test_combine_is_never_stronger_than_an_input(vs):
    """The result is one of the inputs and no stronger than any of them (UNKNOWN is never lifted)."""
    out = combine(vs)
    assert out in vs
    assert all(out.strength <= v.strength for v in vs)
    if Verdict.UNKNOWN in vs:
        assert out in (Verdict.UNKNOWN, Verdict.REFUTED)


def test_combine_of_nothing_is_unknown():
    """No evidence is UNKNOWN."""
    assert combine([]) is Verdict.UNKNOWN
    assert combine(iter(())) is Verdict.UNKNOWN


@given(st.lists(st.tuples(verdicts, roles), max_size=6), st.lists(verdicts, max_size=3))
def test_claim_verdict_against_roles(pairs, control_levels):
    """claim_verdict: any refutation refutes; else the weakest decisive level; controls are ignored."""
    checks = [_outcome(k, v, r) for k, (v, r) in enumerate(pairs)]
    controls = [_outcome(100 + k, v, "", kind="control") for k, v in enumerate(control_levels)]
    assert claim_verdict(checks + controls) is model(pairs)
    decisive = [v for v, r in pairs if r == "decisive"]
    out = claim_verdict(checks)
    if decisive and out is not Verdict.REFUTED:
        assert out is combine(decisive)


@given(st.lists(st.tuples(verdicts, roles), max_size=5), verdicts)
def test_adding_a_corroborating_check_never_lowers_or_raises(pairs, extra):
    """A corroborating check changes the verdict only by refuting it."""
    checks = [_outcome(k, v, r) for k, (v, r) in enumerate(pairs)]
    before = claim_verdict(checks)
    after = claim_verdict(checks + [_outcome(99, extra, "corroborating")])
    assert after is (Verdict.REFUTED if extra is Verdict.REFUTED else before)


def at_level(*, seed, profile, level):
    v = Verdict.parse(level)
    return _ev(v)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(verdicts, roles), min_size=1, max_size=4).filter(
    lambda ps: any(r == "decisive" for _, r in ps)), verdicts)
def test_run_claim_verdict_matches_the_rule(pairs, control_level):
    """The same rule through real Claim/Check/Control objects and run_claim; the claim passes exactly
    when the verdict is the expected one, the control is REFUTED and no corroborating check is UNKNOWN
    (none of these declares a reason, rule (o) of test_engine_rules.py)."""
    expected = model(pairs)
    claim = Claim(id="alg.claim", title="t", source=Source("0000.00000", "T", "§"), statement="s",
                  reading="r",
                  checks=tuple(Check(f"c{k}", at_level, {"level": v.value}, role=r)
                               for k, (v, r) in enumerate(pairs)),
                  controls=(Control("ctrl", "false", Check("ctrl", at_level, {"level": control_level.value})),),
                  expected=expected, strength="derived")
    o = run_claim(claim)
    assert o.verdict is expected
    undecided = any(v is Verdict.UNKNOWN and r == "corroborating" for v, r in pairs)
    assert o.passed is (control_level is Verdict.REFUTED and not undecided)
