"""Shared helpers of the ddcl claim modules (``claims.py`` and ``_claims_*.py``)."""

PAPER = "2604.01880"


def _text(s):
    """A lazy text statement (a claim whose statement is not yet a formula)."""
    return lambda: s
