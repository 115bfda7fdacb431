"""Shared test configuration: hypothesis profiles and per-test reset of numeric global state.

Profiles are registered here, centrally.  ``ci`` extends hypothesis' built-in ``ci`` profile (which
hypothesis loads itself when the CI environment variable is set); ``dev`` is the local default.
"""

from __future__ import annotations

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    parent=settings.get_profile("ci"),
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=500,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_configure(config):
    """The fuzz modules scale their example counts with ``--verify-profile`` (see tests/fuzzing.py)."""
    try:
        name = config.getoption("--verify-profile") or config.getini("verify_profile")
    except ValueError:  # the plugin is disabled (-p no:transformer_theory_verify)
        name = None
    if name:
        os.environ.setdefault("VERIFY_FUZZ_PROFILE", name)


@pytest.fixture(autouse=True)
def _reset_numeric_state():
    """Every test starts and ends with default numeric global state (mpmath, flint, torch)."""
    import flint

    mp_dps, flint_prec = mpmath.mp.dps, flint.ctx.prec
    torch = None
    try:
        import torch as _torch

        torch = _torch
        dtype = torch.get_default_dtype()
        torch_state = torch.random.get_rng_state()
    except ImportError:  # pragma: no cover
        pass
    yield
    assert mpmath.mp.dps == mp_dps, "a test mutated the global mpmath precision; use mp_context()"
    assert flint.ctx.prec == flint_prec, "a test mutated flint.ctx.prec; use arb_precision()"
    mpmath.mp.dps = mp_dps
    flint.ctx.prec = flint_prec
    if torch is not None:
        torch.set_default_dtype(dtype)
        torch.random.set_rng_state(torch_state)
