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


# -- Check.seed_of: a task that draws its instances from another check's seed -------------------------
def _seeded(cid="demo.seed.a", *, control_seed_of="", check_seed_of=""):
    return Claim(
        id=cid, title="t", source=Source("0000.00000", "Thm 1", "§1"), statement="s", reading="r",
        checks=(Check("c", _ok), Check("d", _ok, seed_of=check_seed_of)),
        controls=(Control("k", "false variant", Check("c", _ok, {"variant": 1}, seed_of=control_seed_of)),),
        expected=Verdict.CERTIFIED, strength="derived",
    )


def test_seed_of_gives_the_named_checks_seed():
    """A control with seed_of="c" runs at check c's seed (its own name's seed otherwise); a check may name
    another claim's check; the seeds are derive_seed(base, claim id, check name) of the owner."""
    from verify import derive_seed, run_claims

    own = run_claims([_seeded()], seed=5).outcomes[0]
    assert own.controls[0].seed == derive_seed(5, "demo.seed.a", "k") != own.checks[0].seed
    shared = run_claims([_seeded(control_seed_of="c")], seed=5).outcomes[0]
    assert shared.controls[0].seed == shared.checks[0].seed == derive_seed(5, "demo.seed.a", "c")
    assert shared.controls[0].evidence.seeds == (shared.checks[0].seed,)
    other = _seeded("demo.seed.b", check_seed_of=("demo.seed.a", "c"))
    Registry([_seeded(), other])  # valid
    got = run_claims([other], seed=5).outcomes[0]  # the owner need not run
    assert got.checks[1].seed == derive_seed(5, "demo.seed.a", "c")


def test_seed_of_survives_pickle_and_shards():
    chk = Check("d", _ok, seed_of=("demo.seed.a", "c"))
    assert pickle.loads(pickle.dumps(chk)).seed_of == ("demo.seed.a", "c")
    assert chk.shard(0, 2).seed_of == ("demo.seed.a", "c")


@pytest.mark.parametrize("kw,match", [
    ({"control_seed_of": "zzz"}, "check 'zzz', which does not exist"),
    ({"control_seed_of": "k"}, "check 'k', which does not exist"),  # a control owns no borrowable seed
    ({"control_seed_of": "d", "check_seed_of": "c"}, "which takes its own from 'c'"),
    ({"check_seed_of": "d"}, "which takes its own from 'd'"),
])
def test_seed_of_must_name_a_check_that_owns_its_seed(kw, match):
    with pytest.raises(RegistryError, match=match):
        Registry([_seeded(**kw)])


def test_seed_of_across_claims_is_checked():
    with pytest.raises(RegistryError, match="unknown claim 'demo.nope'"):
        Registry([_seeded(check_seed_of=("demo.nope", "c"))])
    with pytest.raises(RegistryError, match="check 'x', which does not exist"):
        Registry([_seeded(), _seeded("demo.seed.b", check_seed_of=("demo.seed.a", "x"))])


@pytest.mark.parametrize("bad", [3, ("a",), ("a", ""), ["a", "b"], ("a", "b", "c")])
def test_seed_of_type_is_checked(bad):
    with pytest.raises(CheckError, match="seed_of must be"):
        Check("c", _ok, seed_of=bad)
