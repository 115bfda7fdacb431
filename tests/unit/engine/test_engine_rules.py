"""The engine's trust rules, each pinned through real Claim / Check / Control objects and the runner.

Every test names the rule it pins; ``tests/mutation/catalogue_engine.py`` holds a mutation per rule that
this file must kill.  The rules (README "Verdicts", docs/architecture.md):

(a) a control passes only when its check returns REFUTED: UNKNOWN, a level that holds, or a raising
    check all fail it;
(b) a corroborating check's refutation refutes the claim;
(c) the claim's verdict is the weakest level of its decisive checks; corroborating checks never lower
    (nor raise) it;
(d) an undecided ball (``Tri.UNKNOWN`` through ``Tally.ball``) stays UNKNOWN through
    ``Tally.evidence()`` and through the claim verdict;
(e) a raising check is UNKNOWN, with its traceback in the evidence details;
(f) no evidence at all (an empty tally, no decisive check) is UNKNOWN;
(g) ``level_cap`` lowers a level that holds to the cap, and never raises one;
(h) a NaN in a float comparison (``Tally.close`` / ``Tally.le``) is UNKNOWN, never a pass;
(i) interruption: a run stopped by KeyboardInterrupt reports only complete claims, is marked
    interrupted and never passes; ``verify run`` then exits 130;
(j) exit codes: 0 all at their expected verdict, 1 otherwise, 4 usage, 5 nothing matched;
((k)-(n) are the command's guard rails, in test_engine_cli_trust.py)
(o) a corroborating check that comes out UNKNOWN fails its claim unless the check declares why it may be
    inconclusive at the run's profile (``Check(inconclusive=...)``); the declared reason travels with the
    outcome (reports, shards, worker processes), and only a corroborating check may declare one.
"""

from __future__ import annotations

import json
import math
import sys
import textwrap

import pytest

from numerics.precision import Tri
from verify import (
    Check,
    Claim,
    Control,
    Evidence,
    SerialExecutor,
    Source,
    Tally,
    Verdict,
    claim_verdict,
    refuted,
    run_claim,
    run_claims,
)
from verify._errors import CheckError
from verify._cli import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NO_MATCH, EXIT_OK, EXIT_USAGE, main

HOLDING = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONSISTENT)


# -- module-level check functions (pickle by reference, as the runner requires) -------------------
def at_level(*, seed, profile, level="CERTIFIED"):
    v = Verdict.parse(level)
    return Evidence(v, instances=1, seeds=(seed,),
                    counterexample=refuted("pinned refutation", margin=-1.0) if v is Verdict.REFUTED else None)


def raises(*, seed, profile):
    raise RuntimeError("boom in the check")


def ball_check(*, seed, profile, decision="UNKNOWN", others=2):
    t = Tally(precision="arb 128 bits", backend="python-flint")
    for _ in range(others):
        t.ball(Tri.TRUE, margin=0.5)
    t.ball(Tri[decision], margin=0.0)
    return t.evidence()


def nan_check(*, seed, profile, how="close"):
    t = Tally(precision="float64", backend="numpy", tolerance=1e-12)
    t.close(1.0, 1.0, 1e-12)
    if how == "close":
        t.close(math.nan, 1.0, 1e-12)
    else:
        t.le(math.nan, 1.0, 1e-12)
    return t.evidence()


def interrupts(*, seed, profile):
    raise KeyboardInterrupt


def _src():
    return Source("0000.00000", "Thm 1", "§1")


def make_claim(cid, checks, controls=None, expected=Verdict.CERTIFIED):
    """checks: (name, fn, params, role) tuples; controls default to one REFUTED control."""
    if controls is None:
        controls = (Control("ctrl", "false variant", Check("ctrl", at_level, {"level": "REFUTED"})),)
    return Claim(id=cid, title=cid, source=_src(), statement="s", reading="r",
                 checks=tuple(Check(n, fn, p, role=r) for n, fn, p, r in checks),
                 controls=controls, expected=expected, strength="derived")


def lvl(level, role="decisive", name=None):
    return (name or f"{role}_{level.lower()}", at_level, {"level": level}, role)


def ctrl(fn, **params):
    return (Control("ctrl", "false variant", Check("ctrl", fn, params)),)


# -- (a) controls ----------------------------------------------------------------------------------
def test_control_passes_on_refuted():
    """Rule (a): a control whose check returns REFUTED passes, and the claim passes."""
    o = run_claim(make_claim("rules.a.ok", [lvl("CERTIFIED")]))
    assert o.controls[0].passed is True and o.controls_refuted is True
    assert o.passed is True


@pytest.mark.parametrize("level", ["PROVED", "CERTIFIED", "CONSISTENT", "UNKNOWN"])
def test_control_fails_unless_refuted(level):
    """Rule (a): a control at any level other than REFUTED (UNKNOWN included) fails, and so does the claim."""
    o = run_claim(make_claim("rules.a.bad", [lvl("CERTIFIED")], controls=ctrl(at_level, level=level)))
    assert o.verdict is Verdict.CERTIFIED
    assert o.controls[0].passed is False and o.controls_refuted is False
    assert o.passed is False
    assert any("was not refuted" in f for f in o.failures())


def test_raising_control_fails():
    """Rule (a)+(e): a control whose check raises is UNKNOWN, which fails the control and the claim."""
    o = run_claim(make_claim("rules.a.raise", [lvl("CERTIFIED")], controls=ctrl(raises)))
    assert o.controls[0].evidence.level is Verdict.UNKNOWN
    assert o.controls[0].passed is False and o.passed is False


# -- (b) corroborating refutation ----------------------------------------------------------------
def test_corroborating_refutation_refutes_the_claim():
    """Rule (b): a corroborating check's refutation refutes the claim (its counterexample is reported)."""
    o = run_claim(make_claim("rules.b", [lvl("PROVED"), lvl("REFUTED", "corroborating")]))
    assert o.verdict is Verdict.REFUTED and o.passed is False
    assert o.counterexample is not None and o.counterexample.description == "pinned refutation"


def test_decisive_refutation_refutes_the_claim():
    """Rule (b), decisive side: a decisive refutation refutes whatever the other checks say."""
    o = run_claim(make_claim("rules.b2", [lvl("PROVED"), lvl("REFUTED")], expected=Verdict.REFUTED))
    assert o.verdict is Verdict.REFUTED and o.passed is True


# -- (c) weakest decisive level -------------------------------------------------------------------
@pytest.mark.parametrize("decisive, expected", [
    (["PROVED", "CERTIFIED"], Verdict.CERTIFIED),
    (["PROVED", "CONSISTENT", "CERTIFIED"], Verdict.CONSISTENT),
    (["CERTIFIED", "UNKNOWN"], Verdict.UNKNOWN),
    (["PROVED"], Verdict.PROVED),
])
def test_claim_verdict_is_weakest_decisive_level(decisive, expected):
    """Rule (c): the claim's verdict is the weakest of its decisive checks' levels."""
    checks = [lvl(v, name=f"d{k}") for k, v in enumerate(decisive)]
    o = run_claim(make_claim("rules.c", checks, expected=expected))
    assert o.verdict is expected and o.passed is True


@pytest.mark.parametrize("corro", ["CONSISTENT", "UNKNOWN", "PROVED"])
def test_corroborating_checks_never_change_the_level(corro):
    """Rule (c): a corroborating check that does not refute neither lowers nor raises the level (an
    UNKNOWN one fails the claim through rule (o) instead, not through its verdict)."""
    o = run_claim(make_claim("rules.c2", [lvl("CERTIFIED"), lvl(corro, "corroborating")]))
    assert o.verdict is Verdict.CERTIFIED
    assert o.passed is (corro != "UNKNOWN")


# -- (d) an undecided ball -------------------------------------------------------------------------
def test_undecided_ball_stays_unknown_in_the_tally():
    """Rule (d): Tally.ball(Tri.UNKNOWN) records UNKNOWN and Tally.evidence() stays UNKNOWN."""
    t = Tally(precision="arb", backend="flint")
    assert t.ball(Tri.UNKNOWN).level is Verdict.UNKNOWN
    assert t.evidence().level is Verdict.UNKNOWN
    t.ball(Tri.TRUE)
    assert t.evidence().level is Verdict.UNKNOWN
    assert t.evidence(level_cap=Verdict.CONSISTENT).level is Verdict.UNKNOWN
    assert Tally(precision="arb", backend="flint").ball(Tri.TRUE).level is Verdict.CERTIFIED
    with pytest.raises(TypeError):
        Tally(precision="arb", backend="flint").ball(True)


def test_undecided_ball_stays_unknown_through_the_claim():
    """Rule (d): a decisive check with one undecided ball makes the claim UNKNOWN: never a pass of
    CERTIFIED, never a refutation."""
    o = run_claim(make_claim("rules.d", [("ball", ball_check, {}, "decisive")]))
    assert o.checks[0].evidence.level is Verdict.UNKNOWN
    assert o.verdict is Verdict.UNKNOWN and o.passed is False
    o = run_claim(make_claim("rules.d2", [("ball", ball_check, {"decision": "TRUE"}, "decisive")]))
    assert o.verdict is Verdict.CERTIFIED and o.passed is True
    o = run_claim(make_claim("rules.d3", [("ball", ball_check, {}, "decisive")], expected=Verdict.UNKNOWN))
    assert o.verdict is Verdict.UNKNOWN and o.passed is True


# -- (e) a raising check ---------------------------------------------------------------------------
def test_raising_check_is_unknown_with_its_traceback():
    """Rule (e): a raising check is UNKNOWN (not a pass, not a refutation), the traceback in details."""
    o = run_claim(make_claim("rules.e", [("crash", raises, {}, "decisive")]))
    ev = o.checks[0].evidence
    assert ev.level is Verdict.UNKNOWN
    assert "RuntimeError" in ev.notes and "boom in the check" in ev.notes
    tb = ev.details["traceback"]
    assert "Traceback" in tb and "raises" in tb and "RuntimeError: boom in the check" in tb
    assert o.verdict is Verdict.UNKNOWN and o.passed is False


def test_raising_check_in_a_worker_process_is_unknown():
    """Rule (e) across a process pool: the same UNKNOWN with traceback from a worker."""
    c = make_claim("rules.e2", [("crash", raises, {}, "decisive")])
    r = run_claims([c], workers=2)
    ev = r.outcomes[0].checks[0].evidence
    assert ev.level is Verdict.UNKNOWN and "RuntimeError" in ev.details["traceback"]
    assert r.interrupted is False and r.passed is False


def test_serial_executor_hands_exceptions_over_but_lets_interrupts_through():
    """Rules (e)+(i): the one-worker executor turns an Exception into the future's exception, but lets
    KeyboardInterrupt and SystemExit propagate (Ctrl-C stops the run at once)."""
    ex = SerialExecutor()
    fut = ex.submit(raises, seed=0, profile=None)
    assert isinstance(fut.exception(), RuntimeError)
    with pytest.raises(KeyboardInterrupt):
        ex.submit(interrupts, seed=0, profile=None)
    with pytest.raises(SystemExit):
        ex.submit(sys.exit, 3)


# -- (f) no evidence ------------------------------------------------------------------------------
def test_empty_tally_is_unknown():
    """Rule (f): a tally with no instance gives UNKNOWN (with a note), whatever the cap."""
    ev = Tally(precision="exact", backend="fractions").evidence()
    assert ev.level is Verdict.UNKNOWN and ev.instances == 0 and "no instance" in ev.notes
    assert Tally(precision="exact", backend="x").evidence(level_cap=Verdict.PROVED).level is Verdict.UNKNOWN


def test_no_decisive_result_is_unknown():
    """Rule (f): claim_verdict of no checks, or of corroborating checks only, is UNKNOWN."""
    assert claim_verdict(()) is Verdict.UNKNOWN
    o = run_claim(make_claim("rules.f", [lvl("CERTIFIED")]))
    corro_only = tuple(type(c)(c.name, c.kind, "corroborating", c.description, c.target, c.seed,
                               c.evidence) for c in o.checks)
    assert claim_verdict(corro_only) is Verdict.UNKNOWN
    assert claim_verdict(o.controls) is Verdict.UNKNOWN  # controls never count as checks


# -- (g) level_cap ---------------------------------------------------------------------------------
def test_level_cap_lowers_but_never_raises():
    """Rule (g): level_cap lowers a holding level to the cap; it never raises a level, nor touches
    UNKNOWN or REFUTED."""
    t = Tally(precision="exact", backend="fractions")
    t.exact(True)
    assert t.evidence().level is Verdict.CERTIFIED
    assert t.evidence(level_cap=Verdict.CONSISTENT).level is Verdict.CONSISTENT
    assert t.evidence(level_cap=Verdict.PROVED).level is Verdict.CERTIFIED
    f = Tally(precision="float64", backend="numpy")
    f.close(1.0, 1.0 + 1e-14, 1e-12)
    assert f.evidence(level_cap=Verdict.CERTIFIED).level is Verdict.CONSISTENT
    r = Tally(precision="exact", backend="fractions")
    r.exact(False)
    assert r.evidence(level_cap=Verdict.CONSISTENT).level is Verdict.REFUTED


# -- (h) NaN ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    (math.nan, 1.0, 1e-9), (1.0, math.nan, 1e-9), (math.inf, math.inf, 1e-9), (1.0, 1.0, math.nan),
])
def test_close_with_nan_is_unknown(args):
    """Rule (h): Tally.close with a NaN (or inf - inf) difference or budget is UNKNOWN, never CONSISTENT."""
    t = Tally(precision="float64", backend="numpy")
    assert t.close(*args).level is Verdict.UNKNOWN
    assert t.evidence().level is Verdict.UNKNOWN


@pytest.mark.parametrize("args", [
    (math.nan, 1.0, 1e-9), (1.0, math.nan, 1e-9), (math.inf, math.inf, 0.0), (0.0, 1.0, math.nan),
])
def test_le_with_nan_is_unknown(args):
    """Rule (h): Tally.le with a NaN is UNKNOWN, never CONSISTENT."""
    t = Tally(precision="float64", backend="numpy")
    assert t.le(*args).level is Verdict.UNKNOWN
    assert t.evidence().level is Verdict.UNKNOWN


def test_float_comparisons_still_decide_finite_values():
    """Rule (h), the other side: finite values inside the budget are CONSISTENT, outside REFUTED."""
    t = Tally(precision="float64", backend="numpy")
    assert t.close(1.0, 1.0 + 1e-13, 1e-12).level is Verdict.CONSISTENT
    assert t.close(1.0, 1.1, 1e-12).level is Verdict.REFUTED
    assert t.le(1.0, 1.0, 0.0).level is Verdict.CONSISTENT
    assert t.le(2.0, 1.0, 0.5).level is Verdict.REFUTED


@pytest.mark.parametrize("how", ["close", "le"])
def test_nan_check_never_passes_a_claim(how):
    """Rule (h) through the claim: a decisive check meeting a NaN is UNKNOWN, so a claim expected
    CONSISTENT does not pass."""
    o = run_claim(make_claim("rules.h", [("nan", nan_check, {"how": how}, "decisive")],
                             expected=Verdict.CONSISTENT))
    assert o.verdict is Verdict.UNKNOWN and o.passed is False


# -- (i) interruption, in-process -----------------------------------------------------------------
def _interrupted_run():
    first = make_claim("rules.i.first", [lvl("CERTIFIED")])
    half = make_claim("rules.i.half", [lvl("CERTIFIED", name="done"), ("stop", interrupts, {}, "decisive")])
    never = make_claim("rules.i.never", [lvl("CERTIFIED")])
    return run_claims([first, half, never])


def test_interrupted_run_reports_only_complete_claims_and_never_passes():
    """Rule (i): KeyboardInterrupt inside a check stops the run: interrupted, only the complete claim
    reported (the half-run one is not), the rest listed unfinished, and the run does not pass."""
    r = _interrupted_run()
    assert r.interrupted is True
    assert [o.claim_id for o in r.outcomes] == ["rules.i.first"]
    assert r.outcomes[0].passed is True
    assert r.unfinished == ["rules.i.half", "rules.i.never"]
    assert r.passed is False


def test_interrupted_report_says_so():
    """Rule (i): the JSON of an interrupted run has interrupted: true, is schema-valid, and reads back."""
    from verify._report import from_json, to_json, validate

    obj = to_json(_interrupted_run())
    assert obj["interrupted"] is True and obj["passed"] is False
    assert obj["unfinished"] == ["rules.i.half", "rules.i.never"]
    validate(obj)
    back = from_json(obj)
    assert back.interrupted is True and back.passed is False and to_json(back) == obj


def test_run_claim_reraises_an_interrupt():
    """Rule (i): run_claim (show, the pytest plugin) re-raises KeyboardInterrupt: nothing half-run."""
    with pytest.raises(KeyboardInterrupt):
        run_claim(make_claim("rules.i.one", [("stop", interrupts, {}, "decisive")]))


def test_uninterrupted_run_is_not_marked():
    """Rule (i), the other side: a complete run is not interrupted and lists nothing unfinished."""
    r = run_claims([make_claim("rules.i.ok", [lvl("CERTIFIED")])])
    assert r.interrupted is False and r.unfinished == [] and r.passed is True


# -- (j) exit codes --------------------------------------------------------------------------------
RULES_CLAIMS = textwrap.dedent('''
    from verify import Check, Claim, Control, Source
    from tests.unit.engine.test_engine_rules import at_level, interrupts
    from verify import Verdict


    def _claim(cid, fn, params, expected=Verdict.CERTIFIED):
        return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"), statement="s",
                     reading="r", checks=(Check("main", fn, params),),
                     controls=(Control("ctrl", "false", Check("ctrl", at_level, {"level": "REFUTED"})),),
                     expected=expected, strength="derived")


    CLAIMS = (
        _claim("rc.good", at_level, {"level": "CERTIFIED"}),
        _claim("rc.bad", at_level, {"level": "CONSISTENT"}),
        _claim("rc.stop", interrupts, {}),
    )
''')


@pytest.fixture(scope="module")
def rules_catalogue(tmp_path_factory):
    root = tmp_path_factory.mktemp("rulescat")
    pkg = root / "rulescat_pkg"
    (pkg / "rc").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rc" / "__init__.py").write_text("")
    (pkg / "rc" / "claims.py").write_text(RULES_CLAIMS)
    sys.path.insert(0, str(root))
    yield "rulescat_pkg"
    sys.path.remove(str(root))


def test_exit_codes(rules_catalogue, tmp_path, capsys):
    """Rule (j): 0 when every claim is at its expected verdict, 1 otherwise, 4 usage, 5 no match, and
    130 with an interrupted report when a check is interrupted (rule (i))."""
    cat = ["--catalogue", rules_catalogue]
    assert main([*cat, "run", "rc.good"]) == EXIT_OK
    assert main([*cat, "run", "rc.good", "rc.bad"]) == EXIT_FAILED
    assert main([*cat, "run", "rc.nope*"]) == EXIT_NO_MATCH
    assert main([*cat, "run", "rc.good", "--workers", "0"]) == EXIT_USAGE
    path = tmp_path / "r.json"
    assert main([*cat, "run", "rc.good", "rc.stop", "--json", str(path)]) == EXIT_INTERRUPTED
    rep = json.loads(path.read_text())
    assert rep["interrupted"] is True and [c["id"] for c in rep["claims"]] == ["rc.good"]
    assert rep["unfinished"] == ["rc.stop"]
    assert "interrupted" in capsys.readouterr().err
    # a saved interrupted report does not pass when rendered again
    assert main([*cat, "report", str(path)]) == EXIT_FAILED
    good = tmp_path / "good.json"
    assert main([*cat, "run", "rc.good", "--json", str(good)]) == EXIT_OK
    assert main([*cat, "report", str(good)]) == EXIT_OK


# -- (o) an inconclusive corroborating check must say why -------------------------------------------
def corro_claim(cid, level, inconclusive="", expected=Verdict.CERTIFIED, shards=1):
    return Claim(id=cid, title=cid, source=_src(), statement="s", reading="r",
                 checks=(Check("main", at_level, {"level": "CERTIFIED"}),
                         Check("cross", at_level, {"level": level}, role="corroborating",
                               inconclusive=inconclusive, shards=shards)),
                 controls=(Control("ctrl", "false variant", Check("ctrl", at_level, {"level": "REFUTED"})),),
                 expected=expected, strength="derived")


def test_undeclared_corroborating_unknown_fails_the_claim():
    """Rule (o): a corroborating UNKNOWN leaves the verdict alone (rule (c)) but fails the claim, and the
    failure names the check; the run does not pass."""
    r = run_claims([corro_claim("rules.k.bad", "UNKNOWN")])
    (o,) = r.outcomes
    assert o.verdict is Verdict.CERTIFIED and o.controls_refuted
    assert o.corroboration_decided is False and o.passed is False and r.passed is False
    cross = o.checks[1]
    assert cross.undeclared_unknown and not cross.passed
    assert any("corroborating check cross is UNKNOWN" in f for f in o.failures())


def test_declared_corroborating_unknown_passes_with_its_reason():
    """Rule (o): with a declared reason the UNKNOWN corroborating check passes, and carries the reason."""
    o = run_claim(corro_claim("rules.k.ok", "UNKNOWN", inconclusive="not run at this budget"))
    cross = o.checks[1]
    assert o.passed is True and cross.passed is True and cross.inconclusive == "not run at this budget"
    assert not cross.undeclared_unknown


@pytest.mark.parametrize("level", ["CONSISTENT", "REFUTED"])
def test_declaration_changes_nothing_when_the_check_decides(level):
    """Rule (o): a declaration excuses UNKNOWN only: a holding corroborating check passes either way, a
    refuting one still refutes the claim (rule (b))."""
    o = run_claim(corro_claim("rules.k.dec", level, inconclusive="may not settle"))
    assert o.verdict is (Verdict.REFUTED if level == "REFUTED" else Verdict.CERTIFIED)
    assert o.checks[1].passed is (level == "CONSISTENT")
    assert o.passed is (level == "CONSISTENT")


def test_declaration_is_per_profile():
    """Rule (o): ``{profile: reason}`` declares at the profiles named ("*" the others; "" nothing)."""
    decl = {"quick": "", "*": "too short a run"}
    assert run_claim(corro_claim("rules.k.p", "UNKNOWN", decl), profile="quick").passed is False
    o = run_claim(corro_claim("rules.k.p", "UNKNOWN", decl), profile="ci")
    assert o.passed is True and o.checks[1].inconclusive == "too short a run"
    chk = Check("x", at_level, role="corroborating", inconclusive=decl)
    assert chk.inconclusive_at("thorough") == "too short a run"


def test_declaration_travels_to_workers_shards_and_reports(tmp_path):
    """Rule (o): the declaration survives pickling (worker processes), sharding and the JSON report's
    round trip; an undeclared UNKNOWN read back from a report still fails its claim."""
    import pickle

    from verify._report import from_json, to_json, validate

    chk = Check("cross", at_level, {"level": "UNKNOWN"}, role="corroborating", inconclusive={"*": "why"})
    assert pickle.loads(pickle.dumps(chk)).inconclusive_at("ci") == "why"
    assert chk.shard(0, 2).inconclusive_at("ci") == "why"
    r = run_claims([corro_claim("rules.k.w", "UNKNOWN", "why"), corro_claim("rules.k.u", "UNKNOWN")],
                   workers=2)
    assert [o.passed for o in r.outcomes] == [True, False]
    doc = to_json(r)
    validate(doc)
    assert doc["claims"][0]["checks"][1]["inconclusive"] == "why"
    assert "inconclusive" not in doc["claims"][1]["checks"][1]
    back = from_json(doc)
    assert [o.passed for o in back.outcomes] == [True, False]
    assert back.outcomes[0].checks[1].inconclusive == "why"


@pytest.mark.parametrize("bad", [{"*": 3}, {"": "x"}, 7])
def test_declaration_must_be_reason_strings(bad):
    """Rule (o): a declaration is a reason string or {profile: reason string}."""
    with pytest.raises(CheckError, match="inconclusive"):
        Check("x", at_level, role="corroborating", inconclusive=bad)


def test_only_corroborating_checks_declare():
    """Rule (o): a decisive check cannot declare itself inconclusive (its UNKNOWN is the verdict, and
    the claim's expected verdict says whether that is expected)."""
    with pytest.raises(CheckError, match="only a corroborating check"):
        Check("x", at_level, inconclusive="because")
    Check("x", at_level, inconclusive={"*": ""})  # declaring nothing is allowed


def test_a_derivation_with_nothing_to_check_is_declared_inconclusive():
    """Rule (o), the engine's own declaration: the derivation check the runner adds is UNKNOWN for a
    display-only derivation (notes, as older ``(label, expression)`` pairs read) and says so, so such a
    claim still passes; a derivation with steps to check declares nothing (its UNKNOWN would fail)."""
    import sympy as sp

    from verify import Derivation, Step
    from verify._runner import SHOWN_ONLY, check_count, claim_checks

    x = sp.Symbol("x")

    def with_derivation(cid, derivation):
        return Claim(id=cid, title=cid, source=_src(), statement=sp.Le(x**2, x**2 + 1), reading="r",
                     checks=(Check("main", at_level, {"level": "CERTIFIED"}),),
                     controls=(Control("ctrl", "false", Check("ctrl", at_level, {"level": "REFUTED"})),),
                     expected=Verdict.CERTIFIED, strength="derived", derivation=derivation)

    shown = with_derivation("rules.o.shown", lambda: (("square", x**2), ("plus one", x**2 + 1)))
    o = run_claim(shown)
    (der,) = [c for c in o.checks if c.name == "derivation"]
    assert der.evidence.level is Verdict.UNKNOWN and der.inconclusive == SHOWN_ONLY and o.passed
    chain = with_derivation("rules.o.chain", lambda: Derivation(Step("a", x**2 + 1), Step("b", 1 + x**2)))
    assert claim_checks(chain)[-1].inconclusive_at("quick") == ""
    assert check_count(chain) == len(claim_checks(chain)) == 2
    assert run_claim(chain).passed

