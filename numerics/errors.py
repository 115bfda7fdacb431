"""The toolkit's one error hierarchy (re-exported by ``verify``).

Every error the toolkit raises on purpose derives from :class:`VerifyError`.  Bad input to a public
entry point raises :class:`InputError` (also a ``ValueError``) or :class:`InputTypeError` (also a
``TypeError``); the message names the argument and the rule it breaks, so that a user never sees a
bare ``OverflowError``, ``ZeroDivisionError``, ``IndexError`` or a NaN instead.

It lives in ``numerics`` (the lowest room) so that ``numerics``, ``theorems`` and ``verify`` all raise
the same types without importing upwards.
"""

from __future__ import annotations

from typing import Any

__all__ = ["VerifyError", "InputError", "InputTypeError", "check_arg"]


class VerifyError(Exception):
    """Base class of every error the toolkit raises on purpose."""


def _message(argument: str, rule: str, value: Any, has_value: bool) -> str:
    msg = f"argument {argument!r}: {rule}"
    if has_value:
        text = repr(value)
        if len(text) > 120:
            text = text[:117] + "..."
        msg += f" (got {text})"
    return msg


class _ArgumentError(VerifyError):
    """An error about one argument: ``argument`` and ``rule`` are kept as attributes."""

    def __init__(self, argument: str, rule: str, value: Any = None, *, has_value: bool | None = None):
        self.argument = argument
        self.rule = rule
        self.value = value
        super().__init__(_message(argument, rule, value,
                                  value is not None if has_value is None else has_value))


class InputError(_ArgumentError, ValueError):
    """An argument has a bad value.

    >>> str(InputError("tau", "must be a finite number > 0", 0))
    "argument 'tau': must be a finite number > 0 (got 0)"
    """


class InputTypeError(_ArgumentError, TypeError):
    """An argument has a type the entry point does not accept."""


def check_arg(ok: bool, argument: str, rule: str, value: Any = None) -> None:
    """Raise :class:`InputError` naming ``argument`` and ``rule`` unless ``ok``."""
    if not ok:
        raise InputError(argument, rule, value, has_value=True)
