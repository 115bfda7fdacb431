"""Jupyter representations (issue 12): HTML and LaTeX for Claim, ClaimOutcome and Evidence."""

from __future__ import annotations

from html.parser import HTMLParser

from verify import run_claim

from ._toy_statement_claims import CLAIM


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.ok = [], True

    def handle_starttag(self, tag, attrs):
        if tag not in ("br",):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.ok = False


def _well_formed(s: str) -> bool:
    p = _Tags()
    p.feed(s)
    return p.ok and not p.stack


def test_claim_outcome_evidence_render():
    h = CLAIM._repr_html_()
    assert _well_formed(h) and "toy.statement.square" in h and r"\forall" in h
    assert CLAIM._repr_latex_().startswith("$")
    o = run_claim(CLAIM)
    oh = o._repr_html_()
    assert _well_formed(oh) and "CERTIFIED" in oh and "derivation steps" in oh and "PROVED" in oh
    assert "CERTIFIED" in o._repr_latex_()
    ev = o.checks[0].evidence
    assert _well_formed(ev._repr_html_()) and "instances" in ev._repr_html_()
    assert ev._repr_latex_().startswith("$")


def test_html_escapes_user_text():
    from dataclasses import replace

    c = replace(CLAIM, title="<script>alert(1)</script>")
    assert "<script>" not in c._repr_html_()
