"""One exception hierarchy for the engine."""

from __future__ import annotations

__all__ = ["VerifyError", "RegistryError", "UsageError", "CheckError"]


class VerifyError(Exception):
    """Base class of every error the engine raises on purpose."""


class RegistryError(VerifyError):
    """The catalogue is malformed: duplicate ids, a claim without a control or expected verdict."""


class UsageError(VerifyError):
    """Bad user input to the engine: unknown profile, unknown id, bad option."""


class CheckError(VerifyError):
    """A check was declared wrongly (not pickle-able, bad return type, ...)."""
