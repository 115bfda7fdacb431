"""Every negative control is refuted through the sub-check it declares it targets.

A control is a false variant of ONE quantity; its refutation must come from the comparison about that
quantity.  A DDCL control was once refuted by a low-lambda sub-test that ignored the ``variant``
parameter, so it passed for the wrong reason.  The rule, enforced here and by the runner:

* a check names its sub-checks (``with tally.sub("name"):`` or a :class:`verify.Gate`), so a refutation
  carries ``counterexample.data["sub_check"]``;
* a control declares its target(s) (``Control(..., targets="name")``);
* the runner voids (UNKNOWN) a control refuted by any other sub-check, or by an unnamed one.

Tests here:

* engine unit tests on a toy claim (a sub-test that ignores its variant is caught), cheap;
* ``test_every_control_declares_a_target``: static; a control added without a target fails with what to
  add (:data:`NOT_YET_TARGETED`, the controls that predated the rule, is empty now);
* ``test_control_refuted_through_target[...]``: runs EVERY targeted control of the catalogue at the quick
  profile -- about half the catalogue's time, far above 60 s, so it is marked ``slow`` (``--run-slow``);
* ``test_sample_control_refuted_through_target[...]``: the default-suite sample, a few cheap controls per
  paper.
"""

from __future__ import annotations

import pytest

from verify import (SUB_CHECK, Check, Claim, Control, Gate, Observation, Source, Tally, Verdict, catalogue,
                    derive_seed, explore, get_profile, refuted, run_claim)

# -- the rule on a toy claim ---------------------------------------------------------------------


def _toy(*, seed, profile, variant="statement", lam_ignores_variant=False):
    """Two sub-checks: 'formula' (the variant's target) and 'low_lambda' (about something else)."""
    tally = Tally(precision="exact", backend="python")
    with tally.sub("low_lambda"):
        # a sub-test that ignores the variant would fail under it; a faithful one evaluates the statement
        wrong = lam_ignores_variant and variant != "statement"
        tally.exact(not wrong, counterexample=refuted("low-lambda sub-test failed"))
    with tally.sub("formula"):
        value = 2 if variant == "statement" else 3
        tally.exact(value == 2, counterexample=refuted("formula off", value=value))
    return tally.evidence()


def _toy_claim(*, lam_ignores_variant=False, targets="formula"):
    params = {"lam_ignores_variant": lam_ignores_variant}
    return Claim(
        id="toy.targets.claim", title="toy", source=Source("0000.00000", "here", "§0"), statement="x = 2",
        reading="toy", strength="derived", expected=Verdict.CERTIFIED,
        checks=(Check("exact", _toy, params),),
        controls=(Control("three", "x = 3", Check("exact", _toy, {"variant": "three", **params}),
                          targets=targets),))


def test_sub_tags_the_refutation():
    t = Tally(precision="exact", backend="python")
    with t.sub("outer"):
        t.exact(True)
        with t.sub("inner"):
            t.exact(False, counterexample=refuted("no"))
    ev = t.evidence()
    assert ev.level is Verdict.REFUTED and ev.counterexample.data[SUB_CHECK] == "inner"
    assert t.current_sub is None


def test_named_view_tags_and_shares_the_tally():
    t = Tally(precision="exact", backend="python")
    t.named("a").exact(True)
    t.named("b").le(2, 1, 0.0)
    assert t.instances == 2 and t.evidence().counterexample.data[SUB_CHECK] == "b"
    assert t.current_sub is None


def test_sub_tags_an_explore_counterexample():
    from hypothesis import strategies as st

    t = Tally(precision="exact", backend="python")
    with t.sub("drawn"):
        explore(st.integers(0, 10), lambda n: Observation(Verdict.REFUTED, counterexample=refuted("n"))
                if n > 3 else Observation(Verdict.CERTIFIED), t, seed=1, max_examples=20)
    ce = t.evidence().counterexample
    assert ce.data[SUB_CHECK] == "drawn" and ce.data["instance"] == "4"


def test_gate_names_its_sub_checks():
    g = Gate(Tally(precision="t", backend="t"), "v", {"v": ("a",)})
    g("b").exact(False, counterexample=refuted("b fails"))  # recorded only
    g("a").exact(False, counterexample=refuted("a fails"))
    ev = g.evidence()
    assert ev.counterexample.data[SUB_CHECK] == "a" and ev.details["recorded_only"] == {"b": "REFUTED"}


def test_control_refuted_by_its_target_passes():
    out = run_claim(_toy_claim(), profile="quick")
    assert out.passed, out.failures()
    assert out.controls[0].evidence.counterexample.data[SUB_CHECK] == "formula"


def test_sub_test_ignoring_the_variant_is_caught():
    """The low-lambda sub-test fails under the variant first: the refutation names it, not the target, so
    the runner voids the control (UNKNOWN) and the claim does not pass."""
    out = run_claim(_toy_claim(lam_ignores_variant=True), profile="quick")
    ctl = out.controls[0]
    assert ctl.evidence.level is Verdict.UNKNOWN and not out.passed
    assert "'low_lambda', not by its target(s) ['formula']" in ctl.evidence.notes
    assert ctl.evidence.details["rejected_counterexample"]["data"][SUB_CHECK] == "low_lambda"


def test_unnamed_refutation_of_a_targeted_control_is_void():
    c = _toy_claim().controls[0]
    from verify import Evidence
    ev = Evidence(level=Verdict.REFUTED, instances=1, counterexample=refuted("anonymous"))
    assert "names no sub-check" in c.target_problem(ev)


def test_targets_must_be_names():
    with pytest.raises(Exception, match="targets must be non-empty"):
        Control("c", "d", Check("exact", _toy), targets=("",))
    assert Control("c", "d", Check("exact", _toy), targets="a").targets == ("a",)


# -- the catalogue -------------------------------------------------------------------------------

#: Controls that predate the target rule and are still to be annotated (claim id :: control name).  Every
#: control of the catalogue declares its target now, so the list is empty; it may only ever shrink (a
#: control added to the catalogue must declare its target).
NOT_YET_TARGETED: frozenset[str] = frozenset()

_CATALOGUE = catalogue()
_ALL = [(claim, ctl) for claim in _CATALOGUE for ctl in claim.controls]
_TARGETED = [(claim, ctl) for claim, ctl in _ALL if ctl.targets]

#: the default-suite sample: cheap targeted controls, a few per paper (quick profile, well under a second
#: each)
SAMPLE: tuple[str, ...] = (
    "interp.hardmax.blocks::two_M",
    "interp.hardmax.params::mean_as_bondy",
    "interp.softmax.blocks::two_M",
    "ddcl.dictionary.decomposition::minus_v",
    "ddcl.dictionary.decomposition::off_simplex",
    "ddcl.temperature.sign_laws::F_rises",
    "focus.stage2.focus_direction::threshold_1_over_d_symbolic",
    "focus.stage1.origin_spectrum::G_v_pi",
    "focus.stage2.growth_rate_sign::lambda_squared",
    "ddcl.pruning.safety::r4_witness_half",
    "interp.softmax.exact::gamma_doubled",
)


def _key(claim, ctl) -> str:
    return f"{claim.id}::{ctl.name}"


def test_every_control_declares_a_target():
    missing = [_key(c, k) for c, k in _ALL if not k.targets and _key(c, k) not in NOT_YET_TARGETED]
    # an entry whose control now declares a target must go (a control gone from the catalogue is ignored:
    # claims are renamed concurrently)
    stale = sorted(NOT_YET_TARGETED & {_key(c, k) for c, k in _ALL if k.targets})
    assert not missing, (
        "these controls declare no target sub-check: give each Control(..., targets='<sub-check>') and "
        "record that comparison inside `with tally.sub('<sub-check>'):` (or a verify.Gate) in its check "
        "function, so the runner can tell that the variant, not another comparison, refuted it:\n  "
        + "\n  ".join(missing))
    assert not stale, ("these controls declare a target now; remove them from NOT_YET_TARGETED: "
                       + ", ".join(stale))


def _run_control(claim, ctl):
    """The control as the runner runs it (same seed), with the runner's target rule applied."""
    from verify._runner import _through_target

    seed = derive_seed(0, claim.id, ctl.name)
    ev = _through_target(ctl, ctl.check.run(seed=seed, profile=get_profile("quick")))
    assert ev.level is Verdict.REFUTED, (
        f"{_key(claim, ctl)} not refuted through its target(s) {list(ctl.targets)}: {ev.level}; {ev.notes}")
    sub = ev.counterexample.data.get(SUB_CHECK)
    assert sub in ctl.targets, f"{_key(claim, ctl)}: refuted by {sub!r}, targets {list(ctl.targets)}"


@pytest.mark.slow
@pytest.mark.parametrize("claim,ctl", _TARGETED, ids=[_key(c, k) for c, k in _TARGETED])
def test_control_refuted_through_target(claim, ctl):
    _run_control(claim, ctl)


_SAMPLED = [(c, k) for c, k in _TARGETED if _key(c, k) in SAMPLE]


def test_sample_is_targeted():
    assert {_key(c, k) for c, k in _SAMPLED} == set(SAMPLE), "a SAMPLE entry is not a targeted control"


@pytest.mark.parametrize("claim,ctl", _SAMPLED, ids=[_key(c, k) for c, k in _SAMPLED])
def test_sample_control_refuted_through_target(claim, ctl):
    _run_control(claim, ctl)
