"""A toy check that can run sharded (module-level, so process workers can import it)."""

from __future__ import annotations

from fractions import Fraction

from verify import Tally, refuted


def squares(*, seed, profile, shard=(0, 1), bad=None):
    index, count = shard
    t = Tally(precision="exact", backend="fractions", seeds=(seed,))
    for k in range(12):
        if k % count != index:
            continue
        v = Fraction(k, 7)
        lhs = v * v if k != bad else v * v + 1
        t.exact(lhs == v**2, margin=Fraction(k), counterexample=lambda k=k: refuted(f"k = {k}", k=k))
    t.details["instances_planned"] = 12
    return t.evidence()


def no_shard_param(*, seed, profile):
    return Tally(precision="", backend="").evidence()
