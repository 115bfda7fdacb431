"""The constructed network and its exact evaluation (spec §3, §3.6 counts).

:class:`InterpolatingTransformer` holds the emitted blocks (FF then SA), the dataset it interpolates
and the builder's bookkeeping; ``model(X)`` runs one sequence exactly (hardmax, rationals) or in mpmath
(softmax at a temperature), ``evaluate_dataset`` runs the whole dataset exactly through
:class:`~theorems.interpolation.exact_state.ExactState`.  :func:`paper_block_count` and
:func:`parameter_formula` are the counts of spec §3.6 the count claims compare with.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from numerics.errors import InputError, VerifyError
from numerics.exact import _as_fraction
from numerics.validation import check_dps, check_positive_real

from .blocks import Block, count_parameters, identity_block
from .dataset import Dataset, DatasetError
from .exact_state import ExactState, to_Q
from .exact_state import _f as _float_or_inf

__all__ = ["InterpolatingTransformer", "ConstructionError", "paper_block_count", "parameter_formula"]


def _Q(backend: str) -> Any:
    """The exact rational type of a backend: ``flint.fmpq`` or ``fractions.Fraction``."""
    if backend == "flint":
        import flint

        return flint.fmpq
    return Fraction


class ConstructionError(VerifyError, RuntimeError):
    """A post-condition of the construction failed when the emitted weights were run exactly."""


def paper_block_count(N: int, M: int, attention: str) -> int:
    """The paper's block counts: ``2M + 2N + 1`` (hardmax, Theorem H) and ``2M + 3N`` (softmax)."""
    return 2 * M + 2 * N + 1 if attention == "hardmax" else 2 * M + 3 * N


def parameter_formula(R: int, M: int, d: int, attention: str, kappa: int = 1,
                      separation: str = "bondy") -> int:
    """Exact unpadded parameter count of the construction (spec §3.6); generic in sympy symbols too."""
    sep = R * (10 * d + 7) if separation == "bondy" else R * (8 * d + 7)
    if attention == "hardmax":
        return sep + M * (12 * d + 12) + 2 * d + 1 + kappa
    return sep + M * (14 * d + 13) + 4 * d + 5 + kappa


# -- the model -----------------------------------------------------------------------------------------
@dataclass
class InterpolatingTransformer:
    """A constructed transformer: blocks (FF then SA), the dataset it interpolates, and its bookkeeping.

    ``model(X)`` evaluates one input sequence: exactly (tuples of ``Fraction``) for hardmax; for softmax,
    ``model(X, tau=..., dps=...)`` evaluates at temperature tau in mpmath at ``dps`` digits (default 60).
    """

    blocks: list[Block]
    d: int
    attention: str
    dataset: Dataset
    R: int
    separation: str
    kappa: int = 1
    stats: dict[str, Any] = field(default_factory=dict)
    backend: str = "flint"
    line_map_index: int | None = None
    padded: bool = False

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    @property
    def num_parameters(self) -> int:
        return count_parameters(self.blocks, self.d)

    @property
    def width(self) -> int:
        return max((b.ff.width for b in self.blocks), default=0)

    @property
    def paper_count(self) -> int:
        return paper_block_count(self.dataset.N, self.dataset.M, self.attention)

    @property
    def Q(self) -> Any:
        return _Q(self.backend)

    def __call__(self, X: Sequence[Sequence[Any]], *, tau: Any = None, dps: int | None = None,
                 kernel: str | None = None) -> list[tuple[Any, ...]]:
        kernel = kernel or self.attention
        if kernel not in ("hardmax", "softmax"):
            raise InputError("kernel", "must be 'hardmax' or 'softmax'", kernel, has_value=True)
        from .dataset import as_rational

        rule = f"must be a non-empty list of tokens, each of dimension {self.d} (finite real numbers)"
        if isinstance(X, (str, bytes)) or not hasattr(X, "__len__") or len(X) == 0:
            raise InputError("X", rule, X, has_value=True)
        for t in X:
            if isinstance(t, (str, bytes)) or not hasattr(t, "__len__") or len(t) != self.d:
                raise InputError("X", rule, t, has_value=True)
        try:
            Xq = [tuple(to_Q(as_rational(v, "fraction"), self.Q) for v in t) for t in X]
        except DatasetError as e:
            raise InputError("X", f"{rule}: {e}", None) from None
        if kernel == "hardmax":
            if tau is not None:
                raise InputError("tau", "is only meaningful for softmax attention (pass tau=None)", tau,
                                 has_value=True)
            if dps is not None:
                check_dps(dps, minimum=5)
            out = ExactState([Xq], self.Q).run(self.blocks).sequence(0)
            return [tuple(_as_fraction(v) for v in t) for t in out]  # exact, as fractions.Fraction
        if tau is None:
            raise InputError("tau", "softmax evaluation needs a temperature: model(X, tau=..., dps=...)")
        tau_q = check_positive_real(tau, "tau")
        dps = 60 if dps is None else check_dps(dps, minimum=5)
        from numerics.arithmetic import MPArithmetic

        from .blocks import run_generic

        return run_generic(self.blocks, Xq, MPArithmetic(dps), kernel="softmax", tau=tau_q)

    def evaluate_dataset(self, *, backend: str | None = None) -> list[list[tuple[Any, ...]]]:
        """Exact hardmax outputs of every input sequence of the dataset (one fast exact run)."""
        from .exact_shift import ShiftState

        Q = _Q(backend or self.backend)
        seqs = [[tuple(to_Q(v, Q) for v in t) for t in x] for x in self.dataset.inputs]
        return ShiftState(seqs, Q).run(self.blocks).sequences()

    def interpolates(self, outputs: Sequence[Sequence[tuple]] | None = None) -> bool:
        outs = self.evaluate_dataset() if outputs is None else outputs
        return all(set(o) == set(y) for o, y in zip(outs, self.dataset.outputs))

    def pad_to_paper_count(self, *, seed: int | None = None) -> InterpolatingTransformer:
        """A copy padded with identity blocks to exactly the paper's count (at seeded random positions
        if ``seed`` is given, else at the end).  Outputs are unchanged (identity blocks are exact)."""
        extra = self.paper_count - self.num_blocks
        if extra < 0:
            raise ValueError(f"the model has {self.num_blocks} blocks, more than the paper's {self.paper_count}")
        blocks = list(self.blocks)
        rng = random.Random(seed)
        for _ in range(extra):
            pos = rng.randint(0, len(blocks)) if seed is not None else len(blocks)
            blocks.insert(pos, identity_block())
        lm = None
        for i, b in enumerate(blocks):
            if b.stage == "line":
                lm = i
        return InterpolatingTransformer(blocks, self.d, self.attention, self.dataset, self.R,
                                        self.separation, self.kappa, dict(self.stats), self.backend,
                                        lm, True)

    def with_blocks(self, blocks: list[Block]) -> InterpolatingTransformer:
        return InterpolatingTransformer(list(blocks), self.d, self.attention, self.dataset, self.R,
                                        self.separation, self.kappa, dict(self.stats), self.backend,
                                        self.line_map_index, self.padded)

    def parameter_formula(self) -> int:
        return parameter_formula(self.R, self.dataset.M, self.d, self.attention, self.kappa, self.separation)

    def to_torch(self, *, tau: float | None = None):
        """A plain ``torch.nn.Module`` (float64) computing this network; see :mod:`.torch_export`."""
        from .torch_export import TorchInterpolator

        return TorchInterpolator(self, tau=tau)  # tau is checked there (_float_tau)

    def gadget_margin(self) -> float:
        """min over FF neuron groups (shared row w) of (smallest spacing of their kinks) / |w|_1, and
        of the uniform-attention steps lam: how far float64 is from deciding every kink (spec §4.1)."""
        best = math.inf
        for b in self.blocks:
            rows: dict[tuple, list] = {}
            for u, bb in zip(b.ff.U, b.ff.b):
                rows.setdefault(tuple(u), []).append(_as_fraction(-bb))
            for u, ks in rows.items():
                n1 = _float_or_inf(sum(abs(_as_fraction(v)) for v in u))
                if n1 == 0:
                    continue
                ks = sorted(set(ks))
                if len(ks) > 1:
                    best = min(best, _float_or_inf(min(b2 - b1 for b1, b2 in zip(ks, ks[1:]))) / n1)
            if b.sa.A is not None and b.sa.lam != 0 and b.sa.A.factors:
                best = min(best, _float_or_inf(abs(_as_fraction(b.sa.lam))))
        return best

    def max_denominator_bits(self) -> int:
        """The bit length of the largest denominator among all parameters."""
        best = 0
        for b in self.blocks:
            vals = [b.ff.eta, *b.ff.b, b.sa.rho, b.sa.lam]
            for r in b.ff.U + b.ff.W:
                vals.extend(r)
            if b.sa.A is not None:
                vals.append(b.sa.A.alpha)
                for p, q in b.sa.A.factors:
                    vals.extend(p)
                    vals.extend(q)
            for v in vals:
                best = max(best, _as_fraction(v).denominator.bit_length())
        return best

    def __repr__(self) -> str:
        return (f"<InterpolatingTransformer {self.attention} L={self.num_blocks} P={self.num_parameters} "
                f"width={self.width} d={self.d} R={self.R} separation={self.separation}>")
