"""Checks of ``interp.softmax_to_hardmax`` (spec §4.10).

* :func:`symbolic_identity_and_limit` -- sympy, PROVED: the identity for every n <= 4 and every tie
  pattern, and the sharp limit on small rows.
* :func:`certified_bound` -- arb balls, CERTIFIED: the shared softmax kernel evaluated in ball
  arithmetic at a precision chosen from gap/tau, compared three-valued with the bound.
* :func:`mp_bound` -- mpmath at 50 digits down to tau = 1e-6 (corroborating, CONSISTENT).
* :func:`torch_agreement` -- ``torch.softmax`` (float64) against the mpmath kernel (corroborating).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from numerics.arithmetic import ArbArithmetic, MPArithmetic
from numerics.attention import mix, softmax_weights
from numerics.precision import Tri, float_tolerance, tri_le, tolerance_for
from numerics.strategies import attention_rows
from verify import Evidence, Profile, Tally, Verdict, explore, refuted
from verify import Observation, reject

from .softmax_limit import deviation_bound, maximisers, row_mean, score_gap

LOG2E = 1.0 / math.log(2.0)

# The spec's pinned instance for control (a): n = 2, x = (0, 1), scores (Delta, 0), Delta = 1.
PINNED_ROWS = (
    ([Fraction(1), Fraction(0)], [(Fraction(0),), (Fraction(1),)]),
    # a two-way tie at the top with distinct values: ties must average (control (b))
    ([Fraction(2), Fraction(2), Fraction(-1)], [(Fraction(0),), (Fraction(4),), (Fraction(1),)]),
)


def _taus(profile: Profile) -> list[Fraction]:
    exps = profile.pick(quick=[1, 0, -1, -2, -3], ci=[1, 0, -1, -2, -3],
                        thorough=[1, 0, -1, -2, -3, -4])
    return [Fraction(10) ** e for e in exps]


def _limit_point(scores: list[Fraction], values: list[tuple[Fraction, ...]], C: list[int],
                 limit_point: str) -> tuple[Fraction, ...]:
    if limit_point == "mean":
        return row_mean(values, C)
    if limit_point == "first":  # control (b): "ties go to the first maximiser"
        return tuple(Fraction(v) for v in values[C[0]])
    raise ValueError(f"unknown limit_point {limit_point!r}")


def _sqdist(u: Any, v: Any) -> Any:
    return sum((a - b) * (a - b) for a, b in zip(u, v))


def certified_bound(*, seed: int, profile: Profile, exponent_factor: int = 1,
                    limit_point: str = "mean") -> Evidence:
    """|softmax-average - limit point| <= ((n-c)/c) D exp(-f gap/tau), decided in ball arithmetic.

    The precision is ``64 + 2 * log2(e) * spread / tau`` bits, so that the rounding of the kernel is
    far below the distance between the deviation and the bound (that distance can be as small as
    exp(-gap/tau) relative).  A row where every score is maximal has no gap; it is covered by the
    symbolic identity (empty sum) and skipped here.
    """
    taus = _taus(profile)
    tally = Tally(precision="arb (adaptive, >= 64 bits)", backend="python-flint arb",
                  tolerance=0.0, seeds=(seed,))
    max_bits = [0]

    def body(row: tuple[list[Fraction], list[tuple[Fraction, ...]]]) -> Observation:
        scores, values = row
        n = len(scores)
        C = maximisers(scores)
        gap = score_gap(scores)
        if gap is None:  # every score maximal: covered by the symbolic identity
            reject()
        p = _limit_point(scores, values, C, limit_point)
        worst: Observation | None = None
        for tau in taus:
            spread = max(scores) - min(scores)
            bits = 64 + math.ceil(2 * LOG2E * float(spread / tau))
            if bits > 2**18:
                return Observation(Verdict.UNKNOWN)
            max_bits[0] = max(max_bits[0], bits)
            with ArbArithmetic(bits) as ar:
                w = softmax_weights([ar.convert(s) for s in scores], ar.convert(tau), ar)
                out = mix([ar.vector(v) for v in values], w, ar)
                pc = ar.vector(p)
                dev = _sqdist(out, pc).sqrt()
                D = max(ar.convert(_sqdist(v, p)) for v in values).sqrt()
                bound = deviation_bound(n, len(C), D, ar.convert(gap), ar.convert(tau),
                                        exp=ar.exp, exponent_factor=exponent_factor)
                decision = tri_le(dev, bound)
                margin = float((bound - dev).mid()) if decision is not Tri.UNKNOWN else None
            if decision is Tri.FALSE:
                return Observation(Verdict.REFUTED, margin=margin, counterexample=refuted(
                    f"deviation exceeds the bound at tau = {tau}",
                    margin=margin, tau=str(tau), scores=[str(s) for s in scores],
                    values=[[str(x) for x in v] for v in values],
                    deviation=str(dev), bound=str(bound), exponent_factor=exponent_factor,
                    limit_point=limit_point))
            obs = Observation(Verdict.CERTIFIED if decision is Tri.TRUE else Verdict.UNKNOWN,
                              margin=margin)
            if worst is None or obs.level.strength < worst.level.strength:
                worst = obs
        return worst if worst is not None else Observation(Verdict.UNKNOWN)

    strategy = attention_rows(n_max=profile.pick(8, 12, 12), d_max=3)
    explore(strategy, body, tally, seed=seed, max_examples=profile.pick(40, 80, 400),
            examples=PINNED_ROWS, describe=lambda r: {"scores": [str(s) for s in r[0]],
                                                      "values": [[str(x) for x in v] for v in r[1]]})
    tally.details["taus"] = [str(t) for t in taus]
    tally.details["max_bits"] = max_bits[0]
    return tally.evidence()


def mp_bound(*, seed: int, profile: Profile, exponent_factor: int = 1) -> Evidence:
    """The bound at 50 digits (the profile's dps) for tau down to 1e-6, within the precision's budget."""
    dps = profile.dps
    taus = [Fraction(10) ** e for e in (1, 0, -1, -2, -3, -4, -5, -6)]
    ar = MPArithmetic(dps)
    tally = Tally(precision=f"dps={dps}", backend="mpmath", tolerance=tolerance_for(dps),
                  seeds=(seed,))

    def body(row: tuple[list[Fraction], list[tuple[Fraction, ...]]]) -> Observation:
        scores, values = row
        C = maximisers(scores)
        gap = score_gap(scores)
        if gap is None:
            reject()
        p = row_mean(values, C)
        worst = None
        for tau in taus:
            w = softmax_weights([ar.convert(s) for s in scores], ar.convert(tau), ar)
            out = mix([ar.vector(v) for v in values], w, ar)
            dev = ar.ctx.sqrt(_sqdist(out, ar.vector(p)))
            D = ar.ctx.sqrt(max(ar.convert(_sqdist(v, p)) for v in values))
            bound = deviation_bound(len(scores), len(C), D, ar.convert(gap), ar.convert(tau),
                                    exp=ar.exp, exponent_factor=exponent_factor)
            tol = tolerance_for(dps, scale=max(float(D), 1.0))
            obs = Tally(precision="", backend="").le(dev, bound, tol, counterexample=lambda: refuted(
                f"deviation {ar.ctx.nstr(dev, 8)} > bound {ar.ctx.nstr(bound, 8)} at tau = {tau}",
                tau=str(tau), scores=[str(s) for s in scores]))
            if obs.level is Verdict.REFUTED:
                return obs
            worst = obs if worst is None or (obs.margin or 0) < (worst.margin or 0) else worst
        return worst

    explore(attention_rows(n_max=12, d_max=3), body, tally, seed=seed,
            max_examples=profile.pick(25, 50, 300), examples=PINNED_ROWS)
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def torch_agreement(*, seed: int, profile: Profile) -> Evidence:
    """``torch.softmax`` in float64 agrees with the mpmath kernel within a float64 budget."""
    import torch

    ar = MPArithmetic(30)
    tally = Tally(precision="float64", backend="torch", seeds=(seed,))

    def body(row: tuple[list[Fraction], list[tuple[Fraction, ...]]]) -> Observation:
        scores, _ = row
        n = len(scores)
        worst = None
        for tau in (Fraction(10), Fraction(1), Fraction(1, 10), Fraction(1, 100)):
            t = torch.tensor([float(s) for s in scores], dtype=torch.float64) / float(tau)
            got = torch.softmax(t, dim=0).tolist()
            ref = softmax_weights([ar.convert(s) for s in scores], ar.convert(tau), ar)
            err = max(abs(g - float(r)) for g, r in zip(got, ref))
            tol = float_tolerance(ops=4 * n, scale=1.0)
            tally.tolerance = tol
            obs = Tally(precision="", backend="").close(err, 0.0, tol)
            if obs.level is Verdict.REFUTED:
                return obs
            worst = obs
        return worst

    explore(attention_rows(n_max=12, d_max=1), body, tally, seed=seed,
            max_examples=profile.pick(20, 40, 200))
    tally.details["torch"] = torch.__version__
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def symbolic_identity_and_limit(*, seed: int, profile: Profile, exponent_factor: int = 1) -> Evidence:
    """sympy: the identity for n <= 4 and every maximiser count c, and the sharp limit.

    With ``exponent_factor = 2`` the limit statement becomes ``exp(2 gap/tau)(out - xbar_C) -> finite
    nonzero``, which sympy shows to be false (the limit diverges).
    """
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    t = sp.Symbol("t", positive=True)  # t = 1/tau
    gap = sp.Symbol("Delta", positive=True)
    for n in range(1, 5):
        xs = sp.symbols(f"x1:{n + 1}")
        for c in range(1, n + 1):
            # weights: W on the c maximisers, w_l on the others (any positive numbers)
            W = sp.Symbol("W", positive=True)
            ws = [W] * c + list(sp.symbols(f"w{c + 1}:{n + 1}", positive=True))
            Z = sum(ws)
            pi = [w / Z for w in ws]
            xbar = sum(xs[:c]) / c
            lhs = sum(p * x for p, x in zip(pi, xs)) - xbar
            rhs = sum(pi[l] * (xs[l] - xbar) for l in range(c, n))
            ok = sp.simplify(sp.together(lhs - rhs)) == 0
            tally.exact(bool(ok), level=Verdict.PROVED, counterexample=lambda: refuted(
                "identity fails", n=n, c=c, residual=str(sp.simplify(lhs - rhs))))
    # sharp limit on rows with c maximisers at 0, k keys at -Delta and one key at -2*Delta
    for c, k in ((1, 1), (2, 1), (1, 2), (2, 2)):
        xs = sp.symbols(f"y1:{c + k + 2}")
        scores = [0] * c + [-gap] * k + [-2 * gap]
        ws = [sp.exp(s * t) for s in scores]
        Z = sum(ws)
        out = sum(w * x for w, x in zip(ws, xs)) / Z
        xbar = sum(xs[:c]) / c
        predicted = sum(xs[c:c + k]) / c - sp.Integer(k) * xbar / c
        scaled = sp.exp(exponent_factor * gap * t) * (out - xbar)
        lim = sp.limit(sp.simplify(scaled), t, sp.oo)
        ok = sp.simplify(lim - predicted) == 0
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=lambda: refuted(
            "sharp limit differs", c=c, k=k, limit=str(lim), predicted=str(predicted),
            exponent_factor=exponent_factor))
        if not ok:
            break
    tally.details["scope"] = "identity: n <= 4, all c; limit: c, k in {1, 2}"
    return tally.evidence()
