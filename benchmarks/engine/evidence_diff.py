"""Compare the evidence of two JSON reports, timings aside: the proof that a speed change left every
check's evidence as it was.

    python benchmarks/engine/evidence_diff.py BEFORE.json AFTER.json [--show N]

Two reports of the same profile and seed are compared check by check (claims matched by id, checks and
controls by name): every field of every evidence except ``wall_time`` -- level, instances, margins,
achieved error, tolerance, precision, back-end, seeds, counterexample, notes and details.  Prints the
claims whose verdict changed, then every check whose evidence differs, with the first differing paths,
and a per-paper sum of check seconds before and after.  Exit 0 when the evidence is identical, 1 when it
differs (or a claim or check is missing on one side), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

_TIMING_KEYS = frozenset({"wall_time"})


def _strip(obj: Any) -> Any:
    """The object with every timing field removed, recursively."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in _TIMING_KEYS}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _paths(a: Any, b: Any, path: str = "") -> list[str]:
    """The paths at which ``a`` and ``b`` differ (a dict or list compared entry by entry)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}/{k} (only in {'after' if k in b else 'before'})")
            else:
                out.extend(_paths(a[k], b[k], f"{path}/{k}"))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path} (length {len(a)} -> {len(b)})"]
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in _paths(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {str(a)[:80]!r} -> {str(b)[:80]!r}"]


def _checks(claim: dict) -> dict[str, dict]:
    return {f"{c['kind']} {c['name']}": c for c in claim["checks"] + claim["controls"]}


def diff(before: dict, after: dict, show: int = 3) -> tuple[list[str], dict[str, tuple[float, float]]]:
    """Lines describing every difference, and (before, after) check seconds per paper."""
    lines: list[str] = []
    if (before.get("profile"), before.get("seed")) != (after.get("profile"), after.get("seed")):
        lines.append(f"profile/seed differ: {before.get('profile')}/{before.get('seed')} -> "
                     f"{after.get('profile')}/{after.get('seed')}")
    a = {c["id"]: c for c in before["claims"]}
    b = {c["id"]: c for c in after["claims"]}
    seconds: dict[str, list[float]] = {}
    for cid in sorted(set(a) | set(b)):
        if cid not in a or cid not in b:
            lines.append(f"{cid}: only in {'after' if cid in b else 'before'}")
            continue
        if a[cid]["verdict"] != b[cid]["verdict"] or a[cid]["passed"] != b[cid]["passed"]:
            lines.append(f"{cid}: VERDICT {a[cid]['verdict']} (passed {a[cid]['passed']}) -> "
                         f"{b[cid]['verdict']} (passed {b[cid]['passed']})")
        ca, cb = _checks(a[cid]), _checks(b[cid])
        paper = cid.split(".")[0]
        sec = seconds.setdefault(paper, [0.0, 0.0])
        for name in sorted(set(ca) | set(cb)):
            if name not in ca or name not in cb:
                lines.append(f"{cid} {name}: only in {'after' if name in cb else 'before'}")
                continue
            sec[0] += ca[name]["evidence"].get("wall_time", 0.0)
            sec[1] += cb[name]["evidence"].get("wall_time", 0.0)
            d = _paths(_strip(ca[name]), _strip(cb[name]))
            if d:
                lines.append(f"{cid} {name}: {len(d)} field(s) differ")
                lines.extend(f"    {p}" for p in d[:show])
    return lines, {k: (v[0], v[1]) for k, v in seconds.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--show", type=int, default=3, help="differing paths shown per check")
    args = ap.parse_args(argv)
    try:
        with open(args.before) as f:
            before = json.load(f)
        with open(args.after) as f:
            after = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"evidence_diff: cannot read a report: {e}", file=sys.stderr)
        return 2
    lines, seconds = diff(before, after, args.show)
    for line in lines:
        print(line)
    for paper, (s0, s1) in sorted(seconds.items()):
        print(f"{paper}: check seconds {s0:.1f} -> {s1:.1f}")
    print("evidence identical (timings aside)" if not lines else f"{len(lines)} difference line(s)")
    return 0 if not lines else 1


if __name__ == "__main__":
    sys.exit(main())
