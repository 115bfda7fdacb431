"""Reports of a run: a rich terminal table, JSON (schema ``verify/report.schema.json``), JUnit XML.

JSON layout (schema id ``verify-report/1``; one record per claim, per check and per control)::

    {"schema": "verify-report/1", "profile", "seed", "workers", "started", "wall_time", "passed",
     "environment": {package: version},
     "summary": {"claims", "passed", "failed", "verdicts": {level: count}},
     "claims": [{"id", "title", "source", "reading", "expected", "verdict", "passed",
                 "controls_refuted", "condition", "wall_time",
                 "checks":   [{"name", "kind": "check", "role", "description", "target", "seed",
                               "passed", "evidence": {...}}],
                 "controls": [{... "kind": "control", "role": "control" ...}]}]}

``evidence`` holds level, instances, margin_min, margin_max, error, tolerance, precision, backend,
seeds, wall_time, counterexample ({description, data, margin, seed} or null), notes, details.
"""

from __future__ import annotations

import json
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
    "to_json",
    "from_json",
    "write_json",
    "write_junit",
    "junit_xml",
    "print_table",
    "markdown",
    "write_markdown",
    "VERDICT_STYLE",
]

SCHEMA_ID = "verify-report/1"

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


def _check_json(c: CheckOutcome) -> dict[str, Any]:
    return {
        "name": c.name,
        "kind": c.kind,
        "role": c.role,
        "description": c.description,
        "target": c.target,
        "seed": c.seed,
        "passed": c.passed,
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
        "environment": dict(result.environment),
        "summary": {
            "claims": len(result.outcomes),
            "passed": sum(o.passed for o in result.outcomes),
            "failed": sum(not o.passed for o in result.outcomes),
            "verdicts": {v.value: verdicts.get(v.value, 0) for v in Verdict},
        },
        "claims": [
            {
                "id": o.claim_id,
                "title": o.title,
                "source": o.source,
                "reading": o.reading,
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
    )


def from_json(obj: Mapping[str, Any]) -> RunResult:
    """Rebuild a :class:`RunResult` from :func:`to_json` output (the round trip is lossless for
    every field the report holds)."""
    if obj.get("schema") != SCHEMA_ID:
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
        )
        for c in obj["claims"]
    ]
    return RunResult(outcomes=outcomes, profile=obj["profile"], seed=int(obj["seed"]),
                     workers=int(obj["workers"]), wall_time=float(obj["wall_time"]),
                     started=obj["started"], environment=dict(obj.get("environment", {})))


def write_json(result: RunResult, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(to_json(result), indent=2, sort_keys=False) + "\n")


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
    for k, v in (("profile", result.profile), ("seed", str(result.seed))):
        ET.SubElement(props, "property", name=k, value=v)
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
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def write_junit(result: RunResult, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(junit_xml(result) + "\n")


# -- terminal -------------------------------------------------------------------------------------
def _fmt_margin(m: float | None) -> str:
    return "-" if m is None else f"{m:.3g}"


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
                        f"{result.workers} worker{'s' if result.workers != 1 else ''})",
                  show_lines=False, expand=False)
    id_width = max([len(o.claim_id) + 2 for o in result.outcomes] + [8])
    table.add_column("claim", no_wrap=True, min_width=id_width)
    table.add_column("verdict", no_wrap=True, min_width=10)
    table.add_column("expected", no_wrap=True, min_width=10)
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
        console.print(f"[bold red]REFUTED[/] {o.claim_id}: {ce.description if ce else ''}")
        if ce is not None and ce.data:
            console.print(f"    counterexample: {json.dumps(ce.to_json()['data'])[:400]}")
        if o.condition:
            console.print(f"    holds under: {o.condition}")
    for o in result.outcomes:
        if not o.passed:
            console.print(f"[bold red]FAILED[/] {o.claim_id}")
            for line in o.failures():
                console.print(f"    {line}")
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
        f"verdict with every control refuted, in {result.wall_time:.1f} s.",
        "",
        "| claim | verdict | expected | controls refuted | instances | margin | time |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in result.outcomes:
        lines.append(f"| `{o.claim_id}` | {o.verdict.value} | {o.expected.value} | "
                     f"{sum(c.passed for c in o.controls)}/{len(o.controls)} | {o.instances} | "
                     f"{_fmt_margin(o.margin)} | {o.wall_time:.1f} s |")
    for o in result.outcomes:
        lines += ["", f"## `{o.claim_id}`: {_md(o.title)}", "", f"Source: {_md(o.source)}", "",
                  f"Reading: {_md(o.reading)}", ""]
        if o.condition:
            lines += [f"Holds under: {_md(o.condition)}", ""]
        lines += ["| check | kind | level | instances | precision | error | tolerance | seed |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in o.checks + o.controls:
            e = c.evidence
            kind = c.role if c.kind == "check" else "control"
            lines.append(f"| {c.name} | {kind} | {e.level.value} | {e.instances} | {_md(e.precision)} | "
                         f"{_fmt_margin(e.error)} | {_fmt_margin(e.tolerance)} | {c.seed} |")
        for c in o.checks + o.controls:
            ce = c.evidence.counterexample
            if ce is not None:
                lines += ["", f"- {c.kind} `{c.name}` counterexample: {_md(ce.description)}",
                          f"  `{_md(json.dumps(ce.to_json()['data'])[:600])}`"]
    return "\n".join(lines) + "\n"


def write_markdown(result: RunResult, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(markdown(result))
