"""Figures of the experiments, drawn with matplotlib's object API on an Agg canvas.

Nothing here touches matplotlib's global state: no ``matplotlib.use``, no pyplot figure manager, so
importing or calling it in a notebook leaves the notebook's backend (``inline``, widgets...) as it was.
"""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

__all__ = ["pyplot", "save"]


def _subplots(nrows: int = 1, ncols: int = 1, *, figsize: Any = None, **kw: Any) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig, fig.subplots(nrows, ncols, **kw)


def pyplot() -> Any:
    """The two pyplot calls the experiments use -- ``subplots`` and ``close`` -- on stand-alone Agg
    figures (``matplotlib.figure.Figure``): no display, no global backend switch."""
    return SimpleNamespace(subplots=_subplots, close=lambda fig=None: None)


def save(fig: Any, out: str, name: str, *, dpi: int = 110) -> str:
    """Lay out ``fig``, write it to ``out/name`` (creating ``out``) and return the path."""
    fig.tight_layout()
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name)
    fig.savefig(path, dpi=dpi)
    return path
