"""pytest plugin (entry point ``pytest11``): every claim is a pytest item named by its id.

Collection: a file whose name matches the ini option ``verify_claim_files`` (default ``claims.py``) and
that defines ``CLAIMS`` becomes a collector; each claim in ``CLAIMS`` becomes an item.  With this
project's ``testpaths = ["tests", "theorems"]``, plain ``pytest`` runs the unit tests and the whole
catalogue.

An item passes when the claim's observed verdict equals its expected verdict and every negative control
is REFUTED; otherwise it fails with the differing checks and unrefuted controls listed.

Options: ``--verify-profile {quick,ci,thorough}`` (ini ``verify_profile``, default ``quick``) and
``--verify-seed N``.  ``-k`` selection (ids contain the paper prefix, e.g. ``-k interp``) and
pytest-xdist work as for any item.

Fixtures for users' own tests: ``verify_profile`` (the selected :class:`~verify.Profile`) and
``verify_claim`` (``verify_claim("interp.softmax_to_hardmax")`` runs one catalogue claim and returns its
:class:`~verify.ClaimOutcome`).
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ._profile import PROFILES, Profile, get_profile

__all__ = ["ClaimItem", "ClaimsFile", "ClaimMismatch"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verify", "verify: claims of the catalogue as pytest items")
    group.addoption("--verify-profile", default=None, choices=sorted(PROFILES),
                    help="profile for claim items (default: ini verify_profile or 'quick')")
    group.addoption("--verify-seed", type=int, default=0, help="base seed for claim items")
    parser.addini("verify_profile", "default profile for claim items", default="quick")
    parser.addini("verify_claim_files", "glob patterns of files whose CLAIMS become items",
                  type="args", default=["claims.py"])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "claim: a claim of the verify catalogue (added automatically)")


def _profile(config: pytest.Config) -> Profile:
    name = config.getoption("--verify-profile") or config.getini("verify_profile") or "quick"
    return get_profile(name)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = parent.config.getini("verify_claim_files")
    if not any(fnmatch.fnmatch(file_path.name, p) for p in patterns):
        return None
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "CLAIMS" not in text:
        return None
    return ClaimsFile.from_parent(parent, path=file_path)


def _dotted_name(path: Path) -> str | None:
    """``a.b.claims`` if ``path`` sits in packages a/b (with __init__.py files), else None."""
    parts = [path.stem]
    d = path.parent
    while (d / "__init__.py").exists():
        parts.append(d.name)
        d = d.parent
    return ".".join(reversed(parts)) if len(parts) > 1 else None


def _import(path: Path, config: pytest.Config) -> Any:
    name = _dotted_name(path)
    if name is not None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin and Path(spec.origin).resolve() == path.resolve():
            return importlib.import_module(name)
    from _pytest.pathlib import import_path

    return import_path(path, mode="importlib", root=config.rootpath,
                       consider_namespace_packages=False)


class ClaimsFile(pytest.File):
    """A module defining ``CLAIMS``."""

    def collect(self) -> Iterator[pytest.Item]:
        mod = _import(self.path, self.config)
        claims = getattr(mod, "CLAIMS", None)
        if claims is None:
            return
        for claim in claims:
            item = ClaimItem.from_parent(self, name=claim.id, claim=claim)
            item.add_marker(pytest.mark.claim)
            yield item


class ClaimMismatch(Exception):
    """A claim did not reach its expected verdict, or a control was not refuted."""

    def __init__(self, outcome: Any):
        super().__init__("\n".join(outcome.failures()))
        self.outcome = outcome


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.claim = claim
        self.outcome: Any = None

    def runtest(self) -> None:
        from ._runner import run_claim

        profile = _profile(self.config)
        self.outcome = run_claim(self.claim, profile=profile,
                                 seed=self.config.getoption("--verify-seed"))
        o = self.outcome
        self.user_properties.append(("verdict", o.verdict.value))
        self.user_properties.append(("expected", o.expected.value))
        self.user_properties.append(("profile", profile.name))
        if not o.passed:
            raise ClaimMismatch(o)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimMismatch):
            o = excinfo.value.outcome
            lines = [f"claim {o.claim_id}: observed {o.verdict}, expected {o.expected}"]
            lines += o.failures()
            for c in o.checks + o.controls:
                e = c.evidence
                lines.append(f"  {c.kind} {c.name}: {e.level}, {e.instances} instances, "
                             f"{e.precision}, seed {c.seed}" + (f" -- {e.notes[:200]}" if e.notes else ""))
            return "\n".join(lines)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.claim.id}"


@pytest.fixture
def verify_profile(request: pytest.FixtureRequest) -> Profile:
    """The profile selected with ``--verify-profile`` (default ``quick``)."""
    return _profile(request.config)


@pytest.fixture
def verify_claim(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """Run a catalogue claim by id under the selected profile; returns its ClaimOutcome."""
    from ._registry import catalogue
    from ._runner import run_claim

    def _run(claim_id: str) -> Any:
        return run_claim(catalogue().get(claim_id), profile=_profile(request.config),
                         seed=request.config.getoption("--verify-seed"))

    return _run
