"""Issue 14 (speed): the faster paths give the values of the slower ones they replace.

* :func:`theorems.interpolation._ridge_exact.limit_at_zero` equals ``sympy.limit`` at 0+ on rational
  functions (finite, zero and infinite limits, the ridge instances) and falls back to it otherwise;
* the cached reference-instance forms are immutable and computed once;
* Adam with ``foreach=True`` (training.train) gives bit-identical iterates to the single-tensor loop;
* the cold-start sweep's models trained as one vectorised program (training.train_explicit_ensemble)
  follow the separate runs to rounding (the vectorised matmuls round in other orders now and then);
* the Figure 1 model skips the score division at tau = 1 (bit-identical forward and gradients) and
  divides at any other tau;
* the arithmetic fast paths return the values of the general conversion.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest


def test_limit_at_zero_matches_sympy_limit_on_rational_functions():
    import sympy as sp

    from theorems.interpolation._ridge_exact import limit_at_zero

    e = sp.Symbol("epsilon", positive=True)
    cases = [
        3 * e / (2 * e),
        e ** 2 / (e + e ** 3),
        (1 + e) / e,
        -(1 + e) / (2 * e ** 2 + e ** 3),
        (e - 5) / (7 * e + 3),
        (2 * e ** 3 - e) / (4 * e ** 2 + 32 * e),
        sp.Integer(0) * e,
        sp.Rational(5, 3),
    ]
    for expr in cases:
        assert limit_at_zero(expr, e) == sp.limit(expr, e, 0), expr


def test_limit_at_zero_matches_sympy_limit_on_ridge_instances():
    import sympy as sp

    from theorems.interpolation._checks_tikhonov import _random_ridge
    from theorems.interpolation._ridge_exact import limit_at_zero
    from theorems.interpolation.training import ridge_E, ridge_min_J, ridge_minimiser

    e = sp.Symbol("epsilon", positive=True)
    rng = random.Random(7)
    for _ in range(2):
        X, Y = _random_ridge(rng)
        for expr in (ridge_min_J(X, Y, e) / e, ridge_E(ridge_minimiser(X, Y, e), X, Y) / e):
            assert limit_at_zero(expr, e) == sp.limit(expr, e, 0)


def test_limit_at_zero_falls_back_outside_rational_functions():
    import sympy as sp

    from theorems.interpolation._ridge_exact import limit_at_zero

    e = sp.Symbol("epsilon", positive=True)
    a = sp.Symbol("a", positive=True)
    assert limit_at_zero(sp.sin(e) / e, e) == 1
    assert limit_at_zero((a + e) / (2 * a + e), e) == sp.Rational(1, 2)  # symbolic coefficients: sympy.limit


def test_reference_forms_are_cached_and_immutable():
    import sympy as sp

    from theorems.interpolation._ridge_exact import linear_reference, upper_bound_reference

    ub = upper_bound_reference()
    assert upper_bound_reference() is ub
    assert isinstance(ub[1], sp.ImmutableMatrix) and isinstance(ub[3], sp.ImmutableMatrix)
    assert all(ok for _, ok in ub[4]) and len(ub[4]) == 7
    lin = linear_reference()
    assert linear_reference() is lin
    assert all(ok for _, ok in lin[3]) and len(lin[3]) == 6
    assert lin[0] == lin[2] and lin[1] == 0  # lim min J/eps = |V_mn|^2, lim E/eps = 0 (spec §5.1)


def test_train_foreach_adam_is_bit_identical_to_single_tensor_adam(monkeypatch):
    torch = pytest.importorskip("torch")

    from theorems.interpolation import training as T

    data = T.fig1_data(N=3, d=4, n=6, seed=1)

    def run():
        m = T.authors_init_model(data)
        out = T.train(m, data, epochs=25, eps=1e-2)
        return out, [p.detach().clone() for p in m.parameters()]

    fast, p_fast = run()
    orig = torch.optim.Adam

    def single(*a, **k):
        k["foreach"] = False
        return orig(*a, **k)

    monkeypatch.setattr(torch.optim, "Adam", single)
    slow, p_slow = run()
    assert fast["losses"] == slow["losses"] and fast["E"] == slow["E"] and fast["norm2"] == slow["norm2"]
    assert all(torch.equal(a, b) for a, b in zip(p_fast, p_slow, strict=True))


#: the ensemble's drift from the separate runs: rounding-order differences, observed <= 6e-15 relative
#: after 1500 epochs of the full-size sweep and 0 here; a wrong eps, shuffle or start moves E by > 1e-3
ENSEMBLE_RTOL = 1e-12


def _separate_and_ensemble(epochs=120, every=7):
    import copy

    import torch

    from theorems.interpolation import training as T

    data = T.fig1_data(N=4, d=6, n=12, seed=2)
    eps = [1e-1, 1e-2, 1e-3]
    separate = []
    for e in eps:
        torch.manual_seed(5)
        m = T.Fig1Model(6)
        out = T.train(m, data, epochs=epochs, eps=e, penalty="explicit", record_every=every)
        separate.append((out, [p.detach().clone() for p in m.parameters()]))
    torch.manual_seed(5)
    first = T.Fig1Model(6)
    models = [first] + [copy.deepcopy(first) for _ in eps[1:]]
    outs = T.train_explicit_ensemble(models, data, epochs=epochs, eps=eps, record_every=every)
    return separate, [(o, [p.detach().clone() for p in m.parameters()]) for o, m in zip(outs, models)]


def test_explicit_ensemble_follows_the_separate_runs():
    """Losses at every recorded epoch, final E, |theta|^2, J, min E and the trained parameters (copied
    back into the models) agree with ``train(..., penalty="explicit")`` run per eps, within
    :data:`ENSEMBLE_RTOL`; and the eps matter (the runs differ from each other)."""
    torch = pytest.importorskip("torch")

    separate, together = _separate_and_ensemble()
    for (ref, p_ref), (got, p_got) in zip(separate, together):
        assert len(got["losses"]) == len(ref["losses"])
        for a, b in zip(got["losses"], ref["losses"]):
            assert math.isclose(a, b, rel_tol=ENSEMBLE_RTOL)
        for key in ("E", "norm2", "J", "min_E"):
            assert math.isclose(got[key], ref[key], rel_tol=ENSEMBLE_RTOL), key
        for a, b in zip(p_got, p_ref):
            assert torch.allclose(a, b, rtol=ENSEMBLE_RTOL, atol=ENSEMBLE_RTOL * float(b.abs().max()))
    norms = [o["norm2"] for o, _ in together]
    assert abs(norms[0] - norms[-1]) > 1e-3 * norms[-1]


def test_explicit_ensemble_rejects_bad_arguments():
    pytest.importorskip("torch")
    import copy

    from numerics.errors import InputError
    from theorems.interpolation import training as T

    data = T.fig1_data(N=2, d=4, n=5, seed=0)
    m = T.Fig1Model(4)
    with pytest.raises(InputError, match="eps"):
        T.train_explicit_ensemble([m, copy.deepcopy(m)], data, epochs=2, eps=[1e-2])
    with pytest.raises(InputError, match="models"):
        T.train_explicit_ensemble([], data, epochs=2, eps=[])
    with pytest.raises(InputError, match="one class"):
        T.train_explicit_ensemble([m, T.Fig1Model(4)], data, epochs=2, eps=[1e-2, 1e-3])


def test_fig1_model_tau_one_skip_is_bit_identical_and_other_tau_divides():
    torch = pytest.importorskip("torch")

    from theorems.interpolation import training as T

    data = T.fig1_data(N=3, d=4, n=6, seed=1)
    X = data.inputs

    def reference(m, tau):  # the forward with the division written out
        s = m.q(X) @ m.k(X).transpose(-2, -1) / tau
        x = m.rho * X + torch.softmax(s, dim=-1) @ m.v(X)
        return m.eta * x + m.ff2(torch.relu(m.ff1(x)))

    for tau in (1.0, 2.0):
        m = T.authors_init_model(data)
        m.tau = tau
        with torch.no_grad():
            m.q.weight.mul_(37.0)  # scores of order 10: a skipped or a spurious division shows
        out, ref = m(X), reference(m, tau)
        assert torch.equal(out, ref), tau
        g = torch.autograd.grad(out.square().sum(), list(m.parameters()))
        g_ref = torch.autograd.grad(ref.square().sum(), list(m.parameters()))
        assert all(torch.equal(a, b) for a, b in zip(g, g_ref, strict=True)), tau
    m2 = T.authors_init_model(data)
    with torch.no_grad():
        m2.q.weight.mul_(37.0)
    m2.tau = 2.0
    m1 = T.authors_init_model(data)
    with torch.no_grad():
        m1.q.weight.mul_(37.0)
    assert not torch.equal(m1(X), m2(X))  # tau = 2 is not tau = 1


def test_arithmetic_fast_paths_return_the_general_values():
    from numerics.arithmetic import ExactArithmetic, FloatArithmetic, MPArithmetic
    from numerics.exact import rational

    ex = ExactArithmetic("flint")
    q = rational(Fraction(-6, 4))
    assert ex.convert(q) is q
    assert ex.convert(7) == rational(7) and type(ex.convert(7)) is type(q)
    fr = ExactArithmetic("fraction")
    f = Fraction(3, 5)
    assert fr.convert(f) is f and fr.convert(q) == Fraction(-3, 2)
    assert type(fr.convert(3)) is Fraction and fr.convert(3) == rational(3, backend="fraction")
    fl = FloatArithmetic()
    assert fl.convert(0.1) == 0.1 and fl.convert(q) == -1.5
    with pytest.raises(ValueError):
        fl.convert(math.nan)
    mp = MPArithmetic(30)
    x = mp.ctx.mpf(1) / 3
    assert mp.convert(x) == x and mp.convert(q) == mp.ctx.mpf(-3) / 2
    hi = MPArithmetic(60).convert(Fraction(1, 3))  # another context's value is rounded to this one's
    assert mp.convert(hi) == mp.ctx.mpf(hi)
    wide = mp.ctx.mpf(1) / 3
    mp.ctx.prec -= 20  # a value with more mantissa bits than the context keeps: rounded, not returned as is
    assert mp.convert(wide) == mp.ctx.mpf(wide) and mp.convert(wide) != wide
    assert mp.convert(mp.ctx.mpf(0.5)) == mp.ctx.mpf(0.5) and mp.convert(mp.ctx.mpf(0)) == 0


def _softmax_model():
    from theorems.interpolation._checks_exact import SOFTMAX_PINNED
    from theorems.interpolation.construction import build_interpolator
    from theorems.interpolation.dataset import Dataset

    return build_interpolator(Dataset(*SOFTMAX_PINNED[1]), "softmax", seed=3)


def test_convert_blocks_gives_the_same_outputs_in_every_arithmetic():
    from numerics.arithmetic import MPArithmetic
    from theorems.interpolation.blocks import convert_blocks, run_generic

    model = _softmax_model()
    for ar, kw in ((MPArithmetic(30), {"kernel": "softmax", "tau": Fraction(1, 50)}),
                   ("float64", {"kernel": "softmax", "tau": 0.02}), ("exact", {}), ("fraction", {})):
        conv = convert_blocks(model.blocks, ar)
        assert len(conv) == len(model.blocks)
        for x in model.dataset.inputs:
            assert run_generic(conv, x, ar, **kw) == run_generic(model.blocks, x, ar, **kw)


def test_certify_float_steps_decide_every_tau_as_the_rational_steps():
    from numerics.arithmetic import FloatArithmetic
    from theorems.interpolation import softmax as S

    model = _softmax_model()
    steps, line = S._summaries(model), model.stats["line"]
    fl = FloatArithmetic()
    fsteps = S._steps_in(steps, fl.convert)
    assert [s.kind for s in fsteps] == [s.kind for s in steps]
    for t in (1e-300, 1e-6, 1e-3, 0.05, 0.3, 1.0, 100.0):
        assert S._run(fsteps, t, line, fl) is S._run(steps, t, line, FloatArithmetic())


def _naive_ff(ff, X):
    """FF(x) = eta x + sum_k W_k relu(U_k . x + b_k), term by term in Fractions (the definition)."""
    from numerics.exact import to_fraction as q

    out = []
    for x in X:
        y = [q(ff.eta) * q(v) for v in x]
        for Uk, bk, Wk in zip(ff.U, ff.b, ff.W):
            z = sum((q(u) * q(v) for u, v in zip(Uk, x)), Fraction(0)) + q(bk)
            y = [yi + q(w) * max(z, Fraction(0)) for yi, w in zip(y, Wk)]
        out.append(tuple(y))
    return out


@pytest.mark.parametrize("backend", ["fraction", "flint"])
def test_exact_ff_apply_and_mix_give_the_definitions_values(backend):
    from numerics.arithmetic import ExactArithmetic
    from numerics.attention import mix
    from numerics.exact import to_fraction
    from theorems.interpolation.blocks import FF, ff_apply

    rng = random.Random(11)
    val = lambda: Fraction(rng.choice([0, 0, rng.randint(-5, 5)]), rng.choice([1, 2, 3]))
    for _ in range(40):
        d, width = rng.randint(1, 4), rng.randint(0, 4)
        ff = FF(rng.choice([Fraction(1), Fraction(0), Fraction(2, 3)]),
                tuple(tuple(val() for _ in range(d)) for _ in range(width)), tuple(val() for _ in range(width)),
                tuple(tuple(val() for _ in range(d)) for _ in range(width)))
        X = [tuple(val() for _ in range(d)) for _ in range(rng.randint(1, 4))]
        got = [tuple(to_fraction(v) for v in t) for t in ff_apply(ff, X, backend)]
        assert got == _naive_ff(ff, X)
        w = [val() for _ in X]
        want = tuple(sum((wi * x[k] for wi, x in zip(w, X)), Fraction(0)) for k in range(d))
        ar = ExactArithmetic(backend)  # mix takes values already in its arithmetic
        assert tuple(to_fraction(v) for v in mix([ar.vector(x) for x in X], ar.vector(w), ar)) == want


def test_softmax_mp_caches_return_the_fresh_values():
    """softmax_outputs / max_hausdorff_mp (cached by exact weights, dataset, tau and dps; one mpmath
    context per dps) give exactly the values of a fresh context's evaluation, at every dps and tau
    asked, in any order (a key missing dps or tau would return another evaluation's value)."""
    from numerics.arithmetic import MPArithmetic
    from numerics.strategies import NESTED_CHAIN
    from theorems.interpolation import softmax as sm
    from theorems.interpolation.blocks import convert_blocks, run_generic
    from theorems.interpolation.construction import build_interpolator
    from theorems.interpolation.dataset import Dataset

    model = build_interpolator(Dataset(*NESTED_CHAIN), "softmax", seed=3)
    half = list(model.blocks[:-1])
    for tau, dps, blocks in [(Fraction(1, 100), 30, None), (Fraction(1, 100), 60, None),
                             (Fraction(1, 10), 30, None), (Fraction(1, 100), 30, half),
                             (Fraction(1, 100), 30, None)]:
        ar = MPArithmetic(dps)
        bl = convert_blocks(model.blocks if blocks is None else blocks, ar)
        fresh = [run_generic(bl, x, ar, kernel="softmax", tau=tau) for x in model.dataset.inputs]
        assert sm.softmax_outputs(model, tau, dps, blocks=blocks) == fresh
        if dps >= 13:
            worst = max(sm.hausdorff_mp(o, y, ar) for o, y in zip(fresh, model.dataset.outputs))
            got = sm.max_hausdorff_mp(model, tau, dps, blocks=blocks)
            assert got == worst and got.context.prec == ar.ctx.prec
