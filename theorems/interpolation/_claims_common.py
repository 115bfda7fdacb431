"""Names shared by the interpolation claim modules (arXiv:2502.02270; spec interpolation.md §2.1)."""

from __future__ import annotations

PAPER = "2502.02270"

HYP = ("A1 tokens inside each X^j pairwise distinct", "A2 the X^j pairwise distinct as sets",
       "A3 targets inside each Y^j pairwise distinct", "A4 1 <= m_j <= n_j", "d >= 2, finite rational tokens")
