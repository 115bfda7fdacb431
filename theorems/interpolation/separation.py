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

import random
from collections.abc import Sequence
from typing import Any

from numerics.exact import _as_fraction, dot

import numpy as np

from .blocks import FF, SA, Block
from .exact_state import _f as _float_or_inf
from .exact_state import to_Q
from .dataset import fmt_token, token_key
from .gadgets import _distinct_direction, _hat, _plateau, _S1, _translation, pow2_floor
from .network import ConstructionError

__all__ = ["distinguishing_points"]


def distinguishing_points(inputs: Sequence[Sequence[tuple]]) -> list[tuple]:
    """Constructive Bondy theorem (spec §3.2.1): points E, |E| <= N-1, whose traces separate all X^j.

    While two sequences have equal traces ``X^j ∩ E``, take the lexicographically first such pair
    (j, k) and append the lexicographically smallest point of ``X^j Δ X^k``.
    """
    # the distinct points by token_key (equal keys iff equal tokens; an fmpq hashes slowly)
    distinct = {token_key(t): t for x in inputs for t in x}
    types = {type(v) for t in distinct.values() for v in t}
    if len(types) == 1 and next(iter(types)).__name__ in ("fmpq", "Fraction"):
        order = sorted(distinct.values())  # one rational type: tuples order lexicographically as rationals
    else:
        order = sorted(distinct.values(), key=lambda t: tuple(_as_fraction(v) for v in t))
    rank = {token_key(t): i for i, t in enumerate(order)}  # points by lexicographic rank (small ints hash fast)
    sets = [frozenset(rank[token_key(t)] for t in x) for x in inputs]
    E: list[int] = []
    while True:
        groups: dict[frozenset, list[int]] = {}
        Es = set(E)
        for j, s in enumerate(sets):
            groups.setdefault(frozenset(s & Es), []).append(j)
        pairs = [(g[0], g[1]) for g in groups.values() if len(g) >= 2]
        if not pairs:
            return [order[i] for i in E]
        j, k = min(pairs)
        if not (sets[j] ^ sets[k]):
            raise ConstructionError(f"stage S: input sequences {j} and {k} are equal as sets, so no point "
                                    "separates them (assumption A2; every network is permutation-equivariant)")
        E.append(min(sets[j] ^ sets[k]))  # the lexicographically smallest point of the difference


class _SeparationStage:
    """Stage S, mixed into the builder (which provides Q, d, inputs, state, emit, fail, rng, stats)."""

    def all_distinct(self) -> tuple[bool, Any]:
        """Are all tokens of all sequences pairwise distinct points?  Exact: the float shadow is the
        rounding of the exact token, so equal tokens have equal shadows; only tokens whose shadows
        coincide are compared exactly (a non-finite shadow is always compared exactly)."""
        P, F = self.state.P, self.state.F
        fin = np.isfinite(F).all(axis=1)
        idx = np.nonzero(fin)[0]
        _, inv, counts = np.unique(F[idx], axis=0, return_inverse=True, return_counts=True)
        suspects = [int(i) for i in idx[counts[inv.ravel()] > 1]] + [int(i) for i in np.nonzero(~fin)[0]]
        seen: dict[tuple, int] = {}
        for i in sorted(suspects):
            t = P[i]
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
        """The spec's separation (§3.2) with bounded bit sizes: R rounds, one per distinguishing point.

        Geometry (exact rationals; spec §3.2.2): ``mid``, ``rho_inf``, ``L = 4 d rho_inf``,
        ``K = 4(L + d rho_inf)`` (plus ``L floor((d - 2)/16)`` for d >= 18), ``C = K e_1``, ``c = e_1``,
        ``T1 = C - mid`` as in the spec.  Block structure and counts are the spec's (round 1: hat +
        translation, rounds >= 2: plateau along w0; SA = S1(v_r, c, eps_r)).  Three departures keep every
        denominator independent of R (the spec's sphere points and independent dyadic eps make the drift
        recursion multiply bit sizes: 7972 bits at R = 199):

        * **Paraboloid points on a lattice instead of circle points.**  ``q_r = C + L u(t_r)`` with
          ``u(t) = (-|t|^2, 2t)`` and direction ``v_r = (1, t_r)``, ``t_r`` a seeded point of the lattice
          ``2^-j Z^(d-1)`` with ``t_1 in [1, 3/2]``, ``|t_k| <= 1/4`` (j >= 6, the smallest with 4R + 256
          points).  ``v_r.q_s = v_r.C + L(|t_r|^2 - |t_r - t_s|^2)``, so q_r is the unique maximiser among
          the paraboloid points, and ``L |t_r|^2 >= L > (1 + |t_r|_1) rho_inf >= v_r.(e + T1 - C)`` beats
          every box point: ``a_j = q_r`` whenever ``e_r in X^j`` (spec §3.2.8).  Every q_r has
          denominator dividing ``4^j`` times the data's.
        * **Telescoping steps.**  With ``rho = 1, lam = eps`` the drift obeys
          ``omega_r = (1 + eps_r) omega_{r-1} + eps_r a_r``.  With ``eps_r = delta/(1 - r delta)``,
          ``prod_{s<=r} (1 + eps_s) = 1/(1 - r delta)`` telescopes and
          ``omega_r = delta/(1 - r delta) * sum_{s<=r} a_s``: denominator ``(1/delta - r)`` times that of
          the nominal points, whatever r (delta a power of two).
        * **Drift budget along the plateau direction.**  What the plateaus need is
          ``|w0.omega| <= g0/8``; with ``A = max_z |w0.z|`` over the nominal points,
          ``delta = pow2_floor(g0/(16 R A))`` gives ``|w0.omega_r| <= 2 r delta A <= g0/8`` (instead of the
          spec's ``|omega|_inf <= beta = g0/(8|w0|_1)``, which costs more bits).

        The directions are chosen tie-free first (every sequence has a unique maximiser of ``v_r.nu``
        in round r's nominal configuration, for hardmax and softmax alike; a float filter with an exact
        decision where it cannot separate), so every ``a_j`` is a nominal point.  Separation: sequences
        j, k separated by e_s (in j only) end with ``omega_j - omega_k = c (sum_r a_{j,r} - a_{k,r})``,
        a combination of nominal points in which q_s has a positive coefficient; generically (the
        lattice points are seeded) it is nonzero.  The exact post-check "all tokens pairwise distinct"
        decides, and a coincidence redraws the directions.

        Post-conditions (exact, spec §3.2.9): per round, ``a_j = q_r`` whenever e_r is in X^j, the
        moved copies of e_r and the first token of every sequence sit at ``nu + omega_j``,
        ``|w0.omega_j| <= g0/8``, and ``c.x > 0`` for every token (the float shadow has the exact sign);
        at the end of the stage every token equals ``nu_R(e) + omega_j`` and all tokens of all sequences
        are pairwise distinct points.
        """
        Q, d, st = self.Q, self.d, "S"
        if self.distinguishing is not None:
            E = [tuple(to_Q(v, Q) for v in t) for t in self.distinguishing]
            Ek = set(map(token_key, E))
            traces = [frozenset(set(map(token_key, x)) & Ek) for x in self.inputs]
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
        U = sorted({token_key(t): t for x in self.inputs for t in x}.values())
        lo = [min(t[k] for t in U) for k in range(d)]
        hi = [max(t[k] for t in U) for k in range(d)]
        mid = tuple((a + b) / 2 for a, b in zip(lo, hi))
        rinf = max(max(abs(t[k] - mid[k]) for k in range(d)) for t in U) + 1
        Lr = 4 * d * rinf
        K = 4 * (Lr + d * rinf) + Lr * ((d - 2) // 16)  # K > L |t|^2 + rho_inf for every lattice t
        C = (K,) + tuple(Q(0) for _ in range(d - 1))
        c = (Q(1),) + tuple(Q(0) for _ in range(d - 1))
        T1 = tuple(a - b for a, b in zip(C, mid))
        for attempt in range(6):
            geo = _Nominal(self, U, E, T1, C, Lr)
            ts = geo.tie_free_directions()
            w0, g0, _ = _distinct_direction(geo.points, Q, d)
            g0 = to_Q(pow2_floor(g0), Q)
            # drift budget on the plateau direction: |w0.omega| <= 2 R delta A <= g0/8 (A = max |w0.z|)
            A = max(abs(dot(w0, z)) for z in geo.points)
            delta = to_Q(pow2_floor(g0 / (16 * R * A)), Q)
            epss = [delta / (1 - r * delta) for r in range(1, R + 1)]
            saved = (list(self.blocks), self.state.copy())
            if self._run_bondy(E, geo, T1, c, w0, g0, epss):
                self.stats.update(sep_K=str(K), sep_L=str(Lr), g0=str(g0), sep_A=str(A), sep_delta=str(delta),
                                  sep_lattice=geo.j, sep_t=[[str(x) for x in t] for t in ts],
                                  eps=[str(e) for e in epss], sep_attempts=attempt + 1)
                return
            self.blocks, self.state = saved
        self.fail(st, "the tokens stayed coincident after 6 draws of the directions (a measure-zero event)")

    def _run_bondy(self, E, geo, T1, c, w0, g0, epss) -> bool:
        Q, d = self.Q, self.d
        R = len(E)
        v, q = geo.v, geo.q
        N = len(self.inputs)
        omega = [tuple(Q(0) for _ in range(d)) for _ in range(N)]
        nid = [list(ids) for ids in geo.seq_ids]  # nominal point of every token, per sequence
        offs = self.state.offsets
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
                sg = dot(w0, geo.box[geo.index[token_key(e_r)]])
                Uh, bh, Wh = _plateau(w0, (sg - g0 / 2, sg - g0 / 4, sg + g0 / 4, sg + g0 / 2), D, Q)
                ff = FF(Q(1), tuple(Uh), tuple(bh), tuple(Wh))
            self.emit(Block(ff, _S1(v[r], c, epss[r]), label=f"separation round {r + 1}", stage="S"))
            box_id, q_id = geo.index[token_key(e_r)], geo.nbox + r
            tok = self.state.token if hasattr(self.state, "token") else self.state.P.__getitem__
            for j in range(N):
                ids = nid[j]
                ids[:] = [q_id if i == box_id else i for i in ids]
                a_id = geo.argmax[r][j]
                if box_id in geo.seq_sets[j] and a_id != q_id:
                    self.fail("S", f"round {r + 1}: sequence {j} contains e_r but its maximiser is not q_r")
                a = geo.points[a_id]
                om = omega[j]
                omega[j] = om = tuple(o + epss[r] * (ak + o) for o, ak in zip(om, a))
                if 8 * abs(dot(w0, om)) > g0:
                    self.fail("S", f"round {r + 1}: drift of sequence {j} along w0 exceeds g0/8")
                # exact decomposition: the moved copies and the sequence's first token
                for i, t in enumerate(ids):
                    if i == 0 or t == q_id:
                        y = tok(offs[j] + i)
                        if tuple(z + o for z, o in zip(geo.points[t], om)) != y:
                            self.fail("S", f"round {r + 1}: token {i} of sequence {j} is at "
                                           f"{fmt_token(y)}, not nu + omega")
            F, B = self.state._shadows()  # each exact coordinate is within 2^-49 B of its shadow
            with np.errstate(all="ignore"):  # inf shadows (beyond float64) compare as undecided
                low = F[:, 0] - 2.0 ** -48 * B[:, 0]
            for i in np.nonzero(~(low > 0))[0]:  # undecided by the shadows: decide exactly
                if not tok(int(i))[0] > 0:
                    self.fail("S", f"round {r + 1}: c.x <= 0 at token {int(i)}")
        P = self.state.P  # materialises every token
        if not all(t[0] > 0 for t in P):
            self.fail("S", "after the stage c.x <= 0 at some token")
        for j in range(N):
            for i, t in enumerate(nid[j]):
                if tuple(z + o for z, o in zip(geo.points[t], omega[j])) != P[offs[j] + i]:
                    self.fail("S", f"after the stage token {i} of sequence {j} is at {fmt_token(P[offs[j] + i])}, "
                                   "not nu_R + omega")
        ok, _ = self.all_distinct()
        return ok


class _Nominal:
    """The nominal points of stage S: box points ``e + T1`` (one per distinct input token), then the
    paraboloid points ``q_r``; per round the maximiser of ``v_r.nu`` in every sequence."""

    def __init__(self, b: Any, U: list, E: list, T1: tuple, C: tuple, L: Any):
        self.b, self.Q, self.d = b, b.Q, b.d
        self.E, self.C, self.L = E, C, L
        U = sorted({token_key(t): t for t in (*U, *E)}.values())  # a given distinguishing point need not be a token
        self.box = [tuple(a + t for a, t in zip(e, T1)) for e in U]
        self.nbox = len(self.box)
        self.index = {token_key(e): i for i, e in enumerate(U)}  # by token_key (fmpq hashes slowly)
        self.seq_ids = [[self.index[token_key(t)] for t in x] for x in b.inputs]
        self.seq_sets = [set(ids) for ids in self.seq_ids]
        R = len(E)
        # the lattice of directions: t in 2^-j Z^(d-1), t_1 in [1, 3/2], |t_k| <= 1/4 (k >= 2); j >= 6 the
        # smallest with at least 4R + 256 points (spares for tie-breaking redraws)
        j = 6
        while (2 ** (j - 1) + 1) ** (self.d - 1) < 4 * R + 256:
            j += 1
        self.j = j
        self.size = (2 ** (j - 1) + 1) ** (self.d - 1)
        self.used: set[tuple] = set()

    def _point(self, t: list) -> tuple[tuple, tuple]:
        Q = self.Q
        n2 = sum((x * x for x in t), Q(0))
        u = (-n2,) + tuple(2 * x for x in t)
        return (Q(1),) + tuple(t), tuple(cc + self.L * uu for cc, uu in zip(self.C, u))

    def _draw(self, r: int, rng: random.Random) -> list:
        """A seeded unused lattice point ``t = (1 + a/2^j, b_2/2^j, ..)``, ``0 <= a, |b_k| <= 2^(j-2)``."""
        Q, j, h = self.Q, self.j, 2 ** (self.j - 2)
        if len(self.used) >= self.size // 2:
            self.b.fail("S", f"round {r + 1}: half of the {self.size} lattice directions were tried (ties)")
        while True:
            key = (rng.randint(0, 2 * h),) + tuple(rng.randint(-h, h) for _ in range(self.d - 2))
            if key not in self.used:
                self.used.add(key)
                return [1 + Q(key[0], 2 ** j)] + [Q(b, 2 ** j) for b in key[1:]]

    def tie_free_directions(self) -> list[list]:
        """``t_r`` for every round such that each sequence has a unique maximiser of ``v_r.nu`` in round
        r's nominal configuration; fills ``v``, ``q``, ``points`` and ``argmax`` (nominal point ids)."""
        d, R = self.d, len(self.E)
        rng = self.b.rng
        self.v, self.q, self.argmax = [], [], []
        pts = list(self.box)
        F = np.array([[_float_or_inf(x) for x in p] for p in pts], dtype=np.float64).reshape(len(pts), d)
        ids = [list(x) for x in self.seq_ids]
        ts = []
        for r in range(R):
            t = self._draw(r, rng)
            box_id = self.index[token_key(self.E[r])]
            for attempt in range(60):
                vr, qr = self._point(t)
                cur = [[self.nbox + r if i == box_id else i for i in x] for x in ids]
                win = self._winners(pts + [qr], np.vstack([F, [[_float_or_inf(x) for x in qr]]]), vr, cur)
                if win is not None and qr not in self.q and qr not in pts:
                    break
                t = self._draw(r, rng)
            else:
                self.b.fail("S", f"no tie-free direction for round {r + 1}")
            ts.append(t)
            self.v.append(vr)
            self.q.append(qr)
            pts.append(qr)
            F = np.vstack([F, [[_float_or_inf(x) for x in qr]]])
            ids = cur
            self.argmax.append(win)
        self.points = pts
        return ts

    def _winners(self, pts: list, F: np.ndarray, v: tuple, seqs: list[list[int]]) -> list[int] | None:
        """The unique maximiser (point id) of ``v.z`` over each sequence, or None if one has a tie.

        Floats decide where ``|v.z - v.z'|`` exceeds twice the rounding bound ``(d + 4) 2^-50 |v|.|z|``
        (the shadows are within 2^-50 relatively); the remaining candidates are compared exactly."""
        vf = np.array([_float_or_inf(x) for x in v])
        with np.errstate(all="ignore"):
            pr = F @ vf
            err = (len(v) + 4) * 2.0 ** -49 * (np.abs(F) @ np.abs(vf)) + 1e-300
        out = []
        for x in seqs:
            ux = list(dict.fromkeys(x))
            p, e = pr[ux], err[ux]
            cand = ux  # a non-finite shadow: every point is decided exactly
            if np.isfinite(p).all() and np.isfinite(e).all():
                with np.errstate(all="ignore"):
                    lo = p - e
                    top = int(np.argmax(lo))
                    cand = [ux[k] for k in np.nonzero(p + e >= lo[top])[0]]
            if len(cand) == 1:
                out.append(cand[0])
                continue
            vals = [dot(v, pts[i]) for i in cand]
            best = max(vals)
            ws = [i for i, val in zip(cand, vals) if val == best]
            if len(ws) > 1:
                return None
            out.append(ws[0])
        return out
