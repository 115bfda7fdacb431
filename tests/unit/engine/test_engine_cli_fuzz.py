"""Fuzzing the command line: ``verify._cli.main(argv)`` with hypothesis-drawn argument lists.

Rule (o): whatever the arguments (random options, values, garbage strings, garbage report files),
``main`` returns an exit code in {0, 1, 4, 5} (or raises SystemExit with one) and never raises anything
else.  Only ``list``, ``show --no-run``, ``report`` and garbage commands are drawn (never a run): the
module works in a temporary directory, so a stray output path cannot land in the checkout.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
import contextlib
import io
import json
import os
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted, run_claims
from verify._cli import main
from verify._report import to_json

ALLOWED = {0, 1, 4, 5}


def at_level(*, seed, profile, level="CERTIFIED"):
    v = Verdict.parse(level)
    return Evidence(v, instances=1, counterexample=refuted("r") if v is Verdict.REFUTED else None)


def _claim(cid, level="CERTIFIED"):
    return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"), statement="x = x",
                 reading="r", checks=(Check("main", at_level, {"level": level}),),
                 controls=(Control("ctrl", "false", Check("ctrl", at_level, {"level": "REFUTED"})),),
                 expected=Verdict.CERTIFIED, strength="derived")


FUZZ_CLAIMS = textwrap.dedent('''
    from tests.unit.engine.test_engine_cli_fuzz import _claim

    CLAIMS = (_claim("fz.good"), _claim("fz.bad", "CONSISTENT"))
''')


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A fuzz catalogue package, a set of report files (valid and not), and cwd in a scratch dir."""
    root = tmp_path_factory.mktemp("fuzzcat")
    pkg = root / "fuzzcat_pkg"
    (pkg / "fz").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "fz" / "__init__.py").write_text("")
    (pkg / "fz" / "claims.py").write_text(FUZZ_CLAIMS)
    files = root / "files"
    files.mkdir()
    good = to_json(run_claims([_claim("fz.good")]))
    contents = {
        "good.json": json.dumps(good),
        "interrupted.json": json.dumps(dict(good, interrupted=True, passed=False)),
        "array.json": json.dumps([good]),
        "null_claims.json": json.dumps(dict(good, claims=None)),
        "empty_claims.json": json.dumps({k: v for k, v in dict(good, claims=[]).items()
                                         if k != "interrupted"}),
        "truncated.json": json.dumps(good)[:200],
        "empty.json": "",
    }
    for name, text in contents.items():
        (files / name).write_text(text)
    scratch = root / "cwd"
    scratch.mkdir()
    sys.path.insert(0, str(root))
    old = os.getcwd()
    os.chdir(scratch)
    try:
        yield {"files": files, "scratch": scratch}
    finally:
        os.chdir(old)
        sys.path.remove(str(root))


garbage = st.text(max_size=12).filter(lambda t: t not in ("run", "--"))
option_like = st.sampled_from(["--json", "--paper", "--profile", "--seed", "--junit", "--no-run",
                               "--catalogue", "--help", "-h", "--workers", "--no-progress", "-x",
                               "--pap", "--jun", "--", "=", "---"]).filter(lambda t: t != "--")
value = st.one_of(garbage, st.integers(-10**6, 10**6).map(str),
                  st.sampled_from(["quick", "ci", "thorough", "fz.good", "fz.*", "*", "demo", "interp",
                                   "nan", "-1", "0", ""]))
tokens = st.lists(st.one_of(garbage, option_like, value), max_size=6)
catalogues = st.sampled_from(["fuzzcat_pkg", "fuzzcat_pkg", "fuzzcat_pkg", "no_such_catalogue_xyz", "",
                              "json", "1bad", "a..b", "fuzzcat_pkg.fz.claims"])


@st.composite
def argv(draw, world):
    files = world["files"]
    cat = draw(catalogues)
    head = draw(st.sampled_from([["--catalogue", cat], [f"--catalogue={cat}"], []]))
    command = draw(st.sampled_from(["list", "show", "report", "garbage", "none"]))
    rest = draw(tokens)
    if command == "list":
        body = ["list", *rest]
    elif command == "show":
        body = ["show", draw(st.sampled_from(["fz.good", "fz.bad", "fz.nope"]) | garbage), *rest,
                "--no-run"]
    elif command == "report":
        target = draw(st.sampled_from(sorted(p.name for p in files.iterdir())
                                      + ["missing.json", "."]))
        path = str(files / target) if target != "." else str(files)
        extra = draw(st.sampled_from([[], ["--junit", str(world["scratch"] / "r.xml")],
                                      ["--junit", str(files)], ["--junit", "/proc/x.xml"]]))
        body = ["report", path, *extra, *rest]
    elif command == "garbage":
        body = [draw(garbage), *rest]
    else:
        body = rest
    if not head and command in ("list", "show", "none"):
        head = ["--catalogue", "fuzzcat_pkg"]  # never import the real catalogue (slow)
    return head + body


def _call(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            return main(args)
        except SystemExit as e:
            return e.code


def test_cli_never_crashes(world):
    """Rule (o): random argument lists give an exit code in {0, 1, 4, 5}, never another exception."""

    @settings(max_examples=fuzz_examples(150), deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(argv(world))
    def fuzz(args):
        assert "run" not in args[:3] or "--no-run" in args
        code = _call(args)
        assert isinstance(code, int) and code in ALLOWED, (args, code)

    fuzz()


@pytest.mark.parametrize("args, code", [
    (["--catalogue", "fuzzcat_pkg", "list"], 0),
    (["--catalogue", "fuzzcat_pkg", "show", "fz.good", "--no-run"], 0),
    (["--catalogue", "fuzzcat_pkg", "list", "nothing.*"], 5),
    (["--catalogue", "", "list"], 4),
    (["--catalogue", "json.decoder", "list"], 4),
    (["--catalogue", "fuzzcat_pkg", "frobnicate"], 4),
    ([], 4),
    (["--help"], 0),
])
def test_cli_examples(world, args, code):
    """Rule (o): pinned examples of the fuzz space with their exact codes."""
    assert _call(args) == code
