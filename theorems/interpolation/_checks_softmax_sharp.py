"""Sharpness of the softmax-to-hardmax bound (``interp.softmax_to_hardmax``, spec §4.10): the other side.

:func:`._checks_softmax.certified_bound` shows ``deviation <= bound`` on every row; alone it cannot see a
*loosened* bound (a constant scaled up, a halved gap, ``n - 1`` for ``n - c``).  Here a witness family
approaches the bound, evaluated through the product's own functions (:func:`.softmax_limit.maximisers`,
:func:`~.softmax_limit.score_gap`, :func:`~.softmax_limit.row_mean`, :func:`~.softmax_limit.deviation_bound`
and the shared kernel :func:`numerics.attention.softmax_weights` / :func:`~numerics.attention.mix`).

Witness rows (n keys, c maximisers at score Delta whose values average to xbar_C, the n - c others at score
0 all at one point v): every outside key pushes the same way, so

    deviation / bound = c / (c + (n - c) exp(-Delta/tau)) in [1 - ((n - c)/c) exp(-Delta/tau), 1].

* sympy (PROVED): ``lim_{tau -> 0} deviation / bound = 1`` on the witness rows (t = 1/tau symbolic).
* arb (CERTIFIED): the two-sided enclosure above at tau = 10 .. 10^-3 at an adaptive precision of
  64 + 3 log2(e) Delta/tau bits: the lower side's distance is ~((n-c)/c)^2 exp(-2 Delta/tau) relative, so
  the rounding (2^-bits relative) must sit below exp(-2 Delta/tau) with 64 bits to spare;
  ``1 - deviation/bound`` is recorded per tau (the recorded approach factor).
* ``exponent_factor = 1/2`` (control): the slower rate exp(-Delta/(2 tau)) claimed sharp; the witness
  refutes it (deviation/bound -> 0).
"""

from __future__ import annotations

import math
from fractions import Fraction

from numerics.arithmetic import ArbArithmetic
from numerics.attention import mix, softmax_weights
from numerics.precision import Tri, tri_le
from verify import Evidence, Observation, Profile, Tally, Verdict, refuted

from .softmax_limit import deviation_bound, maximisers, row_mean, score_gap

F = Fraction
LOG2E = 1.0 / math.log(2.0)

#: (n, c, Delta): witness shapes; c >= 2 exercises tie averaging and tells (n - c) from (n - 1)
WITNESS_SHAPES = ((2, 1, F(1)), (3, 2, F(1)), (5, 2, F(3, 2)), (6, 3, F(1, 2)))


def witness_row(n: int, c: int, gap: Fraction) -> tuple[list[Fraction], list[tuple[Fraction, ...]]]:
    """Scores (Delta x c, 0 x (n - c)); maximiser values (1, +-k) averaging to (1, 0) (odd c: one at
    (1, 0)); outside values all at (3, 0), the farthest point from xbar_C = (1, 0) (distance 2 >= sqrt(1 + k^2)
    needs k <= 1: k = 1)."""
    scores = [gap] * c + [F(0)] * (n - c)
    maxv = []
    for i in range(c // 2):
        maxv += [(F(1), F(1)), (F(1), F(-1))]
    if c % 2:
        maxv.append((F(1), F(0)))
    return scores, maxv + [(F(3), F(0))] * (n - c)


def _taus(profile: Profile) -> list[Fraction]:
    return [F(10) ** e for e in profile.pick(quick=[1, 0, -1, -2, -3], ci=[1, 0, -1, -2, -3],
                                             thorough=[1, 0, -1, -2, -3, -4])]


def witness_sharpness(*, seed: int, profile: Profile, exponent_factor: Fraction | int = 1) -> Evidence:
    """Two-sided on the witness rows: deviation/bound -> 1 (sympy) and in [1 - ((n-c)/c) e^{-Delta/tau}, 1]
    (arb), with the bound from :func:`deviation_bound`."""
    import sympy as sp

    ef = F(exponent_factor)
    tally = Tally(precision="symbolic; arb (adaptive, >= 64 bits)", backend="sympy, python-flint arb",
                  tolerance=0.0, seeds=(seed,))
    t = sp.Symbol("t", positive=True)  # t = 1/tau
    approach: dict[str, list[float]] = {}
    for n, c, gap in WITNESS_SHAPES:
        scores, values = witness_row(n, c, gap)
        C = maximisers(scores)
        g = score_gap(scores)
        p = row_mean(values, C)
        D2 = max(sum((a - b) ** 2 for a, b in zip(v, p)) for v in values)
        # sympy: the limit of deviation / bound as t = 1/tau -> oo
        ws = [sp.exp(sp.Rational(s.numerator, s.denominator) * t) for s in scores]
        Z = sum(ws)
        out = [sum(w * sp.Rational(v[k].numerator, v[k].denominator) for w, v in zip(ws, values)) / Z
               for k in range(2)]
        dev = sp.sqrt(sum((o - sp.Rational(pk.numerator, pk.denominator)) ** 2 for o, pk in zip(out, p)))
        bound = deviation_bound(n, len(C), sp.sqrt(sp.Rational(D2.numerator, D2.denominator)),
                                sp.Rational(g.numerator, g.denominator), 1 / t, exp=sp.exp,
                                exponent_factor=sp.Rational(ef.numerator, ef.denominator))
        lim = sp.limit(sp.simplify(dev / bound), t, sp.oo)
        tally.exact(bool(lim == 1), level=Verdict.PROVED, counterexample=refuted(
            f"witness (n = {n}, c = {c}, Delta = {gap}): lim_(tau->0) deviation/bound = {lim}, not 1: "
            "the bound is not approached", n=n, c=c, gap=str(gap), limit=str(lim),
            exponent_factor=str(ef), sub_check="sharp_limit"))
        # arb: the two-sided enclosure at each tau
        rel = []
        for tau in _taus(profile):
            bits = 64 + math.ceil(3 * LOG2E * float(max(g, g * ef) / tau))
            with ArbArithmetic(bits) as ar:
                w = softmax_weights([ar.convert(s) for s in scores], ar.convert(tau), ar)
                o = mix([ar.vector(v) for v in values], w, ar)
                pc = ar.vector(p)
                devb = sum(((a - b) * (a - b) for a, b in zip(o, pc)), ar.convert(0)).sqrt()
                bnd = deviation_bound(n, len(C), ar.convert(D2).sqrt(), ar.convert(g), ar.convert(tau),
                                      exp=ar.exp, exponent_factor=ar.convert(ef))
                lower = bnd * (1 - ar.convert(F(n - c, c)) * ar.exp(-ar.convert(g) / ar.convert(tau)))
                up, lo = tri_le(devb, bnd), tri_le(lower, devb)
                rel.append(float(1 - devb / bnd))
            if up is Tri.FALSE or lo is Tri.FALSE:
                tally.exact(False, counterexample=refuted(
                    f"witness (n = {n}, c = {c}, Delta = {gap}) at tau = {tau}: deviation/bound = "
                    f"{1 - rel[-1]:.6g} outside [1 - ((n-c)/c) e^(-Delta/tau), 1]", n=n, c=c, tau=str(tau),
                    ratio=1 - rel[-1], exponent_factor=str(ef), sub_check="two_sided"))
                return tally.evidence()
            tally.add(Observation(Verdict.CERTIFIED if (up is Tri.TRUE and lo is Tri.TRUE) else Verdict.UNKNOWN))
        approach[f"n={n},c={c},Delta={gap}"] = rel
    tally.details["one_minus_deviation_over_bound"] = approach
    return tally.evidence()
