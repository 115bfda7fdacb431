"""Run the mutation harness: ``python -m tests.mutation [--only ID ...] [--jobs N] [--json PATH]``.

For each mutation: copy of the tree (tracked and untracked-but-not-ignored files, no bytecode), apply
the one edit, run what must kill it, restore the file.  A mutation is

* ``killed``    when the claims run (``verify run PATTERNS --profile quick``) exits 1, or the named
                pytest selection fails; a crash of the run (any other non-zero exit) is also a kill,
                recorded as such;
* ``survived``  when everything still passes: the checks did not notice the bug;
* ``invalid``   when the snippet does not apply or the selection matches nothing (a harness error);
* ``equivalent`` when the catalogue documents it as the same mathematics (not counted).

The kill rate is killed / (killed + survived).  Before mutating, the unmutated tree is run once on the
union of all selections (``--no-baseline`` skips it): a mutation run is meaningful only if that passes.
Exit status 0 when the kill rate reaches ``--target`` (0.95) and nothing is invalid, 1 otherwise.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import all_mutations
from ._model import Mutation

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Result:
    mutation: Mutation
    status: str
    seconds: float = 0.0
    detail: str = ""
    failed: list[str] = field(default_factory=list)


def _tree_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                         cwd=ROOT, check=True, capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def _make_scratch(files: list[str]) -> Path:
    dest = Path(tempfile.mkdtemp(prefix="mutation-"))
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, target)
    return dest


def _env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(scratch)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a same-size edit within one second must not reuse a .pyc
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[var] = "1"
    return env


def _run_claims(scratch: Path, patterns: tuple[str, ...], timeout: float, workers: int = 1
                ) -> tuple[str, str, list[str]]:
    report = scratch / ".mutation-report.json"
    report.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "verify", "run", *patterns, "--profile", "quick", "--no-progress",
           "--json", str(report), "--workers", str(workers)]
    try:
        p = subprocess.run(cmd, cwd=scratch, env=_env(scratch), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed", f"verify run timed out after {timeout:.0f} s", []
    failed: list[str] = []
    if report.exists():
        try:
            data = json.loads(report.read_text())
            failed = [c["id"] for c in data.get("claims", []) if not c.get("passed")]
        except (ValueError, KeyError, TypeError):
            pass
    if p.returncode == 0:
        return "survived", "", []
    if p.returncode == 1:
        return "killed", "", failed
    if p.returncode in (4, 5):
        return "invalid", f"verify run exited {p.returncode}: {p.stderr.strip()[-300:]}", failed
    return "killed", f"verify run crashed (exit {p.returncode}): {p.stderr.strip()[-300:]}", failed


def _run_pytest(scratch: Path, ids: tuple[str, ...], timeout: float) -> tuple[str, str, list[str]]:
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--no-header",
           "-o", "addopts=-ra --strict-markers --import-mode=importlib", *ids]
    try:
        p = subprocess.run(cmd, cwd=scratch, env=_env(scratch), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed", f"pytest timed out after {timeout:.0f} s", []
    tail = p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else []
    if p.returncode == 0:
        return "survived", "", []
    if p.returncode in (4, 5):
        return "invalid", f"pytest exited {p.returncode}: {(p.stdout + p.stderr).strip()[-300:]}", []
    failed = [ln.split(" ", 1)[1].split(" - ")[0] for ln in p.stdout.splitlines()
              if ln.startswith(("FAILED ", "ERROR "))]
    return "killed", " ".join(tail), failed


def _run_one(m: Mutation, scratch: Path, timeout: float) -> Result:
    if m.equivalent:
        return Result(m, "equivalent", detail=m.equivalent)
    path = scratch / m.path
    t0 = time.perf_counter()
    try:
        original = path.read_text()
        mutated = m.apply(original)
    except (OSError, LookupError) as e:
        return Result(m, "invalid", detail=str(e))
    path.write_text(mutated)
    try:
        status, detail, failed = "survived", "", []
        if m.claim_patterns:
            status, detail, failed = _run_claims(scratch, m.claim_patterns, timeout)
        if status == "survived" and m.pytest_ids:
            status, detail, failed = _run_pytest(scratch, m.pytest_ids, timeout)
    finally:
        path.write_text(original)
    return Result(m, status, time.perf_counter() - t0, detail, failed)


def _baseline(scratch: Path, muts: list[Mutation], timeout: float, jobs: int) -> list[str]:
    problems = []
    patterns = sorted({p for m in muts if not m.equivalent for p in m.claim_patterns})
    ids = sorted({p for m in muts if not m.equivalent for p in m.pytest_ids})
    if patterns:
        status, detail, failed = _run_claims(scratch, tuple(patterns), timeout * 4, workers=jobs)
        if status != "survived":
            problems.append(f"unmutated claims do not pass ({status}): {failed or detail}")
    if ids:
        status, detail, failed = _run_pytest(scratch, tuple(ids), timeout * 4)
        if status != "survived":
            problems.append(f"unmutated tests do not pass ({status}): {failed or detail}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", default=[], metavar="PATTERN",
                    help="run only mutations whose id matches (fnmatch; repeatable)")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutation applies to the current tree")
    ap.add_argument("--jobs", type=int, default=1, help="scratch trees run in parallel")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutation")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    ap.add_argument("--target", type=float, default=0.95)
    ap.add_argument("--json", metavar="PATH", help="write the results here")
    ap.add_argument("--markdown", metavar="PATH", help="write the results as a Markdown table here")
    args = ap.parse_args(argv)

    muts = all_mutations()
    if args.only:
        muts = [m for m in muts if any(fnmatch.fnmatchcase(m.id, p) for p in args.only)]
    if not muts:
        print("no mutation matched", file=sys.stderr)
        return 5
    if args.list:
        for m in muts:
            eq = "  [equivalent]" if m.equivalent else ""
            print(f"{m.id:45s} {m.family:12s} {m.path}{eq}\n    {m.why}")
        return 0
    if args.check:
        bad = []
        for m in muts:
            try:
                m.apply((ROOT / m.path).read_text())
            except (OSError, LookupError) as e:
                bad.append(str(e))
        print("\n".join(bad) or f"all {len(muts)} mutations apply")
        return 1 if bad else 0

    files = _tree_files()
    jobs = max(1, min(args.jobs, len(muts)))
    scratches = [_make_scratch(files) for _ in range(jobs)]
    try:
        if not args.no_baseline:
            t0 = time.perf_counter()
            problems = _baseline(scratches[0], muts, args.timeout, jobs)
            if problems:
                print("baseline failed; mutation results would mean nothing:\n  " + "\n  ".join(problems))
                return 2
            print(f"baseline passes ({time.perf_counter() - t0:.0f} s)", flush=True)
        free: queue.Queue[Path] = queue.Queue()
        for s in scratches:
            free.put(s)
        results: list[Result] = []
        lock = threading.Lock()

        def task(m: Mutation) -> None:
            scratch = free.get()
            try:
                r = _run_one(m, scratch, args.timeout)
            finally:
                free.put(scratch)
            with lock:
                results.append(r)
                extra = f"  {r.detail}" if r.detail and r.status != "killed" else ""
                by = f"  by {', '.join(r.failed[:4])}" if r.failed else ""
                print(f"[{len(results):3d}/{len(muts)}] {r.status:10s} {m.id:45s} {r.seconds:6.1f} s{by}{extra}",
                      flush=True)

        threads = []
        for m in muts:
            t = threading.Thread(target=task, args=(m,))
            t.start()
            threads.append(t)
            while sum(th.is_alive() for th in threads) >= jobs:
                time.sleep(0.2)
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for s in scratches:
            shutil.rmtree(s, ignore_errors=True)

    order = {m.id: k for k, m in enumerate(muts)}
    results.sort(key=lambda r: order[r.mutation.id])
    counts = {s: sum(r.status == s for r in results) for s in ("killed", "survived", "invalid", "equivalent")}
    scored = counts["killed"] + counts["survived"]
    rate = counts["killed"] / scored if scored else 0.0
    print(f"\n{counts['killed']} killed, {counts['survived']} survived, {counts['invalid']} invalid, "
          f"{counts['equivalent']} equivalent: kill rate {rate:.1%} of {scored} (target {args.target:.0%})")
    for r in results:
        if r.status in ("survived", "invalid", "equivalent"):
            print(f"  {r.status.upper():10s} {r.mutation.id}: {r.mutation.why}"
                  + (f" -- {r.detail}" if r.detail else ""))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "kill_rate": rate, "counts": counts,
            "results": [{"id": r.mutation.id, "path": r.mutation.path, "family": r.mutation.family,
                         "why": r.mutation.why, "kills": list(r.mutation.kills), "status": r.status,
                         "seconds": round(r.seconds, 2), "detail": r.detail, "failed": r.failed}
                        for r in results]}, indent=2))
    if args.markdown:
        Path(args.markdown).write_text(_markdown(results, counts, rate))
    return 0 if rate >= args.target and not counts["invalid"] else 1


def _markdown(results: list[Result], counts: dict[str, int], rate: float) -> str:
    """A summary per area and one row per mutation (what docs/mutation.md shows)."""
    areas: dict[str, dict[str, int]] = {}
    for r in results:
        a = areas.setdefault(r.mutation.id.split(".", 1)[0], {})
        a[r.status] = a.get(r.status, 0) + 1
    lines = ["| area | mutations | killed | survived | equivalent | invalid |", "|---|---|---|---|---|---|"]
    for area, c in areas.items():
        lines.append(f"| {area} | {sum(c.values())} | {c.get('killed', 0)} | {c.get('survived', 0)} | "
                     f"{c.get('equivalent', 0)} | {c.get('invalid', 0)} |")
    lines.append(f"| **all** | **{len(results)}** | **{counts['killed']}** | **{counts['survived']}** | "
                 f"**{counts['equivalent']}** | **{counts['invalid']}** |")
    lines += ["", f"Kill rate: **{rate:.1%}** of the {counts['killed'] + counts['survived']} scored mutations.",
              "", "| mutation | family | the bug | status | caught by |", "|---|---|---|---|---|"]
    for r in results:
        by = ", ".join(r.failed[:3]) or (r.mutation.equivalent if r.status == "equivalent" else r.detail[:60])
        why = r.mutation.why.replace("|", "\\|")
        lines.append(f"| `{r.mutation.id}` | {r.mutation.family} | {why} | {r.status} | {by.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
