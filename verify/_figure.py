"""Figure data a check attaches to its evidence (rendered by the HTML report).

A figure is a small JSON-compatible dict under ``Evidence.details["figures"]`` -- the check's own
numbers, not a picture -- so the JSON report keeps it and any renderer can draw it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["figure"]

_KINDS = ("line", "scatter")
_SCALES = ("linear", "log")
_MAX_POINTS = 500


def _floats(xs: Iterable[Any], what: str) -> list[float | None]:
    out: list[float | None] = []
    for x in xs:
        v = float(x)
        out.append(v if math.isfinite(v) else None)
    if len(out) > _MAX_POINTS:
        step = math.ceil(len(out) / _MAX_POINTS)
        out = out[::step]
    return out


def figure(*, title: str, caption: str, series: Sequence[Mapping[str, Any]], xlabel: str = "",
           ylabel: str = "", xscale: str = "linear", yscale: str = "linear", kind: str = "line",
           hlines: Sequence[Mapping[str, Any]] = (), vlines: Sequence[Mapping[str, Any]] = ()
           ) -> dict[str, Any]:
    """One figure: ``series`` of ``{"label", "x", "y"}`` (at most 500 points each, thinned evenly),
    axis labels and scales, horizontal/vertical reference lines ``{"y" | "x", "label"}``.  The
    caption names the claim and the numbers the figure shows."""
    from numerics.errors import InputError

    if kind not in _KINDS:
        raise InputError("kind", f"one of {_KINDS}", kind)
    for name, sc in (("xscale", xscale), ("yscale", yscale)):
        if sc not in _SCALES:
            raise InputError(name, f"one of {_SCALES}", sc)
    if not title or not caption:
        raise InputError("caption", "a figure has a title and a caption naming its claim and numbers",
                         caption)
    ser = []
    for s in series:
        x, y = list(s["x"]), list(s["y"])
        if len(x) != len(y):
            raise InputError("series", "x and y of a series have equal lengths", (len(x), len(y)))
        ser.append({"label": str(s.get("label", "")), "x": _floats(x, "x"), "y": _floats(y, "y"),
                    "kind": str(s.get("kind", kind))})
    return {"title": title, "caption": caption, "kind": kind, "xlabel": xlabel, "ylabel": ylabel,
            "xscale": xscale, "yscale": yscale, "series": ser,
            "hlines": [{"y": float(h["y"]), "label": str(h.get("label", ""))} for h in hlines],
            "vlines": [{"x": float(v["x"]), "label": str(v.get("label", ""))} for v in vlines]}
