"""Claims of arXiv:2605.01199, Focus and Dilution (spec: focus_dilution.md)."""

CLAIMS: tuple = ()
