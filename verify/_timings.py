"""Remembered check durations, so that ``verify run`` submits the longest tasks first.

After each run the wall time of every check and control is stored per profile in
``$VERIFY_CACHE_DIR`` (default ``$XDG_CACHE_HOME/transformer-theory-verify``, else
``~/.cache/transformer-theory-verify``) as ``timings-<profile>.json``; the next run orders its tasks by
them (longest first), so that no worker idles at the end behind one long claim.  Only the order of
submission depends on it -- every seed is derived per check, so the evidence does not.  A missing,
unreadable or foreign file is simply no hint.

A first run has no such file, and a pool that packs the thorough profile's 120-170 s tasks by the median
guess starts them late and idles behind them (on 2026-12-02, two workers, empty cache: 489 s wall for
824 s CPU without hints, 430 s for 837 s with them; benchmarks/README.md). The package
therefore ships hints, ``_timing_hints.json`` (``{profile: {task label: seconds}}``, written from a
run's JSON report by ``benchmarks/engine/timing_hints.py``), under the remembered timings: a remembered
task overrides its hint, a task in neither counts as the median of the known ones
(:class:`verify._schedule.AffinityQueues`). Only the relative sizes matter, so hints measured on another
machine order the tasks as well.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "load_timings", "save_timings", "shipped_hints", "task_times"]

_HINTS = Path(__file__).with_name("_timing_hints.json")


def cache_dir() -> Path:
    env = os.environ.get("VERIFY_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "transformer-theory-verify"


def _path(profile: str) -> Path:
    return cache_dir() / f"timings-{profile}.json"


def _seconds(data: Any) -> dict[str, float]:
    """The ``label -> seconds`` entries of a parsed file (anything else in it is ignored)."""
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _remembered(profile: str) -> dict[str, float]:
    """This machine's timings of earlier runs at ``profile`` ({} when none are readable)."""
    try:
        return _seconds(json.loads(_path(profile).read_text()))
    except (OSError, ValueError):
        return {}


def shipped_hints(profile: str) -> dict[str, float]:
    """The package's expected seconds per task at ``profile`` (module docstring; {} when none)."""
    try:
        data = json.loads(_HINTS.read_text())
    except (OSError, ValueError):
        return {}
    return _seconds(data.get(profile)) if isinstance(data, dict) else {}


def load_timings(profile: str) -> dict[str, float]:
    """Expected seconds per task label at ``profile``: the shipped hints, overridden by this machine's
    remembered timings."""
    return {**shipped_hints(profile), **_remembered(profile)}


def task_times(result: Any) -> dict[str, float]:
    """``"<claim id> <check or control name>" -> seconds`` of a run (the labels the runner looks up;
    a sharded check: the sum of its shards)."""
    return {f"{o.claim_id} {ch.name}": float(ch.evidence.wall_time)
            for o in result.outcomes for ch in o.checks + o.controls}


def save_timings(result: Any) -> None:
    """Merge the run's per-task wall times into the profile's file (best effort: never fails a run)."""
    data = _remembered(result.profile)  # the hints stay in the package, not in the cache
    data.update((k, round(v, 3)) for k, v in task_times(result).items())
    try:
        p = _path(result.profile)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True))
        tmp.replace(p)
    except OSError:
        pass
