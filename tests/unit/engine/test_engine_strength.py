"""Faithful readings: every claim states its ``strength`` (how its statement relates to its source), an
``as-stated`` claim quotes the seed, and reports keep the two kinds of REFUTED apart (the source's
statement does not hold vs where a stronger reading stops)."""

import copy
import io
import json
import re
import textwrap

import pytest

from verify import (SOURCE_STRENGTHS, STRENGTHS, Check, Claim, Control, Evidence, Registry, RegistryError,
                    Source, Verdict, catalogue, refuted, run_claims)
from verify._cli import main
from verify._report import (SCHEMA_ID, from_json, markdown, print_table, refuted_summary, to_json,
                            validate)

QSRC = "seeds/004_4ff95cab01770f63.txt.en.md L75"


def _holds(*, seed, profile):
    return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,))


def _fails(*, seed, profile):
    return Evidence(Verdict.REFUTED, instances=1, seeds=(seed,), counterexample=refuted("no", x=1))


def make(cid="st.group.a", *, check=_holds, expected=Verdict.CERTIFIED, **kw):
    return Claim(id=cid, title="t", source=Source("0000.00000", "Thm 1", "§1"), statement="s", reading="r",
                 checks=(Check("c", check),), controls=(Control("k", "false", Check("c", _fails)),),
                 expected=expected, **kw)


# -- the rules -------------------------------------------------------------------------------------
def test_strength_is_required():
    with pytest.raises(RegistryError, match=r"claim st\.group\.a: strength '' is not one of .*every claim "
                                            r"states how its statement relates to its source"):
        make()


@pytest.mark.parametrize("bad", ["as stated", "AS-STATED", "paper", None, 3])
def test_unknown_strength_is_rejected(bad):
    with pytest.raises(RegistryError, match=r"claim st\.group\.a: strength .* is not one of as-stated, "
                                            r"strengthened, repaired, code, derived"):
        make(strength=bad)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_strength_is_accepted(strength):
    extra = {"quote": "Such a Transformer satisfies $T_0(X_j) = Y_j$ for all $j$.", "quote_source": QSRC}
    c = make(strength=strength, **(extra if strength == "as-stated" else {}))
    assert c.strength == strength
    assert c.is_source_statement is (strength in ("as-stated", "code"))


def test_as_stated_needs_a_quote():
    with pytest.raises(RegistryError, match=r"claim st\.group\.a: is as-stated but has no quote \(rule: an "
                                            r"as-stated claim quotes the source sentence verbatim\)"):
        make(strength="as-stated", quote_source=QSRC)
    with pytest.raises(RegistryError, match="has no quote"):
        make(strength="as-stated", quote="   ", quote_source=QSRC)


def test_as_stated_needs_a_quote_source():
    with pytest.raises(RegistryError, match=r"claim st\.group\.a: is as-stated but has no quote_source "
                                            r"\(rule: an as-stated claim names the seed file and line"):
        make(strength="as-stated", quote="A sentence.")


def test_quote_source_must_name_a_line():
    with pytest.raises(RegistryError, match=r"quote_source 'seeds/004\.txt\.en\.md' names no line"):
        make(strength="as-stated", quote="A sentence.", quote_source="seeds/004.txt.en.md")


def test_quote_source_names_one_line_or_a_range():
    assert make(strength="as-stated", quote="A.", quote_source="seeds/004.txt.en.md L70-L75").strength
    for bad in ("seeds/004.txt.en.md L70 and more", "seeds/004.txt.en.md L70-", "seeds/004.txt.en.md Lx"):
        with pytest.raises(RegistryError, match="names no line"):
            make(strength="as-stated", quote="A.", quote_source=bad)


def test_other_strengths_may_quote_but_a_source_needs_a_quote():
    c = make(strength="repaired", quote="A sentence.", quote_source=QSRC)
    assert c.quote == "A sentence."
    with pytest.raises(RegistryError, match="has a quote_source but no quote"):
        make(strength="derived", quote_source=QSRC)


def test_registry_rejects_a_claim_whose_strength_was_removed():
    c = make(strength="derived")
    object.__setattr__(c, "strength", "")
    with pytest.raises(RegistryError, match=r"claim 'st\.group\.a' strength '' is not one of"):
        Registry([c])
    d = make("st.group.b", strength="as-stated", quote="A sentence.", quote_source=QSRC)
    object.__setattr__(d, "quote", "")
    with pytest.raises(RegistryError, match=r"claim 'st\.group\.b' is as-stated but has no quote"):
        Registry([d])


# -- the catalogue ---------------------------------------------------------------------------------
def test_every_catalogue_claim_states_its_strength():
    cat = catalogue()
    for c in cat:
        assert c.strength in STRENGTHS, c.id
        if c.strength == "as-stated":
            assert c.quote.strip() and re.fullmatch(r"seeds/\d{3}_[0-9a-f]{16}\.txt\.en\.md L\d+(-L\d+)?",
                                                    c.quote_source), c.id
    assert {c.strength for c in cat} == set(STRENGTHS)


def test_no_title_calls_a_reading_as_stated_unless_it_is():
    """A strengthened (or other non-source) reading is never titled as the source's statement."""
    for c in catalogue():
        if c.strength != "as-stated":
            assert not re.search(r"as[ -]stated", c.title, re.I), (c.id, c.title)


# -- reports ---------------------------------------------------------------------------------------
def _demo_result():
    src = make("st.src", check=_fails, expected=Verdict.REFUTED, strength="as-stated", quote="A sentence.",
               quote_source=QSRC)
    code = make("st.code", check=_fails, expected=Verdict.REFUTED, strength="code")
    bnd = make("st.bnd", check=_fails, expected=Verdict.REFUTED, strength="strengthened")
    der = make("st.der", check=_fails, expected=Verdict.REFUTED, strength="derived")
    ok = make("st.ok", strength="repaired")
    return run_claims([src, code, bnd, der, ok], profile="quick", seed=0, workers=1)


def test_outcomes_carry_strength_and_kind():
    res = _demo_result()
    by = {o.claim_id: o for o in res.outcomes}
    assert by["st.src"].strength == "as-stated" and by["st.src"].refuted_source
    assert by["st.code"].refuted_source and not by["st.code"].refuted_boundary
    assert by["st.bnd"].refuted_boundary and not by["st.bnd"].refuted_source
    assert by["st.der"].refuted_boundary
    assert not by["st.ok"].refuted_source and not by["st.ok"].refuted_boundary
    assert SOURCE_STRENGTHS == {"as-stated", "code"}


def test_json_report_version_2_counts_the_two_kinds():
    obj = to_json(_demo_result())
    assert obj["schema"] == SCHEMA_ID == "verify-report/2"
    assert obj["summary"]["refuted_source"] == 2 and obj["summary"]["refuted_boundary"] == 2
    assert [c["strength"] for c in obj["claims"]] == ["as-stated", "code", "strengthened", "derived", "repaired"]
    validate(obj)
    back = from_json(obj)
    assert [o.strength for o in back.outcomes] == [c["strength"] for c in obj["claims"]]
    assert to_json(back) == obj


def test_version_2_report_without_strengths_or_counts_is_invalid():
    obj = to_json(_demo_result())
    no_strength = copy.deepcopy(obj)
    del no_strength["claims"][0]["strength"]
    with pytest.raises(ValueError, match=r"not a valid verify-report/2 report: at /claims/0: 'strength'"):
        validate(no_strength)
    no_count = copy.deepcopy(obj)
    del no_count["summary"]["refuted_boundary"]
    with pytest.raises(ValueError, match="'refuted_boundary' is a required property"):
        validate(no_count)
    miscount = copy.deepcopy(obj)
    miscount["summary"]["refuted_source"] = 4
    with pytest.raises(ValueError, match="refuted_source/refuted_boundary = 4/2 but the claims listed give 2/2"):
        validate(miscount)
    bad = copy.deepcopy(obj)
    bad["claims"][0]["strength"] = "literal"
    with pytest.raises(ValueError, match="not a valid verify-report/2 report"):
        validate(bad)


def _as_version_1(obj):
    old = copy.deepcopy(obj)
    old["schema"] = "verify-report/1"
    for key in ("refuted_source", "refuted_boundary"):
        del old["summary"][key]
    for c in old["claims"]:
        del c["strength"]
    return old


def test_version_1_reports_are_still_read(tmp_path, capsys):
    old = _as_version_1(to_json(_demo_result()))
    validate(old)
    res = from_json(old)
    assert {o.strength for o in res.outcomes} == {""}
    assert not any(o.refuted_source or o.refuted_boundary for o in res.outcomes)
    assert "4 with no recorded strength" in refuted_summary(res)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert main(["report", str(path)]) == 0
    assert "REFUTED" in capsys.readouterr().out


def test_table_and_markdown_separate_the_two_kinds():
    res = _demo_result()
    buf = io.StringIO()
    print_table(res, file=buf, width=240)
    out = buf.getvalue()
    assert ("REFUTED 4: 2 where the source's statement does not hold (as-stated or code), 2 where a "
            "stronger reading stops (boundary findings)") in out
    assert "REFUTED (the source's statement does not hold; as-stated) st.src" in out
    assert "REFUTED (boundary: where a strengthened reading stops, not the source's statement) st.bnd" in out
    assert "strength" in out and "as-stated" in out
    md = markdown(res)
    assert "| strength |" in md and "Strength: as-stated" in md and "2 where a stronger reading stops" in md


# -- CLI -------------------------------------------------------------------------------------------
def test_list_json_and_table_carry_strength(capsys):
    assert main(["list", "interp.hardmax.*", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and all({"strength", "quote", "quote_source", "expected_refutation"} <= set(d) for d in data)
    exact = next(d for d in data if d["id"] == "interp.hardmax.exact")
    assert exact["strength"] == "as-stated" and exact["quote_source"].endswith(" L75")
    assert exact["expected_refutation"] is None
    assert main(["list", "focus.stage4.stall*"]) == 0
    out = capsys.readouterr().out
    assert "strength" in out and "as-stated" in out and "repaired" in out
    assert "expected REFUTED: 1 the source's statement (as-stated/code), 0 boundary" in out


def test_list_json_expected_refutation_kind(capsys):
    assert main(["list", "ddcl.separation.unconditional", "focus.stage4.stall_all_lambda", "--json"]) == 0
    kinds = {d["id"]: d["expected_refutation"] for d in json.loads(capsys.readouterr().out)}
    assert kinds == {"ddcl.separation.unconditional": "boundary", "focus.stage4.stall_all_lambda": "source"}


def test_show_prints_strength_and_quote(capsys):
    assert main(["show", "interp.hardmax.blocks", "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "strength:   as-stated" in out
    assert "quote (seeds/004_4ff95cab01770f63.txt.en.md L73" in out
    assert "Number of blocks $L = 2 \\sum_{j=1}^N m_j + 2N + 1$." in out
    assert main(["show", "ddcl.separation.unconditional", "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "strength:   strengthened" in out and "marks where this stronger reading stops" in out


# -- pytest items ----------------------------------------------------------------------------------
pytest_plugins = ["pytester"]

PLUGIN_CLAIMS = textwrap.dedent('''
    from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted

    def holds(*, seed, profile):
        return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,))

    def fails(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, counterexample=refuted("no"))

    def claim(cid, expected, check, **kw):
        return Claim(id=cid, title=cid, source=Source("0", "T", "§"), statement="s", reading="r",
                     checks=(Check("main", check),), controls=(Control("ctrl", "false", Check("main", fails)),),
                     expected=expected, **kw)

    CLAIMS = (claim("demo.src", Verdict.CERTIFIED, fails, strength="as-stated", quote="Q.",
                    quote_source="seeds/x.txt.en.md L1"),
              claim("demo.bnd", Verdict.CERTIFIED, fails, strength="strengthened"),
              claim("demo.ok", Verdict.CERTIFIED, holds, strength="derived"))
''')


def test_pytest_items_carry_strength(pytester):
    pytester.makepyfile(claims=PLUGIN_CLAIMS)
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--junitxml=out.xml")
    res.assert_outcomes(passed=1, failed=2)
    res.stdout.fnmatch_lines_random([
        "*claim demo.src [[]as-stated[]]: observed REFUTED, expected CERTIFIED*",
        "*REFUTED: the source's statement does not hold*",
        "*claim demo.bnd [[]strengthened[]]: observed REFUTED*",
        "*REFUTED: where a strengthened reading stops (not the source's statement)*",
    ])
    xml = (pytester.path / "out.xml").read_text()
    assert '<property name="strength" value="as-stated"' in xml
    sel = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "strength_as_stated")
    sel.assert_outcomes(failed=1, deselected=2)
