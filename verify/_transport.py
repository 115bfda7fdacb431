"""Shipping statements and derivations to worker processes exactly as they were built.

Pickle rebuilds a sympy object by calling its class on its arguments, so every object is *evaluated
again* on arrival: an unevaluated fact ``Eq(0, 0, evaluate=False)`` of a derivation arrives as
``sympy.true``, ``Mul(x, x, evaluate=False)`` as ``x**2``.  A statement or derivation checked in a worker
of the process pool (or on dask) would then not be the one the claim declares -- found when the
derivation checks of two claims crashed at two workers and not at one (the crash read as UNKNOWN
evidence, silently, since those checks corroborate).

:func:`exact` seals a value: it pickles it once, so that its sympy sums, products, powers and relations
are rebuilt with ``evaluate=False`` from their own arguments (an already evaluated object gets back
exactly its arguments, ``_from_args``; an unevaluated one stays unevaluated; everything else pickles as
usual), and keeps the bytes.  The seal survives any number of further pickle round trips unopened, and
only the task opens it (:func:`opened`): a dask scheduler unpickles a task's arguments and pickles them
again for the worker, and a wrapper that turned back into its value at the first unpickling arrived at
the worker re-evaluated (found when both derivation checks above still crashed with
``--scheduler local:2`` after the process pool had been fixed).
"""

from __future__ import annotations

import io
import pickle
import sys
from typing import Any

__all__ = ["exact", "opened"]


def _rebuild(cls: type, args: tuple[Any, ...]) -> Any:
    return cls(*args, evaluate=False)


def _kept_types() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """(exact types, base classes) rebuilt unevaluated: Add, Mul, Pow and every relation."""
    sp = sys.modules.get("sympy")
    if sp is None:  # no sympy object can be in the value
        return (), ()
    return (sp.Add, sp.Mul, sp.Pow), (sp.core.relational.Relational,)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._exact, self._bases = _kept_types()

    def reducer_override(self, obj: Any) -> Any:
        t = type(obj)
        if t in self._exact or (self._bases and isinstance(obj, self._bases)):
            return _rebuild, (t, obj.args)
        return NotImplemented


class _Sealed:
    """The bytes of a value pickled by :class:`_Pickler`; pickles as those bytes, opened only by
    :func:`opened` (module docstring)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __reduce__(self) -> tuple[Any, ...]:
        return _Sealed, (self.data,)


def exact(value: Any) -> _Sealed:
    """``value`` sealed for shipping to another process (module docstring); the task gets it back with
    :func:`opened`.  In-process (nothing pickled) pass ``value`` itself."""
    buf = io.BytesIO()
    _Pickler(buf).dump(value)
    return _Sealed(buf.getvalue())


def opened(value: Any) -> Any:
    """The value a seal of :func:`exact` holds, as it was built; anything else is returned as it is."""
    return pickle.loads(value.data) if isinstance(value, _Sealed) else value
