"""Softmax exactness: the certified temperature ``tau_c`` and high-precision evaluation (spec §3.5, §3.7, §4.4).

The softmax network has **one fixed set of rational weights** (the builder takes no tau).  Its
hardmax trajectory ``xbar`` (exact) is the reference; ``r_l`` bounds ``max |x - xbar|`` (Euclidean, over
all tokens) after block ``l``, ``r_0 = 0``:

* FF: ``r <- Lip r`` with ``Lip = |eta| + sum_k |U_k| |W_k|`` (global Lipschitz bound, valid across kinks);
* SA with no A (uniform attention, exact for every tau): ``r <- (|rho| + |lam|) r``;
* SA with ``lam = 0``: ``r <- |rho| r``;
* SA with A: every hardmax row i has a unique maximiser ``l*`` and score gap ``Delta_i > 0``;
  ``B >= max |xbar_l|``, ``||A|| <= |alpha| + sum |p_k||q_k|``, ``delta = ||A|| (2 B r + r^2)`` bounds the
  score error, ``pi_i = (n_j - 1) exp(-(Delta_i - 2 delta)/tau)``, ``D_i = max_l |xbar_l - xbar_l*|``,
  and ``r <- |rho| r + |lam| (r + max_i pi_i D_i)``; it needs ``Delta_i - 2 delta > 0``.

``Cert(tau)``: every ``Delta_i - 2 delta > 0`` and ``|u| r <= min(gamma, 1/2)`` at the line-map input.
Then every token lands on the active side of the line map within ``gamma`` of its slot coordinate, and
the snap moves send it exactly to its target (spec §3.5).  Every step is nondecreasing in ``r`` and
``tau``, so ``Cert(tau_c)`` implies ``Cert(tau)`` for all ``tau <= tau_c``: one set of weights, every
smaller temperature.  ``tau_c`` is found by bisection on ``log tau`` in floats and then **certified in
arb ball arithmetic** (python-flint); only the certified value is returned.  The recursion is written
once (:func:`_run`) against a ``numerics.arithmetic`` context: ``FloatArithmetic`` for the search,
``ArbArithmetic`` for the certificate; its tau-free quantities are computed once per certificate
(:func:`_prepare`).

"Exact at precision p" (spec §3.7): every output within ``10^-(p-12)`` of a target and every target
within ``10^-(p-12)`` of an output, required at ``dps`` and ``2 dps``.
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from numerics.arithmetic import ArbArithmetic, Arithmetic, FloatArithmetic, MPArithmetic
from numerics.errors import InputError, InputTypeError
from numerics.precision import Tri
from numerics.validation import check_dps, check_int, check_positive_real

from .blocks import convert_blocks, run_generic
from .construction import InterpolatingTransformer, _as_fraction
from .exact_state import ExactState

__all__ = ["Certificate", "certify", "exact_at", "exactness_tolerance", "hausdorff_mp", "max_hausdorff_mp",
           "softmax_outputs"]


def _sq(v: Any) -> Any:
    return sum((x * x for x in v), 0 * v[0])


@dataclass
class _Step:
    kind: str  # "ff" | "sa_none" | "sa_uniform" | "sa_attn" | "line"
    data: Any


@dataclass
class Certificate:
    tau_c: float | None
    certified: bool
    reason: str
    steps: int


def _summaries(model: InterpolatingTransformer) -> list[_Step]:
    """Per-layer data of the recursion, from the exact hardmax trajectory of the same weights."""
    Q = model.Q
    seqs = [[tuple(Q(_as_fraction(v).numerator, _as_fraction(v).denominator) for v in t) for t in x]
            for x in model.dataset.inputs]
    st = ExactState(seqs, Q)
    steps: list[_Step] = []
    for bi, blk in enumerate(model.blocks):
        if model.line_map_index is not None and bi == model.line_map_index:
            steps.append(_Step("line", None))
        ff = blk.ff
        lip_terms = [(_sq(u), _sq(w)) for u, w in zip(ff.U, ff.W)]
        steps.append(_Step("ff", (ff.eta, lip_terms)))
        st.apply_ff(ff)
        sa = blk.sa
        if sa.lam == 0:
            steps.append(_Step("sa_none", sa.rho))
        elif sa.A is None:
            steps.append(_Step("sa_uniform", (sa.rho, sa.lam)))
        else:
            A = sa.A
            rows = []
            B2 = max(_sq(z) for z in st.P)
            for j in range(st.num_sequences):
                X = st.sequence(j)
                n = len(X)
                for i in range(n):
                    sc = []
                    for l in range(n):
                        s = A.alpha * sum((a * b for a, b in zip(X[i], X[l])), Q(0)) if A.alpha != 0 else Q(0)
                        for p, q in A.factors:
                            s = s + sum((a * b for a, b in zip(q, X[i])), Q(0)) * sum((a * b for a, b in zip(p, X[l])), Q(0))
                        sc.append(s)
                    top = max(sc)
                    win = [l for l, s in enumerate(sc) if s == top]
                    if len(win) != 1:
                        raise ValueError(f"block {bi}: hardmax row {i} of sequence {j} has a tie; "
                                         "the certificate needs unique maximisers")
                    if n == 1:
                        continue
                    gap = top - max(s for s in sc if s != top)
                    D2 = max(_sq(tuple(a - b for a, b in zip(X[l], X[win[0]]))) for l in range(n))
                    rows.append((n - 1, gap, D2))
            normA_terms = (A.alpha, [(_sq(p), _sq(q)) for p, q in A.factors])
            steps.append(_Step("sa_attn", (sa.rho, sa.lam, rows, B2, normA_terms)))
        st.apply_sa(sa)
    return steps


def _run(steps: list[_Step], tau: Any, line: dict, ar: Arithmetic) -> Tri:
    """The recursion, written once against the arithmetic context ``ar``; returns a three-valued Cert(tau).

    ``FloatArithmetic`` drives the bisection; ``ArbArithmetic`` certifies.  Comparisons go through
    ``ar.le`` (undecided balls or a NaN give UNKNOWN, never a pass) and the running worst term through
    ``ar.upper`` (the exact upper endpoint of a ball), so the arb run stays rigorous.  A FALSE step ends
    the run: FALSE & anything is FALSE.  The tau-free quantities come from :func:`_prepare`.
    """
    return _run_prepared(_prepare(steps, line, ar), tau, ar)


def _prepare(steps: list[_Step], line: dict, ar: Arithmetic) -> list[tuple]:
    """Every quantity of the recursion that does not depend on tau or r, in ``ar``: the line map's
    ``|u|`` and acceptance radius ``min(gamma, 1/2)``; an FF's Lipschitz bound ``|eta| + sum_k |U_k| |W_k|``;
    the factors ``|rho|``, ``|rho| + |lam|``; and per attention layer ``|rho|``, ``|lam|``, ``||A||``, ``B``
    and per row ``(n_j - 1, Delta_i, D_i)``.  :func:`certify` computes them once and runs the bisection
    on them (the same operations on the same values at every tau, so every Cert(tau) is unchanged)."""
    conv, sqrt, absv = ar.convert, ar.sqrt, ar.abs
    out: list[tuple] = []
    for stp in steps:
        if stp.kind == "line":
            u2 = sum(_as_fraction(v) ** 2 for v in line["u"])
            bound = min(_as_fraction(line["gamma"]), _as_fraction(1) / 2)
            out.append(("line", sqrt(conv(u2)), conv(bound)))
        elif stp.kind == "ff":
            eta, terms = stp.data
            out.append(("scale", absv(conv(eta)) + ar.fsum(sqrt(conv(a)) * sqrt(conv(b)) for a, b in terms)))
        elif stp.kind == "sa_none":
            out.append(("scale", absv(conv(stp.data))))
        elif stp.kind == "sa_uniform":
            rho, lam = stp.data
            out.append(("scale", absv(conv(rho)) + absv(conv(lam))))
        else:
            rho, lam, rows, B2, (alpha, fac) = stp.data
            normA = absv(conv(alpha)) + ar.fsum(sqrt(conv(a)) * sqrt(conv(b)) for a, b in fac)
            out.append(("attn", absv(conv(rho)), absv(conv(lam)), normA, sqrt(conv(B2)),
                        [(conv(nm1), conv(gap), sqrt(conv(D2))) for nm1, gap, D2 in rows]))
    return out


def _run_prepared(prep: list[tuple], tau: Any, ar: Arithmetic) -> Tri:
    """:func:`_run` on the quantities of :func:`_prepare`: the radius ``r`` through every layer at ``tau``."""
    conv = ar.convert
    t, zero = conv(tau), conv(0)
    r = zero
    result = Tri.TRUE
    for p in prep:
        if p[0] == "line":
            result = result & ar.le(p[1] * r, p[2])
        elif p[0] == "scale":
            r = p[1] * r
        else:
            _, rho, lam, normA, B, rows = p
            delta = normA * (2 * B * r + r * r)
            worst = zero
            for nm1, gap, sD in rows:
                ex = gap - 2 * delta
                result = result & ~ar.le(ex, zero)  # Delta_i - 2 delta > 0
                if result is Tri.FALSE:
                    return result
                term = nm1 * ar.exp(-ex / t) * sD
                worst = max(worst, ar.upper(term))
            r = rho * r + lam * (r + worst)
        if result is Tri.FALSE:
            return result
    return result


def _steps_in(steps: list[_Step], conv: Any) -> list[_Step]:
    """The summaries with every number already converted by ``conv`` (``FloatArithmetic.convert``, once per
    :func:`certify` instead of once per bisection step); :func:`_run` converts again, an identity on
    floats, so every Cert(tau) value is unchanged.  The line map's data (``line``) stays exact."""
    out = []
    for stp in steps:
        d = stp.data
        if stp.kind == "ff":
            d = (conv(d[0]), [(conv(a), conv(b)) for a, b in d[1]])
        elif stp.kind == "sa_none":
            d = conv(d)
        elif stp.kind == "sa_uniform":
            d = tuple(conv(v) for v in d)
        elif stp.kind == "sa_attn":
            rho, lam, rows, B2, (alpha, fac) = d
            d = (conv(rho), conv(lam), [tuple(conv(v) for v in row) for row in rows], conv(B2),
                 (conv(alpha), [(conv(a), conv(b)) for a, b in fac]))
        out.append(_Step(stp.kind, d))
    return out


_FLOAT_MIN, _FLOAT_MAX = Fraction(2) ** -1022, Fraction(sys.float_info.max)  #: the normal float64 range


def _fits_float(steps: list[_Step], line: dict) -> bool:
    """Every rational input of the recursion is 0 or a normal float64 (no overflow, no silent underflow)."""
    def ok(x: Any) -> bool:
        f = abs(_as_fraction(x))
        return f == 0 or _FLOAT_MIN <= f <= _FLOAT_MAX

    vals: list[Any] = list(line.get("u", ())) + ([line["gamma"]] if "gamma" in line else [])
    for stp in steps:
        if stp.kind == "ff":
            vals += [stp.data[0]] + [v for t in stp.data[1] for v in t]
        elif stp.kind == "sa_none":
            vals.append(stp.data)
        elif stp.kind == "sa_uniform":
            vals += list(stp.data)
        elif stp.kind == "sa_attn":
            rho, lam, rows, B2, (alpha, fac) = stp.data
            vals += [rho, lam, B2, alpha] + [v for t in fac for v in t] + [v for row in rows for v in row]
    return all(ok(v) for v in vals)


def certify(model: InterpolatingTransformer, *, tau_max: float = 100.0, bits: int = 256) -> Certificate:
    """Largest certified ``tau_c`` (bisection on log tau, then arb) such that Cert(tau) holds for all
    ``tau <= tau_c``.  ``tau_c = None`` when no temperature could be certified."""
    rule = "must be a softmax model built by build_interpolator(dataset, attention='softmax')"
    if not isinstance(model, InterpolatingTransformer):
        raise InputTypeError("model", rule, type(model).__name__, has_value=True)
    if model.attention != "softmax" or model.line_map_index is None:
        raise InputError("model", rule, f"{model.attention} model", has_value=True)
    tq = check_positive_real(tau_max, "tau_max")
    if not 10**-300 < tq < 10**300:
        raise InputError("tau_max", "must be a real number in (1e-300, 1e300)", tau_max, has_value=True)
    tau_max = float(tq)
    bits = check_int(bits, "bits", minimum=32, maximum=2**20, what="arb precision in bits")
    steps = _summaries(model)
    line = model.stats["line"]
    in_float = _fits_float(steps, line)
    fl = FloatArithmetic()
    if in_float:
        search, prep = fl, _prepare(_steps_in(steps, fl.convert), line, fl)
    else:
        search = ArbArithmetic(64)
        with search:
            prep = _prepare(steps, line, search)

    def fcert(t: float) -> bool:
        # the search runs in floats; a quantity beyond the float range (huge weights, tiny gaps) sends
        # it to arb at 64 bits (unbounded exponents); only the final arb run below certifies
        if in_float:
            return _run_prepared(prep, t, fl) is Tri.TRUE
        with search:
            return _run_prepared(prep, _as_fraction(t), search) is Tri.TRUE

    lo, hi = math.log(1e-300), math.log(tau_max)
    if fcert(tau_max):
        cand = tau_max
    elif not fcert(1e-300):
        return Certificate(None, False, "Cert fails even at tau = 1e-300 (a score gap is too small)", len(steps))
    else:
        for _ in range(80):
            mid = (lo + hi) / 2
            if fcert(math.exp(mid)):
                lo = mid
            else:
                hi = mid
        cand = math.exp(lo)
    with ArbArithmetic(bits) as ar:
        aprep = _prepare(steps, line, ar)
        for _ in range(40):
            tau_q = _as_fraction(float(f'{cand:.3g}'))  # a short decimal, as a rational
            if _run_prepared(aprep, tau_q, ar) is Tri.TRUE:
                return Certificate(float(tau_q), True, "certified in arb", len(steps))
            cand *= 0.8
    return Certificate(None, False, "arb could not certify the float candidate", len(steps))


# -- high-precision evaluation ------------------------------------------------------------------------
@functools.lru_cache(maxsize=4)
def _mp(dps: int) -> MPArithmetic:
    """One mpmath context per ``dps`` (never mutated here), so weights converted once stay values of the
    context every later evaluation at ``dps`` uses (its conversion is then the identity)."""
    return MPArithmetic(dps)


@functools.lru_cache(maxsize=8)
def _mp_blocks(blocks: tuple, dps: int) -> tuple:
    """``convert_blocks(blocks, _mp(dps))``, keyed by the exact weights and ``dps`` (immutable Blocks of
    mpf values, the same as a fresh conversion)."""
    return convert_blocks(blocks, _mp(dps))


def _outputs(blocks: tuple, inputs: tuple, tau: Fraction, dps: int) -> list[list[tuple]]:
    ar = _mp(dps)
    bl = _mp_blocks(blocks, dps)  # weights to mpf once, same outputs
    return [run_generic(bl, x, ar, kernel="softmax", tau=tau) for x in inputs]


def _frozen(seqs: Any) -> tuple:
    return tuple(tuple(tuple(t) for t in s) for s in seqs)


def softmax_outputs(model: InterpolatingTransformer, tau: Any, dps: int, *, blocks=None) -> list[list[tuple]]:
    """Outputs of every dataset sequence under softmax at temperature ``tau`` (mpmath, ``dps`` digits)."""
    tau = check_positive_real(tau, "tau")
    dps = check_dps(dps, minimum=5)
    return _outputs(tuple(model.blocks if blocks is None else blocks), model.dataset.inputs, tau, dps)


def hausdorff_mp(out: list[tuple], targets: list[tuple], ar: MPArithmetic) -> Any:
    """Hausdorff distance (Euclidean) between the output tokens and the target set, in mpmath."""
    ctx = ar.ctx
    T = [ar.vector(t) for t in targets]

    def dist(a, b):
        return ctx.sqrt(ctx.fsum((x - y) ** 2 for x, y in zip(a, b)))

    d1 = max(min(dist(o, t) for t in T) for o in out)
    d2 = max(min(dist(o, t) for o in out) for t in T)
    return max(d1, d2)


def exactness_tolerance(dps: int) -> Any:
    """``10^-(dps-12)``: "exact at precision p" means every output within it of a target and every target
    within it of an output (spec §3.7), as an mpf at ``dps`` digits."""
    dps = check_dps(dps, minimum=13)  # the tolerance 10^-(dps-12) must be < 1
    return _tolerance(dps)


@functools.lru_cache(maxsize=8)
def _tolerance(dps: int) -> Any:
    """:func:`exactness_tolerance` keyed by ``dps`` (an immutable mpf, computed in a fresh context once)."""
    return MPArithmetic(dps).ctx.mpf(10) ** (-(dps - 12))


def max_hausdorff_mp(model: InterpolatingTransformer, tau: Any, dps: int, *, blocks=None) -> Any:
    """max_j d_H(T_tau(X^j), Y^j) in mpmath at ``dps`` digits (an mpf)."""
    dps = check_dps(dps, minimum=13)
    tau = check_positive_real(tau, "tau")
    D = model.dataset
    return _max_hausdorff(tuple(model.blocks if blocks is None else blocks), _frozen(D.inputs),
                          _frozen(D.outputs), tau, dps)


@functools.lru_cache(maxsize=32)
def _max_hausdorff(blocks: tuple, inputs: tuple, outputs: tuple, tau: Fraction, dps: int) -> Any:
    """:func:`max_hausdorff_mp` keyed by its exact inputs (weights, dataset, tau as a Fraction, dps): a
    check asking twice at one (tau, dps) -- :func:`exact_at` and then the deviation itself -- evaluates
    once; the mpf returned is immutable."""
    ar = _mp(dps)
    outs = _outputs(blocks, inputs, tau, dps)
    return max(hausdorff_mp(o, y, ar) for o, y in zip(outs, outputs))


def exact_at(model: InterpolatingTransformer, tau: Any, dps: int, *, blocks=None) -> tuple[bool, float]:
    """Is the softmax network exact at ``tau`` at precision ``dps`` (spec §3.7)?  Returns (ok, max d_H)."""
    worst = max_hausdorff_mp(model, tau, dps, blocks=blocks)
    return bool(worst <= exactness_tolerance(dps)), float(worst)
