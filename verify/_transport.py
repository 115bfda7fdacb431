"""Shipping statements and derivations to worker processes exactly as they were built.

Pickle rebuilds a sympy object by calling its class on its arguments, so every object is *evaluated
again* on arrival: an unevaluated fact ``Eq(0, 0, evaluate=False)`` of a derivation arrives as
``sympy.true``, ``Mul(x, x, evaluate=False)`` as ``x**2``.  A statement or derivation checked in a worker
of the process pool (or on dask) would then not be the one the claim declares -- found when the
derivation checks of two claims crashed at two workers and not at one (the crash read as UNKNOWN
evidence, silently, since those checks corroborate).

:func:`exact` wraps a value so that its sympy sums, products, powers and relations are rebuilt with
``evaluate=False`` from their own arguments: an already evaluated object gets back exactly its
arguments (``_from_args``), an unevaluated one stays unevaluated.  Everything else pickles as usual.
"""

from __future__ import annotations

import io
import pickle
import sys
from typing import Any

__all__ = ["exact"]


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


def _loads(data: bytes) -> Any:
    return pickle.loads(data)


class _Exact:
    """Pickles as its value, with the sympy objects in it rebuilt as built (module docstring)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        buf = io.BytesIO()
        _Pickler(buf).dump(self.value)
        return _loads, (buf.getvalue(),)


def exact(value: Any) -> Any:
    """``value``, to be pickled so that it arrives as built (the unpickled object is ``value`` itself,
    not a wrapper).  In-process (nothing pickled) the wrapper must not be used: pass ``value``."""
    return _Exact(value)
