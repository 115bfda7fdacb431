"""The mutation catalogue stays applicable: every seeded bug still finds its snippet exactly once.

Running the mutations is ``python -m tests.mutation`` (minutes; not part of the default suite).  This
test only keeps the list honest as the code moves, so that a mutation never silently stops applying.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

from tests.mutation import all_mutations

ROOT = Path(__file__).resolve().parents[3]
MUTATIONS = all_mutations()


@pytest.mark.parametrize("m", MUTATIONS, ids=[m.id for m in MUTATIONS])
def test_mutation_applies_once(m):
    m.apply((ROOT / m.path).read_text())


def test_mutation_targets_exist():
    from verify import catalogue

    ids = [c.id for c in catalogue()]
    for m in MUTATIONS:
        for pattern in m.claim_patterns:
            assert fnmatch.filter(ids, pattern), f"{m.id}: no claim matches {pattern!r}"
        for node in m.pytest_ids:
            assert (ROOT / node.split("::")[0]).exists(), f"{m.id}: no test file {node!r}"
