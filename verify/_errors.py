"""One exception hierarchy for the engine.

The base :class:`VerifyError` and the bad-input errors live in :mod:`numerics.errors` (the lowest
room), so that numerics, theorems and the engine raise the same types.
"""

from __future__ import annotations

from numerics.errors import InputError, InputTypeError, VerifyError

__all__ = ["VerifyError", "InputError", "InputTypeError", "RegistryError", "UsageError", "CheckError"]


class RegistryError(VerifyError):
    """The catalogue is malformed: duplicate ids, a claim without a control or expected verdict."""


class UsageError(VerifyError):
    """Bad user input to the engine: unknown profile, unknown id, bad option."""


class CheckError(VerifyError):
    """A check was declared wrongly (not pickle-able, bad return type, ...)."""
