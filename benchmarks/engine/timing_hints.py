"""Write the package's shipped task-time hints (``verify/_timing_hints.json``) from run reports.

    python benchmarks/engine/timing_hints.py REPORT.json [REPORT.json ...]

Each report (``verify run --profile P --json REPORT.json``, the whole catalogue) replaces profile P's
hints by its per-task wall times (a sharded check: the sum of its shards, as the runner remembers it);
the other profiles' hints stay.  The hints only order a first run's tasks (:mod:`verify._timings`), so
refresh them when checks are added or change cost by a large factor, not after every run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verify._report import from_json
from verify._timings import task_times

HINTS = Path(__file__).resolve().parents[2] / "verify" / "_timing_hints.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", type=Path)
    args = ap.parse_args(argv)
    hints = json.loads(HINTS.read_text()) if HINTS.exists() else {}
    for path in args.reports:
        run = from_json(json.loads(path.read_text()))
        if run.interrupted or run.unfinished:
            ap.error(f"{path}: an interrupted run's report would leave tasks without hints")
        hints[run.profile] = {k: round(v, 2) for k, v in sorted(task_times(run).items())}
        print(f"{run.profile}: {len(hints[run.profile])} tasks, "
              f"{sum(hints[run.profile].values()):.0f} s in all, from {path}")
    HINTS.write_text(json.dumps(dict(sorted(hints.items())), indent=0) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
