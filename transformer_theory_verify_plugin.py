"""The pytest entry point of transformer-theory-verify (``pytest11`` name ``transformer_theory_verify``).

pytest loads this module in every run of an environment where the toolkit is installed, so it stays out
of the way of unrelated projects: importing it imports only pytest and the standard library, never the
toolkit, and it has a name no project is likely to use.  The toolkit (:mod:`verify._pytest_plugin`) is
imported only when it is needed:

* a file named like ``verify_claim_files`` (default ``claims.py``) whose text mentions ``CLAIMS`` and
  imports ``verify`` is a candidate; it is imported and collected only if its ``CLAIMS`` hold toolkit
  :class:`~verify.Claim` objects (anything else is silently not ours);
* the fixtures ``verify_profile`` and ``verify_claim``.

Before importing, it checks without executing anything that what is importable as ``verify`` and
``numerics`` (and, for ``verify_claim``, ``theorems``) is the toolkit.  If a project's own ``verify.py``,
``numerics/`` or ``theorems/`` shadows it, or the toolkit cannot be imported, the plugin is inert: it
prints one line in the terminal summary (not a Python warning, which ``filterwarnings = error`` would turn
into a failure), and the fixtures fail with the reason.  ``-p no:transformer_theory_verify`` disables
the plugin entirely.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

# The names of verify.PROFILES (a unit test keeps them equal); spelled out so that option parsing does
# not import the toolkit.
PROFILE_NAMES = ("ci", "quick", "thorough")

_IMPORTS_VERIFY = re.compile(r"^[ \t]*(?:from[ \t]+verify(?:[ \t.]|$)|import[ \t]+verify\b)", re.MULTILINE)
_STATE = pytest.StashKey[dict]()
_NOTICE_KEY = "transformer_theory_verify_notice"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verify", "verify: claims of the transformer-theory-verify catalogue as items")
    group.addoption("--verify-profile", default=None, choices=PROFILE_NAMES,
                    help="profile for claim items (default: ini verify_profile or 'quick')")
    group.addoption("--verify-seed", type=int, default=0, help="base seed for claim items")
    parser.addini("verify_profile", "default profile for claim items", default="quick")
    parser.addini("verify_claim_files", "glob patterns of files whose CLAIMS become items",
                  type="args", default=["claims.py"])


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "claim: a claim of the verify catalogue (added automatically)")
    config.addinivalue_line("markers", "strength(name): the claim's relation to its source: as-stated, "
                            "strengthened, repaired, code or derived (added automatically)")
    config.stash[_STATE] = {}


def _toolkit_problem(names: tuple[str, ...]) -> str | None:
    """Why the packages ``names`` importable here are not the toolkit's, or None (nothing is executed)."""
    root: Path | None = None
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError) as e:
            return f"cannot look up {name!r}: {e}"
        if spec is None:
            return f"{name!r} is not importable"
        where = spec.origin or ", ".join(spec.submodule_search_locations or ()) or "?"
        dirs = [Path(p).resolve() for p in (spec.submodule_search_locations or ())]
        if name == "verify":
            ours = [d for d in dirs
                    if (d / "_pytest_plugin.py").is_file() and (d / "report.schema.json").is_file()]
            if not ours:
                return f"'verify' importable here is {where}, not the toolkit's"
            root = ours[0].parent
        elif root is not None and (root / name).resolve() not in dirs:
            return f"{name!r} importable here is {where}, not the toolkit's ({root / name})"
    return None


def _toolkit(config: pytest.Config,
             names: tuple[str, ...] = ("verify", "numerics")) -> tuple[Any, str | None]:
    """``(verify._pytest_plugin, None)``, or ``(None, reason)`` once per process and set of names."""
    state = config.stash.get(_STATE, None)
    if state is None:
        state = config.stash[_STATE] = {}
    if names not in state:
        problem = _toolkit_problem(names)
        module = None
        if problem is None:
            try:
                module = importlib.import_module("verify._pytest_plugin")
            except Exception as e:  # a broken environment must not break unrelated test runs
                problem = f"importing the toolkit failed: {type(e).__name__}: {e}"
        state[names] = (module, problem)
        if problem is not None:
            state.setdefault("notice", problem)
    return state[names]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = parent.config.getini("verify_claim_files")
    if not any(fnmatch.fnmatch(file_path.name, p) for p in patterns):
        return None
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if "CLAIMS" not in text or not _IMPORTS_VERIFY.search(text):
        return None
    plugin, _ = _toolkit(parent.config)
    if plugin is None:
        return None
    return plugin.ClaimsFile.from_parent(parent, path=file_path)


def _notice(config: pytest.Config) -> str | None:
    state = config.stash.get(_STATE, {})
    reason = state.get("notice")
    if reason is None:
        return None
    return (f"transformer-theory-verify: pytest plugin inactive ({reason}); claims.py files were not "
            "collected (-p no:transformer_theory_verify disables the plugin)")


def pytest_sessionfinish(session: pytest.Session) -> None:
    # An xdist worker hands its notice to the controller (see pytest_testnodedown).
    workeroutput = getattr(session.config, "workeroutput", None)
    notice = _notice(session.config)
    if workeroutput is not None and notice is not None:
        workeroutput[_NOTICE_KEY] = notice


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    notice = getattr(node, "workeroutput", {}).get(_NOTICE_KEY)
    if notice is not None:
        node.config.stash.setdefault(_STATE, {}).setdefault("relayed", notice)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    notice = _notice(config) or config.stash.get(_STATE, {}).get("relayed")
    if notice is not None:
        terminalreporter.write_line(notice, yellow=True)


def _require(request: pytest.FixtureRequest, names: tuple[str, ...]) -> Any:
    plugin, problem = _toolkit(request.config, names)
    if plugin is None:
        pytest.fail(f"transformer-theory-verify: the {request.fixturename} fixture is unavailable: {problem}",
                    pytrace=False)
    return plugin


@pytest.fixture
def verify_profile(request: pytest.FixtureRequest) -> Any:
    """The :class:`~verify.Profile` selected with ``--verify-profile`` (default ``quick``)."""
    return _require(request, ("verify", "numerics")).profile(request.config)


@pytest.fixture
def verify_claim(request: pytest.FixtureRequest) -> Callable[..., Any]:
    """Run a catalogue claim by id under the selected profile; returns its :class:`~verify.ClaimOutcome`.

    ``verify_claim(claim_id, model=my_model)`` checks the user's model against a model-checkable claim
    instead (``verify.check_model``; ``verify list --model-checkable`` lists them)."""
    plugin = _require(request, ("verify", "numerics", "theorems"))

    def _run(claim_id: str, *, model: Any = None) -> Any:
        return plugin.run_catalogue_claim(request.config, claim_id, model=model)

    return _run
