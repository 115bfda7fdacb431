"""A small fake catalogue package for the CLI and plugin tests (written to a temporary directory)."""

import sys
import textwrap

import pytest

FAKE_CLAIMS = textwrap.dedent('''
    from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted


    def holds(*, seed, profile, level="CERTIFIED"):
        return Evidence(Verdict.parse(level), instances=2, margin_min=0.5, seeds=(seed,),
                        precision="exact", backend="test")


    def fails(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, seeds=(seed,),
                        counterexample=refuted("1 > 0", margin=-1.0, x=1))


    def crashes(*, seed, profile):
        raise ZeroDivisionError("boom")


    def _claim(cid, expected, control_fn, check_fn=holds, params=None):
        return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"),
                     statement="x = x", reading="r",
                     checks=(Check("main", check_fn, params or {}),),
                     controls=(Control("ctrl", "a false variant", Check("main", control_fn)),),
                     expected=expected, strength="derived")


    CLAIMS = (
        _claim("demo.good", Verdict.CERTIFIED, fails),
        _claim("demo.other", Verdict.PROVED, fails, params={"level": "PROVED"}),
        _claim("demo.wrong_expectation", Verdict.PROVED, fails),
        _claim("demo.control_not_refuted", Verdict.CERTIFIED, holds),
        _claim("demo.crash", Verdict.CERTIFIED, fails, check_fn=crashes),
    )
''')


@pytest.fixture(scope="session")
def fake_catalogue(tmp_path_factory):
    root = tmp_path_factory.mktemp("fakecat")
    pkg = root / "fakecat_pkg"
    (pkg / "demo").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "demo" / "__init__.py").write_text("")
    (pkg / "demo" / "claims.py").write_text(FAKE_CLAIMS)
    sys.path.insert(0, str(root))
    yield "fakecat_pkg"
    sys.path.remove(str(root))
