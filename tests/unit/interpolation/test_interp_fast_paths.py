"""Issue 14 (speed), second pass: every fast path returns exactly what the plain computation it replaces
returns (bit for bit in mpmath, value for value in exact arithmetic).

* the mpmath FF of the reference evaluator (zero weights, eta = 1 and rows shared by neurons skipped)
  against the generic operation-by-operation loop;
* the ``vector`` fast paths of the exact and mpmath arithmetics against ``tuple(convert(x) ...)``;
* the identity attention layer (lam = 0, rho = 1) against ``rho x``;
* the certificate's prepared recursion against the recursion written out step by step (spec §3.5).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest


def _generic_mp_ff(ff, X, ar):
    """FF(x) = eta x + sum_k W_k relu(U_k . x + b_k) in mpmath, every operation of the definition."""
    eta = ar.convert(ff.eta)
    U = [ar.vector(u) for u in ff.U]
    b = [ar.convert(v) for v in ff.b]
    W = [ar.vector(w) for w in ff.W]
    zero = ar.convert(0)
    out = []
    for x in X:
        xc = ar.vector(x)
        y = [eta * v for v in xc]
        for Uk, bk, Wk in zip(U, b, W):
            z = ar.fsum(u * v for u, v in zip(Uk, xc)) + bk
            if z > zero:
                y = [yi + wi * z for yi, wi in zip(y, Wk)]
        out.append(tuple(y))
    return out


def _bits(rows):
    return [tuple(v._mpf_ for v in t) for t in rows]


@pytest.mark.parametrize("dps", [20, 50])
def test_mp_ff_apply_is_bit_identical_to_the_generic_loop(dps):
    from numerics.arithmetic import MPArithmetic
    from theorems.interpolation.blocks import FF, SA, Block, convert_blocks, ff_apply

    ar = MPArithmetic(dps)
    rng = random.Random(5)
    val = lambda: Fraction(rng.choice([0, 0, rng.randint(-7, 7)]), rng.choice([1, 3, 7, 10]))
    for _ in range(60):
        d, width = rng.randint(1, 4), rng.randint(0, 5)
        rows = [tuple(val() for _ in range(d)) for _ in range(2)]  # neurons share rows, as hats do
        ff = FF(rng.choice([Fraction(1), Fraction(0), Fraction(2, 3)]),
                tuple(rng.choice(rows) for _ in range(width)), tuple(val() for _ in range(width)),
                tuple(tuple(val() for _ in range(d)) for _ in range(width)))
        X = [tuple(val() for _ in range(d)) for _ in range(rng.randint(1, 4))]
        want = _generic_mp_ff(ff, X, ar)
        assert _bits(ff_apply(ff, X, ar)) == _bits(want)
        conv = convert_blocks([Block(ff, SA(1, 0))], ar)[0].ff  # weights already mpf: the same bits
        assert _bits(ff_apply(conv, [ar.vector(x) for x in X], ar)) == _bits(want)


def test_vector_fast_paths_return_the_converted_tuple():
    from numerics.arithmetic import ExactArithmetic, MPArithmetic
    from numerics.exact import rational

    for backend in ("fraction", "flint"):
        ar = ExactArithmetic(backend)
        mixed = (3, Fraction(1, 2), rational(Fraction(2, 5)), "7/3")
        got = ar.vector(mixed)
        assert got == tuple(ar.convert(x) for x in mixed)
        assert all(type(v) is type(ar.convert(1)) for v in got)
        same = ar.vector(got)
        assert same == got and all(a is b for a, b in zip(same, got))
    mp = MPArithmetic(30)
    x = (mp.ctx.mpf(1) / 3, mp.ctx.mpf(2))
    assert all(a is b for a, b in zip(mp.vector(x), x))
    assert mp.vector((1, Fraction(1, 3))) == (mp.ctx.mpf(1), mp.ctx.mpf(1) / 3)
    other = MPArithmetic(60).vector((Fraction(1, 3),))  # another context's value: rounded to this one
    assert mp.vector(other) == (mp.ctx.mpf(other[0]),) and type(mp.vector(other)[0]) is mp.ctx.mpf
    wide = (mp.ctx.mpf(1) / 3,)
    mp.ctx.prec -= 20  # more mantissa bits than the context keeps: rounded, not returned as is
    assert mp.vector(wide) == (mp.ctx.mpf(wide[0]),) and mp.vector(wide) != wide


@pytest.mark.parametrize("arith", ["fraction", "flint", "mp"])
def test_identity_attention_layer_returns_the_tokens(arith):
    from numerics.arithmetic import MPArithmetic
    from numerics.attention import AttentionMatrix, self_attention

    ar = MPArithmetic(30) if arith == "mp" else arith
    X = [(Fraction(1, 3), Fraction(-2)), (Fraction(5, 7), Fraction(0))]
    A = AttentionMatrix(alpha=1)
    same = self_attention(X, A, rho=1, lam=0, ar=ar)
    scaled = self_attention(X, A, rho=Fraction(2, 3), lam=0, ar=ar)
    zero = self_attention(X, A, rho=0, lam=0, ar=ar)
    if arith == "mp":  # rho x in the context's own operations (rho and x rounded first)
        c = MPArithmetic(30)
        conv, back, rho = c.vector, (lambda rows: rows), c.convert(Fraction(2, 3))
    else:
        from numerics.exact import to_fraction

        conv, rho = (lambda v: v), Fraction(2, 3)
        back = lambda rows: [tuple(to_fraction(v) for v in t) for t in rows]
    assert back(same) == [conv(x) for x in X]
    assert back(scaled) == [tuple(rho * v for v in conv(x)) for x in X]
    assert back(zero) == [conv((Fraction(0), Fraction(0)))] * 2


def _naive_cert(steps, tau, line, ar):
    """Cert(tau) of spec §3.5 written out layer by layer (every quantity recomputed at every layer)."""
    from numerics.exact import _as_fraction
    from numerics.precision import Tri

    conv, sqrt, absv = ar.convert, ar.sqrt, ar.abs
    r, result = conv(0), Tri.TRUE
    for stp in steps:
        if stp.kind == "line":
            u2 = sum(_as_fraction(v) ** 2 for v in line["u"])
            bound = min(_as_fraction(line["gamma"]), Fraction(1, 2))
            result = result & ar.le(sqrt(conv(u2)) * r, conv(bound))
        elif stp.kind == "ff":
            eta, terms = stp.data
            r = (absv(conv(eta)) + ar.fsum(sqrt(conv(a)) * sqrt(conv(b)) for a, b in terms)) * r
        elif stp.kind == "sa_none":
            r = absv(conv(stp.data)) * r
        elif stp.kind == "sa_uniform":
            r = (absv(conv(stp.data[0])) + absv(conv(stp.data[1]))) * r
        else:
            rho, lam, rows, B2, (alpha, fac) = stp.data
            normA = absv(conv(alpha)) + ar.fsum(sqrt(conv(a)) * sqrt(conv(b)) for a, b in fac)
            delta = normA * (2 * sqrt(conv(B2)) * r + r * r)
            worst = conv(0)
            for nm1, gap, D2 in rows:
                ex = conv(gap) - 2 * delta
                result = result & ~ar.le(ex, conv(0))
                if result is Tri.FALSE:
                    return result
                worst = max(worst, ar.upper(conv(nm1) * ar.exp(-ex / conv(tau)) * sqrt(conv(D2))))
            r = absv(conv(rho)) * r + absv(conv(lam)) * (r + worst)
        if result is Tri.FALSE:
            return result
    return result


def test_certificate_prepared_recursion_decides_as_the_layer_by_layer_one():
    from numerics.arithmetic import ArbArithmetic, FloatArithmetic
    from numerics.strategies import NESTED_CHAIN
    from theorems.interpolation import softmax as S
    from theorems.interpolation._checks_exact import SOFTMAX_PINNED
    from theorems.interpolation.construction import build_interpolator
    from theorems.interpolation.dataset import Dataset

    fl = FloatArithmetic()
    for raw in (NESTED_CHAIN, SOFTMAX_PINNED[1]):
        model = build_interpolator(Dataset(*raw), "softmax", seed=3)
        steps, line = S._summaries(model), model.stats["line"]
        fsteps = S._steps_in(steps, fl.convert)
        prep = S._prepare(fsteps, line, fl)
        tau_c = S.certify(model).tau_c
        taus = [1e-300, 1e-6, 1e-3, tau_c / 2, tau_c, tau_c * 1.5, 0.3, 1.0, 100.0]
        seen = set()
        for t in taus:
            got = S._run_prepared(prep, t, fl)
            assert got is _naive_cert(fsteps, t, line, fl)
            seen.add(got)
            with ArbArithmetic(96) as ar:
                q = Fraction(t)
                assert S._run_prepared(S._prepare(steps, line, ar), q, ar) is _naive_cert(steps, q, line, ar)
        assert len(seen) == 2  # both sides of tau_c are exercised
    assert math.isfinite(tau_c)


def test_certificate_prepared_recursion_on_every_kind_of_layer():
    """Synthetic summaries with every layer kind (spec §3.5): an attention layer starts r = exp(-1/tau),
    an FF (Lipschitz 1 + 2 * 2 = 5), a rho = 3/2 identity-type layer, a uniform layer (1/2 + 1) and a
    second attention layer grow it, the line map accepts r <= min(gamma, 1/2) / |u|.  On a fine tau grid
    the prepared run decides as the layer-by-layer one, and the grid crosses its threshold."""
    from numerics.arithmetic import ArbArithmetic, FloatArithmetic
    from theorems.interpolation import softmax as S

    one = Fraction(1)
    steps = [S._Step("sa_attn", (0, one, [(1, one, one)], one, (0, [(one, one)]))),
             S._Step("ff", (one, [(Fraction(4), Fraction(4))])),
             S._Step("sa_none", Fraction(3, 2)),
             S._Step("sa_uniform", (Fraction(1, 2), one)),
             S._Step("sa_attn", (Fraction(1, 3), one, [(2, Fraction(3), Fraction(4)), (1, Fraction(5), one)],
                                 Fraction(9, 4), (Fraction(1, 2), [(one, Fraction(1, 4))]))),
             S._Step("line", None)]
    line = {"u": (Fraction(3, 5), Fraction(4, 5)), "gamma": Fraction(1, 4)}
    fl = FloatArithmetic()
    prep = S._prepare(steps, line, fl)
    seen = set()
    for k in range(300):
        t = 10.0 ** (-3 + 4 * k / 299)
        got = S._run_prepared(prep, t, fl)
        assert got is _naive_cert(steps, t, line, fl), t
        seen.add(got)
    assert len(seen) == 2
    with ArbArithmetic(128) as ar:
        aprep = S._prepare(steps, line, ar)
        for k in range(40):
            q = Fraction(1, 100) * (k + 1)
            assert S._run_prepared(aprep, q, ar) is _naive_cert(steps, q, line, ar), q


def test_finite_limit_at_zero_matches_sympy_limit():
    """The exact finite limit at 0+ of rational functions with symbolic coefficients equals sympy's limit;
    an infinite or undecidable one is left to sympy (None); and on the softmax-to-hardmax rows (t -> oo
    as u = exp(-Delta t) -> 0+) it is sympy's limit in t."""
    import sympy as sp

    from theorems.interpolation._ridge_exact import finite_limit_at_zero

    u = sp.Symbol("u", positive=True)
    y1, y2 = sp.symbols("y1 y2")
    a = sp.Symbol("a", positive=True)
    finite = [(y1 * u + y2) / (3 + u), (y1 - y2) * u / (u ** 2 + a),
              (u ** 2 + y1 * u) / (u * (2 + a) + u ** 3),
              sp.Rational(5, 3) + 0 * u, (2 * u - 1) / (u + 4), y1 / (1 + u / y2)]
    for e in finite:
        got = finite_limit_at_zero(e, u)
        assert got is not None and sp.simplify(got - sp.limit(e, u, 0, "+")) == 0, e
    for e in [(u + y1) / (u * (2 + a)), 1 / u, sp.exp(u) * y1, sp.sqrt(u) + 1]:
        assert finite_limit_at_zero(e, u) is None, e
    t, gap = sp.Symbol("t", positive=True), sp.Symbol("Delta", positive=True)
    for c, k, ef in ((1, 1, 1), (2, 1, 1), (2, 2, 1), (1, 1, 2)):
        xs = sp.symbols(f"y1:{c + k + 2}")
        ws = [sp.exp(s * t) for s in [0] * c + [-gap] * k + [-2 * gap]]
        out = sum(w * x for w, x in zip(ws, xs)) / sum(ws)
        scaled = sp.exp(ef * gap * t) * (out - sum(xs[:c]) / c)
        got = finite_limit_at_zero(scaled.subs(sp.exp(-gap * t), u), u)
        want = sp.limit(sp.simplify(scaled), t, sp.oo)
        assert (got is None) == want.has(sp.oo, -sp.oo, sp.zoo)
        assert got is None or sp.simplify(got - want) == 0


def test_ridge_zero_test_decides_rational_functions():
    import sympy as sp

    from theorems.interpolation._ridge_exact import _is_zero

    e = sp.Symbol("epsilon", positive=True)
    f = 2 * e * (23 * e + 107) / (4 * e ** 2 + 32 * e + 59)
    assert _is_zero(f - (46 * e ** 2 + 214 * e) / (4 * e ** 2 + 32 * e + 59))
    assert _is_zero((e ** 2 - 1) / (e - 1) - e - 1)
    assert not _is_zero(f - (46 * e ** 2 + 215 * e) / (4 * e ** 2 + 32 * e + 59))
    assert not _is_zero(f * sp.Rational(51, 50) - f)


def test_arithmetic_of_shares_one_fixed_precision_context_per_dps():
    """The engine's mpmath arithmetic is one context per dps: the same results as a fresh context at that
    dps, and a precision that cannot be changed (a shared context must not be re-precisioned)."""
    from numerics.arithmetic import MPArithmetic, arithmetic_of

    for dps in (30, 60):
        own = MPArithmetic(dps)
        x = own.ctx.mpf(1) / 7
        ar = arithmetic_of([x, Fraction(1, 3)])
        assert isinstance(ar, MPArithmetic) and ar.dps >= dps and arithmetic_of([x]) is ar
        fresh = MPArithmetic(ar.dps)
        for v in (x, Fraction(-5, 11), 3, 0.1):
            a, b = ar.convert(v), fresh.convert(v)
            assert a._mpf_ == b._mpf_ and ar.exp(a)._mpf_ == fresh.exp(b)._mpf_
            assert ar.sqrt(ar.abs(a))._mpf_ == fresh.sqrt(fresh.abs(b))._mpf_
        assert ar.ctx.prec == fresh.ctx.prec and (+ar.ctx.pi)._mpf_ == (+fresh.ctx.pi)._mpf_
        with pytest.raises(AttributeError):
            ar.ctx.prec = 10
        with pytest.raises(AttributeError):
            ar.ctx.dps = 10
        assert ar.ctx.dps == ar.dps


def test_block_hash_is_the_fields_hash_and_is_not_pickled():
    import pickle

    from theorems.interpolation.blocks import FF, SA, Block

    b = Block(FF(Fraction(1), ((Fraction(1, 3), 2),), (Fraction(-1, 2),), ((4, 5),)), SA(1, 0), "hat", "P")
    same = Block(b.ff, b.sa, "hat", "P")
    assert hash(b) == hash((b.ff, b.sa, "hat", "P")) == hash(same) and b == same
    assert hash(b) != hash(Block(b.ff, b.sa, "hat", "I")) or b != Block(b.ff, b.sa, "hat", "I")
    back = pickle.loads(pickle.dumps(b))
    assert back == b and "_hash" not in back.__dict__  # another process hashes its strings otherwise


def test_same_set_is_set_equality():
    from numerics.exact import rational
    from theorems.interpolation.construction import _same_set

    def q(*v):
        return tuple(rational(x) for x in v)

    rng = random.Random(3)
    pool = [q(0, 1), q(1, 0), q(Fraction(1, 2), 3), q(-1, -1)]
    for _ in range(200):
        a = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
        b = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
        assert _same_set(a, b) == (set(a) == set(b)) == _same_set(b, a)


def test_fraction_dot_and_fmpq_conversion_are_the_generic_values():
    from numerics.arithmetic import Arithmetic, ExactArithmetic
    from numerics.exact import rational

    ar = ExactArithmetic("fraction")
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randint(0, 5)
        xs = [Fraction(rng.randint(-9, 9), rng.randint(1, 12)) for _ in range(n)]
        ys = [rng.choice([Fraction(rng.randint(-9, 9), rng.randint(1, 12)), rng.randint(-3, 3)])
              for _ in range(n)]
        want = Arithmetic.dot(ar, xs, ys)  # the generic fsum of products
        assert ar.dot(xs, ys) == want and type(ar.dot(xs, ys)) is Fraction
        assert ar.dot(iter(xs), iter(ys)) == want  # a generator read once (fallback included)
    with pytest.raises(ValueError):
        ar.dot([Fraction(1)], [Fraction(1), Fraction(2)])
    q = rational(Fraction(-6, 4))
    assert ar.convert(q) == Fraction(-3, 2) and type(ar.convert(q)) is Fraction


@pytest.mark.parametrize("arith", ["fraction", "flint", "mp"])
def test_uniform_and_collapse_layers_are_the_row_by_row_values(arith):
    """Uniform attention (A = 0: every row has row 0's weights) and the collapse (rho = 0, lam = 1: the
    mix itself) give exactly what the row-by-row formula rho x_i + lam sum_l pi_il x_l gives."""
    from numerics.arithmetic import ExactArithmetic, MPArithmetic
    from numerics.attention import (
        AttentionMatrix,
        _scores,
        _validate,
        hardmax_weights,
        mix,
        self_attention,
        softmax_weights,
    )

    ar = MPArithmetic(30) if arith == "mp" else ExactArithmetic(arith)
    rng = random.Random(4)
    for _ in range(30):
        d, n = rng.randint(1, 3), rng.randint(1, 5)
        X = [tuple(Fraction(rng.randint(-5, 5), rng.choice([1, 2, 3])) for _ in range(d)) for _ in range(n)]
        for A in (AttentionMatrix(), AttentionMatrix(alpha=1)):
            for rho, lam in ((0, 1), (1, Fraction(1, 3)), (Fraction(1, 2), 1)):
                for kernel in (("hardmax", "softmax") if arith == "mp" else ("hardmax",)):
                    tau = Fraction(1, 7) if kernel == "softmax" else None
                    Xc = _validate(X, ar)
                    S = _scores(Xc, A, ar)
                    want = []
                    for i, x in enumerate(Xc):
                        w = (hardmax_weights(S[i], ar) if kernel == "hardmax"
                             else softmax_weights(S[i], tau, ar))
                        m = mix(Xc, w, ar)
                        r_, l_ = ar.convert(rho), ar.convert(lam)
                        want.append(tuple(r_ * xv + l_ * mv for xv, mv in zip(x, m)))
                    got = self_attention(X, A, kernel=kernel, tau=tau, rho=rho, lam=lam, ar=ar)
                    if arith == "mp":
                        assert _bits(got) == _bits(want)
                    else:
                        assert got == want


def test_hausdorff_sq_on_fmpq_tokens_is_the_fraction_value():
    from numerics.exact import rational
    from theorems.interpolation.dataset import hausdorff_sq

    rng = random.Random(1)
    for _ in range(300):
        d = rng.randint(1, 3)
        def tokens(d):
            return [tuple(Fraction(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(d))
                    for _ in range(rng.randint(1, 4))]

        P, Q = tokens(d), tokens(d)
        fq = [[tuple(rational(v) for v in t) for t in S] for S in (P, Q)]
        want = hausdorff_sq(P, Q)
        assert hausdorff_sq(*fq) == want and type(hausdorff_sq(*fq)) is Fraction
        assert hausdorff_sq(fq[0], Q) == want  # mixed types: the Fraction path
