"""Issue 11 acceptance on the catalogue: every claim a statement object, derivations checked,
one arithmetic context, rooms a reader can name (no file over ~600 lines in theorems/ or numerics/)."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import sympy as sp

from verify import AllOf, Exists, ForAll, Verdict, catalogue, check_derivation, run_claim
from verify._cli import main
from verify._statement import is_formula

ROOT = Path(__file__).resolve().parents[3]
CLAIMS = list(catalogue())


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_statement_is_a_sympy_object_or_a_quantified_form(claim):
    st = claim.resolved_statement()
    assert isinstance(st, (sp.Basic, ForAll, Exists, AllOf)), (claim.id, type(st).__name__, st)


def test_list_json_carries_every_statements_latex(capsys):
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(CLAIMS)
    for r in rows:
        assert r["statement_latex"] and not r["statement_latex"].startswith(r"\text{"), r["id"]


def test_most_statements_are_formulas():
    formulas = [c.id for c in CLAIMS if is_formula(c.resolved_statement())]
    assert len(formulas) >= 0.8 * len(CLAIMS), sorted(set(c.id for c in CLAIMS) - set(formulas))


WITH_DERIVATION = [c for c in CLAIMS if c.resolved_derivation() is not None
                   and any(s.relation not in ("note", "def") for s in c.resolved_derivation().steps)]


def test_at_least_twenty_claims_have_checked_derivations():
    assert len(WITH_DERIVATION) >= 20, [c.id for c in WITH_DERIVATION]
    papers = {c.paper for c in WITH_DERIVATION}
    assert papers == {"interp", "focus", "ddcl"}


@pytest.mark.parametrize("claim", WITH_DERIVATION, ids=lambda c: c.id)
def test_every_derivation_step_holds(claim):
    ev = check_derivation(claim.resolved_derivation(), claim.resolved_statement())
    assert ev.level is not Verdict.REFUTED, ev.counterexample
    statuses = [r["status"] for r in ev.details["steps"]]
    assert "REFUTED" not in statuses


def test_an_altered_step_of_a_catalogue_derivation_is_reported_and_refutes_the_claim():
    claim = catalogue().get("ddcl.dictionary.decomposition")
    der = claim.resolved_derivation()
    k = next(i for i, s in enumerate(der.steps) if i > 0 and s.relation == "=" and not s.is_fact)
    broken = der.replace_step(k, expr=der.steps[k].expr + sp.Rational(1, 7))
    out = run_claim(replace(claim, derivation=lambda: broken))
    assert out.verdict is Verdict.REFUTED
    ev = next(c for c in out.checks if c.name == "derivation").evidence
    assert ev.counterexample.data["step"] == k
    assert ev.details["steps"][k]["status"] == "REFUTED"


_SOURCES = sorted(p for d in ("theorems", "numerics") for p in (ROOT / d).rglob("*.py"))


def test_no_file_in_theorems_or_numerics_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in _SOURCES
            if (n := len(p.read_text().splitlines())) > 600}
    assert not long, long


def test_numerics_arithmetic_is_the_only_arithmetic_context():
    pat = re.compile(r"^\s*class\s+\w*(Ops|Fns)\b", re.M)
    found = [str(p.relative_to(ROOT)) for p in _SOURCES if pat.search(p.read_text())]
    found += [str(p.relative_to(ROOT)) for p in _SOURCES
              if re.search(r"^def (object_ops|mp_ops|_float_ops|_arb_ops)\b", p.read_text(), re.M)]
    assert not found, found


def _imports(path: Path, pkg: str) -> set[str]:
    tree = ast.parse(path.read_text())
    mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if mod.endswith(".__init__"):
        mod = mod[: -len(".__init__")]
    base = mod.split(".")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - node.level + (1 if path.name == "__init__.py" else 0)]
                target = ".".join(parent + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                cand = f"{target}.{a.name}"
                out.add(cand if (ROOT / Path(*cand.split("."))).with_suffix(".py").exists() else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.split(".")[0] in pkg}


def test_no_import_circle_among_module_level_imports():
    """Module-level imports only (a function-level import is deferred and cannot deadlock import)."""
    graph: dict[str, set[str]] = {}
    for p in _SOURCES:
        mod = ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        top = ast.parse(p.read_text())
        shallow = ast.Module(body=[n for n in top.body if isinstance(n, (ast.Import, ast.ImportFrom))],
                             type_ignores=[])
        tmp = p.with_name(f".{p.name}.imports")
        del tmp
        graph[mod] = {m for m in _module_imports(shallow, p) if m != mod}
    seen, stack, cycles = set(), [], []

    def visit(m: str) -> None:
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for n in graph.get(m, ()):
            visit(n)
        stack.pop()

    for m in graph:
        visit(m)
    # a package importing its own submodules in __init__ is not a circle of concern
    cycles = [c for c in cycles if not all(x.startswith(c[0]) or c[0].startswith(x) for x in c)]
    assert not cycles, cycles[:5]


def _module_imports(tree: ast.Module, path: Path) -> set[str]:
    mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    base = mod.split(".")
    out = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - node.level]
                if path.name == "__init__.py":
                    parent = base[: len(base) - node.level]
                target = ".".join(parent + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                cand = f"{target}.{a.name}"
                if (ROOT / Path(*cand.split("."))).with_suffix(".py").exists():
                    out.add(cand)
                else:
                    out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m.removesuffix(".__init__") for m in out if m.split(".")[0] in ("theorems", "numerics")}
