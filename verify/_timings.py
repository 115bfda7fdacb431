"""Remembered check durations, so that ``verify run`` submits the longest tasks first.

After each run the wall time of every check and control is stored per profile in
``$VERIFY_CACHE_DIR`` (default ``$XDG_CACHE_HOME/transformer-theory-verify``, else
``~/.cache/transformer-theory-verify``) as ``timings-<profile>.json``; the next run orders its tasks by
them (longest first), so that no worker idles at the end behind one long claim.  Only the order of
submission depends on it -- every seed is derived per check, so the evidence does not.  A missing,
unreadable or foreign file is simply no hint.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "load_timings", "save_timings"]


def cache_dir() -> Path:
    env = os.environ.get("VERIFY_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "transformer-theory-verify"


def _path(profile: str) -> Path:
    return cache_dir() / f"timings-{profile}.json"


def load_timings(profile: str) -> dict[str, float]:
    try:
        data = json.loads(_path(profile).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))}


def save_timings(result: Any) -> None:
    """Merge the run's per-task wall times into the profile's file (best effort: never fails a run)."""
    data = load_timings(result.profile)
    for o in result.outcomes:
        for ch in o.checks + o.controls:
            data[f"{o.claim_id} {ch.name}"] = round(float(ch.evidence.wall_time), 3)
    try:
        p = _path(result.profile)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True))
        tmp.replace(p)
    except OSError:
        pass
