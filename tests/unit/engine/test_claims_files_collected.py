"""Every paper's claims.py is a candidate for the pytest plugin: it mentions CLAIMS and imports verify
(a claims.py that only re-exports from private modules would silently drop its claims from `pytest`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from transformer_theory_verify_plugin import _IMPORTS_VERIFY

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted((ROOT / "theorems").glob("*/claims.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.parent.name)
def test_claims_file_is_a_plugin_candidate(path):
    text = path.read_text()
    assert "CLAIMS" in text and _IMPORTS_VERIFY.search(text), path
