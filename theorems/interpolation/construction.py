"""The explicit interpolating transformer of the spec (§3): separation, leaders, collapse, interpolation.

``build_interpolator(dataset, attention="hardmax" | "softmax")`` emits the blocks stage by stage and,
after every block, runs the **emitted weights** through the exact evaluator
(:class:`~theorems.interpolation.exact_state.ExactState`, hardmax) and asserts the stage's post-condition
exactly; the builder's bookkeeping is never used as evidence.  A failed post-condition raises
:class:`ConstructionError` naming the stage, block and tokens.

Stages (spec §3.2-3.5; ``R`` separation blocks, ``M = sum_j m_j``):

* **S, separation** (skipped if N = 1).  ``separation="bondy"`` (the spec's method): distinguishing
  points ``e_1..e_R`` (R <= N-1), each moved by a hat/plateau onto a paraboloid point ``q_r`` and used
  by a rank-one "top" attention ``A = v_r c^T`` that drifts each sequence by ``eps_r (a_j + omega_j)``,
  with telescoping steps so that bit sizes do not grow with R (see :mod:`.separation`).
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

Rooms: the gadgets and rational geometry in :mod:`.gadgets`, stage S in :mod:`.separation`, the
network and its exact evaluation in :mod:`.network`; this module holds the builder (stages P and I)
and re-exports the public names.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from numerics.errors import InputError, InputTypeError
from numerics.exact import HAVE_FLINT, _as_fraction, dot  # noqa: F401  (_as_fraction re-exported)

from .blocks import FF, Block
from .exact_state import ExactState, to_Q
from .dataset import Dataset, DatasetError, fmt_token, token_key
from .exact_shift import ShiftState
from .gadgets import (S0, S2, _distinct_direction, _hat, _isolating_direction, _Q, _S2_rank2, _snap,
                      _translation, moment_vector, pow2_floor, sph, sph_neg, sph_neg_plane)
from .network import ConstructionError, InterpolatingTransformer, paper_block_count, parameter_formula
from .separation import _SeparationStage, distinguishing_points

__all__ = ["build_interpolator", "InterpolatingTransformer", "ConstructionError", "moment_vector",
           "sph", "sph_neg", "pow2_floor", "distinguishing_points", "paper_block_count",
           "parameter_formula"]


def _same_set(a: list, b: list) -> bool:
    """``set(a) == set(b)`` by ``==`` alone (mutual containment): the same answer without hashing the
    exact tokens (an fmpq hashes ~20x slower than it compares; the lists here have a few tokens)."""
    return all(x in b for x in a) and all(y in a for y in b)


# -- the builder: stages P and I (stage S in .separation) -------------------------------------------------
class _Builder(_SeparationStage):
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
        # the distinct targets, by token_key (equal keys iff equal tokens; fmpq tokens hash slowly)
        self.target_keys = {token_key(t): t for y in self.outputs for t in y}
        self.targets = list(self.target_keys.values())
        self.blocks: list[Block] = []
        self.state = ShiftState(self.inputs, Q)
        self.rng = random.Random(seed)
        self.R = 0
        self.stats: dict[str, Any] = {}

    def emit(self, block: Block) -> None:
        self.blocks.append(block)
        self.state.apply(block)

    def fail(self, stage: str, msg: str) -> None:
        raise ConstructionError(f"stage {stage}, block {len(self.blocks)}: {msg}")

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
            while token_key(tuple(t for _ in range(d))) in self.target_keys:
                t += 1
            Pslots.append(tuple(t for _ in range(d)))
            t += 1
        need = D.M - D.N
        sph_slots = []
        k = 1
        while len(sph_slots) < need:
            s = (sph_neg(Q(k, d * (2 * D.M + 2)), d, Q) if self.collapse == "identity"
                 else sph_neg_plane(Q(k, 2 * D.M + 2), d, Q))
            if token_key(s) not in self.target_keys:
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
            c0 = dot(w, p)
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
            if not _same_set(got, want):
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
                Uh, bh, Wh = _hat(w, dot(w, slot), h, Dm, Q)
                self.emit(Block(FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh)), S0,
                                label=f"move slot {k} of sequence {j} -> target", stage="I"))

    def interpolation_softmax(self) -> None:
        Q, d = self.Q, self.d
        sig = [s for sl in self.slots for s in sl]
        u, _, _ = _distinct_direction(sig, Q, d)
        m0 = min(dot(u, s) for s in sig) - 1
        ssig = [dot(u, s) - m0 for s in sig]
        ssig_keys = set(token_key(ssig))  # values by their canonical pairs (fmpq hashes slowly)
        for kk in range(1, 10_000):
            e = moment_vector(d, kk)
            e2 = dot(e, e)
            sy = [dot(e, y) / e2 for y in self.targets]
            if not (set(token_key(sy)) & ssig_keys):
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
            if not _same_set(o, y):
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
