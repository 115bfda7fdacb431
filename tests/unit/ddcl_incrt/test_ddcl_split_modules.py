"""The ddcl modules split by concern keep their entry points, and the figure data they add are right.

* ``_checks_separation.hmin_curve``: the smallest exact collapse-Hessian eigenvalue changes sign at
  tau_c = c lambda_1 (c = 4 full, 2 stop-gradient) and equals min(2/K, (2/K)(1 - c lambda_1/tau));
* ``_checks_faithful``: the entry points moved to ``_checks_faithful_growth`` still resolve;
* ``DictionaryBlock`` lives in ``dictionary_torch`` only (``theorems.ddcl_incrt.DictionaryBlock`` is lazy);
* ``simulate_heads(record_every=...)`` records tau and H/log K at the same steps.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest


def test_hmin_curve_changes_sign_at_the_critical_temperature():
    from theorems.ddcl_incrt._checks_separation import _grid, hmin_curve

    Z = _grid([F(1), F(1, 2)])  # C = diag(1, 1/4): lambda_1 = 1
    for mode, c in (("full", 4), ("stopgrad", 2)):
        taus = [F(c, 2), F(c), F(2 * c)]
        h = hmin_curve(Z, 2, mode, taus)
        assert h[0] < 0 and h[1] == pytest.approx(0.0, abs=1e-15) and h[2] > 0
        for t, v in zip(taus, h):
            assert v == pytest.approx(min(1.0, float(1 - c / t)), rel=1e-14, abs=1e-15)


def test_faithful_entry_points_have_one_home_each():
    """The growth/Lyapunov candidates live in _checks_faithful_growth only (no shim back into
    _checks_faithful: that was an import circle); both share _candidates.run_candidates."""
    from theorems.ddcl_incrt import _candidates
    from theorems.ddcl_incrt import _checks_faithful as fai
    from theorems.ddcl_incrt import _checks_faithful_growth as faig

    assert not hasattr(fai, "unique_minimal_online") and callable(faig.unique_minimal_online)
    assert [n for n, _, _ in faig._lyapunov_candidates()] == ["ddcl.lyapunov.free_energy",
                                                                 "ddcl.lyapunov.full_gradient"]
    assert fai.run_candidates is faig.run_candidates is _candidates.run_candidates
    with pytest.raises(KeyError):
        fai._candidates("lyapunov")


def test_dictionary_block_resolves_to_the_torch_module():
    pytest.importorskip("torch")
    from theorems.ddcl_incrt import dictionary, dictionary_torch

    assert not hasattr(dictionary, "DictionaryBlock")  # one home: dictionary_torch (no import circle)


def test_simulate_heads_records_tau_and_entropy_together():
    from theorems.ddcl_incrt._temperature_sim import simulate_heads

    out = simulate_heads([0.05, 1.0], mode="full", drive="L_q", steps=60, seed=0, N=64, record_every=20)
    assert [t for t, _ in out["trajectory"]] == [t for t, _ in out["entropy_trajectory"]] == [0, 20, 40]
    assert all(0.0 <= h <= 1.0 + 1e-12 for _, hs in out["entropy_trajectory"] for h in hs)
