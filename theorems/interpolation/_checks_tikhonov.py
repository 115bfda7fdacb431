"""Checks of ``interp.tikhonov.upper_bound`` (spec §4.12), ``interp.tikhonov.linear_scaling`` (§4.13)
and ``interp.resnet_comparison`` (§4.14, §6).

The ridge model's closed forms come from :mod:`.training` (one source of truth for the formulas); the
construction's counts from :func:`.construction.parameter_formula`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from verify import Evidence, Observation, Profile, Tally, Verdict, refuted, statement_of

from ._ridge_exact import limit_at_zero, linear_reference, upper_bound_reference
from ._stmt import observe_part, part, record_proved, syms
from .construction import build_interpolator, parameter_formula
from .dataset import Dataset
from .training import ridge_E, ridge_min_J, ridge_minimiser, ridge_mn

F = Fraction


def _random_ridge(rng: random.Random):
    """A random ridge instance with N <= d and independent rational columns."""
    import sympy as sp

    while True:
        d = rng.randint(2, 4)
        N = rng.randint(1, d)
        X = sp.Matrix(d, N, lambda i, j: sp.Rational(rng.randint(-4, 4), rng.choice([1, 2])))
        if (X.T * X).det() != 0:
            Y = sp.Matrix(d, N, lambda i, j: sp.Rational(rng.randint(-4, 4), rng.choice([1, 2])))
            return X, Y


# -- upper bound -------------------------------------------------------------------------------------
def _for_all_positive(rel, eps) -> bool:
    """Does the relation ``rel`` (a rational function of ``eps`` on each side) hold for every eps > 0?
    Decided by writing it as ``num/den >= 0`` (``> 0`` for a strict relation) and requiring every
    coefficient of ``num`` in eps to be >= 0 with a positive denominator: a sufficient test, PROVED when it
    passes."""
    import sympy as sp

    if rel is sp.true or rel is sp.false:
        return bool(rel)
    diff = {sp.Le: rel.rhs - rel.lhs, sp.Lt: rel.rhs - rel.lhs, sp.Ge: rel.lhs - rel.rhs,
            sp.Gt: rel.lhs - rel.rhs}.get(type(rel))
    if diff is None:
        return False
    num, den = sp.fraction(sp.together(sp.simplify(diff)))
    poly = sp.Poly(sp.expand(num), eps)
    if poly.is_zero:
        return not isinstance(rel, (sp.Lt, sp.Gt))
    coeffs = poly.all_coeffs()
    nonneg = all(c >= 0 for c in coeffs)
    positive = nonneg and any(c > 0 for c in coeffs)
    den_ok = bool(sp.Poly(sp.expand(den), eps).is_ground and den > 0) or all(
        c >= 0 for c in sp.Poly(sp.expand(den), eps).all_coeffs())
    return bool((positive if isinstance(rel, (sp.Lt, sp.Gt)) else nonneg) and den_ok)


def _ridge_figure(tally: Tally) -> None:
    """Figure data: min J_eps of the ridge reference model against eps, with the bound eps |V_mn|^2."""
    import sympy as sp

    from ._figures import ridge_min_J_curve

    eps = [sp.Rational(f"{10.0 ** (-k / 4):.6g}") for k in range(-4, 17)]  # 10 ... 1e-4, exact decimals
    xs, ys, n2 = ridge_min_J_curve(eps)
    tally.figure(
        title="Tikhonov upper bound on the ridge model: min J_eps <= eps |V_mn|^2",
        caption=(f"interp.tikhonov.upper_bound, check 'ridge': exact closed form min J_eps = 2 eps (23 eps + 107)/"
                 f"(4 eps^2 + 32 eps + 59) of the reference instance (d = 3, N = 2) at {len(xs)} values of eps in "
                 f"[{xs[-1]:.0e}, {xs[0]:.0f}], with the bound eps |V_mn|^2 (|V_mn|^2 = 214/59 = {n2:.4f}); "
                 f"min J_eps/eps rises to 214/59 as eps -> 0 (at eps = {xs[-1]:.0e}: {ys[-1] / xs[-1]:.5f}), "
                 f"at eps = {xs[12]:.0e} min J = {ys[12]:.5f} <= {xs[12] * n2:.5f}."),
        series=[{"label": "min J_eps (exact)", "x": xs, "y": ys},
                {"label": "eps |V_mn|^2 (bound)", "x": xs, "y": [e * n2 for e in xs]}],
        xlabel="eps", ylabel="J", xscale="log", yscale="log", kind="line")


def upper_bound_ridge(*, seed: int, profile: Profile, factor: Any = 1) -> Evidence:
    """inf J_eps <= J_eps(theta) = eps |theta|^2 for every interpolant theta, on the ridge model.

    Reference instance, symbolic eps > 0 (PROVED): the closed forms of spec §5.2 (min J, |V_mn|^2 =
    214/59, min J_{1/7} = 1544/3119), zero gradient at V_eps, and ``factor eps |V| ^2 - min J_eps >= 0``
    for V = V_mn and the non-minimal interpolant V_mn + e1 (-3, 7, 1) (norm^2 3695/59).  Random
    instances (N <= d): exact at eps in {1/10, 1/1000} (CERTIFIED).  ``factor = 1/10`` is the control
    (refuted at eps = 1/100, where min J = 10723/296602 > 0.003627)."""
    import sympy as sp

    factor = sp.Rational(str(factor))
    tally = Tally(precision="symbolic / exact", backend="sympy", seeds=(seed,))
    eps = sp.Symbol("epsilon", positive=True)
    mJ, Vmn, _n_mn, Valt, facts = upper_bound_reference()  # seed-free closed forms, once per process
    for label, ok in facts:
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=refuted(f"ridge: {label} fails",
                                                                             sub_check="ridge_facts"))
    st = statement_of("interp.tikhonov.upper_bound")
    bound = part(st, "bound")
    names = {sym.name: sym for sym in bound.free_symbols}
    for name, Vi in (("V_mn", Vmn), ("V_alt", Valt)):
        nrm = sp.simplify(sum(v * v for v in Vi))
        # the statement for every eps > 0 at once: its part with the ridge observables substituted
        # (inf J_eps = the closed-form min J_eps, |theta_dag|^2 = |V|^2 scaled by the control's factor)
        inst = bound.xreplace({names["inf_J_epsilon"]: mJ, names["|theta_dagger|^2"]: factor * nrm,
                               names["epsilon"]: eps})
        ok = _for_all_positive(inst, eps)
        if not ok:
            e0 = sp.Rational(1, 100)
            tally.exact(False, counterexample=refuted(
                f"min J_eps > {factor} eps |{name}|^2 at eps = 1/100: {mJ.subs(eps, e0)} > {factor * e0 * nrm}",
                eps="1/100", min_J=str(mJ.subs(eps, e0)), bound=str(factor * e0 * nrm), sub_check="bound"))
            return tally.evidence()
        tally.exact(True, level=Verdict.PROVED)
    rng = random.Random(seed)
    for _ in range(profile.pick(3, 10, 50)):
        Xr, Yr = _random_ridge(rng)
        nrm = sum(v * v for v in ridge_mn(Xr, Yr))
        for e0 in (sp.Rational(1, 10), sp.Rational(1, 1000)):
            m0 = ridge_min_J(Xr, Yr, e0)
            tally.statement(st, {"inf_J_epsilon": F(str(m0)), "epsilon": F(str(e0)),
                                 "|theta_dagger|^2": F(str(factor * nrm))}, part="bound")
    if factor == 1:
        _ridge_figure(tally)
    return tally.evidence()


def theta_norm2(model, tau0: Fraction) -> Fraction:
    """|theta|^2 of the tau = 1 model equal to ``model`` at tau0 (alpha and p_k divided by tau0), in the
    trained parametrisation: FF entries squared; SA rho^2 + d lam^2 (V = lam I dense); alpha I as
    Q = alpha I, K = I (d alpha^2 + d); a factor pair as |p|^2 + |q|^2."""
    from .construction import _as_fraction as fr

    d = model.d
    tot = F(0)
    for b in model.blocks:
        ff = b.ff
        tot += fr(ff.eta) ** 2 + sum(fr(v) ** 2 for r in ff.U for v in r) + sum(fr(v) ** 2 for v in ff.b) \
            + sum(fr(v) ** 2 for r in ff.W for v in r)
        sa = b.sa
        tot += fr(sa.rho) ** 2 + d * fr(sa.lam) ** 2
        if sa.A is not None:
            if sa.A.alpha != 0:
                tot += d * (fr(sa.A.alpha) / tau0) ** 2 + d
            for p, q in sa.A.factors:
                tot += sum((fr(v) / tau0) ** 2 for v in p) + sum(fr(v) ** 2 for v in q)
    return tot


def _materialised_norm2(model, tau0: Fraction) -> Fraction:
    """|theta|^2 computed independently of :func:`theta_norm2`'s closed per-block terms: every trained
    tensor of the tau = 1 model is materialised as a dense array of exact rationals (eta, U, b, W; rho,
    V = lam I_d as a d x d matrix; Q = (alpha/tau0) I_d and K = I_d; the factor rows p/tau0 and q) and
    its entries squared and summed."""
    from .construction import _as_fraction as fr

    d = model.d

    def eye(c):
        return [[c if i == j else F(0) for j in range(d)] for i in range(d)]

    tensors = []
    for b in model.blocks:
        ff, sa = b.ff, b.sa
        tensors += [[[fr(ff.eta)]], [[fr(v) for v in r] for r in ff.U], [[fr(v) for v in ff.b]],
                    [[fr(v) for v in r] for r in ff.W], [[fr(sa.rho)]], eye(fr(sa.lam))]
        if sa.A is not None:
            if sa.A.alpha != 0:
                tensors += [eye(fr(sa.A.alpha) / tau0), eye(F(1))]
            if sa.A.factors:
                tensors += [[[fr(v) / tau0 for v in p] for p, _ in sa.A.factors],
                            [[fr(v) for v in q] for _, q in sa.A.factors]]
    return sum((v * v for t in tensors for row in t for v in row), F(0))


def _absorbed_blocks(model, tau0: Fraction):
    """The tau = 1 blocks equal to ``model`` at tau0: alpha and every p_k divided by tau0."""
    from numerics.attention import AttentionMatrix

    from .blocks import SA, Block
    from .construction import _as_fraction as fr

    out = []
    for b in model.blocks:
        A = b.sa.A
        if A is not None:
            A = AttentionMatrix(alpha=fr(A.alpha) / tau0,
                                factors=tuple((tuple(fr(v) / tau0 for v in p), tuple(q)) for p, q in A.factors))
        out.append(Block(b.ff, SA(b.sa.rho, b.sa.lam, A), label=b.label, stage=b.stage))
    return out


def upper_bound_construction(*, seed: int, profile: Profile, variant: str | None = None,
                             factor: Any = 1) -> Evidence:
    """For the softmax construction at tau0 = tau_c (absorbed into A): E(theta_dag) = 0 by the arb
    certificate, so J_eps(theta_dag) = eps |theta_dag|^2 exactly (|theta_dag|^2 an exact rational).

    Observed, not assumed: the absorbed tau = 1 network (alpha, p_k divided by tau0) is exact in mpmath
    (dps 50 and 100, :func:`.softmax.exact_at`), i.e. E(theta_dag) = 0 at the precision; and
    :func:`theta_norm2` equals the sum of squares of the materialised dense tensors
    (:func:`_materialised_norm2`).  The bound part reads inf J_eps from above by J_eps(theta_dag), so it
    holds with margin 0 (the bound is attained by the witness).  Variant ``no_absorption`` (control): the
    unscaled weights run at tau = 1 > tau_c -- not exact, so tau0 cannot be dropped.  ``factor = 1/10``
    (control): J_eps(theta_dag) <= factor eps |theta_dag|^2 -- refuted through the bound part."""
    from ._checks_exact import SOFTMAX_PINNED
    from .softmax import certify, exactness_tolerance, max_hausdorff_mp

    dps = profile.pick(50, 50, 60)
    st = statement_of("interp.tikhonov.upper_bound")
    tally = Tally(precision=f"exact + arb certificate; mpmath dps={dps} and {2 * dps}", backend="python-flint, mpmath",
                  tolerance=10.0 ** -(dps - 12), seeds=(seed,))
    norms = []
    for raw in SOFTMAX_PINNED[: profile.pick(2, 2, 2)]:
        m = build_interpolator(Dataset(*raw), "softmax", seed=seed)
        cert = certify(m)
        if not cert.certified:
            tally.add(Observation(Verdict.UNKNOWN))
            continue
        tau0 = F(cert.tau_c)
        blocks = list(m.blocks) if variant == "no_absorption" else _absorbed_blocks(m, tau0)
        for p in (dps, 2 * dps):
            dev = max_hausdorff_mp(m, 1, p, blocks=blocks)
            # E(theta_dag) = 0 rests on the arb certificate; the mpmath run can only refute it (a passing
            # float-precision evaluation would lower the certified level), so only a failure is recorded
            o = observe_part(st, {"d_H": dev, "epsilon_p": exactness_tolerance(p)}, "tau1_exact", tol=0.0,
                             tau0=cert.tau_c, dps=p, variant=variant)
            if o.level is Verdict.REFUTED:
                with tally.sub("tau1_exact"):
                    tally.add(o)
                return tally.evidence()
        n2 = theta_norm2(m, tau0)
        n2m = _materialised_norm2(m, tau0)
        norms.append({"tau0": cert.tau_c, "norm2": f"{float(n2):.4g}", "digits": len(str(n2.numerator))})
        tally.statement(st, {"|theta_dagger|^2": n2, "|theta|^2_dense": n2m}, part="norm")
        # the bound part at eps = 1/1000, inf J_eps observed from above by the value at the interpolant,
        # J_eps(theta_dag) = E(theta_dag) + eps |theta|^2 of the network as built: E = 0 by the arb
        # certificate above, |theta|^2 the sum of squares of its materialised tensors -- against
        # eps |theta_dag|^2 of theta_norm2 (not the same number computed twice)
        e0 = F(1, 1000)
        J_dag = e0 * n2m  # E(theta_dag) = 0
        tally.statement(st, {"inf_J_epsilon": J_dag, "epsilon": e0, "|theta_dagger|^2": F(str(factor)) * n2},
                        part="bound", counterexample=lambda: refuted(
                            f"J_eps(theta_dag) = {J_dag} > {factor} eps |theta_dag|^2 at eps = 1/1000",
                            tau0=cert.tau_c, factor=str(factor), sub_check="bound"))
    tally.details["theta_dag"] = norms
    tally.note("|theta_dag|^2 can be astronomically large: the bound is valid but loose (spec §4.12)")
    return tally.evidence()


#: values the reproduction must meet, with the precision they are known to: the authors' Figure 1a starts
#: at E = 1.72e3 (epoch 1, three significant digits: half-width 5); |theta*|^2 = 62.53 is the red line's
#: norm recorded in docs/interpolation.md (four significant digits: half-width 0.005)
FIG1A_E1, FIG1A_E1_HALFWIDTH = 1.72e3, 5.0
THETA_STAR_NORM2, THETA_STAR_NORM2_HALFWIDTH = 62.53, 0.005
#: safety factor on the reading half-widths above
FIG1_READING_SAFETY = 2.0
#: Figure 1b minima of the authors' run (their code, float32; their figure's vector data), three significant
#: digits each: half-width 5 units of the last digit
FIG1B_MINIMA = (3.26e-2, 1.32e-2, 4.96e-4)
FIG1B_HALFWIDTHS = (5e-5, 5e-5, 5e-7)
#: relative effect of float64 instead of the authors' float32 on the Figure 1b minima (same data, same
#: starting weights, same protocol): measured <= 0.5 %
FIG1B_FLOAT32_EFFECT = 5e-3
#: safety factor on that budget: rel. tolerance_i = 2 (0.5 % + half-width_i / minimum_i) (1.2 %, 1.8 %, 1.2 %)
FIG1B_SAFETY = 2.0
#: the authors' tikhonov/src/generateData.py writes ``V = inputs @ V`` (V = I overwritten by the inputs), so
#: its ``exact_L2norm`` -- the red line of Figure 1a as their code draws it -- is |inputs|_F^2 + 1 + |W|^2 +
#: |U|^2 + |b|^2 = 5402.7695 (float32, printed by their script); the published figure shows 62.53
AUTHORS_CODE_LINE_NORM2 = 5402.76953125
#: E(theta_0) of the authors' starting weights (their tikhonov/ code run as published, float32 forward):
#: the first training loss of their Figure 1a and 1b runs.  Budget against the float64 value: a float32
#: forward of one block is off by <= (n + d + 5) 2^-24 relative per coordinate, the squared distance by
#: twice that; with FIG1_READING_SAFETY: 2 x 2 (n + d + 5) 2^-24 E_0 (0.049 here; observed 1.6e-5)
AUTHORS_E0 = 1718.6611328125


def figure1_reproduction(*, seed: int, profile: Profile, variant: str | None = None,
                         shard: tuple[int, int] = (0, 1)) -> Evidence:
    """Spec §5.3 reproduction of Figure 1, decisive on what does not depend on training (every profile,
    forward passes only, well under a second):

    * the exact interpolant theta* (:func:`.training.interpolant_model`) in the trained parametrisation has
      data loss E(theta*) <= d delta^2, delta = ``float_tolerance(2 (n + d + 5), scale)`` (two float64
      routes to the targets: fig1_data's and the model's forward; scale = max|x| + 4 max|W| max_k(|U_k|_1
      max|x| + |b_k|)), and the model's |theta*|^2 equals ``theta_star_norm2`` within
      ``float_tolerance(#parameters, scale=|theta*|^2)``;
    * |theta*|^2 = 62.53 and the initial loss E(theta_0) (epoch 1, the authors' seed and draw order) =
      1.72e3, each within its reading half-width times :data:`FIG1_READING_SAFETY`.

    * the product's :func:`.training.authors_init_model` has the initial loss of the authors' starting
      weights, 1718.6611 (their code, float32), within a float32 forward budget (safety 2);
    * code finding: the authors' data script overwrites V with the inputs, so their code's line norm is
      |inputs|_F^2 + 1 + |W|^2 + |U|^2 + |b|^2 = 5402.77 (:data:`AUTHORS_CODE_LINE_NORM2`), not 62.53:
      recomputed from the product's data within twice a float32 pairwise-summation bound.

    Thorough profile also: the full Fig. 1a run (final loss below eps|theta*|^2, crossing epoch recorded,
    figure ~1.88e4) and Fig. 1b from the authors' starting weights (each minimum within
    ``FIG1B_SAFETY (FIG1B_FLOAT32_EFFECT + half-width / minimum)`` of the authors'; the end-to-end slope,
    implied by the minima, recorded): CONSISTENT or UNKNOWN, never REFUTED by training.  Variants (controls): ``weights_first`` (the
    weights drawn before the inputs: another data set, E(theta_0) = 1313, |theta*|^2 = 57.90, both inside
    the old [55, 70] window), ``no_skip`` (theta* with eta = 0: not an interpolant, E = 4.04).

    ``shard = (index, count)``: the thorough profile's two trainings are independent tasks -- the last
    shard runs Fig. 1b alone, the first everything else -- so a pool runs them side by side; the merged
    evidence is the unsharded one's."""
    import torch

    from numerics.precision import float_tolerance

    from .training import Fig1Model, authors_init_model, data_loss, fig1_data, figure1a, interpolant_model

    index, count = shard
    tally = Tally(precision="float64", backend=f"torch {torch.__version__}", seeds=(seed,))
    data = fig1_data(order="weights_first" if variant == "weights_first" else "inputs_first")
    if count > 1 and index == count - 1 and profile.name == "thorough":
        _figure1b(tally, data)  # this shard: Fig. 1b only
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    X, Y = data.inputs, data.targets
    N, n, d = X.shape
    star = interpolant_model(data, skip=variant != "no_skip")
    W, U, b = data.params["W"], data.params["U"], data.params["b"]
    a = float(X.abs().max())
    scale = a + 4 * float(W.abs().max()) * float((U.abs().sum(dim=0) * a + b.abs()).max())
    delta = float_tolerance(2 * (n + d + 5), scale=scale)
    e_budget = d * delta ** 2
    with torch.no_grad():
        E_star = float(data_loss(star(X), Y))
        torch.manual_seed(0)  # the authors' seed (figure1a's default), not the run's: this is a reproduction
        E_1 = float(data_loss(Fig1Model(d)(X), Y))
    n2 = star.norm2()
    n2_budget = float_tolerance(sum(p.numel() for p in star.parameters()), scale=n2)
    e1_tol = FIG1_READING_SAFETY * FIG1A_E1_HALFWIDTH
    t2_tol = FIG1_READING_SAFETY * THETA_STAR_NORM2_HALFWIDTH
    tally.details.update(theta_star_norm2=data.theta_star_norm2, E_theta_star=E_star, E_theta_star_budget=e_budget,
                         norm2_model=n2, norm2_budget=n2_budget, E_epoch1=E_1, E_epoch1_figure=FIG1A_E1,
                         E_epoch1_tolerance=e1_tol, theta_star_norm2_tolerance=t2_tol,
                         reading_safety=FIG1_READING_SAFETY, variant=variant)
    facts = (
        (E_star <= e_budget, f"E(theta*) = {E_star:.3g} > float64 budget {e_budget:.3g}: theta* is not an exact "
                             "interpolant of the Figure 1 data", E_star, e_budget),
        (abs(n2 - data.theta_star_norm2) <= n2_budget,
         f"|theta*|^2 of the model = {n2!r} != theta_star_norm2 = {data.theta_star_norm2!r}", n2, n2_budget),
        (abs(data.theta_star_norm2 - THETA_STAR_NORM2) <= t2_tol,
         f"|theta*|^2 = {data.theta_star_norm2:.6g}, not {THETA_STAR_NORM2} +- {t2_tol}", data.theta_star_norm2, t2_tol),
        (abs(E_1 - FIG1A_E1) <= e1_tol,
         f"E(theta_0) at epoch 1 = {E_1:.6g}, not the figure's {FIG1A_E1:.3g} +- {e1_tol}", E_1, e1_tol),
    )
    # the authors' line norm: float32 pairwise sums of N n d + 9 d + 5 squares, error <= ceil(log2 m) 2^-24 x sum
    import math

    code_n2 = float((X ** 2).sum()) + 1.0 + float((W ** 2).sum() + (U ** 2).sum() + (b ** 2).sum())
    m_terms = N * n * d + 9 * d + 5
    code_tol = FIG1_READING_SAFETY * math.ceil(math.log2(m_terms)) * 2.0 ** -24 * AUTHORS_CODE_LINE_NORM2
    tally.details.update(authors_code_line_norm2=code_n2, authors_code_line_norm2_printed=AUTHORS_CODE_LINE_NORM2,
                         authors_code_line_tolerance=code_tol)
    # the authors' starting weights (product: authors_init_model): their float32 initial loss, float64 here
    with torch.no_grad():
        E_0 = float(data_loss(authors_init_model(data)(X), Y))
    e0_tol = FIG1_READING_SAFETY * 2 * (n + d + 5) * 2.0 ** -24 * AUTHORS_E0
    tally.details.update(E_theta0_authors_init=E_0, E_theta0_authors_code=AUTHORS_E0, E_theta0_tolerance=e0_tol)
    facts = facts + (
        (abs(E_0 - AUTHORS_E0) <= e0_tol,
         f"E(theta_0) of authors_init_model = {E_0!r}, not the authors' code's {AUTHORS_E0} +- {e0_tol:.3g}: "
         "not their starting weights", E_0, e0_tol),
        (abs(code_n2 - AUTHORS_CODE_LINE_NORM2) <= code_tol,
         f"|inputs|^2 + 1 + |W|^2 + |U|^2 + |b|^2 = {code_n2:.8g}, not the authors' code's {AUTHORS_CODE_LINE_NORM2}",
         code_n2, code_tol),
    )
    fact_names = ("E_theta_star", "norm2_model", "theta_star_norm2", "E_epoch1", "E_theta0_authors",
                  "code_line_norm2")  # the sub-check of each fact, in order
    for name, (ok, msg, val, tol) in zip(fact_names, facts, strict=True):
        if ok:
            tally.add(Observation(Verdict.CONSISTENT, error=val, margin=tol))
        else:
            tally.add(Observation(Verdict.REFUTED, error=val, counterexample=refuted(
                msg, value=val, tolerance=tol, variant=variant, sub_check=name)))
            return tally.evidence(level_cap=Verdict.CONSISTENT)
    if profile.name != "thorough":
        tally.note("full Figure 1 training runs only in the thorough profile (benchmarks/interpolation)")
        return tally.evidence(level_cap=Verdict.CONSISTENT)
    torch.set_num_threads(1)
    fa = figure1a(data)
    cross = next((i + 1 for i, v in enumerate(fa["losses"]) if v < fa["threshold"]), None)
    tally.details.update(fig1a_final=fa["E"], fig1a_crossing_epoch=cross)
    tally.add(Observation(Verdict.CONSISTENT if fa["E"] < fa["threshold"] else Verdict.UNKNOWN))
    tally.add(Observation(Verdict.CONSISTENT if cross is not None and 1.88e4 / 2 <= cross <= 2 * 1.88e4
                          else Verdict.UNKNOWN))
    if count == 1:
        _figure1b(tally, data)
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def _figure1b(tally: Tally, data: Any) -> None:
    """Fig. 1b from the authors' starting weights (RNG state after the data draws, float32 draw): each
    minimum within FIG1B_SAFETY (FIG1B_FLOAT32_EFFECT + half-width / minimum) of the authors'."""
    import torch

    from .training import figure1b

    torch.set_num_threads(1)
    fb = figure1b(data)
    rel_tol = [FIG1B_SAFETY * (FIG1B_FLOAT32_EFFECT + h / r) for r, h in zip(FIG1B_MINIMA, FIG1B_HALFWIDTHS)]
    rel_dev = [abs(v / r - 1) for v, r in zip(fb["minima"], FIG1B_MINIMA)]
    tally.details.update(fig1b=fb, fig1b_relative_deviation=rel_dev, fig1b_relative_tolerance=rel_tol,
                         fig1b_safety=FIG1B_SAFETY)
    ok = all(dv <= tl for dv, tl in zip(rel_dev, rel_tol))
    tally.add(Observation(Verdict.CONSISTENT if ok else Verdict.UNKNOWN, error=max(rel_dev), margin=min(rel_tol)))


# -- linear scaling ------------------------------------------------------------------------------------
def linear_scaling_ridge(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """lim min J_eps/eps = |V_mn|^2 (= 214/59 on the reference), E(V_eps)/eps -> 0, E/eps^2 -> 4134/3481,
    |V_eps|^2 decreasing and E(V_eps) increasing in eps (spec §5.1 items 4-6); random instances: the
    limit equals tr(Y G^-1 Y^T) = |V_mn|^2.  Variants: ``data_theta_eps`` (E = Theta(eps): lim E/eps > 0),
    ``o_eps`` (min J = o(eps): lim min J/eps = 0)."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    eps = sp.Symbol("epsilon", positive=True)
    lim_J, lim_E1, n_mn, facts = linear_reference()  # seed-free closed forms and limits, once per process
    st = statement_of("interp.tikhonov.linear_scaling")
    if variant in ("data_theta_eps", "o_eps"):  # the controls' false statements on the same observables
        from verify import AllOf

        r = syms(part(st, "J_order")) | syms(part(st, "data_term_order"))
        st = (AllOf(data_term_order=sp.Gt(r["r_E"], 0)) if variant == "data_theta_eps"
              else AllOf(J_order=sp.Eq(r["r_J"], 0)))
        label = "data_term_order" if variant == "data_theta_eps" else "J_order"
        record_proved(tally, st, {"r_E": F(str(lim_E1)), "r_J": F(str(lim_J))}, label, variant=variant)
        return tally.evidence()
    # the statement on the ridge observables: lim min J/eps = |V_mn|^2 and lim E/eps = 0
    record_proved(tally, st, {"r_J": F(str(lim_J)), "|V_mn|^2": F(str(n_mn))}, "J_order")
    record_proved(tally, st, {"r_E": F(str(lim_E1))}, "data_term_order")
    for label, ok in facts:
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=refuted(f"ridge: {label} fails"))
    rng = random.Random(seed)
    for _ in range(profile.pick(2, 6, 30)):
        Xr, Yr = _random_ridge(rng)
        lim = limit_at_zero(ridge_min_J(Xr, Yr, eps) / eps, eps)
        n_mn = sp.simplify(sum(v * v for v in ridge_mn(Xr, Yr)))
        lim_E = limit_at_zero(ridge_E(ridge_minimiser(Xr, Yr, eps), Xr, Yr) / eps, eps)
        record_proved(tally, st, {"r_J": F(str(lim)), "|V_mn|^2": F(str(n_mn))}, "J_order")
        record_proved(tally, st, {"r_E": F(str(lim_E))}, "data_term_order")
    return tally.evidence()


def torch_slope(*, seed: int, profile: Profile) -> Evidence:
    """Cold-start sweep (fresh model per eps, explicit penalty): slope of J_eps(theta_T) over the four
    smallest eps.  CONSISTENT if in [0.8, 1.2], else UNKNOWN (training need not reach global minima;
    never REFUTED).  Not run at quick (UNKNOWN); ci: n = 50, 1,500 epochs; thorough: n = 100, 5,000 epochs."""
    import torch

    from .training import cold_start_sweep, fig1_data

    if profile.name == "quick":
        return Evidence(level=Verdict.UNKNOWN, instances=0, seeds=(seed,), precision="float64",
                        notes="training sweep not run at the quick profile (ci: n = 50, 1,500 epochs; "
                              "thorough: n = 100, 5,000 epochs; full size: experiments --profile thorough)")
    torch.set_num_threads(1)
    data = fig1_data(n=profile.pick(20, 50, 100))
    res = cold_start_sweep(data, epochs=profile.pick(400, 1500, 5000), penalties=("explicit",), seed=0)
    s = res["explicit"]["slope_J"]
    tally = Tally(precision="float64", backend=f"torch {torch.__version__}", seeds=(seed,))
    tally.details.update(slope_J=s, slope_E=res["explicit"]["slope_E"],
                         rows=[{k: r[k] for k in ("eps", "E", "J", "norm2")} for r in res["explicit"]["rows"]])
    tally.add(Observation(Verdict.CONSISTENT if 0.8 <= s <= 1.2 else Verdict.UNKNOWN, margin=0.2 - abs(s - 1)))
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- ResNet comparison -------------------------------------------------------------------------------------
def p_resnet(N, n, d):
    """ResNet on flattened inputs in R^{dn}: one 3-neuron hat block per sequence, N(6dn + 4) (spec §6)."""
    return N * (6 * d * n + 4)


def p_transformer(N, M, d):
    """Hardmax construction with kappa = 1 and R = N - 1: (N-1)(10d+7) + M(12d+12) + 2d + 2."""
    return parameter_formula(N - 1, M, d, "hardmax", 1)


def resnet_symbolic(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """sympy: P_H = P_Res at n* = (P_H - 4N)/(6dN), P_H < P_Res iff n > n*; for m_j = m, N -> oo:
    n* -> 5/3 + 2m + (3 + 12m)/(6d).  Variants: ``all_n`` (the transformer is smaller for every n >= 1;
    refuted at n = 1, N = M = 1) and ``m_free`` (n* does not depend on m)."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    N, M, d, n, m = sp.symbols("N M d n m", positive=True)
    PH, PR = p_transformer(N, M, d), p_resnet(N, n, d)
    nstar = sp.solve(sp.Eq(PH, PR), n)
    want = (PH - 4 * N) / (6 * d * N)
    if variant == "all_n":
        vals = {N: 1, M: 1, n: 1}
        for dd in range(2, 6):
            ph, pr = PH.subs(vals).subs(d, dd), PR.subs(vals).subs(d, dd)
            if not ph < pr:
                tally.exact(False, counterexample=refuted(
                    f"n = 1, N = M = 1, d = {dd}: P_H = {ph} >= P_Res = {pr}", d=dd, P_H=int(ph), P_Res=int(pr),
                    sub_check="all_n"))
                return tally.evidence()
        tally.exact(True)
        return tally.evidence()
    lim = sp.limit(want.subs(M, m * N), N, sp.oo)
    if variant == "m_free":
        dm = sp.simplify(sp.diff(want.subs(M, m * N), m))
        tally.exact(bool(dm == 0), level=Verdict.PROVED, counterexample=refuted(
            f"d n*/dm = {dm} > 0: the crossover grows with m", derivative=str(dm), sub_check="m_dependence"))
        return tally.evidence()
    facts = [
        ("unique solution n*", len(nstar) == 1 and sp.simplify(nstar[0] - want) == 0),
        ("P_H - P_Res is decreasing in n", sp.simplify(sp.diff(PH - PR, n) + 6 * d * N) == 0),
        ("limit n* for m_j = m", sp.simplify(lim - (sp.Rational(5, 3) + 2 * m + (3 + 12 * m) / (6 * d))) == 0),
        ("ratio limit", sp.simplify(sp.limit((PH / PR).subs(M, m * N), N, sp.oo)
                                    - (10 * d + 7 + m * (12 * d + 12)) / (6 * d * n + 4)) == 0),
    ]
    for label, ok in facts:
        tally.exact(bool(ok), level=Verdict.PROVED, counterexample=refuted(f"sympy: {label} fails"))
    return tally.evidence()


def resnet_instances(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """On construction instances with (N, M) fixed, the measured P_H (the built network's parameters,
    counted block by block) equals the construction's closed form at the network's own R and kappa
    (``parameter_formula``), stays constant while P_Res grows linearly in n, is at most the kappa = 1,
    R = N - 1 count the comparison uses (attained on this dataset: margin 0), and P_H < P_Res exactly when
    n > n*.  Variant ``count_plus_one`` (control): the built network has one parameter more than the
    closed form -- refuted through sub-check ``count``."""
    from ._checks_counts import _extend
    from .construction import distinguishing_points

    tally = Tally(precision="exact", backend="python-flint", seeds=(seed,))
    st = statement_of("interp.resnet_comparison")
    raw = ([[(F(0), F(0)), (F(1), F(0))], [(F(0), F(0)), (F(0), F(1))], [(F(1), F(1)), (F(2), F(0))]],
           [[(F(3), F(3))], [(F(-1), F(2)), (F(2), F(-1))], [(F(0), F(5))]])
    D = Dataset(*raw)
    E = distinguishing_points(D.inputs)
    P0 = None
    for n_extra in range(0, profile.pick(8, 16, 40), 2):
        Dp = Dataset(*_extend(raw, [n_extra] * D.N, 1000))
        m = build_interpolator(Dp, "hardmax", seed=seed, distinguishing=E)
        P = m.num_parameters
        P0 = P if P0 is None else P0
        n = Dp.n
        PR = p_resnet(Dp.N, n, Dp.d)
        closed = m.parameter_formula() + (1 if variant == "count_plus_one" else 0)
        tally.exact(P == closed, counterexample=refuted(
            "the built network's parameter count differs from the construction's closed form",
            n=n, P_H=P, formula=closed, R=m.R, kappa=m.kappa, variant=variant, sub_check="count"))
        if P != closed:
            break
        bound = p_transformer(D.N, D.M, D.d)
        tally.exact(P == P0 and P <= bound, margin=float(bound - P), counterexample=refuted(
            "P_H changed with n or exceeds the kappa = 1, R = N - 1 count",
            n=n, P_H=P, P_Res=PR, bound=bound, sub_check="constant_in_n"))
        tally.statement(st, {"P_H": P, "P_Res": PR, "N": Dp.N, "M": Dp.M, "d": Dp.d, "n": n}, part="crossover")
    return tally.evidence()
