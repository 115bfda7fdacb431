"""Figures of the experiments: matplotlib on the non-interactive Agg backend, one way to save."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["pyplot", "save"]


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no display needed; set before pyplot is first imported)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, out: str, name: str, *, dpi: int = 110) -> str:
    """Lay out ``fig``, write it to ``out/name`` (creating ``out``), close it and return the path."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path
