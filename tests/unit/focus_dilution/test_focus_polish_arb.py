"""The arb working arithmetic of the critical-point polish and the in-manifold Hessian, with mpmath (the
previous implementation, kept as ``arithmetic="mpmath"``) as the oracle: the same points, the same
Hessians, to the working precision (spec §4.13, §4.14)."""

from __future__ import annotations

from fractions import Fraction as F

import flint
import numpy as np
import pytest

from numerics.markov import perturbed_rare, symmetric_rare
from numerics.precision import mp_context
from theorems.focus_dilution import critical_points as cp
from theorems.focus_dilution._working import Working

C_DIR = (F(1), F(-1), F(1, 2), F(-1, 2))

# (label, chain, float start): symmetric points (F4 stable, lam = 7/10 unstable, d = 3 and d = 8 from the
# spec's regime map) and theta^2_delta of F5 at two deltas
_POINTS = {
    "F4": lambda: symmetric_rare(5, F(3, 5), F(1, 2)),
    "F4_lam07": lambda: symmetric_rare(5, F(3, 5), F(7, 10)),
    "d3": lambda: symmetric_rare(3, F(1, 2), F(13, 20)),
    "d8": lambda: symmetric_rare(8, F(1, 2), F(4, 5)),
    "F5_1e-3": lambda: perturbed_rare(5, F(3, 5), F(1, 2), C_DIR, F(1, 1000)),
    "F5_1/700": lambda: perturbed_rare(5, F(3, 5), F(1, 2), C_DIR, F(1, 700)),
}


def _start(label: str, ch):
    """The float start the product polishes from: theta^2_delta's flow to T = 2000, the symmetric flow to
    T = 1000 + 40/c (regime_classification's horizon; the default 1000 is short for d = 3, c ~ 0.04)."""
    from theorems.focus_dilution.population import reference_quantities

    if label.startswith("F5"):
        return cp._flow_to_point(ch, 2000.0, False)
    return cp._flow_to_point(ch, 1000.0 + 40.0 / float(reference_quantities(ch, dps=20).c), True)


@pytest.mark.parametrize("dps", [20, 30])
@pytest.mark.parametrize("label", list(_POINTS))
def test_arb_polish_is_the_mpmath_polish(label, dps):
    """Both working arithmetics run the same iteration at ctx.prec bits: the same number of steps, the same
    pinned kappa, and points that agree to the working precision 10^-(dps+20) (three digits of guard for
    the conditioning of the normal equations).  The evidence fields computed at them (mpmath) agree to the
    same order, and both are critical points to the polish's tolerance 10^-(dps+5)."""
    ch = _POINTS[label]()
    z = _start(label, ch)
    ref = cp.polish_reduced(ch, z, dps=dps, arithmetic="mpmath")
    new = cp.polish_reduced(ch, z, dps=dps, arithmetic="arb")
    ctx = ref.ctx
    assert new.ctx.prec == ctx.prec == mp_context(dps + 20).prec
    assert new.iterations == ref.iterations
    assert new.kappa == ref.kappa and new.kappa_exact == ref.kappa_exact
    close = ctx.mpf(10) ** (-(dps + 17))
    assert max(abs(a - b) for a, b in zip(new.gamma + new.beta, ref.gamma + ref.beta)) <= close
    assert abs(new.loss - ref.loss) <= close
    assert max(abs(a - b) for a, b in zip(new.GM.flat, ref.GM.flat)) <= close
    tol = ctx.mpf(10) ** (-(dps + 5))
    assert new.residual < tol and ref.residual < tol
    assert all(type(x) is new.ctx.mpf for x in new.gamma + new.beta + [new.loss, new.residual])


@pytest.mark.parametrize("label", ["F4", "F4_lam07", "d8", "F5_1e-3"])
def test_arb_in_manifold_hessian_is_the_mpmath_one(label):
    """The central-difference Hessian (h = 1e-16 at 50 digits) in arb and in mpmath at the same point:
    entries agree to the cancellation level eps/h ~ 1e-35 (bound 1e-32), the spectra to the same order, and
    the same number of zero modes below 1e-25 (the zero_modes check's tolerance_for(35))."""
    ch = _POINTS[label]()
    pt = cp.polish_reduced(ch, _start(label, ch), dps=30)
    ctx = pt.ctx
    Hm = cp._in_manifold_hessian(ch, pt, "mpmath")
    Ha = cp._in_manifold_hessian(ch, pt, "arb")
    assert max(abs(Hm[i, j] - Ha[i, j]) for i in range(Hm.rows) for j in range(Hm.cols)) <= 1e-32
    assert all(Ha[i, j] == Ha[j, i] for i in range(Ha.rows) for j in range(Ha.cols))
    em = sorted(ctx.eigsy(Hm, eigvals_only=True))
    ea = sorted(ctx.eigsy(Ha, eigvals_only=True))
    assert max(abs(a - b) for a, b in zip(em, ea)) <= 1e-32
    assert sum(abs(x) <= 1e-25 for x in em) == sum(abs(x) <= 1e-25 for x in ea) == 4


def test_in_manifold_hessian_default_is_arb():
    """The memoised public Hessian is the arb one."""
    ch = _POINTS["F4"]()
    pt, _ = cp.degenerate_point(5, F(3, 5), F(1, 2), dps=30)
    H = cp.in_manifold_hessian(ch, pt)
    Ha = cp._in_manifold_hessian(ch, pt)
    assert all(H[i, j] == Ha[i, j] for i in range(H.rows) for j in range(H.cols))


@pytest.mark.parametrize("dps", [15, 40, 50])
def test_working_conversions_are_exact(dps):
    """mpf -> arb -> mpf is the identity (signs, zero, tiny and huge exponents) and gives radius-0 balls;
    the midpoint of an arb operation at ctx.prec bits is an mpf of the context; arb's precision is
    restored after the block."""
    ctx = mp_context(dps)
    rng = np.random.default_rng(dps)
    xs = [ctx.mpf(0), ctx.mpf(1) / 3, -ctx.mpf(2) / 7, ctx.mpf(10) ** -300, -ctx.mpf(10) ** 300]
    xs += [ctx.mpf(float(v)) * ctx.mpf(1) / 7 for v in rng.standard_normal(20)]
    before = flint.ctx.prec
    with Working(ctx, "arb") as w:
        assert flint.ctx.prec == ctx.prec
        for x in xs:
            a = w.from_mp(x)
            assert a.rad() == 0
            y = w.to_mp(a)
            assert type(y) is ctx.mpf and y == x
            q = w.to_mp(a * a / 3 + a)
            assert abs(q - (x * x / 3 + x)) <= abs(q) * ctx.mpf(2) ** (4 - ctx.prec) + ctx.mpf(10) ** -600
            assert w.point(a / 3).rad() == 0
    assert flint.ctx.prec == before
    with pytest.raises(ValueError, match="unknown working arithmetic"):
        Working(ctx, "float")


def test_gauss_newton_step_agrees():
    """The normal-equation step of an overdetermined consistent system: arb's approximate LU on the
    midpoints equals mpmath's lu_solve to the working precision."""
    ctx = mp_context(50)
    rng = np.random.default_rng(7)
    J = [[ctx.mpf(float(v)) / 3 for v in row] for row in rng.standard_normal((13, 10))]
    Fv = [ctx.mpf(float(v)) / 7 for v in rng.standard_normal(13)]
    ref = Working(ctx, "mpmath").gauss_newton_step(J, Fv)
    with Working(ctx, "arb") as w:
        new = [w.to_mp(s) for s in w.gauss_newton_step([[w.from_mp(v) for v in r] for r in J],
                                                        [w.from_mp(v) for v in Fv])]
    scale = max(abs(s) for s in ref)
    assert max(abs(a - b) for a, b in zip(new, ref)) <= scale * ctx.mpf(10) ** -45
    # the step solves the normal equations: J^T (J s + F) = 0
    Jm = ctx.matrix(J)
    r = Jm.T * (Jm * ctx.matrix(new) + ctx.matrix(Fv))
    assert max(abs(r[i]) for i in range(r.rows)) <= ctx.mpf(10) ** -45
