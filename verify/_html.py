"""The HTML report: a static site (``verify run --html DIR``, ``verify report REPORT.json --html DIR``).

Layout of ``DIR``::

    index.html              the run: summary, then the claim table (verdict, expected, strength,
                            controls refuted, instances, margin, time, figures), one row per claim
    claims/<claim id>.html  a page per claim: statement (text and its LaTeX source), hypotheses,
                            reading, evidence per check and control, counterexamples, derivation
                            steps with their status, and the claim's figures with captions
    figures/<claim id>-<k>.png

Pages are self-contained: the style is inline, there is no script, no font, no CDN: the site opens
from ``file://`` with no network.  Every text from a report or a claim is escaped
(:func:`html.escape`); the markup is XHTML-compatible (every element closed), so the pages also parse
as XML.

Figures are the checks' own (``details["figures"]``, see :mod:`verify._report_figures`); a check without one
contributes the figures :func:`verify._report_figures.derived_figures` draws from its evidence details.

The statement, hypotheses and derivation of a claim are not in the JSON report: they come from the
:class:`~verify.Claim` objects passed in (``verify run`` passes the claims it ran; ``verify report``
looks the ids up in the catalogue and says so on the page).  Derivation steps checked by the engine
(the ``derivation`` check's ``details["steps"]``: label, latex, status, method) are shown with their
status; without them, the claim's own steps are listed as not checked in this run.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from . import _report_figures as _figures
from ._report import scheduler_line
from ._runner import CheckOutcome, ClaimOutcome, RunResult
from ._verdict import Verdict

__all__ = ["check_html_dir", "claim_page_name", "write_html"]

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;max-width:72em;
padding:0 1em;color:#1d1d1f;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
.PROVED{color:#05660d;font-weight:bold}.CERTIFIED{color:#0a7d12}.CONSISTENT{color:#00707a}
.UNKNOWN{color:#9a6700}.REFUTED{color:#b3001b;font-weight:bold}
.fail{background:#fde8ea}.ok{color:#0a7d12}.bad{color:#b3001b;font-weight:bold}
pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:.85em;white-space:pre-wrap}
figure{margin:1em 0;border:1px solid #e2e2e2;padding:.5em;display:inline-block;max-width:100%}
figure img{max-width:100%;height:auto}figcaption{font-size:.85em;max-width:40em}
.muted{color:#666;font-size:.9em}nav a{margin-right:1em}.wide{overflow-x:auto;max-width:100%}
td.title{min-width:18em}td code{word-break:break-all}
"""

_VERDICT_ORDER = [v.value for v in Verdict]


def claim_page_name(claim_id: str) -> str:
    """The page of a claim, relative to the site's root (claim ids are dotted identifiers)."""
    return f"claims/{claim_id}.html"


def check_html_dir(path: str | os.PathLike[str]) -> None:
    """Raise ``ValueError`` saying why the report site cannot be written in directory ``path``
    (created if missing, with its parents); checked before a run starts, as the other outputs are."""
    text = os.fspath(path)
    if not text:
        raise ValueError("empty path")
    p = Path(text)
    try:
        if p.exists() and not p.is_dir():
            raise ValueError("exists and is not a directory")
        for sub in (p, p / "claims", p / "figures"):
            if sub.exists() and not sub.is_dir():
                raise ValueError(f"{sub} exists and is not a directory")
            sub.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=sub, prefix=".verify-probe-")
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        raise ValueError(f"cannot be written ({e.strerror or e})") from None
    except ValueError as e:  # an embedded NUL byte, or ours above
        raise ValueError(str(e)) from None


def _write_bytes(path: Path, data: bytes) -> None:
    """Atomic write (a temporary file in the same directory, then ``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -- small formatting helpers ---------------------------------------------------------------------
def _e(text: Any) -> str:
    return escape("" if text is None else str(text), quote=True)


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{x:.4g}"
    return _e(x)


def _verdict(v: Verdict | str) -> str:
    s = v.value if isinstance(v, Verdict) else str(v)
    cls = s if s in _VERDICT_ORDER else ""
    return f'<span class="{cls}">{_e(s)}</span>'


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n"
            '<html lang="en" xmlns="http://www.w3.org/1999/xhtml">\n<head>\n<meta charset="utf-8" />\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], *, cls: Sequence[str] = (),
           row_cls: Sequence[str] = ()) -> str:
    """``head`` are plain texts (escaped here); ``rows`` hold HTML already escaped by the caller."""
    out = ['<div class="wide"><table>', "<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead>", "<tbody>"]
    for k, r in enumerate(rows):
        rc = f' class="{row_cls[k]}"' if k < len(row_cls) and row_cls[k] else ""
        cells = "".join(f'<td class="{cls[j]}">{c}</td>' if j < len(cls) and cls[j] else f"<td>{c}</td>"
                        for j, c in enumerate(r))
        out.append(f"<tr{rc}>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


# -- claims: statement, hypotheses, derivation -----------------------------------------------------
def _statement_texts(claim: Any) -> tuple[str, str]:
    """(readable text, LaTeX source) of a claim's statement."""
    try:
        st = claim.resolved_statement()
    except Exception as e:  # noqa: BLE001 - a statement that fails to build is reported, not fatal
        return f"(the statement could not be built: {type(e).__name__}: {e})", ""
    latex = ""
    text = ""
    try:
        import sympy

        from ._statement import statement_latex, statement_text

        latex = "" if isinstance(st, str) else statement_latex(st)  # plain text has no LaTeX source
        text = (sympy.pretty(st, use_unicode=True) if isinstance(st, sympy.Basic) else statement_text(st))
    except Exception:  # noqa: BLE001 - fall back to str()
        pass
    return (text or str(st)), latex


def _claim_steps(claim: Any) -> list[dict[str, str]]:
    """The claim's own derivation steps (label, latex), unchecked: for a run without a derivation check."""
    try:
        steps = claim.resolved_derivation()
    except Exception:  # noqa: BLE001
        return []
    out = []
    steps = getattr(steps, "steps", steps)  # a Derivation, or (label, expr) pairs
    for s in steps or ():
        if isinstance(s, (tuple, list)) and len(s) >= 2:
            label, expr, rel, why = s[0], s[1], "", ""
        else:
            label, expr = getattr(s, "label", str(s)), getattr(s, "expr", "")
            rel, why = getattr(s, "relation", ""), getattr(s, "why", "")
        try:
            import sympy

            tex = sympy.latex(expr) if isinstance(expr, sympy.Basic) else str(expr)
        except Exception:  # noqa: BLE001
            tex = str(expr)
        out.append({"label": str(label), "latex": tex, "relation": str(rel), "why": str(why),
                    "status": "not checked in this run", "method": ""})
    return out


def _checked_steps(o: ClaimOutcome) -> tuple[list[dict[str, Any]], str]:
    """Steps checked by the engine (from a check's ``details["steps"]``) and that check's name."""
    for c in o.checks:
        steps = c.evidence.details.get("steps") if isinstance(c.evidence.details, Mapping) else None
        if isinstance(steps, list) and steps and all(isinstance(s, Mapping) for s in steps):
            return [dict(s) for s in steps], c.name
    return [], ""


# -- figures --------------------------------------------------------------------------------------
def _claim_figures(o: ClaimOutcome) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """(check name, figure) for every figure of a claim, and the problems with invalid ones."""
    figs: list[tuple[str, dict[str, Any]]] = []
    problems: list[str] = []
    for c in o.checks + o.controls:
        own, bad = _figures.figures_in(c.evidence.details)
        problems += [f"{c.kind} {c.name}: {b}" for b in bad]
        if own:
            figs += [(c.name, f) for f in own]
    # nothing attached: draw what the evidence details hold (the checks'; the controls' only when the
    # checks hold nothing, as a control mostly repeats its check on a broken variant)
    for group in (o.checks, o.controls):
        if figs:
            break
        for c in group:
            figs += [(c.name, _figures.normalise(f)) for f in
                     _figures.derived_figures(o.claim_id, c.name, c.evidence.details)]
        figs = figs[:6]
    return figs, problems


def _figure_html(fig: dict[str, Any], src: str, k: int, check: str) -> str:
    alt = fig.get("title") or f"figure {k}"
    caption = fig.get("caption") or fig.get("title") or ""
    return (f'<figure id="figure-{k}"><img src="{_e(src)}" alt="{_e(alt)}" width="640" height="400" />'
            f"<figcaption><b>Figure {k}</b> (check <code>{_e(check)}</code>). {_e(caption)}</figcaption>"
            "</figure>")


# -- pages ----------------------------------------------------------------------------------------
def _evidence_rows(checks: Sequence[CheckOutcome]) -> tuple[list[list[str]], list[str]]:
    rows, rcls = [], []
    for c in checks:
        e = c.evidence
        kind = c.role if c.kind == "check" else "control"
        ok = '<span class="ok">yes</span>' if c.passed else '<span class="bad">no</span>'
        seeds = ", ".join(str(s) for s in e.seeds[:6]) + (" ..." if len(e.seeds) > 6 else "")
        rows.append([f"<code>{_e(c.name)}</code>", _e(kind), _verdict(e.level), ok, _num(e.instances),
                     _e(e.precision or "-"), _e(e.backend or "-"), _num(e.error), _num(e.tolerance),
                     _num(e.margin_min), _num(e.margin_max), _e(c.seed), _e(seeds or "-"),
                     f"{e.wall_time:.2f} s", _e(c.target or "-")])
        rcls.append("" if c.passed else "fail")
    return rows, rcls


_EVIDENCE_HEAD = ["name", "role", "level", "as required", "instances", "precision", "backend", "error",
                  "tolerance", "margin min", "margin max", "seed", "seeds used", "time", "target"]


def _claim_page(o: ClaimOutcome, claim: Any, figures: list[tuple[str, str, dict[str, Any]]],
                problems: list[str], nav: tuple[str | None, str | None], from_catalogue: bool) -> str:
    b: list[str] = []
    prev, nxt = nav
    links = ['<a href="../index.html">all claims</a>']
    if prev:
        links.append(f'<a href="{_e(quote(prev))}.html">previous: {_e(prev)}</a>')
    if nxt:
        links.append(f'<a href="{_e(quote(nxt))}.html">next: {_e(nxt)}</a>')
    b.append(f"<nav>{''.join(links)}</nav>")
    b.append(f"<h1><code>{_e(o.claim_id)}</code>: {_e(o.title)}</h1>")
    status = "passed" if o.passed else "FAILED"
    b.append(_table(["verdict", "expected", "strength", "controls refuted", "instances", "margin", "time", "status"],
                    [[_verdict(o.verdict), _verdict(o.expected), _e(o.strength or "-"),
                      f"{sum(c.passed for c in o.controls)}/{len(o.controls)}", _num(o.instances),
                      _num(o.margin), f"{o.wall_time:.2f} s",
                      f'<span class="{"ok" if o.passed else "bad"}">{status}</span>']]))
    b.append(f"<p><b>Source:</b> {_e(o.source)}</p>")
    b.append("<h2>Statement</h2>")
    if claim is not None:
        text, latex = _statement_texts(claim)
        b.append(f'<pre class="statement">{_e(text)}</pre>')
        if latex:
            b.append(f'<p class="muted">LaTeX source:</p><pre class="latex">{_e(latex)}</pre>')
        if from_catalogue:
            b.append('<p class="muted">The statement, hypotheses and derivation are those of the claim in '
                     "the catalogue loaded to render this report (the JSON report does not hold them).</p>")
        hyps = list(getattr(claim, "hypotheses", ()) or ())
        if hyps:
            b.append("<h2>Hypotheses</h2><ul>" + "".join(f"<li>{_e(h)}</li>" for h in hyps) + "</ul>")
        quote_text = getattr(claim, "quote", "")
        if quote_text:
            b.append(f"<p><b>Quote</b> ({_e(getattr(claim, 'quote_source', ''))}):</p>"
                     f"<blockquote>{_e(quote_text)}</blockquote>")
    else:
        b.append('<p class="muted">Not in the report, and the claim is not in the catalogue loaded.</p>')
    b.append(f"<h2>Reading</h2><p>{_e(o.reading)}</p>")
    if o.condition:
        b.append(f"<p><b>Holds under:</b> {_e(o.condition)}</p>")

    b.append("<h2>Evidence</h2>")
    for title, group in (("Checks", o.checks), ("Controls (each must be REFUTED)", o.controls)):
        rows, rcls = _evidence_rows(group)
        b.append(f"<h3>{_e(title)}</h3>")
        b.append(_table(_EVIDENCE_HEAD, rows, cls=["", "", "", "", "num", "", "", "num", "num", "num", "num",
                                                   "num", "", "num", ""], row_cls=rcls) if rows
                 else "<p>none</p>")
        items = [f"<li><code>{_e(c.name)}</code>: {_e(c.description)}"
                 + (f"<br /><b>inconclusive, as declared:</b> {_e(c.inconclusive)}"
                    if c.declared_inconclusive else "")
                 + (f'<br /><span class="muted">notes: {_e(c.evidence.notes[:2000])}</span>' if c.evidence.notes else "")
                 + "</li>" for c in group]
        if items:
            b.append("<ul>" + "".join(items) + "</ul>")

    ces = [c for c in o.checks + o.controls if c.evidence.counterexample is not None]
    if ces:
        b.append("<h2>Counterexamples</h2>")
        for c in ces:
            ce = c.evidence.counterexample
            assert ce is not None
            data = json.dumps(ce.to_json()["data"], indent=1)
            if len(data) > 4000:
                data = data[:4000] + "\n... (truncated; the JSON report holds all of it)"
            b.append(f"<h3>{_e(c.kind)} <code>{_e(c.name)}</code></h3><p>{_e(ce.description)}</p>"
                     f"<p>margin {_num(ce.margin)}, seed {_e(ce.seed if ce.seed is not None else '-')}</p>"
                     f"<pre>{_e(data)}</pre>")

    steps, by = _checked_steps(o)
    if not steps and claim is not None:
        steps = _claim_steps(claim)
    if steps:
        b.append("<h2>Derivation</h2>")
        if by:
            b.append(f'<p class="muted">Each step checked against the previous one by the check '
                     f"<code>{_e(by)}</code>.</p>")
        b.append(_table(["#", "step", "relation", "expression (LaTeX source)", "why", "status", "method"],
                        [[str(k), _e(s.get("label", "")), _e(s.get("relation", "")),
                          f"<code>{_e(s.get('latex', s.get('expr', '')))}</code>", _e(s.get("why", "")),
                          _verdict(s.get("status", "")) if s.get("status") in _VERDICT_ORDER
                          else _e(s.get("status", "")), _e(s.get("method", ""))]
                         for k, s in enumerate(steps, 1)]))

    b.append("<h2>Figures</h2>")
    if figures:
        b.extend(_figure_html(fig, f"../{src}", k, check) for k, (check, src, fig) in enumerate(figures, 1))
    else:
        b.append("<p>No figure: no check attached one, and the evidence holds no numeric series.</p>")
    if problems:
        b.append("<ul>" + "".join(f"<li class=\"bad\">{_e(p)}</li>" for p in problems) + "</ul>")
    return _page(f"{o.claim_id} - verify report", "\n".join(b))


def _index_page(result: RunResult, counts: Mapping[str, int]) -> str:
    b: list[str] = []
    n_ok = sum(o.passed for o in result.outcomes)
    where = scheduler_line(result) or f"{result.workers} worker{'s' if result.workers != 1 else ''}"
    b.append(f"<h1>verify report ({_e(result.profile)} profile, seed {_e(result.seed)})</h1>")
    b.append(f'<p class="{"ok" if result.passed else "bad"}">{n_ok}/{len(result.outcomes)} claims at their '
             f"expected verdict with every control refuted, in {result.wall_time:.1f} s ({_e(where)}; "
             f"started {_e(result.started)}).</p>")
    from ._report import refuted_summary

    line = refuted_summary(result)
    if line:
        b.append(f"<p>{_e(line)}.</p>")
    if result.interrupted:
        b.append(f'<p class="bad">Interrupted: only the claims whose every check and control finished are '
                 f"reported; unfinished: {_e(', '.join(result.unfinished) or '-')}.</p>")
    rows, rcls = [], []
    for o in result.outcomes:
        href = quote(claim_page_name(o.claim_id))
        rows.append([f'<a href="{_e(href)}"><code>{_e(o.claim_id)}</code></a>', _e(o.title),
                     _verdict(o.verdict), _verdict(o.expected), _e(o.strength or "-"),
                     f"{sum(c.passed for c in o.controls)}/{len(o.controls)}", _num(o.instances),
                     _num(o.margin), f"{o.wall_time:.2f} s", str(counts.get(o.claim_id, 0)),
                     '<span class="ok">passed</span>' if o.passed else '<span class="bad">FAILED</span>'])
        rcls.append("" if o.passed else "fail")
    b.append(_table(["claim", "title", "verdict", "expected", "strength", "controls refuted", "instances",
                     "margin", "time", "figures", "status"], rows,
                    cls=["", "title", "", "", "", "num", "num", "num", "num", "num", ""], row_cls=rcls))
    env = ", ".join(f"{k} {v}" for k, v in sorted(result.environment.items()))
    b.append(f'<p class="muted">Environment: {_e(env or "not recorded")}.</p>')
    return _page(f"verify report ({result.profile})", "\n".join(b))


def write_html(result: RunResult, directory: str | os.PathLike[str], *,
               claims: Mapping[str, Any] | None = None, from_catalogue: bool = False) -> Path:
    """Write the site for ``result`` into ``directory``; returns the path of ``index.html``.

    ``claims`` maps claim ids to :class:`~verify.Claim` objects (statement, hypotheses, derivation);
    ``from_catalogue`` says they were looked up for a saved report rather than run (said on the page).
    """
    root = Path(directory)
    (root / "claims").mkdir(parents=True, exist_ok=True)
    (root / "figures").mkdir(parents=True, exist_ok=True)
    claims = claims or {}
    counts: dict[str, int] = {}
    ids = [o.claim_id for o in result.outcomes]
    for i, o in enumerate(result.outcomes):
        figs, problems = _claim_figures(o)
        placed = []
        for k, (check, fig) in enumerate(figs, 1):
            src = f"figures/{o.claim_id}-{k}.png"
            try:
                _write_bytes(root / src, _figures.render_png(fig))
            except (ValueError, TypeError, OverflowError) as e:  # a figure matplotlib cannot draw
                problems.append(f"check {check}: figure {k} not drawn: {e}")
                continue
            placed.append((check, src, fig))
        counts[o.claim_id] = len(placed)
        nav = (ids[i - 1] if i > 0 else None, ids[i + 1] if i + 1 < len(ids) else None)
        page = _claim_page(o, claims.get(o.claim_id), placed, problems, nav, from_catalogue)
        _write_bytes(root / claim_page_name(o.claim_id), page.encode("utf-8"))
    index = root / "index.html"
    _write_bytes(index, _index_page(result, counts).encode("utf-8"))
    return index
