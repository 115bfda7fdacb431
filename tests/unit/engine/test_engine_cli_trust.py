"""The command's guard rails: output paths checked before any work, ``--workers`` capped, saved reports
validated before they are rendered, reports written atomically.

Rules pinned here:

(k) ``--json/--junit/--markdown`` paths are checked before any work: a directory, an unwritable
    location, a parent that cannot be created -> exit 4 with a message naming the option;
(l) ``--workers`` is capped at the number of tasks and at ``os.cpu_count()`` (said on stderr); 0 or a
    negative number -> exit 4;
(m) ``verify report FILE`` exits 4 on anything that is not a valid report (missing file, invalid JSON,
    a JSON array, ``claims: null``, ``claims: []`` unless interrupted), with or without jsonschema;
(n) report files are replaced atomically: a failed write leaves the previous file and no temporary.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import textwrap

import jsonschema
import pytest

from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted, run_claims
from verify._cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from verify._report import check_writable, schema, to_json, validate, write_json


def at_level(*, seed, profile, level="CERTIFIED"):
    v = Verdict.parse(level)
    return Evidence(v, instances=1, seeds=(seed,),
                    counterexample=refuted("pinned", margin=-1.0) if v is Verdict.REFUTED else None)


def stop(*, seed, profile):
    raise KeyboardInterrupt  # a check that must never run in these tests (it would exit 130)


def _claim(cid, fn=at_level, params=None):
    return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"), statement="s",
                 reading="r", checks=(Check("main", fn, params or {}),),
                 controls=(Control("ctrl", "false", Check("ctrl", at_level, {"level": "REFUTED"})),),
                 expected=Verdict.CERTIFIED, strength="derived")


TRUST_CLAIMS = textwrap.dedent('''
    from tests.unit.engine.test_engine_cli_trust import _claim, stop

    CLAIMS = (_claim("tc.good"), _claim("tc.stop", stop))
''')


@pytest.fixture(scope="module")
def cat(tmp_path_factory):
    root = tmp_path_factory.mktemp("trustcat")
    pkg = root / "trustcat_pkg"
    (pkg / "tc").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "tc" / "__init__.py").write_text("")
    (pkg / "tc" / "claims.py").write_text(TRUST_CLAIMS)
    sys.path.insert(0, str(root))
    yield ["--catalogue", "trustcat_pkg"]
    sys.path.remove(str(root))


@pytest.fixture(scope="module")
def report():
    return to_json(run_claims([_claim("tc.good")]))


# -- (k) output paths ------------------------------------------------------------------------------
def _bad_paths(tmp_path):
    afile = tmp_path / "plain.txt"
    afile.write_text("x")
    return {
        "directory": str(tmp_path),
        "unwritable": "/proc/verify-x.json",
        "parent is a file": str(afile / "sub" / "r.out"),
        "empty": "",
    }


@pytest.mark.parametrize("option", ["--json", "--junit", "--markdown"])
@pytest.mark.parametrize("kind", ["directory", "unwritable", "parent is a file", "empty"])
def test_bad_output_path_is_a_usage_error_before_any_work(cat, tmp_path, capsys, option, kind):
    """Rule (k): a bad output path exits 4 naming the option, before the claims run (tc.stop would
    exit 130) and even before the catalogue is imported."""
    path = _bad_paths(tmp_path)[kind]
    assert main([*cat, "run", "tc.stop", option, path]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert option in err
    assert main(["--catalogue", "no_such_catalogue_xyz", "run", option, path]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert option in err and "no_such_catalogue_xyz" not in err


def test_report_junit_path_checked_too(cat, tmp_path, capsys, report):
    """Rule (k) for ``verify report --junit``."""
    good = tmp_path / "r.json"
    good.write_text(json.dumps(report))
    assert main([*cat, "report", str(good), "--junit", str(tmp_path)]) == EXIT_USAGE
    assert "--junit" in capsys.readouterr().err


def test_missing_parents_are_created(cat, tmp_path):
    """Rule (k), the other side: a missing parent that can be created is created, and the run works."""
    out = tmp_path / "a" / "b"
    assert main([*cat, "run", "tc.good", "--json", str(out / "r.json"), "--junit", str(out / "r.xml"),
                 "--markdown", str(out / "r.md")]) == EXIT_OK
    assert sorted(p.name for p in out.iterdir()) == ["r.json", "r.md", "r.xml"]


def test_check_writable_reasons(tmp_path):
    """Rule (k): check_writable says why."""
    with pytest.raises(ValueError, match="directory"):
        check_writable(tmp_path)
    with pytest.raises(ValueError, match="cannot be written"):
        check_writable("/proc/verify-x.json")
    check_writable(tmp_path / "new" / "r.json")
    assert (tmp_path / "new").is_dir() and not list((tmp_path / "new").iterdir())


# -- (l) workers --------------------------------------------------------------------------------
def test_workers_capped_at_the_number_of_tasks(cat, tmp_path, capsys, monkeypatch):
    """Rule (l): more workers than tasks are capped at the task count (2 for one claim), said on stderr."""
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    path = tmp_path / "r.json"
    assert main([*cat, "run", "tc.good", "--workers", "64", "--json", str(path)]) == EXIT_OK
    assert "--workers 64 capped at 2 (2 tasks to run)" in capsys.readouterr().err
    assert json.loads(path.read_text())["workers"] == 2


def test_workers_capped_at_the_cpu_count(cat, tmp_path, capsys, monkeypatch):
    """Rule (l): more workers than CPUs are capped at os.cpu_count()."""
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    path = tmp_path / "r.json"
    assert main([*cat, "run", "tc.good", "--workers", "2", "--json", str(path)]) == EXIT_OK
    assert "--workers 2 capped at 1 (1 CPU)" in capsys.readouterr().err
    assert json.loads(path.read_text())["workers"] == 1


def test_workers_not_capped_is_silent(cat, capsys, monkeypatch):
    """Rule (l): no message when nothing is capped."""
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert main([*cat, "run", "tc.good", "--workers", "2"]) == EXIT_OK
    assert "capped" not in capsys.readouterr().err


@pytest.mark.parametrize("n", ["0", "-1", "-64"])
def test_nonpositive_workers_is_a_usage_error(cat, capsys, n):
    """Rule (l): --workers 0 or negative exits 4 (before any work: tc.stop would exit 130)."""
    assert main([*cat, "run", "tc.stop", "--workers", n]) == EXIT_USAGE
    assert "--workers" in capsys.readouterr().err


# -- (m) report validation ------------------------------------------------------------------------
def _invalid_reports(report):
    no_claims = dict(report, claims=[], summary=dict(report["summary"], claims=0, passed=0))
    no_claims.pop("interrupted")
    miscount = dict(report, summary=dict(report["summary"], claims=7))
    bad_verdict = copy.deepcopy(report)
    bad_verdict["claims"][0]["verdict"] = True
    missing_ev = copy.deepcopy(report)
    del missing_ev["claims"][0]["checks"][0]["evidence"]["level"]
    extra = dict(report, surprise=1)
    wrong_schema = dict(report, schema="verify-report/99")
    return {
        "array": [report],
        "claims null": dict(report, claims=None),
        "claims empty": no_claims,
        "summary miscount": miscount,
        "boolean verdict": bad_verdict,
        "evidence without level": missing_ev,
        "extra key": extra,
        "wrong schema id": wrong_schema,
        "number": 3,
        "null": None,
        "string": "report",
    }


INVALID = ["array", "claims null", "claims empty", "summary miscount", "boolean verdict",
           "evidence without level", "extra key", "wrong schema id", "number", "null", "string"]


@pytest.mark.parametrize("name", INVALID)
def test_invalid_reports_are_rejected(report, name):
    """Rule (m): validate() rejects every corrupted report."""
    with pytest.raises(ValueError, match="not a valid verify-report/[12] report"):
        validate(_invalid_reports(report)[name])
    if name != "summary miscount":  # the schema file itself says so too
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(_invalid_reports(report)[name], schema())


def test_valid_reports_are_accepted(report):
    """Rule (m), the other side: a real report, an old one (no interrupted key) and an interrupted one
    with no claim are valid."""
    validate(report)
    old = {k: v for k, v in report.items() if k not in ("interrupted", "unfinished")}
    validate(old)
    empty = dict(report, claims=[], interrupted=True, unfinished=["tc.good"],
                 summary=dict(report["summary"], claims=0, passed=0, failed=0))
    validate(empty)
    jsonschema.validate(empty, schema())


@pytest.mark.parametrize("name", INVALID)
def test_verify_report_exits_4_on_invalid_reports(cat, tmp_path, capsys, report, name):
    """Rule (m): ``verify report`` exits 4 with a message on each invalid report."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_invalid_reports(report)[name]))
    assert main([*cat, "report", str(path)]) == EXIT_USAGE
    assert "is not a valid report" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe\x00garbage", b"[" * 100000, b"NaN"])
def test_verify_report_exits_4_on_garbage(cat, tmp_path, capsys, content):
    """Rule (m): invalid JSON, binary garbage, absurd nesting -> exit 4."""
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert main([*cat, "report", str(path)]) == EXIT_USAGE
    assert "is not a valid report" in capsys.readouterr().err


def test_verify_report_exits_4_on_missing_file_or_directory(cat, tmp_path, capsys):
    """Rule (m): a missing file or a directory -> exit 4."""
    assert main([*cat, "report", str(tmp_path / "missing.json")]) == EXIT_USAGE
    assert main([*cat, "report", str(tmp_path)]) == EXIT_USAGE
    assert capsys.readouterr().err.count("is not a valid report") == 2


def test_verify_report_reads_old_and_interrupted_reports(cat, tmp_path, report):
    """Rule (m): a report without the interrupted key still renders (0); an interrupted one exits 1."""
    old = {k: v for k, v in report.items() if k not in ("interrupted", "unfinished")}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert main([*cat, "report", str(path)]) == EXIT_OK
    path.write_text(json.dumps(dict(report, interrupted=True, passed=False, unfinished=["tc.x"])))
    assert main([*cat, "report", str(path)]) == EXIT_FAILED


# -- (n) atomic writes -------------------------------------------------------------------------------
def test_report_written_atomically(tmp_path, monkeypatch):
    """Rule (n): if the final rename fails, the previous report is intact and no temporary is left."""
    result = run_claims([_claim("tc.good")])
    path = tmp_path / "r.json"
    path.write_text("previous report\n")
    os.chmod(path, 0o640)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space"):
        write_json(result, path)
    assert path.read_text() == "previous report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]
    monkeypatch.undo()
    write_json(result, path)
    assert json.loads(path.read_text())["claims"][0]["id"] == "tc.good"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]
    assert path.stat().st_mode & 0o777 == 0o640  # the existing file's mode is kept
