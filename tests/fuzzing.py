"""How many hypothesis examples the bad-input fuzz modules draw, by profile.

The fuzz modules (``tests/unit/*/test_*_fuzz_*.py``) run in the default suite at the quick profile and
draw more at ``ci`` and ``thorough``: ``pytest --verify-profile thorough`` (or the environment variable
``VERIFY_FUZZ_PROFILE``) multiplies every module's ``max_examples``.
"""

from __future__ import annotations

import os

__all__ = ["FACTORS", "fuzz_examples", "fuzz_profile"]

#: examples drawn relative to the quick profile
FACTORS = {"quick": 1, "ci": 4, "thorough": 20}


def fuzz_profile() -> str:
    name = os.environ.get("VERIFY_FUZZ_PROFILE", "quick")
    if name not in FACTORS:
        raise ValueError(f"VERIFY_FUZZ_PROFILE must be one of {sorted(FACTORS)}, got {name!r}")
    return name


def fuzz_examples(n: int) -> int:
    """``n`` examples at quick, scaled up at ci and thorough."""
    return n * FACTORS[fuzz_profile()]
