"""Jupyter display: HTML and LaTeX representations of claims, outcomes and evidence.

``Claim``, ``ClaimOutcome`` and ``Evidence`` carry ``_repr_html_`` and ``_repr_latex_`` built here: the
statement (LaTeX, rendered by the notebook's MathJax), hypotheses, reading, the verdict with its
evidence per check and control, counterexamples, and derivation steps with their status.  Everything
user-visible is escaped; no script, no network.
"""

from __future__ import annotations

import html
from typing import Any

__all__ = ["claim_html", "claim_latex", "evidence_html", "evidence_latex", "outcome_html", "outcome_latex"]

_COLOURS = {"PROVED": "#1b7837", "CERTIFIED": "#1b7837", "CONSISTENT": "#5aae61", "UNKNOWN": "#999999",
            "REFUTED": "#c51b7d"}


def _e(x: Any) -> str:
    return html.escape(str(x))


def _badge(level: Any) -> str:
    name = getattr(level, "value", str(level))
    return (f'<span style="background:{_COLOURS.get(name, "#777")};color:white;padding:1px 6px;'
            f'border-radius:3px;font-family:monospace">{_e(name)}</span>')


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.3g}"
    return _e(x)


def _steps_html(rows: Any) -> str:
    if not rows:
        return ""
    body = "".join(
        f"<tr><td>{r.get('index', '')}</td><td>{_e(r.get('label', ''))}</td>"
        f"<td>${_e(r.get('latex', ''))}$</td><td>{_e(r.get('status', ''))}</td>"
        f"<td>{_e(r.get('method', ''))}</td></tr>" for r in rows)
    return ("<details><summary>derivation steps</summary><table><tr><th>#</th><th>step</th>"
            f"<th>expression</th><th>status</th><th>how</th></tr>{body}</table></details>")


def evidence_html(ev: Any) -> str:
    rows = [("level", _badge(ev.level)), ("instances", _num(ev.instances)),
            ("precision", _e(ev.precision or "-")), ("backend", _e(ev.backend or "-")),
            ("achieved error", _num(ev.error)), ("tolerance", _num(ev.tolerance)),
            ("weakest margin", _num(ev.margin_min)), ("seeds", _e(", ".join(map(str, ev.seeds)) or "-")),
            ("time", f"{ev.wall_time:.2f} s")]
    if ev.counterexample is not None:
        rows.append(("counterexample", _e(ev.counterexample.description)))
    if ev.notes:
        rows.append(("notes", _e(ev.notes[:500])))
    table = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{table}</table>" + _steps_html(ev.details.get("steps"))


def evidence_latex(ev: Any) -> str:
    err = "" if ev.error is None else rf",\ \text{{error}}\ {ev.error:.3g}"
    tol = "" if ev.tolerance is None else rf",\ \text{{tol}}\ {ev.tolerance:.3g}"
    return (rf"$\text{{{ev.level.value}}}:\ {ev.instances}\ \text{{instances}},\ "
            rf"\text{{{_tex(ev.precision or '-')}}}{err}{tol}$")


def _tex(s: str) -> str:
    from ._statement import _tex_text

    return _tex_text(s)


def claim_html(c: Any) -> str:
    hyp = "".join(f"<li>{_e(h)}</li>" for h in c.hypotheses)
    checks = "".join(f"<li><code>{_e(k.name)}</code> [{_e(k.role)}] {_e(k.description)}</li>" for k in c.checks)
    controls = "".join(f"<li><code>{_e(k.name)}</code>: {_e(k.description)}</li>" for k in c.controls)
    der = c.resolved_derivation()
    steps = ""
    if der is not None:
        import sympy as sp

        steps = _steps_html([{"index": i, "label": s.label, "latex": sp.latex(s.expr),
                              "status": "(run to check)", "method": s.relation}
                             for i, s in enumerate(der.steps)])
    quote = (f"<blockquote>{_e(c.quote)}<br><small>{_e(c.quote_source)}</small></blockquote>"
             if c.quote else "")
    return (f"<div><b>{_e(c.id)}</b>: {_e(c.title)}<br>"
            f"<small>{_e(c.source)} &middot; strength <b>{_e(c.strength)}</b> &middot; expected "
            f"{_badge(c.expected)}</small>{quote}"
            f"<p>$${_e(c.statement_latex())}$$</p>"
            f"{'<p>hypotheses:</p><ul>' + hyp + '</ul>' if hyp else ''}"
            f"<p>reading: {_e(c.reading)}</p>{steps}"
            f"<details><summary>{len(c.checks)} checks, {len(c.controls)} controls</summary>"
            f"<ul>{checks}</ul><p>controls (must be REFUTED):</p><ul>{controls}</ul></details></div>")


def claim_latex(c: Any) -> str:
    return rf"$\textbf{{{_tex(c.id)}}}:\ {c.statement_latex()}$"


def outcome_html(o: Any) -> str:
    ok = "at its expected verdict" if o.passed else "NOT at its expected verdict"
    rows = []
    for ch in o.checks + o.controls:
        ev = ch.evidence
        ce = f"<br><small>{_e(ev.counterexample.description)}</small>" if ev.counterexample else ""
        rows.append(f"<tr><td>{_e(ch.kind)}</td><td><code>{_e(ch.name)}</code></td><td>{_e(ch.role)}</td>"
                    f"<td>{_badge(ev.level)}{ce}</td><td>{_num(ev.instances)}</td><td>{_e(ev.precision)}</td>"
                    f"<td>{_num(ev.error)}</td><td>{_num(ev.tolerance)}</td><td>{_num(ev.margin_min)}</td>"
                    f"<td>{ev.wall_time:.2f} s</td></tr>")
    steps = "".join(_steps_html(ch.evidence.details.get("steps")) for ch in o.checks if ch.name == "derivation")
    return (f"<div><b>{_e(o.claim_id)}</b>: {_badge(o.verdict)} (expected {_badge(o.expected)}; {ok}"
            f"{'' if o.controls_refuted else '; a control was not refuted'})<br>"
            f"<small>{_e(o.title)} &middot; strength {_e(o.strength)}</small>"
            "<table><tr><th>kind</th><th>name</th><th>role</th><th>level</th><th>instances</th>"
            "<th>precision</th><th>error</th><th>tolerance</th><th>margin</th><th>time</th></tr>"
            f"{''.join(rows)}</table>{steps}</div>")


def outcome_latex(o: Any) -> str:
    return (rf"$\textbf{{{_tex(o.claim_id)}}}:\ \text{{{o.verdict.value}}}\ "
            rf"(\text{{expected {o.expected.value}}})$")
