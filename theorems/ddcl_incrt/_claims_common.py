"""Shared by the ddcl claim modules (``claims.py`` and ``_claims_*.py``): the paper id."""

PAPER = "2604.01880"

