"""Registry rules: duplicate ids, missing controls and missing expected verdicts are errors."""

import pickle

import pytest

from verify import Check, CheckError, Claim, Control, Evidence, Registry, RegistryError, Source, Verdict, catalogue


def _ok(*, seed, profile):
    return Evidence(Verdict.CERTIFIED, instances=1, seeds=(seed,))


def make(cid="demo.group.a", *, controls=True, expected=Verdict.CERTIFIED, checks=True):
    return Claim(
        id=cid, title="t", source=Source("0000.00000", "Thm 1", "§1"), statement="s", reading="r",
        checks=(Check("c", _ok),) if checks else (),
        controls=(Control("k", "false variant", Check("c", _ok, {"variant": 1})),) if controls else (),
        expected=expected, strength="derived",
    )


def test_valid_registry():
    reg = Registry([make("demo.a"), make("demo.b")])
    assert reg.ids == ["demo.a", "demo.b"]
    assert reg.select(["demo.*"])[0] == list(reg)
    assert reg.select(["nope"]) == ([], ["nope"])
    assert "demo.a" in reg.suggest("demo.c")
    assert reg.suggest("zzzz") == []


def test_duplicate_id_rejected():
    with pytest.raises(RegistryError, match="duplicate claim id 'demo.a'"):
        Registry([make("demo.a"), make("demo.a")])


def test_missing_control_rejected():
    with pytest.raises(RegistryError, match="no negative control"):
        Registry([make(controls=False)])


def test_missing_expected_rejected():
    with pytest.raises(RegistryError, match="no expected verdict"):
        Registry([make(expected=None)])


def test_missing_check_rejected():
    with pytest.raises(RegistryError, match="no check"):
        Registry([make(checks=False)])


def test_unknown_use_rejected():
    c = make("demo.a")
    bad = Claim(**{**c.__dict__, "id": "demo.b", "uses": ("demo.zzz",)})
    with pytest.raises(RegistryError, match="uses unknown id"):
        Registry([c, bad])


def test_bad_id_rejected():
    with pytest.raises(RegistryError, match="not of the form"):
        make("NoDots")


def test_checks_must_be_module_level_and_pickle():
    with pytest.raises(CheckError, match="module-level"):
        Check("x", lambda **kw: None)
    c = Check("c", _ok, {"a": 1}, role="corroborating")
    c2 = pickle.loads(pickle.dumps(c))
    assert c2.params == {"a": 1} and c2.role == "corroborating" and c2.fn is _ok
    with pytest.raises(CheckError, match="role"):
        Check("c", _ok, role="advisory")


def test_catalogue_is_valid_and_every_claim_has_a_control():
    cat = catalogue()
    assert len(cat) >= 2
    for claim in cat:
        assert claim.controls and isinstance(claim.expected, Verdict)
        pickle.dumps(claim.checks)
        pickle.dumps(claim.controls)
