"""The pytest plugin stays out of the way of unrelated projects and still serves the catalogue.

pytest loads the entry point in every run of an environment where the toolkit is installed, so each
test builds a temporary project and runs ``python -m pytest`` in a subprocess (``sys.path[0]`` is the
project, as for a user; the toolkit is found through its installation).
"""

import importlib.metadata
import sys
import textwrap

import pytest

import transformer_theory_verify_plugin as entry
from verify import PROFILES

pytest_plugins = ["pytester"]

# A cheap catalogue claim (`verify run interp.lemma.rank_one_collapse`: ~1 s on the quick profile).
CHEAP_CLAIM = "interp.lemma.rank_one_collapse"

TOOLKIT_CLAIMS = textwrap.dedent('''
    from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted

    def holds(*, seed, profile):
        return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,))

    def fails(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, counterexample=refuted("no"))

    CLAIMS = (Claim(id="mine.fine", title="t", source=Source("0", "T", "§"), statement="s", reading="r",
                    checks=(Check("main", holds),),
                    controls=(Control("ctrl", "false", Check("main", fails)),),
                    expected=Verdict.CERTIFIED, strength="derived"),)
''')

STRICT_INI = "[pytest]\nfilterwarnings = error\naddopts = -p no:cacheprovider\n"


def test_entry_point_is_the_lazy_module():
    eps = [ep for ep in importlib.metadata.entry_points(group="pytest11")
           if ep.value.startswith(("verify", "transformer_theory_verify"))]
    assert [(ep.name, ep.value) for ep in eps] == [
        ("transformer_theory_verify", "transformer_theory_verify_plugin")], \
        "re-run `pip install -c constraints-cpu.txt -e '.[dev]'` after changing the entry points"
    assert entry.PROFILE_NAMES == tuple(sorted(PROFILES))


def test_entry_point_imports_no_toolkit(pytester):
    res = pytester.run(sys.executable, "-c",
                       "import sys, transformer_theory_verify_plugin; "
                       "print(sorted(m for m in ('verify', 'numerics', 'theorems') if m in sys.modules))")
    assert res.ret == 0 and res.outlines[-1] == "[]"


def test_project_with_its_own_claims_and_verify_module(pytester):
    pytester.makefile(".ini", pytest=STRICT_INI)
    pytester.makepyfile(
        claims='CLAIMS = [{"a": 1}]\n',
        verify="def verify(x):\n    return x\n",
        test_app="import verify\n\n\ndef test_app():\n    assert verify.verify(1) == 1\n",
    )
    res = pytester.runpytest_subprocess()
    res.assert_outcomes(passed=1)
    assert "plugin inactive" not in res.stdout.str() + res.stderr.str()


def test_shadowed_toolkit_is_inert_with_one_line_under_xdist(pytester):
    """A candidate claims.py (imports ``verify``) while a user's verify.py shadows the toolkit."""
    pytest.importorskip("xdist", reason="pytest-xdist is in the dev extra")
    pytester.makefile(".ini", pytest=STRICT_INI)
    pytester.makepyfile(
        claims='from verify import verify\n\nCLAIMS = [verify({"a": 1})]\n',
        verify="def verify(x):\n    return x\n",
        test_app="def test_app():\n    pass\n",
    )
    res = pytester.runpytest_subprocess("-n", "2")
    res.assert_outcomes(passed=1)
    lines = [ln for ln in res.outlines if "transformer-theory-verify: pytest plugin inactive" in ln]
    assert len(lines) == 1 and "'verify' importable here is" in lines[0], res.outlines


def test_project_with_its_own_numerics_and_theorems(pytester):
    pytester.makefile(".ini", pytest=STRICT_INI)
    for pkg in ("numerics", "theorems"):
        pytester.mkpydir(pkg)
        pytester.path.joinpath(pkg, "core.py").write_text("VALUE = 42\n")
    # A candidate claims file: it imports verify, so the plugin looks, finds numerics shadowed, stays inert.
    pytester.path.joinpath("theorems", "claims.py").write_text(
        'import verify  # noqa\n\nCLAIMS = ["mine"]\n')
    pytester.makepyfile(
        test_mine=("from numerics.core import VALUE\nfrom theorems.core import VALUE as V2\n\n\n"
                   "def test_mine():\n    assert VALUE == V2 == 42\n"),
        check_fixture="def test_profile(verify_profile):\n    pass\n",
    )
    res = pytester.runpytest_subprocess()
    res.assert_outcomes(passed=1)
    res.stdout.fnmatch_lines(
        ["*transformer-theory-verify: pytest plugin inactive ('numerics' importable here is*"])
    # The fixtures cannot work here: they fail with the reason instead of importing the wrong package.
    res = pytester.runpytest_subprocess("check_fixture.py")
    res.assert_outcomes(errors=1)
    res.stdout.fnmatch_lines(["*verify_profile fixture is unavailable: 'numerics' importable here is*"])


def test_project_with_toolkit_claims_is_collected(pytester):
    """Toolkit claims are items; another library's CLAIMS is silently not ours; a mixture is an error.

    In-process: the toolkit is the one imported here, and the run needs no import isolation.
    """
    pytester.makefile(".ini", pytest=STRICT_INI)
    pytester.makepyfile(claims=TOOLKIT_CLAIMS,
                        test_profile="def test_profile(verify_profile):\n"
                                     "    assert verify_profile.name == 'ci'\n")
    for sub, body in [("other", 'from verify import Verdict  # noqa\n\nCLAIMS = [{"a": 1}]\n'),
                      ("mixed", 'import verify  # noqa\nfrom claims import CLAIMS as MINE\n\n'
                                'CLAIMS = MINE + ("x",)\n')]:
        pytester.path.joinpath(sub).mkdir()
        pytester.path.joinpath(sub, "claims.py").write_text(body)
    res = pytester.runpytest_inprocess("-v", "--verify-profile", "ci", "-p", "no:xdist",
                                      "--continue-on-collection-errors")
    res.assert_outcomes(passed=2, errors=1)
    res.stdout.fnmatch_lines_random(["*claims.py::mine.fine PASSED*",
                                     "*test_profile.py::test_profile PASSED*",
                                     "*ERROR*mixed/claims.py*",
                                     "claims.py: CLAIMS mixes Claim objects with 1 other value(s)*"])
    assert "other/claims.py" not in res.stdout.str() and "inactive" not in res.stdout.str()


def test_catalogue_by_pyargs_from_an_unrelated_directory(pytester):
    pytester.makepyfile(test_mine=f'''
        def test_against_theory(verify_claim):
            assert verify_claim("{CHEAP_CLAIM}").passed
    ''')
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--pyargs", "theorems",
                                        "test_mine.py", "-k", f"{CHEAP_CLAIM} or test_against_theory")
    res.assert_outcomes(passed=2)
    res.stdout.fnmatch_lines_random([f"*interpolation/claims.py::{CHEAP_CLAIM} PASSED*",
                                     "*test_mine.py::test_against_theory PASSED*"])

