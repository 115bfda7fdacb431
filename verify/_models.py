"""Users' models against the theory: run a claim's statement on observables of *your* model.

A paper package declares ``MODEL_CHECKS`` in ``theorems/<paper>/models.py``: for a claim about a model's
function, gradient, Hessian or dynamics, a :class:`ModelCheck` names the protocol a model must satisfy
(a ``typing.Protocol``: what the claim needs, and nothing more) and a function ``fn(model, *, seed,
profile) -> Evidence`` that computes observables from the model and evaluates the claim's own
statement on them (``statement_of`` + ``tally.statement``), with tolerances derived from the model's
dtype.  The toolkit's own models implement the same protocols and are the defaults.

Entry points: :func:`check_model` (``verify.check_model``), the pytest fixture
``verify_claim(claim_id, model=...)``, ``verify run ID --model package.module:factory`` and
``verify list --model-checkable``.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._errors import InputError, InputTypeError
from ._verdict import Evidence, Verdict

__all__ = ["ModelCheck", "check_model", "model_checks", "protocol_problems"]


@dataclass(frozen=True)
class ModelCheck:
    """How ``claim_id`` is checked on a user's model: the ``protocol`` the model satisfies and the
    function evaluating the claim's statement on the model's observables."""

    claim_id: str
    fn: Callable[..., Evidence]
    protocol: type
    description: str
    default: Callable[[], Any] | None = None  # the toolkit's own model (a zero-argument factory)


@functools.lru_cache(maxsize=None)
def model_checks(package: str = "theorems") -> dict[str, ModelCheck]:
    """Every ``MODEL_CHECKS`` entry under ``package``, by claim id (catalogue order of the papers)."""
    from ._registry import paper_modules

    out: dict[str, ModelCheck] = {}
    for mod in paper_modules(package, "models"):
        for mc in getattr(mod, "MODEL_CHECKS", ()):
            out[mc.claim_id] = mc
    return out


def protocol_problems(model: Any, protocol: type) -> list[str]:
    """The members of ``protocol`` that ``model`` lacks (or that are not callable where the protocol
    has a method), by name; empty when the model satisfies it."""
    names: set[str] = set()
    for klass in protocol.__mro__:
        if klass.__module__ in ("typing", "builtins", "abc"):
            continue
        names.update(getattr(klass, "__annotations__", {}))
        names.update(n for n in vars(klass) if not n.startswith("_"))
    out = []
    if any("__call__" in vars(k) for k in protocol.__mro__ if k.__module__ not in ("typing", "builtins", "abc")) \
            and not callable(model):
        out.append("not callable (the protocol is a callable)")
    for n in sorted(names):
        if not hasattr(model, n):
            out.append(f"missing {n!r}")
        elif callable(getattr(protocol, n, None)) and not callable(getattr(model, n)):
            out.append(f"{n!r} is not callable")
    return out


def check_model(claim_id: str, model: Any, *, profile: str = "quick", seed: int = 0) -> Any:
    """Check ``model`` against the claim ``claim_id``: a :class:`~verify.ClaimOutcome` whose single
    check ``model`` evaluates the claim's statement on the model's observables.

    The outcome passes when the statement holds on the model (``CONSISTENT`` at the precision its
    dtype allows, or better); a REFUTED outcome's counterexample names the claim, the instance and the
    margin.  A model that does not satisfy the claim's protocol raises :class:`~verify.InputTypeError`
    naming the missing piece.
    """
    from ._claim import derive_seed
    from ._profile import get_profile
    from ._registry import catalogue
    from ._runner import CheckOutcome, ClaimOutcome, claim_verdict
    from ._statement import running

    checks = model_checks()
    if claim_id not in checks:
        raise InputError("claim_id", "must be a model-checkable claim (verify list --model-checkable): "
                         + ", ".join(checks), claim_id)
    mc = checks[claim_id]
    problems = protocol_problems(model, mc.protocol)
    if problems:
        raise InputTypeError("model", f"must satisfy {mc.protocol.__module__}.{mc.protocol.__name__} "
                             f"for {claim_id}: " + "; ".join(problems), type(model).__name__,
                             has_value=True)
    prof = get_profile(profile)
    claim = catalogue().get(claim_id)
    s = derive_seed(seed, claim_id, "model")
    t0 = time.perf_counter()
    with running(claim.id, claim.resolved_statement(), None):
        ev = mc.fn(model, seed=s, profile=prof)
    if not isinstance(ev, Evidence):
        raise TypeError(f"model check of {claim_id} returned {type(ev).__name__}, not Evidence")
    ev = ev.with_time(time.perf_counter() - t0)
    if ev.counterexample is not None:  # name the claim and the model; pin the check's seed
        from dataclasses import replace

        ce = ev.counterexample
        ev = replace(ev, counterexample=replace(
            ce, description=f"{claim_id} on {type(model).__name__}: {ce.description}",
            seed=s if ce.seed is None else ce.seed))
    co = CheckOutcome(name="model", kind="check", role="decisive", description=mc.description,
                      target=f"{getattr(mc.fn, '__module__', '?')}.{getattr(mc.fn, '__qualname__', '?')}",
                      seed=s, evidence=ev)
    verdict = claim_verdict((co,))
    expected = verdict if verdict.holds else Verdict.CONSISTENT
    return ClaimOutcome(claim_id=claim.id, title=f"{claim.title} [on {type(model).__name__}]",
                        source=f"{claim.source.spec} {claim.source.where}", reading=claim.reading,
                        expected=expected, verdict=verdict, checks=(co,), controls=(),
                        condition=claim.condition, strength=claim.strength, model=type(model).__name__)


def load_factory(spec: str) -> Any:
    """``package.module:factory`` -> the model ``factory()`` returns (``verify run --model``); the module
    is imported as ``python -m`` would, with the current directory on the path."""
    from ._errors import UsageError

    import os
    import sys

    mod, sep, attr = spec.partition(":")
    if not sep or not mod or not attr:
        raise UsageError(f"--model {spec!r}: expected 'package.module:factory'")
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:  # as `python -m` would: the user's module in the current directory (for this import only)
        sys.path.insert(0, cwd)
    try:
        fn = getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError) as e:
        raise UsageError(f"--model {spec!r}: cannot load it ({type(e).__name__}: {e})") from None
    finally:
        if added and cwd in sys.path:
            sys.path.remove(cwd)
    if not callable(fn):
        raise UsageError(f"--model {spec!r}: {attr} is not callable")
    return fn()
