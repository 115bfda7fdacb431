"""A toy check that can run sharded (module-level, so process workers can import it)."""

from __future__ import annotations

from fractions import Fraction

from verify import Tally, refuted


def squares(*, seed, profile, shard=(0, 1), bad=None, crash_shard=None):
    index, count = shard
    if index == crash_shard:
        raise RuntimeError(f"shard {index} crashed")
    t = Tally(precision="exact", backend="fractions", seeds=(seed,))
    for k in range(12):
        if k % count != index:
            continue
        v = Fraction(k, 7)
        bads = bad if isinstance(bad, tuple) else (bad,)
        lhs = v * v if k not in bads else v * v + 1
        # shards interleave the instances: the counterexample carries its instance index as "order"
        t.exact(lhs == v**2, margin=Fraction(k),
                counterexample=lambda k=k: refuted(f"k = {k}", k=k, order=k))
    t.details["instances_planned"] = 12
    return t.evidence()


def no_shard_param(*, seed, profile):
    return Tally(precision="", backend="").evidence()
