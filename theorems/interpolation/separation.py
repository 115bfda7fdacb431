"""Stage S of the construction, the separation of all tokens (spec §3.2).

* :func:`distinguishing_points`: the constructive Bondy theorem (spec §3.2.1).
* ``separation="bondy"`` (the spec's method, :meth:`_SeparationStage.separation_bondy`): each
  distinguishing point ``e_r`` is moved by a hat/plateau onto a circle point ``q_r`` and a rank-one "top"
  attention ``A = v_r c^T`` drifts each sequence by ``eps_r (a_j + omega_j)``.
* ``separation="mean"`` (spec §3.2.10, the one-block shortcut, :meth:`_SeparationStage.separation_mean`):
  a seeded width-4 FF ``f`` and uniform attention with ``lam = eps``.

Both are accepted only if the exact post-check "all tokens of all sequences are pairwise distinct
points" passes on the emitted weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from numerics.exact import _as_fraction, dot

from .blocks import FF, SA, Block, to_Q
from .dataset import fmt_token
from .gadgets import _distinct_direction, _hat, _norm1, _plateau, _S1, _translation, pow2_floor, sph
from .network import ConstructionError

__all__ = ["distinguishing_points"]


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



class _SeparationStage:
    """Stage S, mixed into the builder (which provides Q, d, inputs, state, emit, fail, rng, stats)."""

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
                        pr = [dot(v[r], z) for z in nu]
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
                c0 = dot(w0, e_r)
                h = g0 / 2
                Uh, bh, Wh = _hat(w0, c0, h, D, Q)
                Ut, bt, Wt = _translation(T1, d, Q)
                ff = FF(Q(1), tuple(Uh + Ut), tuple(bh + bt), tuple(Wh + Wt))
            else:
                sg = dot(w0, nu_map[e_r])
                Uh, bh, Wh = _plateau(w0, (sg - g0 / 2, sg - g0 / 4, sg + g0 / 4, sg + g0 / 2), D, Q)
                ff = FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh))
            self.emit(Block(ff, _S1(v[r], c, epss[r]), label=f"separation round {r + 1}", stage="S"))
            nu_map[e_r] = q[r]
            # post-conditions (exact): decomposition, drift bound, c.x > 0, a_j = q_r when e_r in X^j
            for j, x in enumerate(self.inputs):
                nus = [nu_map[e] for e in x]
                pr = [dot(v[r], z) for z in nus]
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
