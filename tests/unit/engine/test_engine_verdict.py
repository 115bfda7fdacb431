"""Verdict levels, the combination rule, evidence serialisation."""

import pytest

from verify import Counterexample, Evidence, Verdict, combine


def test_refuted_dominates():
    assert combine([Verdict.PROVED, Verdict.REFUTED, Verdict.CERTIFIED]) is Verdict.REFUTED
    assert combine([Verdict.UNKNOWN, Verdict.REFUTED]) is Verdict.REFUTED


@pytest.mark.parametrize(
    "levels, expected",
    [
        ([Verdict.PROVED, Verdict.CERTIFIED], Verdict.CERTIFIED),
        ([Verdict.PROVED, Verdict.CONSISTENT, Verdict.CERTIFIED], Verdict.CONSISTENT),
        ([Verdict.PROVED], Verdict.PROVED),
        ([Verdict.CERTIFIED, Verdict.UNKNOWN], Verdict.UNKNOWN),
    ],
)
def test_weakest_level_wins(levels, expected):
    assert combine(levels) is expected


def test_unknown_is_never_coerced():
    assert combine([Verdict.UNKNOWN, Verdict.PROVED]) is Verdict.UNKNOWN
    assert combine([]) is Verdict.UNKNOWN
    with pytest.raises(TypeError, match="not a boolean"):
        bool(Verdict.UNKNOWN)
    with pytest.raises(TypeError):
        if Verdict.PROVED:  # noqa: SIM108 - the point is that this raises
            pass
    assert Verdict.UNKNOWN.holds is False
    assert Verdict.CONSISTENT.holds is True


def test_combine_rejects_non_verdicts():
    with pytest.raises(TypeError):
        combine([True])


def test_refuted_evidence_needs_counterexample():
    with pytest.raises(ValueError, match="Counterexample"):
        Evidence(Verdict.REFUTED)
    with pytest.raises(TypeError):
        Evidence("PROVED")


def test_evidence_json_round_trip():
    ev = Evidence(Verdict.REFUTED, instances=3, margin_min=-0.5, margin_max=float("inf"), error=1e-3,
                  tolerance=1e-12, precision="dps=50", backend="mpmath", seeds=(1, 2),
                  counterexample=Counterexample("x > y", {"x": [1, 2]}, margin=-0.5, seed=7),
                  notes="n", details={"slope": 1.0})
    back = Evidence.from_json(ev.to_json())
    assert back == ev


def test_parse():
    assert Verdict.parse("certified") is Verdict.CERTIFIED
    with pytest.raises(ValueError, match="unknown verdict"):
        Verdict.parse("TRUE")
