"""What the claim modules of focus_dilution share: the paper id, the seed text's path, and the plain-text
statement wrapper (kept for statements not yet written as formulas)."""

from __future__ import annotations

PAPER = "2605.01199"
SEED = "seeds/002_33c0cd80d27af751.txt.en.md"


def _text(s: str):
    return lambda: s
