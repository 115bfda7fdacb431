"""Compiled float64 kernels traced from the generic algorithms (construction apart from evaluation).

A kernel written once against :mod:`numerics.arithmetic` (the population gradients of focus-dilution,
say) is *evaluated symbolically* in :class:`TracingArithmetic` on symengine symbols for its inputs; the
resulting expressions are compiled by symengine's LLVM backend (``Lambdify(..., backend="llvm",
cse=True)``) into one float64 function.  The compiled kernel computes the same expressions as the numpy
run of the same code -- same formula, same stable softmax shift (the row maximum is traced as
``Max``) -- in another order of the floating-point operations, so the two agree to a few ulps of the
result's scale (tests/unit/engine/test_engine_compiled.py measures it), not bitwise.  Because the kernel
is traced from the product code on every process start, a change of that code changes the kernel:
there is no second copy of the formula.

Why: the focus-dilution flows evaluate a field of a few dozen entries ~10^3-10^4 times per trajectory,
where numpy spends ~100 us per call on dispatch and the compiled kernel ~10 us (issue 14, item 3).
LLVM at ``opt_level=0`` compiles a d = 4, m = m_k = 8 gradient in ~0.1 s, once per shape and process.

* :class:`TracingArithmetic` -- symengine expressions; an *ordered* arithmetic (softmaxes are shifted
  by the traced row maximum), ``exp``/``log``/``sqrt`` elementwise.
* :func:`compile_kernel`     -- trace ``fn`` on symbolic arrays of the given shapes, compile, return a
  :class:`Kernel`; ``None`` when symengine has no LLVM backend (callers keep their numpy path).
* :class:`Kernel`            -- ``kernel(*arrays)`` (leading batch axes allowed on the first input),
  ``kernel.bind(*trailing)``: a one-argument function of the first input with the others fixed, and
  ``kernel.rows(X)`` for a one-input kernel fed ready-made float64 rows.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .arithmetic import Arithmetic
from .errors import InputError

__all__ = ["TracingArithmetic", "Kernel", "compile_kernel", "available"]

#: set to "0" to switch compiled kernels off (every caller then runs its numpy path)
ENV_SWITCH = "VERIFY_COMPILED_KERNELS"


def available() -> bool:
    """Whether kernels can be compiled: symengine with its LLVM backend, and not switched off by
    ``VERIFY_COMPILED_KERNELS=0`` (read when a kernel is built: callers that keep their kernels per
    process, as the focus flows do per shape, see the switch as it was at their first build)."""
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    try:
        import symengine
    except ImportError:  # pragma: no cover - a declared dependency
        return False
    return bool(getattr(symengine, "have_llvm", False))


class TracingArithmetic(Arithmetic):
    """symengine expressions: the arithmetic a generic kernel is traced in (not a number type of its own:
    nothing is decided in it, it records the operations).  Ordered: kernels shift softmaxes by
    :meth:`rowmax`, which traces ``Max`` of each row, as the float64 run shifts by the row's maximum."""

    name = "symengine-trace"

    @property
    def precision(self) -> str:
        return "symbolic (compiled to float64)"

    def convert(self, x: Any) -> Any:
        import symengine as se

        return se.sympify(x)

    def exp(self, x: Any) -> Any:
        import symengine as se

        return se.exp(x)

    def log(self, x: Any) -> Any:
        import symengine as se

        return se.log(x)

    def sqrt(self, x: Any) -> Any:
        import symengine as se

        return se.sqrt(x)

    def rowmax(self, x: np.ndarray) -> np.ndarray:
        """The maximum of each row of an object array (last axis), keeping that axis (length 1)."""
        import symengine as se

        out = np.empty(x.shape[:-1] + (1,), dtype=object)
        for idx in np.ndindex(*x.shape[:-1]):
            out[idx + (0,)] = se.Max(*x[idx])
        return out

    def tolerance(self, scale: float = 1.0) -> float:  # pragma: no cover - never compared in
        raise NotImplementedError("a tracing arithmetic compares nothing")


class Kernel:
    """A compiled float64 function of named array inputs (see :func:`compile_kernel`)."""

    def __init__(self, fn: Callable[..., Any], names: Sequence[str], shapes: Sequence[tuple[int, ...]],
                 out_size: int) -> None:
        self._fn = fn
        self.names = tuple(names)
        self.shapes = tuple(tuple(s) for s in shapes)
        self.sizes = tuple(int(np.prod(s, dtype=np.int64)) for s in self.shapes)
        self.out_size = out_size

    def _flat(self, arrays: Sequence[Any]) -> list[np.ndarray]:
        if len(arrays) != len(self.names):
            raise InputError("arrays", f"this kernel takes {len(self.names)} inputs {self.names}", len(arrays),
                             has_value=True)
        flat = []
        for name, shape, size, a in zip(self.names, self.shapes, self.sizes, arrays):
            a = np.asarray(a, dtype=np.float64)
            if a.shape[a.ndim - len(shape):] != shape:
                raise InputError(name, f"must end in shape {shape}", a.shape, has_value=True)
            flat.append(a.reshape(a.shape[:a.ndim - len(shape)] + (size,)))
        return flat

    def __call__(self, *arrays: Any) -> np.ndarray:
        """The outputs (shape lead + (out_size,)); only the first input may carry leading batch axes."""
        flat = self._flat(arrays)
        lead = flat[0].shape[:-1]
        rest = [np.broadcast_to(a, lead + a.shape[-1:]) for a in flat[1:]]
        return self._fn(np.concatenate([flat[0]] + rest, axis=-1))

    def rows(self, X: np.ndarray) -> np.ndarray:
        """The outputs (B, out_size) for the rows of ``X`` (B, n), for a kernel of ONE input of n entries:
        the fast path of a caller that builds the float64 rows itself (C order; not validated)."""
        return self._fn(X)

    def bind(self, *trailing: Any) -> Callable[[np.ndarray], np.ndarray]:
        """``g(x) = kernel(x, *trailing)`` with the trailing inputs converted once (the flows' fast path:
        one concatenation and the compiled call per evaluation)."""
        flat = self._flat((np.zeros(self.shapes[0]),) + tuple(trailing))[1:]
        const = np.concatenate(flat) if flat else np.zeros(0)
        fn, n0 = self._fn, self.sizes[0]
        cat = np.concatenate

        def g(x: np.ndarray) -> np.ndarray:
            if x.ndim == 0 or x.shape[-1] != n0:
                raise InputError(self.names[0], f"must end in {n0} entries", x.shape, has_value=True)
            if x.ndim == 1:
                return fn(cat((x, const)))
            return fn(cat((x, np.broadcast_to(const, x.shape[:-1] + const.shape)), axis=-1))

        return g


def compile_kernel(fn: Callable[..., Any], inputs: Sequence[tuple[str, tuple[int, ...]]]) -> Kernel | None:
    """Trace ``fn(ar, **arrays)`` on symbolic object arrays of the given shapes (``inputs`` = (name,
    shape) pairs, in call order) in :class:`TracingArithmetic` and compile its flat output with symengine's
    LLVM backend (common subexpressions shared, ``opt_level=0``: compile time matters more than the
    last 20 %).  ``None`` if compiled kernels are unavailable (:func:`available`)."""
    if not available():
        return None
    import symengine as se

    ar = TracingArithmetic()
    symbols: list[Any] = []
    arrays: dict[str, np.ndarray] = {}
    for name, shape in inputs:
        n = int(np.prod(shape, dtype=np.int64))
        syms = [se.Symbol(f"{name}_{i}") for i in range(n)]
        symbols.extend(syms)
        arr = np.empty(n, dtype=object)
        arr[:] = syms
        arrays[name] = arr.reshape(shape)
    out = [se.sympify(e) for e in np.asarray(fn(ar, **arrays), dtype=object).ravel()]
    compiled = se.Lambdify(symbols, out, backend="llvm", cse=True, opt_level=0)
    return Kernel(compiled, [n for n, _ in inputs], [s for _, s in inputs], len(out))
