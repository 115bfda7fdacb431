"""Smoke tests of the experiments command's pieces at tiny sizes (figures to a temporary directory)."""

from __future__ import annotations

import os

import pytest

from theorems.ddcl_incrt import experiments as ex
from theorems.ddcl_incrt.coupled import planted_relations, predicted_count, run_planted


def test_predictions_and_validation():
    assert [predicted_count(r, 0.08) for r in (1, 2, 3, 6)] == [1, 2, 3, 6]
    assert predicted_count(6, 0.3) == 3  # a_j/(1.8) > 0.3 for a in (0.8, 0.7, 0.6)
    assert predicted_count(3, 0.08, blind=True) == 2
    with pytest.raises(ValueError, match="r must be"):
        planted_relations(7)


def test_tiny_pipeline_writes_figures(tmp_path):
    log = run_planted(2, seed=0, steps=60, arm_fraction=0.5)
    assert log.checks and log.summary["predicted"] == 2
    so = ex.spectral_order(5, 0)
    assert so["births non-increasing"] is True
    rows, temp = ex.temperature_divergence(0, 50)
    paths = ex.figures(str(tmp_path), [log], temp, 0.08)
    assert all(os.path.exists(p) for p in paths)
