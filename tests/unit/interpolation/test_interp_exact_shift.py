"""ShiftState (lazy per-sequence translations) computes exactly what ExactState computes.

Oracle: the plain ExactState run of the same blocks on the same inputs (itself checked against the
Fraction reference evaluator by interp.hardmax.exact), token by token, after every block.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from theorems.interpolation import Dataset, build_interpolator
from theorems.interpolation.blocks import FF, SA, Block, ExactState
from theorems.interpolation.exact_shift import ShiftState
from numerics.attention import AttentionMatrix


def _data(seed: int, N: int = 7, n: int = 5, d: int = 3) -> Dataset:
    rng = random.Random(seed)
    pool = list({tuple(rng.randint(-4, 4) for _ in range(d)) for _ in range(3 * n)})
    ins, seen = [], set()
    while len(ins) < N:
        s = rng.sample(pool, rng.randint(2, n))
        if frozenset(s) not in seen:
            seen.add(frozenset(s))
            ins.append(s)
    return Dataset(ins, [[tuple(rng.randint(-2, 2) for _ in range(d))] for _ in ins])


def _blockwise_equal(blocks, inputs, Q) -> int:
    ref = ExactState(inputs, Q)
    lazy = ShiftState(inputs, Q)
    for k, blk in enumerate(blocks):
        ref.apply(blk)
        lazy.apply(blk)
        assert lazy.sequences() == ref.sequences(), f"block {k} ({blk.label})"
    assert lazy.P == ref.P  # materialised view
    return lazy._pending


def test_shift_state_matches_exact_state_on_constructed_networks():
    for seed, att, sep in [(1, "hardmax", "bondy"), (2, "softmax", "bondy"), (3, "hardmax", "mean")]:
        D = _data(seed)
        m = build_interpolator(D, att, separation=sep)
        inputs = [[tuple(t) for t in x] for x in D.inputs]
        _blockwise_equal(m.blocks, inputs, m.Q)


def test_shift_state_flushes_before_scaling_and_uniform_attention():
    """Pending translations, then eta != 1, a translation FF (const), uniform attention with rho != 1,
    a collapse (rho = 0) and a non-unit rho top attention: every path agrees with ExactState."""
    Q = F
    d = 2
    inputs = [[(F(1), F(2)), (F(3), F(-1)), (F(5), F(5))], [(F(2), F(2)), (F(-1), F(4))]]
    top = SA(1, F(1, 7), AttentionMatrix(factors=(((F(1), F(1, 3)), (F(1), F(0))),)))
    blocks = [
        Block(FF(1, ((F(0), F(0)),), (F(1),), ((F(40), F(0)),)), top, label="translate + top"),
        Block(FF(1, (), (), ()), top, label="top again (pending grows)"),
        Block(FF(F(1, 2), ((F(1), F(0)),), (F(-43),), ((F(1), F(1)),)), SA(1, 0), label="eta = 1/2 hat"),
        Block(FF(1, (), (), ()), SA(F(2), F(1, 3), None), label="uniform, rho = 2"),
        Block(FF(1, (), (), ()), top, label="top"),
        Block(FF(1, (), (), ()), SA(F(3), F(1, 5), top.A), label="top with rho = 3"),
        Block(FF(1, (), (), ()), top, label="top"),
        Block(FF(1, (), (), ()), SA(0, 1, AttentionMatrix(alpha=1)), label="collapse"),
    ]
    assert _blockwise_equal(blocks, inputs, Q) == 0


def test_shift_state_copy_is_independent():
    D = _data(4)
    m = build_interpolator(D, "hardmax", separation="bondy")
    st = ShiftState([[tuple(t) for t in x] for x in D.inputs], m.Q)
    st.run(m.blocks[:m.R])
    assert st._pending > 0
    snap = st.sequences()
    cp = st.copy()
    cp.run(m.blocks[m.R:])
    assert st.sequences() == snap
    assert cp.sequences() == ExactState([[tuple(t) for t in x] for x in D.inputs], m.Q).run(m.blocks).sequences()
