"""The pytest plugin: claims become items; wrong verdicts and unrefuted controls fail."""

import textwrap

import pytest

pytest_plugins = ["pytester"]

HEADER = textwrap.dedent('''
    from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted

    def holds(*, seed, profile):
        return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,))

    def fails(*, seed, profile):
        return Evidence(Verdict.REFUTED, instances=1, counterexample=refuted("no"))

    def claim(cid, expected, control):
        return Claim(id=cid, title=cid, source=Source("0", "T", "§"), statement="s", reading="r",
                     checks=(Check("main", holds),),
                     controls=(Control("ctrl", "false", Check("main", control)),),
                     expected=expected, strength="derived")
''')


def _write(pytester, body):
    pytester.makepyfile(claims=HEADER + textwrap.dedent(body))


def test_items_pass_only_at_expected_verdict_with_controls_refuted(pytester):
    _write(pytester, '''
        CLAIMS = (claim("demo.fine", Verdict.CERTIFIED, fails),
                  claim("demo.overclaimed", Verdict.PROVED, fails),      # observed CERTIFIED
                  claim("demo.weak_control", Verdict.CERTIFIED, holds))  # control not refuted
    ''')
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v")
    res.assert_outcomes(passed=1, failed=2)
    res.stdout.fnmatch_lines_random([
        "*claims.py::demo.fine PASSED*",
        "*claims.py::demo.overclaimed FAILED*",
        "*claims.py::demo.weak_control FAILED*",
        "*observed CERTIFIED, expected PROVED*",
        "*control ctrl was not refuted*",
    ])


def test_k_selection_and_profile_option(pytester):
    _write(pytester, '''
        CLAIMS = (claim("demo.alpha", Verdict.CERTIFIED, fails),
                  claim("demo.beta", Verdict.PROVED, fails))
    ''')
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "alpha",
                                        "--verify-profile", "ci")
    res.assert_outcomes(passed=1, deselected=1)


def test_xdist(pytester):
    pytest.importorskip("xdist", reason="pytest-xdist is in the dev extra")
    _write(pytester, '''
        CLAIMS = (claim("demo.alpha", Verdict.CERTIFIED, fails),
                  claim("demo.beta", Verdict.CERTIFIED, fails))
    ''')
    res = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    res.assert_outcomes(passed=2)
