"""The verify command: exit codes, JSON report round trip against its schema, JUnit XML."""

import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from verify._cli import EXIT_FAILED, EXIT_NO_MATCH, EXIT_OK, EXIT_USAGE, main
from verify._report import from_json, schema, to_json


def run(cat, *argv):
    return main(["--catalogue", cat, *argv])


def test_exit_0_when_every_claim_passes(fake_catalogue, capsys):
    assert run(fake_catalogue, "run", "demo.good", "demo.other") == EXIT_OK
    out = capsys.readouterr().out
    assert "demo.good" in out and "CERTIFIED" in out


def test_exit_1_on_wrong_expectation_or_unrefuted_control(fake_catalogue, capsys):
    assert run(fake_catalogue, "run", "demo.wrong_expectation") == EXIT_FAILED
    assert run(fake_catalogue, "run", "demo.control_not_refuted") == EXIT_FAILED
    out = capsys.readouterr().out
    assert "was not refuted" in out


def test_crashing_check_is_unknown_not_pass(fake_catalogue, tmp_path):
    path = tmp_path / "r.json"
    assert run(fake_catalogue, "run", "demo.crash", "--json", str(path)) == EXIT_FAILED
    rep = json.loads(path.read_text())
    ev = rep["claims"][0]["checks"][0]["evidence"]
    assert ev["level"] == "UNKNOWN" and "ZeroDivisionError" in ev["notes"]


def test_exit_4_on_usage_errors(fake_catalogue, capsys):
    assert run(fake_catalogue, "run", "--profile", "nope") == EXIT_USAGE
    assert run(fake_catalogue, "frobnicate") == EXIT_USAGE
    assert run(fake_catalogue, "run", "--workers", "0") == EXIT_USAGE
    assert run(fake_catalogue, "show", "demo.god") == EXIT_USAGE
    err = capsys.readouterr().err
    assert "demo.good" in err  # nearest id suggested
    assert main(["--catalogue", "no_such_package_xyz", "list"]) == EXIT_USAGE


def test_exit_5_when_nothing_matches(fake_catalogue, capsys):
    assert run(fake_catalogue, "run", "nothing.*") == EXIT_NO_MATCH
    assert run(fake_catalogue, "list", "demo.goood") == EXIT_NO_MATCH
    assert "Nearest ids: demo.good" in capsys.readouterr().err


def test_partly_unmatched_selection_is_a_usage_error(fake_catalogue):
    assert run(fake_catalogue, "run", "demo.good", "demo.typo") == EXIT_USAGE


def test_list_json(fake_catalogue, capsys):
    assert run(fake_catalogue, "list", "--json") == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data][:2] == ["demo.good", "demo.other"]


def test_json_report_round_trip_against_schema(fake_catalogue, tmp_path):
    path = tmp_path / "report.json"
    junit = tmp_path / "report.xml"
    code = run(fake_catalogue, "run", "--json", str(path), "--junit", str(junit), "--workers", "2")
    assert code == EXIT_FAILED
    obj = json.loads(path.read_text())
    jsonschema.validate(obj, schema())
    back = from_json(obj)
    assert to_json(back) == obj
    assert obj["summary"]["claims"] == 5 and obj["summary"]["failed"] == 3
    good = next(c for c in obj["claims"] if c["id"] == "demo.good")
    assert good["controls"][0]["evidence"]["counterexample"]["data"] == {"x": 1}
    # saved report renders again, with the same exit status
    assert run(fake_catalogue, "report", str(path)) == EXIT_FAILED


def test_junit_xml_is_well_formed(fake_catalogue, tmp_path):
    junit = tmp_path / "r.xml"
    run(fake_catalogue, "run", "--junit", str(junit))
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites"
    cases = root.findall(".//testcase")
    assert len(cases) == 5
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    assert failed == {"demo.wrong_expectation", "demo.control_not_refuted", "demo.crash"}


def test_schema_rejects_a_boolean_verdict(fake_catalogue, tmp_path):
    path = tmp_path / "r.json"
    run(fake_catalogue, "run", "demo.good", "--json", str(path))
    obj = json.loads(path.read_text())
    obj["claims"][0]["verdict"] = True
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(obj, schema())


def test_show_prints_statement_and_derivation(capsys):
    assert main(["show", "ddcl.dictionary.decomposition", "--no-run"]) == EXIT_OK
    out = capsys.readouterr().out
    for word in ("statement:", "L_q = L_OLS + V", "derivation:", "reading:", "controls (must be REFUTED)"):
        assert word in out


def test_show_runs_fresh_evidence(fake_catalogue, capsys):
    assert run(fake_catalogue, "show", "demo.good") == EXIT_OK
    out = capsys.readouterr().out
    assert "evidence (quick profile, seed 0): verdict CERTIFIED" in out
    assert "counterexample: 1 > 0" in out
    assert run(fake_catalogue, "show", "demo.wrong_expectation") == EXIT_FAILED


def test_markdown_report(fake_catalogue, tmp_path):
    md = tmp_path / "r.md"
    assert run(fake_catalogue, "run", "demo.good", "--markdown", str(md)) == EXIT_OK
    text = md.read_text()
    assert "| `demo.good` | CERTIFIED | CERTIFIED | 1/1 |" in text
    assert "counterexample: 1 > 0" in text


def _as_the_program(tmp_path, argv, before=""):
    """Run ``main()`` as the ``verify`` script does (argv from sys.argv, no explicit argument) in a fresh
    interpreter, with an atexit handler that reports what the process saw."""
    import subprocess
    import sys
    import textwrap

    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(f"""
        import atexit, os, sys
        {before}
        atexit.register(lambda: print("atexit:", os.environ.get("HYPOTHESIS_NO_PLUGINS"), flush=True))
        from verify._cli import main
        sys.argv = ["verify", *{list(argv)!r}]
        main()
        print("main returned")
    """))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)


def test_the_program_exits_with_the_code_after_the_atexit_handlers(tmp_path):
    """Called as the program, main() ends the process itself (os._exit: no interpreter teardown), with the
    command's exit code, its output flushed and the atexit handlers run -- and it never returns."""
    r = _as_the_program(tmp_path, ["list", "no.such.claim*"])
    assert r.returncode == EXIT_NO_MATCH
    assert "atexit: 1" in r.stdout  # the handlers ran, and hypothesis plugins were off
    assert "main returned" not in r.stdout


def test_the_program_keeps_a_users_hypothesis_plugin_setting(tmp_path):
    r = _as_the_program(tmp_path, ["list", "no.such.claim*"], before='os.environ["HYPOTHESIS_NO_PLUGINS"] = ""')
    assert r.returncode == EXIT_NO_MATCH
    assert "atexit: \n" in r.stdout or r.stdout.rstrip().endswith("atexit:")
