"""Batch-last evaluation of the population gradient flow, for sweeps over many chains at once.

The closed forms are those of :mod:`.population`, evaluated verbatim: :func:`param_grads` runs on
:class:`BatchLast` arrays through the :data:`BATCH_LAST` backend.  Only the memory layout differs from the
batch-first :class:`~numerics.arithmetic.TorchArithmetic` path: a batch of B (r x c) matrices is stored as one
(r, c, B) tensor, the chain index last.

Why: for the sweep's tiny matrices (d = m = m_k = 4) torch's batched ``bmm`` over (B, 4, 4) falls back to
a scalar loop (about 35 us per product at B = 256 on one thread) and row reductions run over length-4 inner
loops.  Batch-last, every kernel streams over the contiguous chain index: a product is one broadcast
multiply and one reduction over k (about 13 us), a row reduction a vectorised add of B-long rows.

Only a single batch dimension is supported (storage rank 2 for vectors, 3 for matrices).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from numerics.arithmetic import TorchArithmetic
from numerics.flows import rk4_torch

from .flow import Shapes
from .population import param_grads

__all__ = ["BatchLast", "BatchLastArithmetic", "BATCH_LAST", "BatchedFlowField", "rk4_sweep"]


def _data(x: Any) -> Any:
    """The storage of a :class:`BatchLast` operand, or a Python scalar as is (a raw tensor or array would
    broadcast against the wrong dimensions, so it is refused)."""
    if isinstance(x, BatchLast):
        return x.data
    if isinstance(x, (int, float)):
        return x
    raise TypeError(f"BatchLast arithmetic needs a BatchLast array or a Python scalar, "
                    f"got {type(x).__name__}")


def _transposed(t: torch.Tensor) -> bool:
    """True when a (r, c, B) tensor is laid out as its (c, r, B) transpose (a view made by ``ops.T``)."""
    return t.stride(0) < t.stride(1)


def _matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """out[i, j, :] = sum_k a[i, k, :] b[k, j, :] for batch-last (i, k, B) and (k, j, B) tensors.

    One broadcast product and one reduction over k.  The order of the broadcast dimensions follows the
    operands' memory order, so a transposed view (``ops.T``) is read in place, without a copy.
    """
    if a.dim() != 3 or b.dim() != 3:
        raise ValueError(f"batch-last matmul needs (r, c, B) matrices, got storage {tuple(a.shape)} @ "
                         f"{tuple(b.shape)}")
    if _transposed(a):  # a = X^T with X (k, i, B) in memory: product laid out (k, i, j, B)
        return (a.transpose(0, 1).unsqueeze(2) * b.unsqueeze(1)).sum(0)
    if _transposed(b):  # b = Y^T with Y (j, k, B) in memory: product laid out (i, j, k, B)
        return (a.unsqueeze(1) * b.transpose(0, 1).unsqueeze(0)).sum(2)
    return (a.unsqueeze(2) * b.unsqueeze(0)).sum(1)  # (i, k, j, B)


class BatchLast:
    """A batch of arrays stored chain-index-last: ``data`` of shape (*dims, B) stands for the batch-first
    array of shape (B, *dims) that :mod:`.population` expects.

    Supports exactly the array operations the closed forms use: ``@``, elementwise ``+ - * /`` with
    scalars or other :class:`BatchLast` arrays (broadcasting over the matrix dimensions), unary minus, and
    the indexing ``x[..., None, :]`` / ``x[..., :, None]`` of a batch of vectors.
    """

    __slots__ = ("data",)

    def __init__(self, data: torch.Tensor) -> None:
        self.data = data

    @classmethod
    def from_batch_first(cls, x: torch.Tensor) -> BatchLast:
        """Wrap a batch-first (B, *dims) tensor (copied into the batch-last layout)."""
        return cls(x.movedim(0, -1).contiguous())

    def batch_first(self) -> torch.Tensor:
        """The batch-first (B, *dims) view of the data."""
        return self.data.movedim(-1, 0)

    @property
    def shape(self) -> tuple[int, ...]:
        """The batch-first shape (B, *dims)."""
        s = tuple(self.data.shape)
        return s[-1:] + s[:-1]

    def __matmul__(self, other: BatchLast) -> BatchLast:
        if not isinstance(other, BatchLast):
            return NotImplemented
        return BatchLast(_matmul(self.data, other.data))

    def __add__(self, other: Any) -> BatchLast:
        return BatchLast(self.data + _data(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> BatchLast:
        return BatchLast(self.data - _data(other))

    def __rsub__(self, other: Any) -> BatchLast:
        return BatchLast(_data(other) - self.data)

    def __mul__(self, other: Any) -> BatchLast:
        return BatchLast(self.data * _data(other))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> BatchLast:
        return BatchLast(self.data / _data(other))

    def __neg__(self) -> BatchLast:
        return BatchLast(-self.data)

    def __getitem__(self, key: Any) -> BatchLast:
        # x[..., i, j] indexes the matrix dimensions, which lead the storage; the batch index stays last.
        if not (isinstance(key, tuple) and key and key[0] is Ellipsis and Ellipsis not in key[1:]):
            raise IndexError(f"BatchLast supports only x[..., <index>] on the matrix dimensions, got {key!r}")
        return BatchLast(self.data[key[1:] + (slice(None),)])

    def __repr__(self) -> str:
        return f"BatchLast(batch-first shape {self.shape})"


class BatchLastArithmetic(TorchArithmetic):
    """The arithmetic of :class:`BatchLast` arrays (float64 torch, batch last); it supplies the population
    kernels' layout operations (rowsum, rowmax, T, total) for its storage order."""

    name = "torch batch-last"
    stable = True

    def exp(self, x: BatchLast) -> BatchLast:
        return BatchLast(torch.exp(x.data))

    def log(self, x: BatchLast) -> BatchLast:
        return BatchLast(torch.log(x.data))

    def rowsum(self, x: BatchLast) -> BatchLast:
        return BatchLast(x.data.sum(dim=-2, keepdim=True))

    def rowmax(self, x: BatchLast) -> BatchLast:
        return BatchLast(x.data.amax(dim=-2, keepdim=True))

    def T(self, x: BatchLast) -> BatchLast:
        return BatchLast(x.data.transpose(-3, -2))

    def total(self, x: BatchLast) -> BatchLast:
        return BatchLast(x.data.sum(dim=(-3, -2)))


BATCH_LAST = BatchLastArithmetic()


class BatchedFlowField:
    """theta' = -grad L(theta) (:func:`.population.param_grads`) for B chains at once.

    The state is batch-last and flat, y of shape (size, B): column b is chain b's
    :func:`.flow.pack`-ed (W0, W1, W_Q, W_K), so ``y = Y.T`` for a batch-first (B, size) state Y.

    ``pi`` (B, d) and ``P`` (B, d, d) are the chains' stationary laws and transition matrices (float64).
    """

    def __init__(self, pi: torch.Tensor, P: torch.Tensor, shapes: Shapes, tau: float = 1.0, *,
                 variant: str = "statement") -> None:
        B, d = pi.shape
        if P.shape != (B, d, d) or d != shapes.d:
            raise ValueError(f"need pi (B, {shapes.d}) and P (B, d, d), got {tuple(pi.shape)}, "
                             f"{tuple(P.shape)}")
        self.pi = BatchLast.from_batch_first(pi.to(torch.float64))
        self.P = BatchLast.from_batch_first(P.to(torch.float64))
        self.shapes = shapes
        self.tau = tau
        self.variant = variant
        self.batch = B

    def params(self, y: torch.Tensor) -> tuple[BatchLast, BatchLast, BatchLast, BatchLast]:
        """(W0, W1, W_Q, W_K) as batch-last views of the flat state y (size, B)."""
        d, m, mk = self.shapes.d, self.shapes.m, self.shapes.mk
        if y.shape != (self.shapes.size, self.batch):
            raise ValueError(f"state must have shape ({self.shapes.size}, {self.batch}), "
                             f"got {tuple(y.shape)}")
        a, b, c = d * m, 2 * d * m, 2 * d * m + m * mk
        B = self.batch
        return (BatchLast(y[:a].view(d, m, B)), BatchLast(y[a:b].view(m, d, B)),
                BatchLast(y[b:c].view(m, mk, B)), BatchLast(y[c:].view(m, mk, B)))

    def __call__(self, y: torch.Tensor) -> torch.Tensor:
        g = param_grads(self.pi, self.P, *self.params(y), self.tau, BATCH_LAST, variant=self.variant)
        return torch.cat([gi.data.reshape(-1, self.batch) for gi in g]).neg_()


def rk4_sweep(pi: torch.Tensor, P: torch.Tensor, Y0: torch.Tensor, shapes: Shapes, t_grid: Sequence[float],
              dt: float, tau: float = 1.0) -> torch.Tensor:
    """Fixed-step RK4 (:func:`numerics.flows.rk4_torch`) of the full gradient flow for B chains at once.

    ``Y0`` is the batch-first (B, size) initial state; returns the batch-first states (len(t_grid), B, size)
    at the grid times.  Runs under ``torch.inference_mode`` (closed-form gradients need no autograd graph).
    """
    if Y0.dim() != 2:
        raise ValueError(f"Y0 must be a batch-first (B, size) state, got shape {tuple(Y0.shape)}")
    field = BatchedFlowField(pi, P, shapes, tau)
    with torch.inference_mode():
        out = rk4_torch(field, Y0.to(torch.float64).T.contiguous(), t_grid, dt)
        return out.transpose(1, 2).contiguous()
