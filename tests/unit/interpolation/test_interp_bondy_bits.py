"""The Bondy separation keeps bit sizes bounded in R and stays exact (issue #14 item 2).

Oracles: the dataset's own targets (exact set equality of the evaluated outputs), bit lengths of the
emitted parameters read from the blocks, and the tokens after stage S recomputed by a fresh exact run.
"""

from __future__ import annotations

import random

import pytest

from theorems.interpolation import ConstructionError, Dataset, build_interpolator
from theorems.interpolation.blocks import ExactState


def _dataset(N: int, n: int, d: int, seed: int) -> Dataset:
    """N distinct sequences of n/2..n tokens drawn from a small shared integer pool (many shared tokens)."""
    rng = random.Random(seed)
    pool = list({tuple(rng.randint(-6, 6) for _ in range(d)) for _ in range(max(N * n // 2, 2 * n))})
    ins, seen = [], set()
    while len(ins) < N:
        s = rng.sample(pool, rng.randint(max(1, n // 2), n))
        if frozenset(s) not in seen:
            seen.add(frozenset(s))
            ins.append(s)
    outs = [[tuple(rng.randint(-3, 3) for _ in range(d))] for _ in ins]
    return Dataset(ins, outs)


def _stage_s_bits(m) -> int:
    st = ExactState([[tuple(t) for t in x] for x in m.dataset.inputs], m.Q).run(m.blocks[:m.R])
    return max(int(v.denominator if hasattr(v, "denominator") else v.q).bit_length() for t in st.P for v in t)


def test_bondy_hardmax_exact_and_bits_do_not_grow_with_R():
    small = build_interpolator(_dataset(6, 6, 4, 1), "hardmax", separation="bondy")
    big = build_interpolator(_dataset(40, 6, 4, 2), "hardmax", separation="bondy")
    for m in (small, big):
        assert m.separation == "bondy" and m.interpolates()
        assert m.num_blocks == m.R + 2 * m.dataset.M
    assert big.R >= 3 * small.R >= 9
    # telescoping steps: 40 bits or so at either size; the spec's independent dyadic steps added ~40 bits
    # per round (7972 bits at R = 199)
    assert _stage_s_bits(big) <= _stage_s_bits(small) + 12
    assert big.max_denominator_bits() <= 3 * small.max_denominator_bits()
    assert big.max_denominator_bits() < 200


def test_bondy_softmax_directions_tie_free():
    D = _dataset(8, 5, 3, 3)
    m = build_interpolator(D, "softmax", separation="bondy")
    assert m.separation == "bondy" and m.R >= 2
    assert m.interpolates(m.evaluate_dataset())  # the softmax build's hardmax limit is exact


def test_bondy_d2_lattice():
    """d = 2: the direction lattice is one-dimensional and refines with R."""
    m = build_interpolator(_dataset(12, 4, 2, 4), "hardmax", separation="bondy")
    assert m.interpolates()
    assert m.stats["sep_lattice"] >= 6


def test_bondy_post_check_refuses_a_broken_drift(monkeypatch):
    """With the steps forced to zero no sequence drifts, shared tokens coincide, and the exact
    post-check of stage S refuses the build (it never reaches the later stages)."""
    from theorems.interpolation import separation

    real = separation._SeparationStage._run_bondy

    def no_drift(self, E, geo, T1, c, w0, g0, epss):
        return real(self, E, geo, T1, c, w0, g0, [0 * e for e in epss])

    monkeypatch.setattr(separation._SeparationStage, "_run_bondy", no_drift)
    with pytest.raises(ConstructionError, match="stage S"):
        build_interpolator(_dataset(6, 6, 4, 1), "hardmax", separation="bondy")
