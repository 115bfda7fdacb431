"""Runner throughput: the same claims in one process (baseline), on a plain process pool and on the
runner's own affinity pool, each in a fresh interpreter, in one run.

    python benchmarks/engine/bench_runner.py [PATTERN ...] [--workers 2] [--profile quick]

Each configuration runs as its own ``python -m verify run`` subprocess (a fresh process: no memo of an
earlier run is inherited through fork), writing a JSON report; the table gives its wall time, its CPU
time (user + system of the process and its workers), the sum of its check seconds, and the wall ratio to
the in-process baseline measured in the same run.  The evidence of every configuration must equal the
baseline's (timings aside; benchmarks/engine/evidence_diff.py), else the benchmark fails.

* ``in-process``: ``--workers 1``;
* ``process pool``: the affinity scheduling switched off (``VERIFY_POOL=plain``: a
  ``ProcessPoolExecutor`` handing each task to whichever worker is free, as before issue 14);
* ``affinity pool``: the default for ``--workers N`` (verify/_schedule.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)

from evidence_diff import diff  # noqa: E402


def _run(patterns: list[str], profile: str, workers: int, env: dict[str, str], out: str,
         ) -> tuple[float, float]:
    """(wall s, CPU s) of one ``verify run`` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "verify", "run", *patterns, "--profile", profile, "--workers",
                    str(workers), "--no-progress", "--json", out], env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _report(path: str, label: str) -> dict:
    """The JSON report a ``verify run`` wrote to ``path``; SystemExit naming the run if it wrote none."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        raise SystemExit(f"{label}: verify run wrote no report") from None


def _same_evidence(base: dict | None, report: dict, label: str, base_label: str) -> dict:
    """The baseline report: ``report`` when there is none yet; else ``base``, after SystemExit unless
    ``report``'s evidence equals it (timings aside)."""
    if base is None:
        return report
    lines, _ = diff(base, report)
    if lines:
        raise SystemExit(f"{label}: evidence differs from {base_label}:\n" + "\n".join(lines))
    return base


def measure(patterns: list[str], workers: int = 2, profile: str = "quick") -> dict:
    """Run the three configurations; print the table; return the figures."""
    rows = []
    base_report = None
    with tempfile.TemporaryDirectory() as tmp:
        for label, w, extra in (("in-process (baseline)", 1, {}),
                                (f"process pool x{workers}", workers, {"VERIFY_POOL": "plain"}),
                                (f"affinity pool x{workers}", workers, {})):
            env = {**os.environ, "VERIFY_CACHE_DIR": tmp, **extra}  # the same timing hints for each
            out = os.path.join(tmp, f"{len(rows)}.json")
            wall, cpu = _run(patterns, profile, w, env, out)
            report = _report(out, label)
            checks = sum(c["evidence"]["wall_time"] for o in report["claims"]
                         for c in o["checks"] + o["controls"])
            base_report = _same_evidence(base_report, report, label, "the in-process run")
            rows.append((label, wall, cpu, checks))
    base = rows[0][1]
    print(f"runner: {len(base_report['claims'])} claims, profile {profile}, load {os.getloadavg()[0]:.1f}")
    print(f"{'executor':26s} {'wall s':>8s} {'CPU s':>8s} {'sum of check s':>15s} {'wall / baseline':>16s}")
    for label, wall, cpu, checks in rows:
        print(f"{label:26s} {wall:8.1f} {cpu:8.1f} {checks:15.1f} {wall / base:16.2f}")
    return {"rows": [{"executor": r[0], "wall_s": r[1], "cpu_s": r[2], "check_s": r[3]} for r in rows]}


def catalogue(patterns: list[str] | None = None, profile: str = "quick",
              workers: tuple[int, ...] = (1, 2)) -> dict:
    """The catalogue as a user's ``verify run`` waits for it: for each worker count, the wall and CPU
    seconds of one fresh ``python -m verify run`` (interpreter start, imports and discovery included),
    in the order given, sharing one timing-hint cache (so the pool's longest-first schedule uses the
    first run's hints, as on a user's second run).  Every claim must be at its expected verdict with
    every control refuted, and every run's evidence must equal the first's (timings aside), else
    SystemExit: the time of a failing or diverging catalogue means nothing.  Issue 14 item 3."""
    patterns = list(patterns or [])
    rows = []
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for w in workers:
            out = os.path.join(tmp, f"w{w}.json")
            wall, cpu = _run(patterns, profile, w, {**os.environ, "VERIFY_CACHE_DIR": tmp}, out)
            report = _report(out, f"--workers {w}")
            if not report["passed"]:
                bad = [c["id"] for c in report["claims"] if not c["passed"]]
                raise SystemExit(f"verify run --workers {w}: not at the expected verdict: {bad}")
            first = _same_evidence(first, report, f"--workers {w}", f"--workers {workers[0]}")
            rows.append({"workers": w, "wall_s": wall, "cpu_s": cpu, "report_wall_s": report["wall_time"],
                         "claims": len(report["claims"])})
    print(f"catalogue: profile {profile}, {rows[0]['claims']} claims, load {os.getloadavg()[0]:.1f}")
    print(f"{'workers':>8s} {'wall s':>8s} {'CPU s':>8s} {'report s':>9s}")
    for r in rows:
        print(f"{r['workers']:8d} {r['wall_s']:8.1f} {r['cpu_s']:8.1f} {r['report_wall_s']:9.1f}")
    return {"profile": profile, "patterns": patterns, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("patterns", nargs="*")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", default="quick")
    args = ap.parse_args(argv)
    measure(args.patterns, args.workers, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
