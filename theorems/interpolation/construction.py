"""The explicit interpolating transformer of the spec (§3): separation, leaders, collapse, interpolation.

``build_interpolator(dataset, attention="hardmax" | "softmax")`` emits the blocks stage by stage and,
after every block, runs the **emitted weights** through the exact evaluator
(:class:`~theorems.interpolation.blocks.ExactState`, hardmax) and asserts the stage's post-condition
exactly; the builder's bookkeeping is never used as evidence.  A failed post-condition raises
:class:`ConstructionError` naming the stage, block and tokens.

Stages (spec §3.2-3.5; ``R`` separation blocks, ``M = sum_j m_j``):

* **S, separation** (skipped if N = 1).  ``separation="bondy"`` (the spec's method): distinguishing
  points ``e_1..e_R`` (R <= N-1), each moved by a hat/plateau onto a circle point ``q_r`` and used by a
  rank-one "top" attention ``A = v_r c^T`` that drifts each sequence by ``eps_r (a_j + omega_j)``.
  ``separation="mean"`` (spec §3.2.10, the optional shortcut, one block): a seeded width-4 FF ``f`` and
  uniform attention (no A) with ``lam = eps``: ``x -> f(x) + eps mean f(X^j)``, exact for hardmax and
  every tau.  ``"auto"`` tries "mean" and falls back to "bondy"; both are accepted only if the exact
  post-check "all tokens of all sequences are pairwise distinct points" passes.
* **P, leader placement and collapse** (M blocks): hats move the first m_j tokens of X^j to the slot
  ``P_j = t_j (1,..,1)`` beyond the box ``[1, b]^d`` and to unit sphere slots with negative
  coordinates; the last block's SA is the collapse ``A = I, rho = 0, lam = 1``.
* **I, interpolation**: hardmax, one hat per slot (M blocks); softmax, a non-residual line map and M
  snap moves (spec §3.5).

Counts (spec §3.6): ``L_H = R + 2M <= 2M + N - 1``, ``L_S = R + 2M + 1``;
``P_H = R(10d+7) + M(12d+12) + 2d + 1 + kappa`` and ``P_S = R(10d+7) + M(14d+13) + 4d + 5 + kappa`` with
``kappa = 1`` (A = I declared as alpha) for the bondy separation.  With the "mean" shortcut, the
separation block costs ``8d+7`` instead of ``R(10d+7)``.

Bit sizes (spec pitfall 5): every half-width, gap and step is rounded *down* to a power of two, the
eps are dyadic, so the parameters are dyadic up to the data's own denominators.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.attention import AttentionMatrix
from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.validation import check_dps, check_positive_real
from numerics.exact import HAVE_FLINT

from .blocks import FF, SA, Block, ExactState, count_parameters, identity_block, to_Q
from .blocks import _f as _float_or_inf
from .dataset import Dataset, DatasetError, fmt_token

__all__ = ["build_interpolator", "InterpolatingTransformer", "ConstructionError", "moment_vector",
           "sph", "sph_neg", "pow2_floor", "distinguishing_points", "paper_block_count",
           "parameter_formula"]


class ConstructionError(VerifyError, RuntimeError):
    """A post-condition of the construction failed when the emitted weights were run exactly."""


def _Q(backend: str) -> Any:
    if backend == "flint":
        import flint

        return flint.fmpq
    return Fraction


def _as_fraction(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    return Fraction(int(x.p), int(x.q))


def pow2_floor(x: Any) -> Fraction:
    """The largest power of two ``<= x`` (x > 0, exact), as a Fraction."""
    f = _as_fraction(x)
    if f <= 0:
        raise ValueError(f"pow2_floor needs x > 0, got {f}")
    k = f.numerator.bit_length() - f.denominator.bit_length()
    p = Fraction(2) ** k
    while p > f:
        p /= 2
    while p * 2 <= f:
        p *= 2
    return p


def moment_vector(d: int, k: int) -> tuple[int, ...]:
    """``w(k) = (1, k, k^2, ..., k^{d-1})`` (spec §3.1)."""
    return tuple(k ** i for i in range(d))


def sph(t: Sequence[Any], Q: Any) -> tuple[Any, ...]:
    """Inverse stereographic map ``Sph(t) = (2t, 1 - |t|^2)/(1 + |t|^2)``: a rational unit vector."""
    n2 = sum((Q(v) * Q(v) for v in t), Q(0))
    return tuple(2 * Q(v) / (1 + n2) for v in t) + ((1 - n2) / (1 + n2),)


def sph_neg(u: Any, d: int, Q: Any) -> tuple[Any, ...]:
    """``Sph^-(u) = -(2u, .., 2u, 1 - (d-1)u^2)/(1 + (d-1)u^2)``: unit, all coordinates < 0 (u < 1/d)."""
    u = Q(u)
    den = 1 + (d - 1) * u * u
    return tuple(-(2 * u) / den for _ in range(d - 1)) + (-(1 - (d - 1) * u * u) / den,)


def _dot(u: Sequence[Any], v: Sequence[Any], Q: Any) -> Any:
    s = Q(0)
    for a, b in zip(u, v):
        if a != 0:
            s = s + a * b
    return s


def _norm1(v: Sequence[Any]) -> Any:
    return sum(abs(x) for x in v)


def distinguishing_points(inputs: Sequence[Sequence[tuple]]) -> list[tuple]:
    """Constructive Bondy theorem (spec §3.2.1): points E, |E| <= N-1, whose traces separate all X^j.

    While two sequences have equal traces ``X^j ∩ E``, take the lexicographically first such pair
    (j, k) and append the lexicographically smallest point of ``X^j Δ X^k``.
    """
    sets = [frozenset(x) for x in inputs]
    E: list[tuple] = []
    while True:
        groups: dict[frozenset, list[int]] = {}
        Es = set(E)
        for j, s in enumerate(sets):
            groups.setdefault(frozenset(s & Es), []).append(j)
        pairs = [(g[0], g[1]) for g in groups.values() if len(g) >= 2]
        if not pairs:
            return E
        j, k = min(pairs)
        if not (sets[j] ^ sets[k]):
            raise ConstructionError(f"stage S: input sequences {j} and {k} are equal as sets, so no point "
                                    "separates them (assumption A2; every network is permutation-equivariant)")
        E.append(min(sets[j] ^ sets[k], key=lambda t: tuple(_as_fraction(v) for v in t)))


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


# -- gadgets (spec §3.1) ---------------------------------------------------------------------------------
def _hat(w, c0, h, D, Q) -> tuple[list, list, list]:
    """G1: rows w, w, w; b = (h - c0, -c0, -c0 - h); W = (D/h, -2D/h, D/h)."""
    U = [tuple(Q(v) for v in w)] * 3
    b = [h - c0, -c0, -c0 - h]
    W = [tuple(v / h for v in D), tuple(-2 * v / h for v in D), tuple(v / h for v in D)]
    return U, b, W


def _translation(T, d, Q) -> tuple[list, list, list]:
    """G2: U row 0, bias 1, W column T (adds T to every token)."""
    return [tuple(Q(0) for _ in range(d))], [Q(1)], [tuple(Q(v) for v in T)]


def _plateau(w, kinks, D, Q) -> tuple[list, list, list]:
    """G3: rows w; b = -(k1..k4); W = (D/g, -D/g, -D/g, D/g), g = k2 - k1 = k4 - k3."""
    k1, k2, k3, k4 = kinks
    g = k2 - k1
    U = [tuple(Q(v) for v in w)] * 4
    b = [-k1, -k2, -k3, -k4]
    W = [tuple(v / g for v in D), tuple(-v / g for v in D), tuple(-v / g for v in D), tuple(v / g for v in D)]
    return U, b, W


def _snap(e, kinks, y, Q) -> tuple[list, list, list]:
    """G5: rows e/|e|^2; b = -(k1..k4); W1 = (y - k2 e)/(k2 - k1), W2 = -e - W1, W4 = (y - k3 e)/(k4 - k3), W3 = e - W4."""
    k1, k2, k3, k4 = kinks
    e2 = _dot(e, e, Q)
    row = tuple(Q(v) / e2 for v in e)
    W1 = tuple((yv - k2 * ev) / (k2 - k1) for yv, ev in zip(y, e))
    W2 = tuple(-ev - w for ev, w in zip(e, W1))
    W4 = tuple((yv - k3 * ev) / (k4 - k3) for yv, ev in zip(y, e))
    W3 = tuple(ev - w for ev, w in zip(e, W4))
    return [row] * 4, [-k1, -k2, -k3, -k4], [W1, W2, W3, W4]


S0 = SA(1, 0)


def _S1(v, c, eps) -> SA:
    """Top attention: rho = 1, lam = eps, A = v c^T (p = v, q = c), so sc_il = (c.x_i)(v.x_l)."""
    return SA(1, eps, AttentionMatrix(factors=((tuple(v), tuple(c)),)))


S2 = SA(0, 1, AttentionMatrix(alpha=1))


def _S2_rank2(d: int, Q: Any) -> SA:
    """Rank-2 collapse: A = e1 e1^T + e2 e2^T (factors only, kappa = 4d), scores x1 z1 + x2 z2."""
    e = [tuple(Q(int(i == k)) for i in range(d)) for k in (0, 1)]
    return SA(0, 1, AttentionMatrix(factors=((e[0], e[0]), (e[1], e[1]))))


def sph_neg_plane(u: Any, d: int, Q: Any) -> tuple[Any, ...]:
    """Rank-2 sphere slot: -(1 - u^2, 2u, 0, .., 0)/(1 + u^2), unit, negative in the (e1, e2)-plane."""
    u = Q(u)
    den = 1 + u * u
    return (-(1 - u * u) / den, -(2 * u) / den) + tuple(Q(0) for _ in range(d - 2))


# -- projection helpers with a float filter --------------------------------------------------------------
def _proj_gap(state: ExactState, w: Sequence[int], p: tuple, Q: Any) -> Any:
    """``min_{z != p} |w.z - w.p|`` over the current points (exact where the float filter cannot decide).

    Returns 0 if some point z != p has the same projection (w does not isolate p); otherwise a
    rational lower bound of the exact minimum gap (exact for the candidates the filter kept).
    """
    wf = np.array([_float_or_inf(v) for v in w])
    c0 = _dot(w, p, Q)
    c0f = _float_or_inf(c0)  # +-inf beyond the float range: every point is then decided exactly
    with np.errstate(all="ignore"):
        proj = state.F @ wf
        err = (len(w) + 4) * 2.0 ** -49 * (np.abs(state.F) @ np.abs(wf)) + (len(w) + 4) * 2.0 ** -49 * abs(c0f) + 1e-300
        diff = np.abs(proj - c0f)
        lower = diff - 2 * err
    close = np.nonzero(~(lower > 0))[0]
    best: Any = None
    for i in close:
        z = state.P[i]
        if z == p:
            continue
        g = abs(_dot(w, z, Q) - c0)
        if g == 0:
            return Q(0)
        best = g if best is None or g < best else best
    far = lower[lower > 0]
    if far.size:
        lo = to_Q(float(far.min()), Q)
        best = lo if best is None or lo < best else best
    return best if best is not None else Q(1)


def _isolating_direction(state: ExactState, p: tuple, Q: Any, d: int) -> tuple[tuple[int, ...], Any]:
    """Smallest k >= 1 with w(k).p different from w(k).z for every current point z != p, and the gap."""
    for k in range(1, 10_000):
        w = moment_vector(d, k)
        g = _proj_gap(state, w, p, Q)
        if g > 0:
            return w, g
    raise ConstructionError(f"no moment-curve direction isolates {fmt_token(p)}")  # pragma: no cover


def _distinct_direction(points: Sequence[tuple], Q: Any, d: int) -> tuple[tuple[int, ...], Any, list]:
    """Smallest k with pairwise distinct projections w(k).z (exact), the minimum gap and projections."""
    pts = list(dict.fromkeys(points))
    for k in range(1, 10_000):
        w = moment_vector(d, k)
        pr = sorted(_dot(w, z, Q) for z in pts)
        gaps = [b - a for a, b in zip(pr, pr[1:])]
        if all(g > 0 for g in gaps):
            return w, (min(gaps) if gaps else Q(1)), pr
    raise ConstructionError("no moment-curve direction separates the points")  # pragma: no cover


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
        Q = _Q(backend or self.backend)
        seqs = [[tuple(to_Q(v, Q) for v in t) for t in x] for x in self.dataset.inputs]
        return ExactState(seqs, Q).run(self.blocks).sequences()

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


# -- the builder -----------------------------------------------------------------------------------------
class _Builder:
    def __init__(self, D: Dataset, attention: str, separation: str, seed: int, backend: str,
                 variant: str | None, distinguishing: Any = None, collapse: str = "identity"):
        self.collapse = collapse
        self.distinguishing = distinguishing
        self.D, self.attention, self.sep, self.seed, self.variant = D, attention, separation, seed, variant
        self.backend = backend
        self.Q = Q = _Q(backend)
        self.d = D.d
        self.inputs = [[tuple(to_Q(v, Q) for v in t) for t in x] for x in D.inputs]
        self.outputs = [[tuple(to_Q(v, Q) for v in t) for t in y] for y in D.outputs]
        self.targets = {t for y in self.outputs for t in y}
        self.blocks: list[Block] = []
        self.state = ExactState(self.inputs, Q)
        self.rng = random.Random(seed)
        self.R = 0
        self.stats: dict[str, Any] = {}

    def emit(self, block: Block) -> None:
        self.blocks.append(block)
        self.state.apply(block)

    def fail(self, stage: str, msg: str) -> None:
        raise ConstructionError(f"stage {stage}, block {len(self.blocks)}: {msg}")

    # -- stage S ------------------------------------------------------------------------------------
    def all_distinct(self) -> tuple[bool, Any]:
        seen: dict[tuple, int] = {}
        for i, t in enumerate(self.state.P):
            if t in seen:
                return False, (seen[t], i, t)
            seen[t] = i
        return True, None

    def separation_mean(self, attempt: int) -> bool:
        Q, d = self.Q, self.d
        rng = random.Random(self.seed * 7919 + attempt)
        U = [tuple(Q(rng.randint(-3, 3)) for _ in range(d)) for _ in range(4)]
        b = [Q(rng.randint(-2, 2)) for _ in range(4)]
        W = [tuple(Q(rng.randint(-8, 8), 64) for _ in range(d)) for _ in range(4)]
        eps = Q(rng.randint(1, 8), 64)
        saved = (list(self.blocks), self.state.copy())
        self.emit(Block(FF(Q(1), tuple(U), tuple(b), tuple(W)), SA(1, eps, None),
                        label="separation (random FF + uniform attention)", stage="S"))
        ok, _ = self.all_distinct()
        if not ok:
            self.blocks, self.state = saved
            return False
        self.R = 1
        return True

    def separation_bondy(self) -> None:
        Q, d, st = self.Q, self.d, "S"
        if self.distinguishing is not None:
            E = [tuple(to_Q(v, Q) for v in t) for t in self.distinguishing]
            traces = [frozenset(set(x) & set(E)) for x in self.inputs]
            if len(set(traces)) != len(traces):
                self.fail(st, "the given distinguishing points do not separate the sequences")
        else:
            E = distinguishing_points(self.inputs)
        R = len(E)
        self.R = R
        if R == 0:
            return
        if R > self.D.N - 1:
            self.fail(st, f"R = {R} > N - 1")
        U = sorted({t for x in self.inputs for t in x})
        lo = [min(t[k] for t in U) for k in range(d)]
        hi = [max(t[k] for t in U) for k in range(d)]
        mid = tuple((a + b) / 2 for a, b in zip(lo, hi))
        rinf = max(max(abs(t[k] - mid[k]) for k in range(d)) for t in U) + 1
        Lr = 4 * d * rinf
        K = 4 * (Lr + d * rinf)
        C = (K,) + tuple(Q(0) for _ in range(d - 1))
        c = (Q(1),) + tuple(Q(0) for _ in range(d - 1))
        T1 = tuple(a - b for a, b in zip(C, mid))
        ts = [[Q(r, R + 1)] + [Q(0)] * (d - 2) for r in range(1, R + 1)]
        if self.attention == "softmax":
            ts = self._tie_free_directions(E, ts, C, Lr, T1)
        v = [sph(t, Q) for t in ts]
        q = [tuple(Cc + Lr * vv for Cc, vv in zip(C, vr)) for vr in v]
        Pi = [tuple(a + b for a, b in zip(e, T1)) for e in U] + q
        w0, g0, _ = _distinct_direction(Pi, Q, d)
        g0 = to_Q(pow2_floor(g0), Q)
        beta = min(g0 / (8 * _norm1(w0)), Q(1))
        epsbar = beta / (2 * R * (K + Lr))
        # dyadic eps in [epsbar/2, epsbar]
        k = 0
        while Q(1, 2 ** k) > epsbar:
            k += 1
        scale = 2 ** (k + 8)
        lo_i = math.ceil(_as_fraction(epsbar / 2 * scale))
        hi_i = math.floor(_as_fraction(epsbar * scale))
        self.stats.update(sep_K=str(K), sep_L=str(Lr), g0=str(g0), beta=str(beta), eps_bar=str(epsbar))
        for attempt in range(5):
            epss = [Q(self.rng.randint(lo_i, hi_i), scale) for _ in range(R)]
            saved = (list(self.blocks), self.state.copy())
            if self._run_bondy(E, U, T1, C, c, v, q, w0, g0, beta, epss):
                self.stats["eps"] = [str(e) for e in epss]
                return
            self.blocks, self.state = saved
        self.fail(st, "the tokens stayed coincident after 5 draws of the eps (probability-zero event)")

    def _tie_free_directions(self, E, ts, C, Lr, T1):
        """Softmax: every sequence must have a unique maximiser of v_r . nu in round r (spec §3.2.3)."""
        Q, d = self.Q, self.d
        R = len(E)
        for r in range(R):
            for attempt in range(50):
                v = [sph(t, Q) for t in ts]
                q = [tuple(Cc + Lr * vv for Cc, vv in zip(C, vr)) for vr in v]
                if len(set(v)) < R:
                    ok = False
                else:
                    ok = True
                    Er = {e: q[s] for s, e in enumerate(E[:r + 1])}
                    for x in self.inputs:
                        nu = [Er.get(e, tuple(a + b for a, b in zip(e, T1))) for e in x]
                        pr = [_dot(v[r], z, Q) for z in nu]
                        top = max(pr)
                        if sum(1 for p in pr if p == top) > 1:
                            ok = False
                            break
                if ok:
                    break
                ts[r] = [ts[r][0] + Q(self.rng.randint(1, 64), 1024 * (R + 1))] + \
                    [Q(self.rng.randint(-64, 64), 1024 * (R + 1)) for _ in range(d - 2)]
            else:
                self.fail("S", f"no tie-free direction for round {r + 1}")
        return ts

    def _run_bondy(self, E, U, T1, C, c, v, q, w0, g0, beta, epss) -> bool:
        Q, d = self.Q, self.d
        R = len(E)
        omega = [tuple(Q(0) for _ in range(d)) for _ in self.inputs]
        nu_map = {e: tuple(a + b for a, b in zip(e, T1)) for e in U}
        for r in range(R):
            e_r = E[r]
            D = tuple(a - b - t for a, b, t in zip(q[r], e_r, T1))
            if r == 0:
                c0 = _dot(w0, e_r, Q)
                h = g0 / 2
                Uh, bh, Wh = _hat(w0, c0, h, D, Q)
                Ut, bt, Wt = _translation(T1, d, Q)
                ff = FF(Q(1), tuple(Uh + Ut), tuple(bh + bt), tuple(Wh + Wt))
            else:
                sg = _dot(w0, nu_map[e_r], Q)
                Uh, bh, Wh = _plateau(w0, (sg - g0 / 2, sg - g0 / 4, sg + g0 / 4, sg + g0 / 2), D, Q)
                ff = FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh))
            self.emit(Block(ff, _S1(v[r], c, epss[r]), label=f"separation round {r + 1}", stage="S"))
            nu_map[e_r] = q[r]
            # post-conditions (exact): decomposition, drift bound, c.x > 0, a_j = q_r when e_r in X^j
            for j, x in enumerate(self.inputs):
                nus = [nu_map[e] for e in x]
                pr = [_dot(v[r], z, Q) for z in nus]
                top = max(pr)
                win = [z for z, p in zip(nus, pr) if p == top]
                a = tuple(sum((z[k] for z in win), Q(0)) / len(win) for k in range(d))
                if e_r in set(x) and a != q[r]:
                    self.fail("S", f"round {r + 1}: sequence {j} contains e_r but its maximiser mean is {fmt_token(a)}")
                om = omega[j]
                omega[j] = tuple(o + epss[r] * (ak + o) for o, ak in zip(om, a))
                if max(abs(o) for o in omega[j]) > beta:
                    self.fail("S", f"round {r + 1}: drift of sequence {j} exceeds beta")
                got = self.state.sequence(j)
                for i, (z, y) in enumerate(zip(nus, got)):
                    if tuple(zz + o for zz, o in zip(z, omega[j])) != y:
                        self.fail("S", f"round {r + 1}: token {i} of sequence {j} is at {fmt_token(y)}, "
                                       f"not nu + omega")
                    if y[0] <= 0:
                        self.fail("S", f"round {r + 1}: c.x <= 0 at token {i} of sequence {j}")
        ok, _ = self.all_distinct()
        return ok

    # -- stage P ------------------------------------------------------------------------------------
    def placement(self) -> None:
        Q, d, D = self.Q, self.d, self.D
        P = self.state.P
        T2 = tuple(1 - min(z[k] for z in P) for k in range(d))
        b = max(max(z[k] + T2[k] for k in range(d)) for z in P)
        self.stats["box_b"] = str(b)
        Pslots = []
        t = b + 1
        for j in range(D.N):
            while tuple(t for _ in range(d)) in self.targets:
                t += 1
            Pslots.append(tuple(t for _ in range(d)))
            t += 1
        need = D.M - D.N
        sph_slots = []
        k = 1
        while len(sph_slots) < need:
            s = (sph_neg(Q(k, d * (2 * D.M + 2)), d, Q) if self.collapse == "identity"
                 else sph_neg_plane(Q(k, 2 * D.M + 2), d, Q))
            if s not in self.targets:
                sph_slots.append(s)
            k += 1
            if k > 2 * D.M + 2:
                self.fail("P", "not enough sphere slots avoid the targets")
        slots: list[list[tuple]] = []
        it = iter(sph_slots)
        for j in range(D.N):
            slots.append([Pslots[j]] + [next(it) for _ in range(D.target_counts[j] - 1)])
        self.slots = slots
        moves = [(j, k) for j in range(D.N) for k in range(D.target_counts[j])]
        M = len(moves)
        for mu, (j, k) in enumerate(moves):
            idx = self.state.offsets[j] + k
            p = self.state.P[idx]
            w, gap = _isolating_direction(self.state, p, Q, d)
            h = to_Q(pow2_floor(gap / 2), Q)
            c0 = _dot(w, p, Q)
            slot = slots[j][k]
            if mu == 0:
                Dm = tuple(s - pp - tt for s, pp, tt in zip(slot, p, T2))
                Uh, bh, Wh = _hat(w, c0, h, Dm, Q)
                Ut, bt, Wt = _translation(T2, d, Q)
                ff = FF(Q(1), tuple(Uh + Ut), tuple(bh + bt), tuple(Wh + Wt))
            else:
                Dm = tuple(s - pp for s, pp in zip(slot, p))
                Uh, bh, Wh = _hat(w, c0, h, Dm, Q)
                ff = FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh))
            last = mu == M - 1
            s2 = S2 if self.collapse == "identity" else _S2_rank2(d, Q)
            sa = s2 if (last and self.variant != "no_collapse") else S0
            if last:
                before = self.state.copy()
                before.apply_ff(ff)
                self._check_pre_collapse(before, b)
            self.emit(Block(ff, sa, label=f"leader {k} of sequence {j} -> slot" + (" + collapse" if last else ""),
                            stage="P"))
            if not last and self.state.P[idx] != slot:
                self.fail("P", f"leader {k} of sequence {j} is at {fmt_token(self.state.P[idx])}, not at its slot")
        # post-collapse: set(T(X^j)) = {P_j} ∪ sphere slots, multiplicities n_j - m_j + 1 and 1
        for j in range(D.N):
            got = self.state.sequence(j)
            want = slots[j]
            if set(got) != set(want):
                self.fail("P", f"after the collapse sequence {j} occupies {sorted(map(fmt_token, set(got)))}, "
                               f"not its slots {sorted(map(fmt_token, want))}")
            if got.count(want[0]) != D.lengths[j] - D.target_counts[j] + 1:
                self.fail("P", f"P_{j} carries {got.count(want[0])} tokens")

    def _check_pre_collapse(self, st: ExactState, b: Any) -> None:
        leaders = {(j, k) for j in range(self.D.N) for k in range(self.D.target_counts[j])}
        for j in range(self.D.N):
            seq = st.sequence(j)
            for i, z in enumerate(seq):
                if (j, i) in leaders:
                    if z != self.slots[j][i]:
                        self.fail("P", f"before the collapse leader {i} of sequence {j} is at {fmt_token(z)}, "
                                       f"not on its slot {fmt_token(self.slots[j][i])}")
                elif not all(1 <= v <= b for v in z):
                    self.fail("P", f"before the collapse non-leader {i} of sequence {j} at {fmt_token(z)} "
                                   f"is outside the box [1, {b}]^d")

    # -- stage I ------------------------------------------------------------------------------------
    def interpolation_hardmax(self) -> None:
        Q, d = self.Q, self.d
        for j in range(self.D.N):
            for k, (slot, y) in enumerate(zip(self.slots[j], self.outputs[j])):
                w, gap = _isolating_direction(self.state, slot, Q, d)
                h = to_Q(pow2_floor(gap / 2), Q)
                Dm = tuple(a - s for a, s in zip(y, slot))
                if self.variant == "perturb_move" and j == self.D.N - 1 and k == 0:
                    Dm = (Dm[0] + Q(1, 1000),) + Dm[1:]
                Uh, bh, Wh = _hat(w, _dot(w, slot, Q), h, Dm, Q)
                self.emit(Block(FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh)), S0,
                                label=f"move slot {k} of sequence {j} -> target", stage="I"))

    def interpolation_softmax(self) -> None:
        Q, d = self.Q, self.d
        sig = [s for sl in self.slots for s in sl]
        u, _, _ = _distinct_direction(sig, Q, d)
        m0 = min(_dot(u, s, Q) for s in sig) - 1
        ssig = [_dot(u, s, Q) - m0 for s in sig]
        for kk in range(1, 10_000):
            e = moment_vector(d, kk)
            e2 = _dot(e, e, Q)
            sy = [_dot(e, y, Q) / e2 for y in self.targets]
            if not (set(sy) & set(ssig)):
                break
        gaps = [abs(a - b) for i, a in enumerate(ssig) for b in ssig[i + 1:]] + \
               [abs(a - b) for a in ssig for b in sy]
        gamma = to_Q(pow2_floor(min(gaps) / 5), Q)
        self.line = dict(u=u, m0=m0, e=e, gamma=gamma)
        eta = Q(1) if self.variant == "line_map_residual" else Q(0)
        self.line_map_index = len(self.blocks)
        self.emit(Block(FF(eta, (tuple(Q(v) for v in u),), (-m0,), (tuple(Q(v) for v in e),)), S0,
                        label="line map (non-residual)", stage="line"))
        i = 0
        for j in range(self.D.N):
            for k, y in enumerate(self.outputs[j]):
                s = ssig[i]
                i += 1
                Us, bs, Ws = _snap(e, (s - 2 * gamma, s - gamma, s + gamma, s + 2 * gamma), y, Q)
                self.emit(Block(FF(Q(1), tuple(Us), tuple(bs), tuple(Ws)), S0,
                                label=f"snap slot {k} of sequence {j} -> target", stage="I"))

    def build(self) -> InterpolatingTransformer:
        D = self.D
        sep_used = "none"
        if D.N > 1 and self.variant != "skip_separation":
            sep_used = self.sep
            done = False
            if self.sep in ("mean", "auto"):
                for attempt in range(4):
                    if self.separation_mean(attempt):
                        done, sep_used = True, "mean"
                        break
                if not done and self.sep == "mean":
                    self.fail("S", "the mean shortcut did not separate the tokens after 4 draws")
            if not done:
                sep_used = "bondy"
                self.separation_bondy()
            ok, info = self.all_distinct()
            if not ok:
                self.fail("S", f"tokens {info[0]} and {info[1]} coincide at {fmt_token(info[2])}")
        self.stats["after_S"] = self.state.copy().P if D.num_tokens <= 64 else None
        self.placement()
        self.stats["after_P"] = list(self.state.P) if D.num_tokens <= 64 else None
        if self.attention == "hardmax":
            self.interpolation_hardmax()
        else:
            self.interpolation_softmax()
        outs = self.state.sequences()
        for j, (o, y) in enumerate(zip(outs, self.outputs)):
            if set(o) != set(y):
                self.fail("I", f"sequence {j} ends at {sorted(map(fmt_token, set(o)))}, targets "
                               f"{sorted(map(fmt_token, y))}")
        self.stats["final"] = list(self.state.P) if D.num_tokens <= 64 else None
        model = InterpolatingTransformer(self.blocks, self.d, self.attention, D, self.R,
                                         "bondy" if sep_used in ("bondy", "none") else "mean",
                                         1 if self.collapse == "identity" else 4 * self.d,
                                         self.stats, self.backend,
                                         getattr(self, "line_map_index", None))
        if self.attention == "softmax":
            model.stats["line"] = self.line
            model.stats["slots"] = self.slots
        return model


def build_interpolator(dataset: Dataset, attention: str = "hardmax", *, separation: str = "bondy",
                       seed: int = 0, backend: str | None = None, distinguishing: Any = None,
                       collapse: str = "identity", _variant: str | None = None) -> InterpolatingTransformer:
    """Build the explicit interpolating transformer of the spec for ``dataset`` (spec §3).

    ``attention``: "hardmax" (Theorem H, exact rationals) or "softmax" (Theorem S: the same weights
    serve every tau below the certified ``tau_c``; see :func:`theorems.interpolation.softmax.certify`).
    ``separation``: "bondy" (spec default), "mean" (one-block shortcut) or "auto" (mean, falling back
    to bondy).  ``distinguishing``: reuse given separating points E (e.g. those of a sub-dataset,
    spec §4.6); by default they are computed.  Every stage's post-condition is asserted by running the emitted weights exactly;
    a failure raises :class:`ConstructionError`.  ``_variant`` builds the deliberately broken networks of
    the negative controls (never for users).
    """
    if not isinstance(dataset, Dataset):
        raise InputTypeError("dataset", "must be a Dataset (theorems.interpolation.Dataset(inputs, outputs))",
                             type(dataset).__name__, has_value=True)
    if not isinstance(attention, str) or attention not in ("hardmax", "softmax"):
        raise InputError("attention", "must be 'hardmax' or 'softmax'", attention, has_value=True)
    if not isinstance(separation, str) or separation not in ("bondy", "mean", "auto"):
        raise InputError("separation", "must be 'bondy', 'mean' or 'auto'", separation, has_value=True)
    if dataset.d < 2:
        raise DatasetError("d = 1 is refused: the construction needs d >= 2 (spec §2.6)")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise InputTypeError("seed", "must be an integer", seed, has_value=True)
    backend = backend or ("flint" if HAVE_FLINT else "fraction")
    if backend not in ("flint", "fraction") or (backend == "flint" and not HAVE_FLINT):
        raise InputError("backend", "must be 'flint' (python-flint installed) or 'fraction'", backend,
                         has_value=True)
    if not isinstance(collapse, str) or collapse not in ("identity", "rank2"):
        raise InputError("collapse", "must be 'identity' (A = I) or 'rank2' (A = e1e1^T + e2e2^T)", collapse,
                         has_value=True)
    return _Builder(dataset, attention, separation, seed, backend, _variant, distinguishing, collapse).build()
