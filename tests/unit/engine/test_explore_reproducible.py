"""Hypothesis draws in ``Tally.explore`` depend on the seed alone (reproducible: every random instance
from a recorded seed), not on which local modules the process loaded before -- hypothesis >= 6.131 mixes
numeric literals of loaded local modules into its draws, which made a catalogue run's instances depend on
the order the claims ran in."""

from __future__ import annotations

import importlib
import sys
import textwrap

from hypothesis import strategies as st

from verify import Observation, Tally, Verdict
from verify._tally import explore

STRATEGY = st.tuples(st.integers(-10**12, 10**12), st.floats(-1e9, 1e9, allow_nan=False),
                     st.integers(0, 10**9))


def _draws(seed: int) -> list:
    seen: list = []
    tally = Tally(precision="t", backend="t", seeds=(seed,))

    def body(x):
        seen.append(x)
        return Observation(Verdict.CONSISTENT, margin=1.0)

    explore(STRATEGY, body, tally, seed=seed, max_examples=200)
    assert not tally.notes, tally.notes  # the internals were found: draws are from the seed alone
    return seen


def test_draws_do_not_depend_on_the_local_modules_loaded(tmp_path, monkeypatch):
    before = _draws(7)
    # a local module full of literals hypothesis would otherwise mix into its draws
    lits = ", ".join(str(v) for v in [987654321987, 123456789, 777777777, 31415926535, 271828182])
    flits = ", ".join(repr(v) for v in [0.123456789, 98765.4321, 1e8 + 0.5, -4321.125])
    (tmp_path / "_local_literals_mod.py").write_text(textwrap.dedent(f"""
        INTS = [{lits}]
        FLOATS = [{flits}]
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        importlib.import_module("_local_literals_mod")
        after = _draws(7)
    finally:
        sys.modules.pop("_local_literals_mod", None)
    assert after == before


def test_the_hypothesis_state_is_restored_after_explore():
    from hypothesis.internal.conjecture import providers as hp

    getter, cache = hp._get_local_constants, hp.CONSTANTS_CACHE
    _draws(3)
    assert hp._get_local_constants is getter and hp.CONSTANTS_CACHE is cache
