"""Figures of the HTML report: figure records, a fallback derived from evidence, PNG rendering.

A *figure record* is a JSON dict a check attaches to its evidence under ``details["figures"]``
(``verify.figure(...)`` builds one)::

    {"title": str, "caption": str, "kind": "line" | "scatter" | "bar",
     "series": [{"label": str, "x": [...], "y": [...], "kind": (optional, the figure's kind)}],
     "xlabel": str, "ylabel": str, "xscale": "linear" | "log", "yscale": "linear" | "log",
     "hlines": [{"y": float, "label": str}], "vlines": [{"x": float, "label": str}]}

:func:`normalise` validates a record (numbers may be JSON numbers, the strings ``"inf"``/``"nan"``
of :func:`verify._verdict._jsonable`, or exact rationals written ``"p/q"``; ``null``, a
non-finite value in :func:`verify.figure`'s output, is a point not drawn).  A ``bar`` figure may have
text ``x`` (categories); a series may override the figure's kind.

Fallback (:func:`derived_figures`): when a check attached no figure, the report draws the numeric
series its evidence details already hold -- a list of >= 3 numbers (against a sibling list of the same
length when there is one, else against its index), a mapping of >= 3 numeric keys to numbers
(``{"0.1": t1, "0.2": t2, ...}``), a mapping of labels to equal-length lists, a table of numeric rows,
named measurements (a mapping of cases to mappings of numbers, or of names to numbers) as bars.  The
top level of the details (counts such as ``{"cases": 18}``) is not drawn.
Such a figure is captioned as derived by the report, naming the check and the detail it shows.

Rendering (:func:`render_png`) uses matplotlib's object API (``matplotlib.figure.Figure`` on a
``FigureCanvasAgg``): pyplot is never imported and the global backend is never changed, so rendering
is safe inside any program (a notebook, a test run, a worker process).
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["KINDS", "MAX_POINTS", "SCALES", "derived_figures", "figures_in", "normalise", "render_png"]

KINDS = ("line", "scatter", "bar")
SCALES = ("linear", "log")
#: Points drawn per series; longer series are thinned evenly (the caption says so).
MAX_POINTS = 500

_NUMBER_RE = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?(\s*/\s*\d+)?\s*$")
#: an arb ball as python-flint prints it, "[m +/- r]" or "m +/- r": drawn at its midpoint
_BALL_RE = re.compile(r"^\s*\[?\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*\+/-\s*"
                      r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*\]?\s*$")


def to_number(v: Any) -> float | None:
    """A float for a JSON number, ``"inf"``/``"-inf"``/``"nan"``, a decimal/rational string
    (``"1/10"``) or an arb ball's text (``"[0.25 +/- 1e-30]"``, its midpoint); ``None`` for anything
    else (booleans are not numbers here)."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("inf", "+inf", "-inf", "nan"):
            return float(s)
        if _NUMBER_RE.match(s):
            try:
                return float(Fraction(s.replace(" ", "")))
            except (ValueError, ZeroDivisionError, OverflowError):
                return None
        ball = _BALL_RE.match(s)
        if ball:
            return float(ball.group(1))
    return None


def _text(v: Any, what: str, limit: int = 2000) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):
        raise ValueError(f"{what} must be a string, got {type(v).__name__}")
    return v[:limit]


def _numbers(seq: Any, what: str, *, allow_text: bool = False) -> list[Any]:
    if not isinstance(seq, (list, tuple)):
        raise ValueError(f"{what} must be a list, got {type(seq).__name__}")
    out: list[Any] = []
    for k, v in enumerate(seq):
        if v is None:  # verify.figure writes a non-finite value as null: not drawn
            out.append(math.nan)
            continue
        x = to_number(v)
        if x is None:
            if allow_text and isinstance(v, str):
                out.append(v[:80])
                continue
            raise ValueError(f"{what}[{k}] = {v!r} is not a number")
        out.append(x)
    return out


def normalise(obj: Any) -> dict[str, Any]:
    """A validated copy of a figure record (defaults filled in); ``ValueError`` says what is wrong."""
    if not isinstance(obj, Mapping):
        raise ValueError(f"a figure is a mapping, got {type(obj).__name__}")
    kind = obj.get("kind", "line") or "line"
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    fig: dict[str, Any] = {"kind": kind}
    for key in ("title", "caption", "xlabel", "ylabel"):
        fig[key] = _text(obj.get(key), key)
    for key in ("xscale", "yscale"):
        scale = obj.get(key, "linear") or "linear"
        if scale not in SCALES:
            raise ValueError(f"{key} {scale!r} is not one of {', '.join(SCALES)}")
        fig[key] = scale
    raw = obj.get("series")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise ValueError("series must be a non-empty list of {label, x, y}")
    series = []
    for k, s in enumerate(raw):
        if not isinstance(s, Mapping):
            raise ValueError(f"series[{k}] must be a mapping")
        y = _numbers(s.get("y"), f"series[{k}].y")
        x = s.get("x")
        x = list(range(len(y))) if x is None else _numbers(x, f"series[{k}].x", allow_text=kind == "bar")
        if len(x) != len(y):
            raise ValueError(f"series[{k}]: x has {len(x)} points, y has {len(y)}")
        skind = s.get("kind") or kind
        if skind not in KINDS:
            raise ValueError(f"series[{k}].kind {skind!r} is not one of {', '.join(KINDS)}")
        series.append({"label": _text(s.get("label"), f"series[{k}].label", 200), "x": x, "y": y,
                       "kind": skind})
    fig["series"] = series
    for key, axis in (("hlines", "y"), ("vlines", "x")):
        lines = []
        for k, ln in enumerate(obj.get(key) or ()):
            if not isinstance(ln, Mapping) or to_number(ln.get(axis)) is None:
                raise ValueError(f"{key}[{k}] must be a mapping with a number {axis!r}")
            lines.append({axis: to_number(ln.get(axis)), "label": _text(ln.get("label"), f"{key}[{k}].label", 200)})
        fig[key] = lines
    return fig


def figures_in(details: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The valid figure records under ``details["figures"]`` and a message per invalid one."""
    if not isinstance(details, Mapping):
        return [], []
    raw = details.get("figures")
    if raw is None:
        return [], []
    if isinstance(raw, Mapping):  # one figure instead of a list of them
        raw = [raw]
    if not isinstance(raw, (list, tuple)):
        return [], [f"details['figures'] is a {type(raw).__name__}, not a list of figures"]
    good, bad = [], []
    for k, f in enumerate(raw):
        try:
            good.append(normalise(f))
        except ValueError as e:
            bad.append(f"figure {k} not drawn: {e}")
    return good, bad


# -- the fallback: numeric series already in the evidence details ---------------------------------
def _numeric_list(v: Any) -> list[float] | None:
    if not isinstance(v, (list, tuple)) or len(v) < 3:
        return None
    xs = [to_number(a) for a in v]
    if any(x is None for x in xs):
        return None
    xs_f = [x for x in xs if x is not None]
    if not any(math.isfinite(x) for x in xs_f):
        return None
    return xs_f


def _is_grid(xs: list[float]) -> bool:
    """An arithmetic progression of integers (an input grid such as n = 2, 3, 4, 5): nothing to draw."""
    if not all(math.isfinite(x) and x == int(x) for x in xs):
        return False
    steps = {xs[i + 1] - xs[i] for i in range(len(xs) - 1)}
    return len(steps) == 1


def _numeric_mapping(v: Any) -> tuple[list[float], list[float]] | None:
    if not isinstance(v, Mapping) or len(v) < 3:
        return None
    pts = [(to_number(k), to_number(y)) for k, y in v.items()]
    if any(a is None or b is None for a, b in pts):
        return None
    pts.sort(key=lambda p: p[0])  # type: ignore[arg-type, return-value]
    return [float(a) for a, _ in pts], [float(b) for _, b in pts]  # type: ignore[arg-type]


def _rows(v: Any) -> tuple[list[str], list[list[float]]] | None:
    """A table: >= 3 rows, each a list of numbers (same length >= 2) or a mapping with shared numeric
    keys.  Returns (column names, columns)."""
    if not isinstance(v, (list, tuple)) or len(v) < 3:
        return None
    if all(isinstance(r, (list, tuple)) for r in v):
        width = len(v[0])
        if width < 2 or any(len(r) != width for r in v):
            return None
        cols = [[to_number(r[j]) for r in v] for j in range(width)]
        if any(x is None for c in cols for x in c):
            return None
        return [f"column {j}" for j in range(width)], cols  # type: ignore[return-value]
    if all(isinstance(r, Mapping) for r in v):
        keys = [k for k in v[0] if all(to_number(r.get(k)) is not None for r in v)]
        if len(keys) < 2:
            return None
        return [str(k) for k in keys], [[to_number(r[k]) for r in v] for k in keys]  # type: ignore[misc]
    return None


def _scalars(v: Any) -> dict[str, float]:
    """The entries of a mapping that are numbers (text keys), in order."""
    if not isinstance(v, Mapping):
        return {}
    out = {}
    for k, w in v.items():
        x = to_number(w) if not isinstance(w, str) else None  # "0.75" in a label is not a measurement
        if x is not None and math.isfinite(x):
            out[str(k)] = x
    return out


def _grouped(groups: Mapping[str, Mapping[str, float]], cap: int = 12) -> list[dict[str, Any]] | None:
    """>= 2 cases sharing measurement names: one bar series per shared name (at most 4)."""
    if len(groups) < 2:
        return None
    shared = [k for k in next(iter(groups.values())) if all(k in g for g in groups.values())][:4]
    if not shared:
        return None
    cases = list(groups)[:cap]
    return [{"label": k, "x": cases, "y": [groups[c][k] for c in cases]} for k in shared]


def _bars(v: Any, cap: int = 12) -> list[dict[str, Any]] | None:
    """Named measurements as bars: a mapping of cases to mappings of numbers sharing their keys (one
    series per shared key, the cases on the axis; ``{"full": {"rate": .1}, "stopgrad": {"rate": .2}}``),
    or a mapping of >= 2 names to numbers (``{"R1": 14.5, "onset": 67.8}``)."""
    if not isinstance(v, Mapping) or not v:
        return None
    groups = {str(k): _scalars(w) for k, w in v.items() if isinstance(w, Mapping)}
    groups = {k: g for k, g in groups.items() if g}
    if len(groups) == 1:  # one case: its measurements are the bars (a curve {x: y} is drawn as one)
        v, groups = next(iter(v[k] for k in v if str(k) in groups)), {}
        if _numeric_mapping(v) is not None:
            return None
    grouped = _grouped(groups, cap)
    if grouped is not None:
        return grouped
    flat = _scalars(v)
    if len(flat) >= 2 and len(flat) == sum(not isinstance(w, (Mapping, list, tuple)) for w in v.values()):
        names = list(flat)[:cap]
        return [{"label": "", "x": names, "y": [flat[n] for n in names]}]
    return None


def _scale(values: Iterable[float]) -> str:
    vals = [v for v in values if math.isfinite(v)]
    if vals and min(vals) > 0 and max(vals) / min(vals) > 1e3:
        return "log"
    return "linear"


def _range(ys: Iterable[float]) -> str:
    fin = [y for y in ys if math.isfinite(y)]
    return f"from {min(fin):.4g} to {max(fin):.4g}" if fin else "no finite value"


def _derived(claim_id: str, check: str, path: str, series: list[dict[str, Any]], xlabel: str,
             ylabel: str, kind: str = "line") -> dict[str, Any]:
    ys = [y for s in series for y in s["y"]]
    xs = [x for s in series for x in s["x"]]
    if kind == "bar":
        xlabel = ""
    n = max(len(s["y"]) for s in series)
    return {
        "title": f"{check}: {path}",
        "caption": (f"{claim_id}, check {check}: {path} as recorded in its evidence ({len(series)} "
                    f"series, {n} points, values {_range(ys)}). Drawn by the report from the evidence "
                    "details; the check attached no figure of its own."),
        "kind": kind, "series": series, "xlabel": xlabel, "ylabel": ylabel,
        "xscale": _scale(xs) if kind != "bar" and all(isinstance(x, float) for x in xs) else "linear",
        "yscale": _scale(ys), "hlines": [], "vlines": [], "derived": True,
    }


def derived_figures(claim_id: str, check: str, details: Any, *, limit: int = 3) -> list[dict[str, Any]]:
    """Figures drawn from the numeric series of one check's evidence details (see the module text).

    At most ``limit`` figures, in the order the details hold them; nested mappings are searched two
    levels deep.  The ``figures`` key itself is skipped (those are the check's own figures).
    """
    out: list[dict[str, Any]] = []

    def visit(node: Mapping[str, Any], prefix: str, depth: int) -> None:
        lists = {k: _numeric_list(v) for k, v in node.items() if k != "figures"}
        lists = {k: v for k, v in lists.items() if v is not None}
        used: set[str] = set()
        # cases side by side: {case: {measurement: number}} with shared measurement names
        groups = {str(k): _scalars(w) for k, w in node.items() if isinstance(w, Mapping) and k != "figures"}
        groups = {k: g for k, g in groups.items() if g and not any(
            isinstance(x, (Mapping, list, tuple)) for x in node[k].values())}
        side = _grouped(groups)
        if side is not None:
            out.append(_derived(claim_id, check, f"{prefix or ''}cases" if not prefix else prefix.rstrip("."),
                                side, "", "value", kind="bar"))
            used.update(groups)
        for k, v in node.items():
            if len(out) >= limit:
                return
            if k == "figures" or k in used:
                continue
            name = f"{prefix}{k}"
            if k in lists:
                # same-length sibling lists: the first one is the abscissa of the others
                group = [j for j, w in lists.items() if len(w) == len(lists[k]) and j not in used]
                used.update(group)
                if len(group) >= 2:
                    x = lists[group[0]]
                    series = [{"label": str(j), "x": x, "y": lists[j]} for j in group[1:5]]
                    out.append(_derived(claim_id, check, f"{prefix}{', '.join(group[1:5])} against "
                                        f"{group[0]}", series, str(group[0]), "value"))
                elif not _is_grid(lists[k]):
                    y = lists[k]
                    out.append(_derived(claim_id, check, name, [{"label": str(k), "x": [float(i) for i in
                                        range(len(y))], "y": y}], "index", str(k), "scatter"))
                continue
            pm = _numeric_mapping(v)
            if pm is not None:
                out.append(_derived(claim_id, check, name, [{"label": str(k), "x": pm[0], "y": pm[1]}],
                                    "key", str(k), "line"))
                continue
            if isinstance(v, Mapping) and v and all(_numeric_list(w) is not None for w in v.values()):
                lens = {len(w) for w in v.values()}
                if len(lens) == 1:
                    n = lens.pop()
                    xkey = next((j for j, w in lists.items() if len(w) == n and j != k), None)
                    x = lists[xkey] if xkey else [float(i) for i in range(n)]
                    series = [{"label": str(j), "x": x, "y": _numeric_list(w)} for j, w in
                              list(v.items())[:6]]
                    out.append(_derived(claim_id, check, name, series, str(xkey or "index"), str(k)))
                    continue
            rows = _rows(v)
            if rows is not None:
                names, cols = rows
                series = [{"label": names[j], "x": cols[0], "y": cols[j]} for j in range(1, min(len(cols), 5))]
                ordered = all(a < b for a, b in zip(cols[0], cols[0][1:]))  # a curve, else points
                out.append(_derived(claim_id, check, name, series, names[0], "value",
                                    kind="line" if ordered else "scatter"))
                continue
            bars = _bars(v) if isinstance(v, Mapping) else None
            if bars is not None:
                out.append(_derived(claim_id, check, name, bars, "", "value", kind="bar"))
                continue
            if isinstance(v, Mapping) and depth < 2:
                visit(v, f"{name}.", depth + 1)

    if isinstance(details, Mapping):
        visit(details, "", 0)
    return out[:limit]


# -- rendering ------------------------------------------------------------------------------------
def _thin(x: Sequence[Any], y: Sequence[float]) -> tuple[list[Any], list[float]]:
    if len(y) <= MAX_POINTS:
        return list(x), list(y)
    idx = sorted({round(i * (len(y) - 1) / (MAX_POINTS - 1)) for i in range(MAX_POINTS)})
    return [x[i] for i in idx], [y[i] for i in idx]


def _drawable(x: Sequence[Any], y: Sequence[float], xlog: bool, ylog: bool) -> tuple[list[Any], list[float]]:
    """Drop the points a scale cannot show (non-finite, or <= 0 on a log axis)."""
    keep = [(a, b) for a, b in zip(x, y)
            if math.isfinite(b) and (not ylog or b > 0)
            and (not isinstance(a, float) or (math.isfinite(a) and (not xlog or a > 0)))]
    return [a for a, _ in keep], [b for _, b in keep]


def render_png(fig: Mapping[str, Any], *, width: float = 6.4, height: float = 4.0, dpi: int = 100) -> bytes:
    """PNG bytes of a normalised figure record (:func:`normalise`), drawn without pyplot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    mfig = Figure(figsize=(width, height), dpi=dpi)  # fixed margins: a layout engine draws twice
    FigureCanvasAgg(mfig)
    ax = mfig.add_subplot()
    xlog, ylog = fig.get("xscale") == "log", fig.get("yscale") == "log"
    kind = fig.get("kind", "line")
    drawn = 0
    categories: list[str] = []
    nser = max(1, len(fig["series"]))
    for k, s in enumerate(fig["series"]):
        x, y = _thin(s["x"], s["y"])
        x, y = _drawable(x, y, xlog and kind != "bar", ylog)
        if not y:
            continue
        label = s.get("label") or None
        skind = s.get("kind", kind)
        if skind == "bar":
            for c in x:
                if str(c) not in categories:
                    categories.append(str(c))
            width_k = 0.8 / nser
            pos = [categories.index(str(c)) + (k - (nser - 1) / 2) * width_k for c in x]
            ax.bar(pos, y, width=width_k, label=label)
        elif skind == "scatter":
            ax.scatter(x, y, s=14, label=label)
        else:
            ax.plot(x, y, marker="o" if len(y) <= 40 else None, markersize=3, label=label)
        drawn += len(y)
    if kind == "bar" and categories:
        ticks = [c if len(c) <= 28 else c[:27] + "\u2026" for c in categories]
        ax.set_xticks(range(len(categories)), ticks, rotation=30 if len(categories) > 4 else 0,
                      ha="right" if len(categories) > 4 else "center", fontsize=8)
    # reference lines: grey first, then colours the series do not use first, so two lines stay apart
    for k, ln in enumerate(fig.get("hlines", ())):
        if math.isfinite(ln["y"]) and (not ylog or ln["y"] > 0):
            ax.axhline(ln["y"], color=("0.3", "C3", "C4", "C5")[k % 4], linestyle="--", linewidth=1,
                       label=ln.get("label") or None)
    for k, ln in enumerate(fig.get("vlines", ())):
        if math.isfinite(ln["x"]) and (not xlog or ln["x"] > 0):
            ax.axvline(ln["x"], color=("0.5", "C6", "C8", "C9")[k % 4], linestyle=":", linewidth=1.2,
                       label=ln.get("label") or None)
    if drawn:
        if ylog:
            ax.set_yscale("log")
        if xlog and kind != "bar":
            ax.set_xscale("log")
    else:
        ax.text(0.5, 0.5, "no drawable point", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(fig.get("title", "")[:120], fontsize=10)
    ax.set_xlabel(fig.get("xlabel", "")[:120])
    ax.set_ylabel(fig.get("ylabel", "")[:120])
    ax.grid(True, alpha=0.3)
    rotated = kind == "bar" and len(categories) > 4
    mfig.subplots_adjust(left=0.13, right=0.97, top=0.91, bottom=0.3 if rotated else 0.13)
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(fontsize=8)
    buf = io.BytesIO()
    mfig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
