"""Reports of a run: a rich terminal table, JSON (schema ``verify/report.schema.json``), JUnit XML.

JSON layout (schema id ``verify-report/2``; one record per claim, per check and per control)::

    {"schema": "verify-report/2", "profile", "seed", "workers", "started", "wall_time", "passed",
     "environment": {package: version},
     "summary": {"claims", "passed", "failed", "verdicts": {level: count},
                 "refuted_source", "refuted_boundary"},
     "claims": [{"id", "title", "source", "reading", "strength", "expected", "verdict", "passed",
                 "controls_refuted", "condition", "wall_time",
                 "checks":   [{"name", "kind": "check", "role", "description", "target", "seed",
                               "passed", "inconclusive"?, "evidence": {...}}],
                 "controls": [{... "kind": "control", "role": "control" ...}]}]}

``strength`` is the claim's relation to its source (as-stated, strengthened, repaired, code, derived).
``summary.refuted_source`` counts the REFUTED claims that are the source's own statement (as-stated, or
the authors' code): the source's statement does not hold.  ``summary.refuted_boundary`` counts the other
REFUTED claims (strengthened readings, the toolkit's own statements): where a stronger reading stops.
A run of a user's model (``verify run --model``) records ``"model"`` (the model's type name) on its
claims and ``summary.refuted_model``: REFUTED there is a finding about the model, counted in neither of
the other two.  Version 2 added these three keys; ``verify report`` still reads ``verify-report/1`` files (their claims
have no recorded strength, and neither count is shown).

``inconclusive`` (present only when declared) is a corroborating check's reason why it may be UNKNOWN at
the run's profile (:attr:`verify.Check.inconclusive`); such a check passes when UNKNOWN, while a
corroborating UNKNOWN without one fails its claim (``passed`` false).

``evidence`` holds level, instances, margin_min, margin_max, error, tolerance, precision, backend,
seeds, wall_time, counterexample ({description, data, margin, seed} or null), notes, details.

An interrupted run (Ctrl-C, SIGTERM) has ``"interrupted": true``; its ``claims`` are the claims whose every
check and control finished, and ``"unfinished"`` lists the ids of the others.  Both keys are optional
(reports written before they existed have neither and read as not interrupted).  A report with no claim
is valid only when interrupted.

A run on dask (``verify run --scheduler``) adds the optional ``"scheduler": {"address", "kind"
(local/remote), "workers", "worker_environments": {worker: {package: version}}}``.

Every report file is written atomically (a temporary file in the same directory, then ``os.replace``):
a reader never sees half a report, and an interrupted write leaves the previous file in place.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from ._runner import CheckOutcome, ClaimOutcome, RunResult
from ._verdict import Evidence, Verdict

__all__ = [
    "SCHEMA_ID",
    "schema",
    "validate",
    "check_writable",
    "to_json",
    "from_json",
    "write_json",
    "write_junit",
    "junit_xml",
    "print_table",
    "markdown",
    "refuted_summary",
    "READABLE_SCHEMAS",
    "write_markdown",
    "VERDICT_STYLE",
]

SCHEMA_ID = "verify-report/2"
#: Report versions :func:`from_json` and :func:`validate` accept (version 1 had no strengths).
READABLE_SCHEMAS = ("verify-report/1", SCHEMA_ID)

VERDICT_STYLE = {
    Verdict.PROVED: "bold green",
    Verdict.CERTIFIED: "green",
    Verdict.CONSISTENT: "cyan",
    Verdict.UNKNOWN: "yellow",
    Verdict.REFUTED: "bold red",
}


def schema() -> dict[str, Any]:
    """The JSON schema of reports (draft 2020-12)."""
    return json.loads((Path(__file__).with_name("report.schema.json")).read_text())


def validate(obj: Any) -> None:
    """Raise ``ValueError`` naming the first problem unless ``obj`` is a valid report.

    Validates against the JSON Schema with ``jsonschema``, then checks what the schema cannot express:
    the summary counts the claims listed.
    """
    sch = schema()
    # name the version the file claims to be, when it is one this toolkit reads
    claimed = obj.get("schema") if isinstance(obj, dict) else None
    sid = claimed if claimed in READABLE_SCHEMAS else SCHEMA_ID
    if (isinstance(obj, dict) and obj.get("claims") == [] and obj.get("interrupted") is not True
            and obj.get("schema") in READABLE_SCHEMAS):
        raise ValueError(f"not a valid {sid} report: it lists no claim and is not marked "
                         "interrupted (a finished run reports at least one claim)")
    import jsonschema

    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(sch).iter_errors(obj))
    problem = None
    if err is not None:
        where = "/" + "/".join(str(x) for x in err.absolute_path)
        problem = f"at {where}: {err.message}"
    if problem is not None:
        if len(problem) > 300:
            problem = problem[:297] + "..."
        raise ValueError(f"not a valid {sid} report: {problem}")
    if obj["summary"]["claims"] != len(obj["claims"]):
        raise ValueError(f"not a valid {sid} report: summary.claims = {obj['summary']['claims']} "
                         f"but {len(obj['claims'])} claims are listed")
    if obj["schema"] == SCHEMA_ID:  # version 2: strengths and the two kinds of REFUTED are required
        for k, c in enumerate(obj["claims"]):
            if "strength" not in c:
                raise ValueError(f"not a valid {sid} report: at /claims/{k}: 'strength' is a "
                                 "required property")
        for key in ("refuted_source", "refuted_boundary"):
            if key not in obj["summary"]:
                raise ValueError(f"not a valid {sid} report: at /summary: {key!r} is a required "
                                 "property")
        refuted = [c for c in obj["claims"] if c["verdict"] == "REFUTED"]
        n_mod = sum(bool(c.get("model")) for c in refuted)  # on a user's model: neither kind
        n_src = sum(c["strength"] in ("as-stated", "code") for c in refuted if not c.get("model"))
        if (obj["summary"]["refuted_source"], obj["summary"]["refuted_boundary"]) != \
                (n_src, len(refuted) - n_src - n_mod):
            raise ValueError(f"not a valid {sid} report: summary.refuted_source/refuted_boundary = "
                             f"{obj['summary']['refuted_source']}/{obj['summary']['refuted_boundary']} but "
                             f"the claims listed give {n_src}/{len(refuted) - n_src - n_mod}")
        if obj["summary"].get("refuted_model", 0) != n_mod:
            raise ValueError(f"not a valid {sid} report: summary.refuted_model = "
                             f"{obj['summary'].get('refuted_model', 0)} but the claims listed give {n_mod}")


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise ``ValueError`` saying why a report cannot be written at ``path`` (creates missing parents).

    Checked before a run starts, so that an hour of checks is never lost to a typo in an output path.
    """
    text = os.fspath(path)
    if not text:
        raise ValueError("empty path")
    p = Path(text)
    try:
        if p.is_dir():
            raise ValueError("is a directory")
        parent = p.absolute().parent
        parent.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".verify-probe-")
        os.close(fd)
        os.unlink(probe)
        if p.exists() and not os.access(p, os.W_OK):
            raise ValueError("exists and is not writable")
    except OSError as e:
        raise ValueError(f"cannot be written ({e.strerror or e})") from None
    except ValueError as e:  # an embedded NUL byte, or ours above
        raise ValueError(str(e)) from None


def _atomic_write(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, then ``os.replace`` it into place."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if p.exists():
            mode = p.stat().st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _check_json(c: CheckOutcome) -> dict[str, Any]:
    return {
        "name": c.name,
        "kind": c.kind,
        "role": c.role,
        "description": c.description,
        "target": c.target,
        "seed": c.seed,
        "passed": c.passed,
        **({"inconclusive": c.inconclusive} if c.inconclusive else {}),
        "evidence": c.evidence.to_json(),
    }


def to_json(result: RunResult) -> dict[str, Any]:
    verdicts = Counter(o.verdict.value for o in result.outcomes)
    return {
        "schema": SCHEMA_ID,
        "profile": result.profile,
        "seed": result.seed,
        "workers": result.workers,
        "started": result.started,
        "wall_time": result.wall_time,
        "passed": result.passed,
        "interrupted": result.interrupted,
        "unfinished": list(result.unfinished),
        "environment": dict(result.environment),
        **({"scheduler": _jsonable(result.scheduler)} if result.scheduler else {}),
        "summary": {
            "claims": len(result.outcomes),
            "passed": sum(o.passed for o in result.outcomes),
            "failed": sum(not o.passed for o in result.outcomes),
            "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
            "refuted_source": sum(o.refuted_source for o in result.outcomes),
            "refuted_boundary": sum(o.refuted_boundary for o in result.outcomes),
            **({"refuted_model": sum(o.refuted_model for o in result.outcomes)}
               if any(o.model for o in result.outcomes) else {}),
        },
        "claims": [
            {
                "id": o.claim_id,
                "title": o.title,
                "source": o.source,
                "reading": o.reading,
                "strength": o.strength,
                **({"model": o.model} if o.model else {}),
                "expected": o.expected.value,
                "verdict": o.verdict.value,
                "passed": o.passed,
                "controls_refuted": o.controls_refuted,
                "condition": o.condition,
                "wall_time": o.wall_time,
                "checks": [_check_json(c) for c in o.checks],
                "controls": [_check_json(c) for c in o.controls],
            }
            for o in result.outcomes
        ],
    }


def _check_from(obj: Mapping[str, Any]) -> CheckOutcome:
    return CheckOutcome(
        name=obj["name"],
        kind=obj["kind"],
        role=obj["role"],
        description=obj.get("description", ""),
        target=obj.get("target", ""),
        seed=int(obj["seed"]),
        evidence=Evidence.from_json(obj["evidence"]),
        inconclusive=obj.get("inconclusive", ""),
    )


def from_json(obj: Mapping[str, Any]) -> RunResult:
    """Rebuild a :class:`RunResult` from :func:`to_json` output (the round trip is lossless for
    every field the report holds)."""
    if obj.get("schema") not in READABLE_SCHEMAS:
        raise ValueError(f"not a {SCHEMA_ID} report (schema = {obj.get('schema')!r})")
    outcomes = [
        ClaimOutcome(
            claim_id=c["id"],
            title=c["title"],
            source=c["source"],
            reading=c["reading"],
            expected=Verdict.parse(c["expected"]),
            verdict=Verdict.parse(c["verdict"]),
            checks=tuple(_check_from(x) for x in c["checks"]),
            controls=tuple(_check_from(x) for x in c["controls"]),
            condition=c.get("condition", ""),
            strength=c.get("strength", ""),
            model=c.get("model", ""),
        )
        for c in obj["claims"]
    ]
    return RunResult(outcomes=outcomes, profile=obj["profile"], seed=int(obj["seed"]),
                     workers=int(obj["workers"]), wall_time=float(obj["wall_time"]),
                     started=obj["started"], environment=dict(obj.get("environment", {})),
                     interrupted=bool(obj.get("interrupted", False)),
                     unfinished=list(obj.get("unfinished", [])),
                     scheduler=obj.get("scheduler"))


def _jsonable(obj: Any) -> Any:
    """Plain dicts, lists and strings/numbers (the scheduler record may hold other mappings)."""
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj if isinstance(obj, (str, int, float, bool)) or obj is None else str(obj)


def scheduler_line(result: RunResult) -> str:
    """'' for a local run; else where it ran, e.g. 'dask local tcp://127.0.0.1:40123, 2 workers'."""
    sch = result.scheduler
    if not sch:
        return ""
    n = sch.get("workers", result.workers)
    return f"dask {sch.get('kind', '')} {sch.get('address', '?')}, {n} worker{'s' if n != 1 else ''}"


def write_json(result: RunResult, path: str | Path) -> None:
    _atomic_write(path, json.dumps(to_json(result), indent=2, sort_keys=False) + "\n")


# -- JUnit ----------------------------------------------------------------------------------------
def junit_xml(result: RunResult) -> str:
    """JUnit XML: one ``testcase`` per claim (classname = paper), failing when the claim did not pass."""
    failures = sum(not o.passed for o in result.outcomes)
    suites = ET.Element("testsuites", name="verify", tests=str(len(result.outcomes)),
                        failures=str(failures), time=f"{result.wall_time:.3f}")
    suite = ET.SubElement(suites, "testsuite", name=f"verify[{result.profile}]",
                          tests=str(len(result.outcomes)), failures=str(failures), errors="0",
                          skipped="0", time=f"{result.wall_time:.3f}")
    props = ET.SubElement(suite, "properties")
    for k, v in (("profile", result.profile), ("seed", str(result.seed)),
                 ("interrupted", "true" if result.interrupted else "false")):
        ET.SubElement(props, "property", name=k, value=v)
    if result.unfinished:
        suite.set("skipped", str(len(result.unfinished)))
        suite.set("tests", str(len(result.outcomes) + len(result.unfinished)))
        suites.set("tests", suite.get("tests"))
    for o in result.outcomes:
        case = ET.SubElement(suite, "testcase", classname=o.claim_id.split(".")[0], name=o.claim_id,
                             time=f"{o.wall_time:.3f}")
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join(
            f"{c.kind} {c.name}: {c.evidence.level} ({c.evidence.instances} instances, "
            f"{c.evidence.precision})" for c in o.checks + o.controls)
        if not o.passed:
            fail = ET.SubElement(case, "failure", message=f"{o.verdict} (expected {o.expected})",
                                 type="ClaimMismatch")
            fail.text = "\n".join(o.failures())
    for cid in result.unfinished:
        case = ET.SubElement(suite, "testcase", classname=cid.split(".")[0], name=cid, time="0.000")
        ET.SubElement(case, "skipped", message="not finished: the run was interrupted")
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def write_junit(result: RunResult, path: str | Path) -> None:
    _atomic_write(path, junit_xml(result) + "\n")


# -- terminal -------------------------------------------------------------------------------------
def _refuted_kind(o: ClaimOutcome) -> str:
    if o.refuted_model:
        return (f"(on the model {o.model}: the model does not behave as the claim says; neither the "
                "source nor the reading is in question)")
    if o.refuted_source:
        return f"(the source's statement does not hold; {o.strength})"
    if o.refuted_boundary:
        return f"(boundary: where a {o.strength} reading stops, not the source's statement)"
    return "(strength not recorded)"


def refuted_summary(result: RunResult) -> str:
    """One line separating the two kinds of REFUTED ("" when nothing was refuted)."""
    refuted = [o for o in result.outcomes if o.verdict is Verdict.REFUTED]
    if not refuted:
        return ""
    src = sum(o.refuted_source for o in refuted)
    bnd = sum(o.refuted_boundary for o in refuted)
    mod = sum(o.refuted_model for o in refuted)
    if mod == len(refuted):
        return (f"REFUTED {mod} on a user's model: the model does not behave as the claim says (a finding "
                "about the model, not about the source or the reading)")
    line = (f"REFUTED {len(refuted)}: {src} where the source's statement does not hold (as-stated or "
            f"code), {bnd} where a stronger reading stops (boundary findings)")
    if mod:
        line += f", {mod} on a user's model"
    if src + bnd + mod < len(refuted):
        line += f", {len(refuted) - src - bnd - mod} with no recorded strength"
    return line


def _fmt_margin(m: float | None) -> str:
    return "-" if m is None else f"{m:.3g}"


def inconclusive_checks(o: ClaimOutcome) -> list[CheckOutcome]:
    """The corroborating checks of ``o`` that came out UNKNOWN for their declared reason."""
    return [c for c in o.checks if c.declared_inconclusive]


def print_table(result: RunResult, *, file: IO[str] | None = None, width: int | None = None) -> None:
    """A rich table of the run: id, source, reading, verdict, expected, instances, margin, time."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    import sys

    if width is None and not (file or sys.stdout).isatty():
        width = 200  # a file or a pipe: no need to squeeze
    console = Console(file=file, width=width, soft_wrap=False)
    table = Table(title=f"verify run  (profile {result.profile}, seed {result.seed}, "
                        + (scheduler_line(result) if result.scheduler else
                           f"{result.workers} worker{'s' if result.workers != 1 else ''}") + ")",
                  show_lines=False, expand=False)
    id_width = max([len(o.claim_id) + 2 for o in result.outcomes] + [8])
    table.add_column("claim", no_wrap=True, min_width=id_width)
    table.add_column("verdict", no_wrap=True, min_width=10)
    table.add_column("expected", no_wrap=True, min_width=10)
    table.add_column("strength", no_wrap=True, min_width=12)
    table.add_column("controls", no_wrap=True, justify="right", min_width=8)
    table.add_column("inst", justify="right", no_wrap=True, min_width=5)
    table.add_column("margin", justify="right", no_wrap=True, min_width=8)
    table.add_column("time", justify="right", no_wrap=True, min_width=6)
    table.add_column("source", overflow="ellipsis", no_wrap=True, max_width=36)
    table.add_column("reading", overflow="ellipsis", no_wrap=True, max_width=48)
    for o in result.outcomes:
        mark = "" if o.passed else " ✗"
        ctrl = f"{sum(c.passed for c in o.controls)}/{len(o.controls)}"
        table.add_row(
            o.claim_id + mark,
            Text(o.verdict.value, style=VERDICT_STYLE[o.verdict]),
            o.expected.value,
            o.strength or "-",
            Text(ctrl, style="green" if o.controls_refuted else "bold red"),
            str(o.instances),
            _fmt_margin(o.margin),
            f"{o.wall_time:.1f}s",
            o.source,
            o.reading,
        )
    console.print(table)
    refuted = [o for o in result.outcomes if o.verdict is Verdict.REFUTED]
    for o in refuted:
        ce = o.counterexample
        console.print(f"[bold red]REFUTED[/] {_refuted_kind(o)} {o.claim_id}: {ce.description if ce else ''}")
        if ce is not None and ce.data:
            console.print(f"    counterexample: {json.dumps(ce.to_json()['data'])[:400]}")
        if o.condition:
            console.print(f"    holds under: {o.condition}")
    for o in result.outcomes:
        for c in inconclusive_checks(o):
            console.print(f"[yellow]INCONCLUSIVE[/] {o.claim_id} {c.name} (corroborating, as declared): "
                          f"{c.inconclusive}")
    for o in result.outcomes:
        if not o.passed:
            console.print(f"[bold red]FAILED[/] {o.claim_id}")
            for line in o.failures():
                console.print(f"    {line}")
    if result.interrupted:
        console.print(f"[bold yellow]INTERRUPTED[/]: only the {len(result.outcomes)} claim(s) whose every "
                      f"check and control finished are reported; {len(result.unfinished)} unfinished"
                      + (f": {', '.join(result.unfinished[:8])}" if result.unfinished else "")
                      + (" ..." if len(result.unfinished) > 8 else ""))
    line = refuted_summary(result)
    if line:
        console.print(line)
    n_ok = sum(o.passed for o in result.outcomes)
    style = "bold green" if result.passed else "bold red"
    console.print(f"[{style}]{n_ok}/{len(result.outcomes)} claims at their expected verdict with every "
                  f"control refuted[/] in {result.wall_time:.1f}s")


# -- Markdown -------------------------------------------------------------------------------------
def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(result: RunResult) -> str:
    """A Markdown report: the claim table, then per claim its checks, controls and counterexamples."""
    lines = [
        f"# verify report ({result.profile} profile, seed {result.seed})",
        "",
        f"{sum(o.passed for o in result.outcomes)}/{len(result.outcomes)} claims at their expected "
        f"verdict with every control refuted, in {result.wall_time:.1f} s"
        + (f" (on {scheduler_line(result)})" if result.scheduler else "") + ".",
        "",
    ]
    if refuted_summary(result):
        lines += [refuted_summary(result) + ".", ""]
    if result.interrupted:
        lines += [f"**Interrupted**: only the claims whose every check and control finished are reported; "
                  f"{len(result.unfinished)} unfinished"
                  + (": " + ", ".join(f"`{c}`" for c in result.unfinished) if result.unfinished else "")
                  + ".", ""]
    lines += [
        "| claim | verdict | expected | controls refuted | instances | margin | time | strength |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for o in result.outcomes:
        lines.append(f"| `{o.claim_id}` | {o.verdict.value} | {o.expected.value} | "
                     f"{sum(c.passed for c in o.controls)}/{len(o.controls)} | {o.instances} | "
                     f"{_fmt_margin(o.margin)} | {o.wall_time:.1f} s | {o.strength or '-'} |")
    for o in result.outcomes:
        lines += ["", f"## `{o.claim_id}`: {_md(o.title)}", "", f"Source: {_md(o.source)}", "",
                  f"Strength: {o.strength or 'not recorded'}", "", f"Reading: {_md(o.reading)}", ""]
        if o.condition:
            lines += [f"Holds under: {_md(o.condition)}", ""]
        lines += ["| check | kind | level | instances | precision | error | tolerance | seed |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in o.checks + o.controls:
            e = c.evidence
            kind = c.role if c.kind == "check" else "control"
            lines.append(f"| {c.name} | {kind} | {e.level.value} | {e.instances} | {_md(e.precision)} | "
                         f"{_fmt_margin(e.error)} | {_fmt_margin(e.tolerance)} | {c.seed} |")
        for c in inconclusive_checks(o):
            lines += ["", f"- check `{c.name}` (corroborating) is inconclusive, as declared: "
                          f"{_md(c.inconclusive)}"]
        for c in o.checks + o.controls:
            ce = c.evidence.counterexample
            if ce is not None:
                lines += ["", f"- {c.kind} `{c.name}` counterexample: {_md(ce.description)}",
                          f"  `{_md(json.dumps(ce.to_json()['data'])[:600])}`"]
    return "\n".join(lines) + "\n"


def write_markdown(result: RunResult, path: str | Path) -> None:
    _atomic_write(path, markdown(result))
