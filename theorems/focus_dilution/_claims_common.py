"""What the claim modules of focus_dilution share: the paper id and the seed text's path (every claim's
statement is a sympy object or a quantified form; no prose statement is left)."""

from __future__ import annotations

PAPER = "2605.01199"
SEED = "seeds/002_33c0cd80d27af751.txt.en.md"

