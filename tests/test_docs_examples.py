"""Every ```python block in README.md and docs/*.md runs as printed."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _blocks():
    seen = set()  # README repeats the docs pages' API examples: run each distinct block once
    for doc in DOCS:
        if doc.exists():
            for k, m in enumerate(BLOCK.finditer(doc.read_text())):
                if m.group(1) not in seen:
                    seen.add(m.group(1))
                    yield pytest.param(m.group(1), id=f"{doc.name}[{k}]")


@pytest.mark.parametrize("code", list(_blocks()))
def test_example_runs(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<doc example>", "exec"), {"__name__": "__doc_example__"})


def test_readme_counts_match_the_catalogue():
    """The README's summary of the catalogue states the expected verdicts of the current catalogue."""
    from collections import Counter

    from verify import catalogue

    text = (ROOT / "README.md").read_text()
    n = int(re.search(r"checks (\d+) claims", text).group(1))
    m = re.search(r"PROVED (\d+), CERTIFIED (\d+), CONSISTENT (\d+) and REFUTED (\d+)", text)
    counts = Counter(c.expected.value for c in catalogue())
    assert n == len(catalogue())
    assert [int(x) for x in m.groups()] == [counts[v] for v in ("PROVED", "CERTIFIED", "CONSISTENT", "REFUTED")]
