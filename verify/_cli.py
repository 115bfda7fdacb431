"""The ``verify`` command: ``list``, ``run``, ``show``, ``report``, ``sweep`` and ``perturb``.

Exit codes mirror pytest: 0 every observed verdict equals its expected verdict and every control is
REFUTED; 1 otherwise; 4 usage error (bad option, unknown profile, unknown id, an output path that cannot
be written, a file that is not a valid report); 5 nothing matched; 130 interrupted (Ctrl-C or SIGTERM:
the reports of what finished are written, marked ``"interrupted": true``).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from ._errors import UsageError, VerifyError
from ._profile import PROFILES

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_NO_MATCH", "EXIT_OK", "EXIT_USAGE", "main"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NO_MATCH = 0, 1, 4, 5
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's default exit status is 2
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="verify", description="Run, list and show the claims of the catalogue.")
    p.add_argument("--catalogue", default=os.environ.get("VERIFY_CATALOGUE", "theorems"),
                   metavar="PACKAGE",
                   help="package whose <paper>/claims.py modules form the catalogue "
                        "(default: $VERIFY_CATALOGUE or 'theorems')")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    pl = sub.add_parser("list", help="list claims (optionally matching glob PATTERNs)")
    pl.add_argument("patterns", nargs="*", metavar="PATTERN")
    pl.add_argument("--paper", help="only this paper (interp, focus, ddcl, or an arXiv id)")
    pl.add_argument("--json", action="store_true", help="print JSON instead of a table")
    pl.add_argument("--model-checkable", action="store_true",
                    help="only the claims a user's model can be checked against (verify run ID --model)")

    pr = sub.add_parser("run", help="run claims (all, or those matching IDs / glob PATTERNs)")
    pr.add_argument("patterns", nargs="*", metavar="ID_OR_PATTERN")
    pr.add_argument("--paper", help="only this paper")
    pr.add_argument("--profile", default="quick", choices=sorted(PROFILES))
    pr.add_argument("--seed", type=int, default=0)
    pr.add_argument("--workers", type=int, default=1)
    pr.add_argument("--json", metavar="PATH", help="write the JSON report here")
    pr.add_argument("--junit", metavar="PATH", help="write a JUnit XML report here")
    pr.add_argument("--markdown", metavar="PATH", help="write a Markdown report here")
    pr.add_argument("--html", metavar="DIR", help="write an HTML report (index.html, a page per claim, "
                                                  "figures) into this directory")
    pr.add_argument("--model", metavar="PACKAGE.MODULE:FACTORY",
                    help="check the model FACTORY() returns against the selected model-checkable claims "
                         "(verify list --model-checkable)")
    pr.add_argument("--no-progress", action="store_true",
                    help="no progress bar (there is none when stderr is not a terminal)")
    pr.add_argument("--scheduler", metavar="ADDRESS|local[:N]",
                    help="run on dask.distributed: the scheduler at ADDRESS (tcp://HOST:8786), or "
                         "'local[:N]', a cluster of N worker processes on this machine (default: one "
                         "per CPU); needs the [dask] extra")

    ps = sub.add_parser("show", help="statement, hypotheses, reading, derivation and fresh evidence")
    ps.add_argument("id", metavar="ID")
    ps.add_argument("--profile", default="quick", choices=sorted(PROFILES))
    ps.add_argument("--seed", type=int, default=0)
    ps.add_argument("--no-run", action="store_true", help="do not run the checks")

    pw = sub.add_parser("sweep", help="run a parameter sweep of the catalogue (--list: list them)")
    pw.add_argument("name", nargs="?", metavar="NAME")
    pw.add_argument("--list", action="store_true", help="list the catalogue's sweeps")
    pw.add_argument("--grid", default="small", help="which grid of the sweep (default: small)")
    pw.add_argument("--seed", type=int, default=0)
    pw.add_argument("--workers", type=int, default=1)
    pw.add_argument("--scheduler", metavar="ADDRESS|local[:N]", help="run on dask.distributed")
    pw.add_argument("--json", metavar="PATH", help="write the sweep's JSON report here")
    pw.add_argument("--min-task-seconds", type=float, default=0.1,
                    help="shard points into tasks of at least this many seconds (default 0.1)")
    pw.add_argument("--show", type=int, default=10, help="print the first SHOW results (default 10)")
    pw.add_argument("--no-progress", action="store_true", help="no progress bar")

    pq = sub.add_parser("perturb", help="run a claim's checks on false variants of its statement "
                        "(each part negated, constants of identities scaled): each must be REFUTED")
    pq.add_argument("patterns", nargs="+", metavar="ID_OR_PATTERN")
    pq.add_argument("--profile", default="quick", choices=sorted(PROFILES))
    pq.add_argument("--seed", type=int, default=0)

    pp = sub.add_parser("report", help="render a saved JSON report as a table (and as HTML, Markdown, "
                                       "JUnit)")
    pp.add_argument("path", metavar="JSON")
    pp.add_argument("--junit", metavar="PATH", help="also write JUnit XML")
    pp.add_argument("--markdown", metavar="PATH", help="also write a Markdown report")
    pp.add_argument("--html", metavar="DIR", help="also write an HTML report into this directory "
                                                  "(statements and derivations from --catalogue)")
    return p


_PACKAGE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _catalogue(package: str) -> Any:
    import importlib.util

    from ._registry import catalogue

    if not _PACKAGE_RE.match(package):
        raise UsageError(f"--catalogue {package!r} is not a package name (dotted identifiers)")
    try:
        spec = importlib.util.find_spec(package)
        if spec is None:
            raise ModuleNotFoundError(f"no module named {package!r}", name=package)
        if spec.submodule_search_locations is None:
            raise UsageError(f"--catalogue {package!r} is a module, not a package of papers")
        return catalogue(package)
    except ModuleNotFoundError as e:
        raise UsageError(f"cannot import the catalogue package {package!r}: {e}") from e


def _select(package: str, patterns: Sequence[str], paper: str | None) -> tuple[list[Any], int | None]:
    """Resolve patterns; returns (claims, exit code if the selection is an error)."""
    cat = _catalogue(package)
    claims, unmatched = cat.select(patterns, paper)
    for pat in unmatched:
        near = cat.suggest(pat.rstrip("*"))
        hint = f" Nearest ids: {', '.join(near)}." if near else ""
        print(f"verify: no claim matches {pat!r}.{hint}", file=sys.stderr)
    if not claims:
        print("verify: nothing matched.", file=sys.stderr)
        return [], EXIT_NO_MATCH
    if unmatched:
        return claims, EXIT_USAGE
    return claims, None


def _cmd_list(args: argparse.Namespace) -> int:
    claims, code = _select(args.catalogue, args.patterns, args.paper)
    if code is not None:
        return code
    if args.model_checkable:
        from ._models import model_checks

        mcs = model_checks()
        claims = [c for c in claims if c.id in mcs]
        if not args.json:
            for c in claims:
                mc = mcs[c.id]
                print(f"{c.id}: {mc.description} [protocol {mc.protocol.__module__}.{mc.protocol.__name__}]")
            return EXIT_OK
    if args.json:
        print(json.dumps([
            {"id": c.id, "title": c.title, "paper": c.source.paper, "source": str(c.source),
             "expected": c.expected.value, "strength": c.strength, "quote": c.quote,
             "quote_source": c.quote_source, "expected_refutation": _refutation_kind(c),
             "provenance": list(c.provenance), **_statement_fields(c),
             "checks": [k.name for k in c.checks], "controls": [k.name for k in c.controls]}
            for c in claims], indent=2))
        return EXIT_OK
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{len(claims)} claims", caption=_list_caption(claims))
    t.add_column("claim", no_wrap=True)
    t.add_column("expected", no_wrap=True)
    t.add_column("strength", no_wrap=True)
    t.add_column("source", overflow="fold", max_width=40)
    t.add_column("title", overflow="fold")
    for c in claims:
        t.add_row(c.id, c.expected.value, c.strength,
                  f"arXiv:{c.source.paper} {c.source.where} ({c.source.spec})",
                  c.title)
    Console(width=None if sys.stdout.isatty() else 200).print(t)
    return EXIT_OK


def _statement_fields(claim: Any) -> dict[str, Any]:
    from ._statement import is_formula, statement_latex, statement_text

    st = claim.resolved_statement()
    der = claim.resolved_derivation()
    return {"statement_latex": statement_latex(st), "statement_text": statement_text(st),
            "statement_is_formula": is_formula(st),
            "derivation_steps": 0 if der is None else len(der.steps)}


def _cmd_perturb(args: argparse.Namespace) -> int:
    from ._perturb import perturbation_outcomes
    from ._verdict import Verdict

    claims, code = _select(args.catalogue, args.patterns, None)
    if code is not None:
        return code
    failed = 0
    for c in claims:
        outs = perturbation_outcomes(c, profile=args.profile, seed=args.seed)
        if not outs:
            print(f"{c.id}: the statement is not a formula; nothing to perturb")
            continue
        for o in outs:
            ok = o.refuted or c.expected is Verdict.REFUTED
            failed += not ok
            mark = "refuted" if o.refuted else "NOT REFUTED"
            print(f"{c.id} [{o.part or 'body'}] {o.description}: {o.verdict} ({mark}"
                  f"{f' by {o.sub_check}' if o.sub_check else ''}; {o.wall_time:.1f}s)")
    return EXIT_OK if not failed else EXIT_FAILED


def _refutation_kind(claim: Any) -> str | None:
    """For a claim expected REFUTED: "source" (the source's statement does not hold: as-stated or code)
    or "boundary" (where a stronger or the toolkit's own reading stops); None otherwise."""
    from ._verdict import Verdict

    if claim.expected is not Verdict.REFUTED:
        return None
    return "source" if claim.is_source_statement else "boundary"


def _list_caption(claims: Sequence[Any]) -> str:
    from collections import Counter

    from ._claim import STRENGTHS

    strengths = Counter(c.strength for c in claims)
    kinds = Counter(_refutation_kind(c) for c in claims)
    return (", ".join(f"{s} {strengths[s]}" for s in STRENGTHS) + "; expected REFUTED: "
            f"{kinds['source']} the source's statement (as-stated/code), "
            f"{kinds['boundary']} boundary (where a stronger reading stops)")


def _progress(enabled: bool, total: int | None = None, stream: Any = None) -> Any:
    """The progress bar on stderr (None with ``--no-progress`` or when stderr is not a terminal)."""
    from ._progress import ProgressBar

    bar = ProgressBar(stream if stream is not None else sys.stderr, total=total)
    return bar if enabled and bar.enabled else None


def _check_outputs(args: argparse.Namespace, options: Sequence[str]) -> None:
    """Every ``--json/--junit/--markdown PATH`` must be writable, checked before any work is done."""
    from ._report import check_writable

    for opt in options:
        path = getattr(args, opt, None)
        if path is None:
            continue
        try:
            check_writable(path)
        except ValueError as e:
            raise UsageError(f"--{opt} {path!r}: {e}") from None
    if getattr(args, "html", None) is not None:
        from ._html import check_html_dir

        try:
            check_html_dir(args.html)
        except ValueError as e:
            raise UsageError(f"--html {args.html!r}: {e}") from None


def _cap_workers(requested: int, tasks: int) -> int:
    """``--workers`` capped at the number of tasks and at the number of CPUs (said on stderr)."""
    cpus = os.cpu_count() or 1
    workers = max(1, min(requested, tasks, cpus))
    if workers < requested:
        why = (f"{tasks} task{'s' if tasks != 1 else ''} to run" if workers == tasks and tasks < cpus
               else f"{cpus} CPU{'s' if cpus != 1 else ''}")
        print(f"verify: --workers {requested} capped at {workers} ({why})", file=sys.stderr)
    return workers


def _dask_session(spec: str) -> Any:
    """Connect to (or start) the dask cluster of ``--scheduler``; usage errors as :class:`UsageError`."""
    try:
        from ._dask import connect, parse_scheduler
    except ImportError as e:
        raise UsageError("--scheduler needs dask: pip install 'transformer-theory-verify[dask]'") from e
    try:
        parse_scheduler(spec)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        return connect(spec)
    except (OSError, TimeoutError) as e:
        raise UsageError(f"--scheduler {spec!r}: cannot reach the scheduler: {e}") from e


def _cmd_sweep(args: argparse.Namespace) -> int:
    from ._sweep import command

    if args.workers <= 0:
        raise UsageError("--workers must be a positive number of processes")
    _check_outputs(args, ("json",))
    _catalogue(args.catalogue)  # a usage error for a package that is not there
    return command(args, args.catalogue)


def _cmd_run(args: argparse.Namespace) -> int:
    from ._report import print_table
    from ._runner import run_claims, stop_on_signals

    if args.workers < 1:
        raise UsageError("--workers must be >= 1")
    _check_outputs(args, ("json", "junit", "markdown"))
    claims, code = _select(args.catalogue, args.patterns, args.paper)
    if code is not None:
        return code
    if args.model:
        return _run_model(args, claims)
    if not args.scheduler:
        args.workers = _cap_workers(args.workers, sum(len(c.checks) + len(c.controls) for c in claims))
    session = None
    if args.scheduler:
        session = _dask_session(args.scheduler)
        args.workers = max(1, session.workers)
    from ._runner import check_count
    from ._timings import load_timings, save_timings

    prog = _progress(not args.no_progress, sum(check_count(c) + len(c.controls) for c in claims))
    from ._heap import settle

    settle()  # the catalogue loaded: its objects frozen out of the collector's way (verify/_heap.py)
    kwargs = dict(profile=args.profile, seed=args.seed, workers=args.workers,
                  executor=session.executor if session is not None else None,
                  order=load_timings(args.profile))
    guard = stop_on_signals()  # SIGTERM stops the run as Ctrl-C does
    try:
        guard.__enter__()
    except ValueError:  # not the main thread: leave the signals alone
        guard = None
    try:
        try:
            if prog is not None:
                with prog:
                    result = run_claims(claims, progress=prog, **kwargs)
            else:
                result = run_claims(claims, **kwargs)
        finally:
            if session is not None:  # cancel what is left, close the client and a local cluster
                session.close()
        print_table(result)
        if not result.interrupted:
            save_timings(result)
        _write_reports(result, args, claims)
    finally:
        if guard is not None:
            guard.__exit__(None, None, None)
    if result.interrupted:
        print(f"verify: interrupted; {len(result.outcomes)} finished claim(s) reported, "
              f"{len(result.unfinished)} unfinished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK if result.passed else EXIT_FAILED


def _run_model(args: argparse.Namespace, claims: Sequence[Any]) -> int:
    """``verify run ID ... --model package.module:factory``: the user's model against each claim."""
    from ._models import check_model, load_factory, model_checks
    from ._report import print_table
    from ._runner import RunResult, _environment

    mcs = model_checks()
    missing = [c.id for c in claims if c.id not in mcs]
    if missing:
        raise UsageError(f"--model: not model-checkable: {', '.join(missing)} (verify list --model-checkable)")
    model = load_factory(args.model)
    outs = [check_model(c.id, model, profile=args.profile, seed=args.seed) for c in claims]
    result = RunResult(outcomes=outs, profile=args.profile, seed=args.seed, workers=1,
                       wall_time=sum(o.wall_time for o in outs), started="", environment=_environment())
    print_table(result)
    for o in outs:
        for ch in o.checks:
            if ch.evidence.counterexample is not None:
                print(f"{o.claim_id}: {ch.evidence.counterexample.description}")
    _write_reports(result, args, claims)
    return EXIT_OK if result.passed else EXIT_FAILED


def _write_reports(result: Any, args: argparse.Namespace, claims: Sequence[Any]) -> None:
    """The reports asked for with --json/--junit/--markdown/--html (paths checked before the run)."""
    from ._report import write_json, write_junit, write_markdown

    if args.json:
        write_json(result, args.json)
    if args.junit:
        write_junit(result, args.junit)
    if args.markdown:
        write_markdown(result, args.markdown)
    if args.html:
        from ._html import write_html

        write_html(result, args.html, claims={c.id: c for c in claims})


def _pretty(expr: Any) -> str:
    import sympy

    from ._statement import AllOf, ForAll, statement_text

    if isinstance(expr, sympy.Basic):
        return sympy.pretty(expr, use_unicode=True)
    if isinstance(expr, (AllOf, ForAll.__mro__[1])):
        return statement_text(expr)
    return str(expr)


def _cmd_show(args: argparse.Namespace) -> int:
    from ._runner import run_claim

    cat = _catalogue(args.catalogue)
    if args.id not in cat:
        near = cat.suggest(args.id)
        hint = f" Nearest ids: {', '.join(near)}." if near else ""
        print(f"verify: unknown claim id {args.id!r}.{hint}", file=sys.stderr)
        return EXIT_USAGE
    c = cat.get(args.id)
    out = sys.stdout
    print(f"{c.id}: {c.title}", file=out)
    print(f"source:     {c.source}", file=out)
    print(f"provenance: {', '.join(c.provenance)}", file=out)
    print(f"strength:   {c.strength}", file=out)
    print(f"expected:   {c.expected}", file=out)
    kind = _refutation_kind(c)
    if kind == "source":
        print("            (a REFUTED here means the source's statement does not hold)", file=out)
    elif kind == "boundary":
        print("            (a REFUTED here marks where this stronger reading stops; "
              "not the source's statement)", file=out)
    if c.uses:
        print(f"uses:       {', '.join(c.uses)}", file=out)
    if c.quote:
        print(f"\nquote ({c.quote_source}; the line-numbered English translation of the seed):", file=out)
        print(_indent(f'"{c.quote}"'), file=out)
    print("\nstatement:", file=out)
    print(_indent(_pretty(c.resolved_statement())), file=out)
    if c.hypotheses:
        print("\nhypotheses:", file=out)
        for h in c.hypotheses:
            print(f"  - {h}", file=out)
    print(f"\nreading:\n{_indent(c.reading)}", file=out)
    if c.condition:
        print(f"\nholds under:\n{_indent(c.condition)}", file=out)
    der = c.resolved_derivation()
    if der is not None:
        from ._derivation import check_derivation

        rows = check_derivation(der, c.resolved_statement(), seed=args.seed).details["steps"]
        print("\nderivation: (each step checked against the previous one)", file=out)
        for k, (st, row) in enumerate(zip(der.steps, rows), 1):
            rel = "" if st.is_fact or k == 1 else f"{st.relation} "
            print(f"  {k}. {st.label}  [{row['status']}: {row['method']}]", file=out)
            if st.why:
                print(f"      ({st.why})", file=out)
            print(_indent(rel + _pretty(st.expr), 6), file=out)
        for row in rows[len(der.steps):]:
            print(f"  => {row['label']}  [{row['status']}: {row['method']}]", file=out)
    print("\nchecks:", file=out)
    for k in c.checks:
        print(f"  - {k.name} [{k.role}] {k.description}", file=out)
        why = k.inconclusive_at(args.profile)
        if why:
            print(f"      may be inconclusive at {args.profile}: {why}", file=out)
    print("controls (must be REFUTED):", file=out)
    for k in c.controls:
        print(f"  - {k.name}: {k.description}", file=out)
    if args.no_run:
        return EXIT_OK
    o = run_claim(c, profile=args.profile, seed=args.seed)
    print(f"\nevidence ({args.profile} profile, seed {args.seed}): verdict {o.verdict} "
          f"(expected {o.expected})", file=out)
    for ch in o.checks + o.controls:
        e = ch.evidence
        bits = [f"{e.level}", f"{e.instances} instances", e.precision or "-", e.backend or "-"]
        if e.error is not None:
            bits.append(f"error {e.error:.3g}")
        if e.tolerance is not None:
            bits.append(f"tol {e.tolerance:.3g}")
        if e.margin_min is not None:
            bits.append(f"margin {e.margin_min:.3g}")
        bits.append(f"seed {ch.seed}")
        bits.append(f"{e.wall_time:.2f}s")
        print(f"  {ch.kind:7s} {ch.name}: " + ", ".join(bits), file=out)
        if e.counterexample is not None:
            print(f"          counterexample: {e.counterexample.description}", file=out)
        if e.notes:
            print(f"          notes: {e.notes[:300]}", file=out)
    return EXIT_OK if o.passed else EXIT_FAILED


def _cmd_report(args: argparse.Namespace) -> int:
    from ._report import from_json, print_table, validate, write_junit, write_markdown

    _check_outputs(args, ("junit", "markdown"))
    try:
        with open(args.path, encoding="utf-8") as fh:
            obj = json.load(fh)
        validate(obj)
        result = from_json(obj)
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        raise UsageError(f"{args.path!r} is not a valid report: {e}") from e
    print_table(result)
    if args.junit:
        write_junit(result, args.junit)
    if args.markdown:
        write_markdown(result, args.markdown)
    if args.html:
        from ._html import write_html

        write_html(result, args.html, claims=_catalogue_claims(args.catalogue, result), from_catalogue=True)
    return EXIT_OK if result.passed else EXIT_FAILED


def _catalogue_claims(package: str, result: Any) -> dict[str, Any]:
    """The catalogue's claims with the ids of a saved report (statements for its HTML pages); {} and
    a line on stderr when the catalogue cannot be loaded."""
    try:
        cat = _catalogue(package)
    except (UsageError, VerifyError, ImportError) as e:
        print(f"verify: statements not shown: {e}", file=sys.stderr)
        return {}
    return {o.claim_id: cat.get(o.claim_id) for o in result.outcomes if o.claim_id in cat}


def _indent(text: str, n: int = 2) -> str:
    return "\n".join(" " * n + line for line in str(text).splitlines())


def _one_blas_thread() -> None:
    """Checks solve many small problems: one BLAS/OpenMP thread per process (before numpy loads)."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def _no_hypothesis_plugins() -> None:
    """hypothesis, when imported, runs the ``hypothesis`` entry point of every installed package (trio's,
    installed with selenium, imports trio and pytest: 0.13 s of every start).  Such a plugin may register
    strategies or load a settings profile, so a run's draws could depend on what else is installed; the
    command's processes load none (``HYPOTHESIS_NO_PLUGINS``, unless the user set it; before hypothesis
    loads, and inherited by the worker processes)."""
    os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns its exit code.

    Called as the program (``argv`` None: the ``verify`` script, ``python -m verify``), the process ends
    as soon as the command is done and its output flushed (``os._exit``), without the interpreter's
    teardown: freeing the torch, sympy and flint state of a catalogue run takes 0.2-0.3 s after a
    completed run and can take seconds after an interrupted check.  The ``atexit`` handlers still run
    after a completed command (after an interrupted one the user asked to stop, so they do not).  Called
    with an explicit ``argv`` (tests, scripts), it returns.
    """
    code = _main(argv)
    if argv is None:
        if code != EXIT_INTERRUPTED:
            atexit._run_exitfuncs()  # what a normal exit runs, the teardown of every module aside
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # pragma: no cover - a closed pipe
                pass
        os._exit(code)
    return code


def _main(argv: Sequence[str] | None) -> int:
    _one_blas_thread()
    _no_hypothesis_plugins()
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (4)
        return int(e.code or 0)
    try:
        return {"list": _cmd_list, "run": _cmd_run, "show": _cmd_show, "report": _cmd_report,
                "sweep": _cmd_sweep, "perturb": _cmd_perturb}[
            args.command](args)
    except KeyboardInterrupt:  # Ctrl-C outside a run's own handling (loading, show, writing)
        print("verify: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except UsageError as e:
        print(f"verify: {e}", file=sys.stderr)
        return EXIT_USAGE
    except VerifyError as e:
        print(f"verify: {e}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
