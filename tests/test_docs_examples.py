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


def test_readme_strengths_and_refuted_kinds_match_the_catalogue():
    """The README states the catalogue's strengths, counts the two kinds of REFUTED separately, and lists
    every expected-REFUTED claim under the right kind: "the source's statement does not hold" only for
    as-stated or code claims, "where a stronger reading stops" for every other one."""
    from collections import Counter

    from verify import STRENGTHS, Verdict, catalogue

    text = (ROOT / "README.md").read_text()
    cat = list(catalogue())
    m = re.search(r"Every claim states its strength: as-stated (\d+), strengthened (\d+), repaired (\d+), "
                  r"code (\d+) and derived (\d+)", text)
    strengths = Counter(c.strength for c in cat)
    assert [int(x) for x in m.groups()] == [strengths[s] for s in STRENGTHS]
    refuted = [c for c in cat if c.expected is Verdict.REFUTED]
    source = {c.id for c in refuted if c.is_source_statement}
    boundary = {c.id for c in refuted} - source
    m = re.search(r"Of the (\d+) REFUTED\s+claims, (\d+) are where the source's statement does not hold and "
                  r"(\d+) are boundary findings", text)
    assert [int(x) for x in m.groups()] == [len(refuted), len(source), len(boundary)]
    start = text.index("**The source's statement does not hold**")
    middle = text.index("**Where a stronger reading stops**")
    end = text.index("`verify show ID` prints any claim")
    first_col = re.compile(r"^\| `([a-z0-9_.]+)`", re.M)
    assert set(first_col.findall(text[start:middle])) == source
    assert set(first_col.findall(text[middle:end])) == boundary
    # the README calls a paper's statement refuted only through an as-stated (or code) claim
    assert "literal readings" not in text and "as stated" not in text.replace("as-stated", "")
