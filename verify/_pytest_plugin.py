"""The toolkit side of the pytest plugin: every claim is a pytest item named by its id.

pytest does not load this module itself: the entry point is the top-level module
``transformer_theory_verify_plugin`` (``pytest11`` name ``transformer_theory_verify``), which defines the
options, ini values and fixtures without importing the toolkit, and imports this module only when a
candidate ``claims.py`` (one that mentions ``CLAIMS`` and imports ``verify``) or a fixture needs it, so
the plugin stays inert in unrelated projects.

Collection: a candidate file becomes a :class:`ClaimsFile`; it yields one :class:`ClaimItem` per claim
when its ``CLAIMS`` hold :class:`~verify.Claim` objects, and nothing when they hold none (a ``CLAIMS`` of
another library is not ours).  With this project's ``testpaths = ["tests", "theorems"]``, plain
``pytest`` runs the unit tests and the whole catalogue.

Each item carries its claim's strength: the marker ``strength("as-stated")``, the keyword
``strength_as_stated`` (``-k strength_as_stated`` selects the source's own statements), the user property
``("strength", ...)`` (in JUnit XML) and a ``[strength]`` tag in its failure message, which also says
which kind of REFUTED it is.

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

import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ._claim import Claim
from ._profile import Profile, get_profile

__all__ = ["ClaimItem", "ClaimsFile", "ClaimMismatch", "profile", "run_catalogue_claim"]


def profile(config: pytest.Config) -> Profile:
    """The profile selected with ``--verify-profile``, ini ``verify_profile`` or ``quick``."""
    name = config.getoption("--verify-profile") or config.getini("verify_profile") or "quick"
    return get_profile(name)


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
        if not isinstance(claims, (list, tuple)) or not any(isinstance(c, Claim) for c in claims):
            return  # not the toolkit's CLAIMS: silently not ours
        others = [c for c in claims if not isinstance(c, Claim)]
        if others:
            raise self.CollectError(f"{self.path.name}: CLAIMS mixes Claim objects with "
                                    f"{len(others)} other value(s), e.g. {others[0]!r:.80}")
        for claim in claims:
            item = ClaimItem.from_parent(self, name=claim.id, claim=claim)
            item.add_marker(pytest.mark.claim)
            item.add_marker(pytest.mark.strength(claim.strength))
            item.extra_keyword_matches.add(f"strength_{claim.strength.replace('-', '_')}")
            item.user_properties.append(("strength", claim.strength))
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

        profile_ = profile(self.config)
        self.outcome = run_claim(self.claim, profile=profile_,
                                 seed=self.config.getoption("--verify-seed"))
        o = self.outcome
        self.user_properties.append(("verdict", o.verdict.value))
        self.user_properties.append(("expected", o.expected.value))
        self.user_properties.append(("profile", profile_.name))
        if not o.passed:
            raise ClaimMismatch(o)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimMismatch):
            o = excinfo.value.outcome
            lines = [f"claim {o.claim_id} [{o.strength}]: observed {o.verdict}, expected {o.expected}"]
            if o.refuted_source:
                lines.append("  REFUTED: the source's statement does not hold (as-stated or code claim)")
            elif o.refuted_boundary:
                lines.append(f"  REFUTED: where a {o.strength} reading stops (not the source's statement)")
            lines += o.failures()
            for c in o.checks + o.controls:
                e = c.evidence
                lines.append(f"  {c.kind} {c.name}: {e.level}, {e.instances} instances, "
                             f"{e.precision}, seed {c.seed}" + (f" -- {e.notes[:200]}" if e.notes else ""))
            return "\n".join(lines)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.claim.id}"


def run_catalogue_claim(config: pytest.Config, claim_id: str, *, model: Any = None) -> Any:
    """Run the catalogue claim ``claim_id`` under the selected profile and seed (the ``verify_claim``
    fixture); with ``model``, check the user's model against the claim (``verify.check_model``)."""
    from ._registry import catalogue
    from ._runner import run_claim

    if model is not None:
        from ._models import check_model

        return check_model(claim_id, model, profile=profile(config).name,
                           seed=config.getoption("--verify-seed"))
    return run_claim(catalogue().get(claim_id), profile=profile(config),
                     seed=config.getoption("--verify-seed"))
