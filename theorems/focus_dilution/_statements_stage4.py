"""Statements and derivations of the Stage IV claims (spec §4.13, §4.14), as sympy forms.

Each builder is lazy (``Claim(statement=degenerate_point_statement)``): sympy is imported when a statement
is first needed.  The labels of the :class:`verify.AllOf` parts are the sub-check names the checks record
(and the controls target); the checks compute only observables from the product code
(:mod:`.critical_points`, :mod:`.flow`, :mod:`.population`) and evaluate these parts on them.  Parts shared
by two claims (the Lyapunov-Schmidt rate and its as-stated reading) are built by one function each, so the
two statements cannot drift apart.
"""

from __future__ import annotations

from typing import Any

F4_DOMAIN = "F4: d = 5, pi = (3/5, 1/10 x 4), P = lam I + (1 - lam) 1 pi^T"
F5_DOMAIN = ("F5: F4 at lam = 1/2 with rare masses 1/10 + delta c, c = (1, -1, 1/2, -1/2), delta in "
             "{1e-4, 2e-4, 5e-4, 1e-3}")


def _sp() -> Any:
    import sympy as sp

    return sp


def symbols() -> dict[str, Any]:
    """The Stage IV symbols, by the names the checks bind (``tally.statement(st, {name: value})``)."""
    sp = _sp()
    pos = dict(positive=True)
    names = {
        "pi_1": pos, "lambda": pos, "d": dict(positive=True, integer=True), "H_P1": pos, "L": pos,
        "G_max": dict(nonnegative=True), "N_nonzero": dict(nonnegative=True, integer=True),
        "lambda_in": dict(real=True), "sigma_2": dict(nonnegative=True), "epsilon": pos,
        "Delta_L": dict(nonnegative=True), "delta": pos, "lambda_perp": pos, "lambda_perp_half": pos,
        "kappa_T": pos, "R_Lip": dict(nonnegative=True), "lambda_top": dict(real=True), "sigma_max": pos,
        "w_perp": dict(nonnegative=True), "s_esc": dict(real=True), "S_spread": pos,
        "N_0": dict(nonnegative=True, integer=True), "lambda_Q0": pos,
    }
    return {n: sp.Symbol(n, **a) for n, a in names.items()}


def lumped_loss_expr(s: dict[str, Any]) -> Any:
    """L_lump of spec §3: pi1 H(P_1) + (1 - pi1)[-(1 - lam) pi1 log((1 - lam) pi1) - rho_l log(rho_l/(d - 1))],
    rho_l = lam + (1 - lam)(1 - pi1): the loss of the lumped (two-class) Bayes predictor."""
    sp = _sp()
    p1, lm, d = s["pi_1"], s["lambda"], s["d"]
    rl = lm + (1 - lm) * (1 - p1)
    return p1 * s["H_P1"] + (1 - p1) * (-(1 - lm) * p1 * sp.log((1 - lm) * p1) - rl * sp.log(rl / (d - 1)))


# -- focus.stage4.degenerate_point ----------------------------------------------------------------------
def degenerate_point_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    return ForAll(
        (s["lambda_Q0"],), "starts lambda_Q(0) in {1e-7, 1e-5, 1e-3} of the symmetric reduced flow on " + F4_DOMAIN
        + ", lam = 1/2 (the limit theta_c2, Newton-polished at 30 digits)",
        AllOf(gradient=sp.Eq(s["G_max"], 0),                      # G_max = max(|G_M|, |G_Phi|) at theta_c2
              loss_value=sp.Eq(s["L"], lumped_loss_expr(s)),
              symmetry=sp.Eq(s["N_nonzero"], 0)))                 # entries of (G_M, G_Phi) not vanishing on
    #                                                                 the lumped family (sympy, d = 3, 4)


def degenerate_point_derivation() -> Any:
    """L_lump as the loss of the lumped Bayes predictor on F4 (d = 5): query 1 is predicted exactly
    (cross-entropy H(P_1)); a rare query q is predicted P_q1 on token 1 and rho_l/(d - 1) on each rare token,
    and the rare row's mass on the rare tokens sums to rho_l."""
    from verify import Derivation, Step

    sp = _sp()
    s = symbols()
    p1, lm, H1 = s["pi_1"], s["lambda"], s["H_P1"]
    d = 5
    pl = (1 - p1) / (d - 1)
    rl = lm + (1 - lm) * (1 - p1)
    # rare query q = 2: row P_2 = (1 - lam) pi_1 on token 1, lam + (1 - lam) pi_l on itself, (1 - lam) pi_l else
    row2 = [(1 - lm) * p1, lm + (1 - lm) * pl] + [(1 - lm) * pl] * (d - 2)
    pred2 = [(1 - lm) * p1] + [rl / (d - 1)] * (d - 1)
    ce2 = -sum(p * sp.log(q) for p, q in zip(row2, pred2))
    rare_sum = -(1 - lm) * p1 * sp.log((1 - lm) * p1) - sum(row2[1:]) * sp.log(rl / (d - 1))
    closed = p1 * H1 + (1 - p1) * (-(1 - lm) * p1 * sp.log((1 - lm) * p1) - rl * sp.log(rl / (d - 1)))
    return Derivation(
        Step("lumped Bayes loss", p1 * H1 + (d - 1) * pl * ce2,
             why="Pred_1 = P_1 (cross-entropy H(P_1)); the d - 1 rare queries have the same loss (F4 symmetry)"),
        Step("collect the rare tokens' log", p1 * H1 + (1 - p1) * rare_sum,
             why="(d - 1) pi_l = 1 - pi_1; every rare token is predicted rho_l/(d - 1)"),
        Step("rare row mass on rare tokens = rho_l", closed,
             why="lam + (1 - lam)(d - 1) pi_l = lam + (1 - lam)(1 - pi_1) = rho_l"),
        Step("spec §3 closed form", lumped_loss_expr({**s, "d": sp.Integer(d)})),
    )


# -- focus.stage4.degenerate_point_certified ---------------------------------------------------------------
def lumped_existence_statement() -> Any:
    """There is a zero of the lumped equations (critical_points.lumped_system, F4 at lam = 1/2) in the box:
    h1 b = T1, h' b = T' and the second gauge |gamma|^2 - |beta|^2 = 2 kappa, each written with its constant
    (T1 = log 16, T' = log(12/7), 2 kappa) on the left."""
    from verify import Exists

    sp = _sp()
    from .critical_points import lumped_system
    from .population import lumped_targets

    (e1, e2, gauge), unknowns, kap = lumped_system("3/5", "1/2", 5)
    T1, Tp = lumped_targets(sp.Rational(3, 5), sp.Rational(1, 2), 5, log=sp.log)
    g1, gl, b = unknowns
    # the gauge with its squares as unevaluated products, so that its only integer 2 is the one of 2 kappa
    # (a perturbation that rescales a constant rescales that one, not an exponent)
    sq = {x: sp.Mul(x, x, evaluate=False) for x in (g1, gl, b)}
    norm2 = sp.Add(sq[g1], sp.Mul(4, sq[gl], evaluate=False), sp.Mul(sp.Rational(-4, 5), sq[b], evaluate=False),
                   evaluate=False)
    if sp.simplify(norm2 - (gauge + 2 * kap)) != 0:
        raise AssertionError("the gauge of lumped_system is not |gamma|^2 - |beta|^2 - 2 kappa")
    return Exists(unknowns, "the box of radius 1e-20 about the 30-digit Newton point, kappa fixed at the value "
                  "the symmetric flow reaches (" + F4_DOMAIN + ", lam = 1/2)",
                  sp.And(sp.Eq(T1, e1 + T1), sp.Eq(Tp, e2 + Tp), sp.Eq(2 * kap, norm2)))


def lumped_targets_derivation() -> Any:
    """T1 - T' = log(28/3) at F4 (spec §3: T1 = log 16, T' = log(12/7)): the lumped logit targets in closed
    form.  pi1 = a/(1 + a), lam = b/(1 + b), d = n + 1 (a, b > 0, n >= 1), so that every spot-check point is a
    chain of the family (pi1, lam in (0, 1), d >= 2)."""
    from verify import Derivation, Step

    sp = _sp()
    a, b = sp.symbols("a b", positive=True)
    n = sp.Symbol("n", positive=True, integer=True)
    p1, lm, d = a / (1 + a), b / (1 + b), n + 1
    f4 = {a: sp.Rational(3, 2), b: 1, n: 4}   # pi1 = 3/5, lam = 1/2, d = 5
    T1 = sp.log((d - 1) * (lm + (1 - lm) * p1) / ((1 - lm) * (1 - p1)))
    Tp = sp.log((d - 1) * (1 - lm) * p1 / (lm + (1 - lm) * (1 - p1)))
    return Derivation(
        Step("T1 - T' (spec §3)", T1 - Tp),
        Step("quotient of the logs' arguments",
             sp.log((lm + (1 - lm) * p1) * (lm + (1 - lm) * (1 - p1)) / ((1 - lm) ** 2 * p1 * (1 - p1))),
             why="log x - log y = log(x/y) for x, y > 0; the factors d - 1 cancel"),
        Step("at F4", sp.log(sp.Rational(28, 3)), subs=f4, why="(4/5)(7/10)/((1/4)(6/25)) = 28/3 = 16/(12/7)"),
    )


# -- focus.stage4.stall / stall_all_lambda ------------------------------------------------------------------
def _stall_body() -> Any:
    from verify import AllOf

    sp = _sp()
    s = symbols()
    return AllOf(in_manifold_top=sp.Le(s["lambda_in"], sp.Rational(1, 10**20)),
                 sigma2=sp.Le(s["sigma_2"], 10 * s["epsilon"]),
                 loss_dev=sp.Le(s["Delta_L"], sp.Rational(1, 10**9)))


def stall_statement() -> Any:
    from verify import ForAll

    s = symbols()
    return ForAll((s["lambda"],), "lam in {1/2, 11/20, 3/5} (the stable regime; " + F4_DOMAIN + ", delta = 0; "
                  "the full flow m = m_k = 8, eps = 1e-3 at lam = 1/2 on t in [300, T])", _stall_body())


def stall_all_statement() -> Any:
    from verify import ForAll

    s = symbols()
    return ForAll((s["lambda"],), "lam in [0, 1) (" + F4_DOMAIN + ", delta = 0; the full flow m = m_k = 8, "
                  "eps = 1e-3 on t in [300, T]); the checks supply the pinned lam = 7/10", _stall_body())


# -- focus.stage4.lyapunov_schmidt, transverse_rate_certified, transverse_mode ------------------------------
def _ls_parts(*labels: str) -> list[tuple[str, Any]]:
    """The Lyapunov-Schmidt relations on the F5 observables, by label (shared by the three claims)."""
    sp = _sp()
    s = symbols()
    parts = {
        # |d(lambda_perp/delta)/d delta| <= 1 over the grid: lambda_perp/delta = kappa_T + O(delta)
        "lipschitz": sp.Le(s["R_Lip"], 1),
        # kappa_T = lim lambda_perp/delta (extrapolated), spec §4.14: 0.0767 +- 1e-4
        "kappa_T": sp.Eq(s["kappa_T"], sp.Rational(767, 10000)),
        # linear in delta: lambda_perp(delta)/lambda_perp(delta/2) = 2 (+- 1/5, spec §4.14 [1.8, 2.2])
        "ratio_window": sp.Eq(s["lambda_perp"] / s["lambda_perp_half"], 2),
        # the top eigenvalue of the full Jacobian is sigma_max(G_M) (the transverse block)
        "top_vs_sigma": sp.Eq(s["lambda_top"], s["sigma_max"]),
        # its eigenvector lies in the transverse block (second hidden direction)
        "transverse": sp.Ge(s["w_perp"], sp.Rational(999, 1000)),
        # the in-manifold eigenvalues stay at 0
        "in_manifold": sp.Le(s["lambda_in"], sp.Rational(1, 10**11)),
        # t_esc ∝ 1/delta: log-log slope -1 (+- 0.15)
        "escape_slope": sp.Eq(s["s_esc"], -1),
        # lambda_perp/delta varies by at most 1 % over the grid (max/min, certified)
        "spread": sp.Le(s["S_spread"], sp.Rational(101, 100)),
        # 4 zero modes of the reduced Hessian: 3 gauges of spec §2.8 + the hidden scaling
        "zero_modes": sp.Eq(s["N_0"], 4),
    }
    return [(k, parts[k]) for k in labels]


def lyapunov_schmidt_statement() -> Any:
    from verify import AllOf, ForAll

    s = symbols()
    return ForAll((s["delta"],), F5_DOMAIN + " (the 30-digit critical point theta2_delta of the rank-one flow)",
                  AllOf(*_ls_parts("lipschitz", "kappa_T", "ratio_window", "top_vs_sigma", "transverse",
                                   "in_manifold", "escape_slope")))


def transverse_certified_statement() -> Any:
    from verify import AllOf, ForAll

    s = symbols()
    return ForAll((s["delta"],), F5_DOMAIN + " (theta2_delta certified by Krawczyk, sigma_max(G_M) enclosed)",
                  AllOf(*_ls_parts("spread", "zero_modes")))


def transverse_mode_statement() -> Any:
    from verify import AllOf, ForAll

    s = symbols()
    return ForAll((s["delta"],), F5_DOMAIN + " and zero-sum directions c (the seed's small asymmetry)",
                  AllOf(*_ls_parts("spread", "lipschitz", "kappa_T", "ratio_window", "top_vs_sigma",
                                   "transverse", "in_manifold")))


def lyapunov_schmidt_derivation() -> Any:
    """Why the ratio differences shrink like delta: with lambda_perp = kappa_T delta + a delta^2,
    lambda_perp(delta)/delta - lambda_perp(delta/2)/(delta/2) = a delta/2 (kappa_T cancels), so the
    ratio is Lipschitz in delta and converges to kappa_T; and the escape time log(s/eps)/(kappa_T delta)
    has log-log slope -1 in delta."""
    from verify import Derivation, Step

    sp = _sp()
    dl, kT, a = sp.symbols("delta kappa_T a", positive=True)

    def lp(x: Any) -> Any:
        return kT * x + a * x**2

    return Derivation(
        Step("ratio difference", lp(dl) / dl - lp(dl / 2) / (dl / 2)),
        Step("kappa_T cancels", a * dl / 2, why="lambda_perp = kappa_T delta + a delta^2 (Lyapunov-Schmidt)"),
    )


def transverse_block_derivation() -> Any:
    """The transverse block [[0, G], [G^T, 0]] of the full Jacobian along a new hidden direction has the
    characteristic polynomial det(x^2 I - G G^T), so its eigenvalues are +-sigma_i(G): lambda_perp =
    sigma_max(G_M) (spec §4.14; shown for a generic 2 x 2 G)."""
    from verify import Derivation, Step

    sp = _sp()
    x = sp.Symbol("x", real=True)
    g = sp.Matrix(2, 2, sp.symbols("g_11 g_12 g_21 g_22", real=True))
    Z = sp.zeros(2, 2)
    B = sp.Matrix(sp.BlockMatrix([[Z, g], [g.T, Z]]))
    return Derivation(
        Step("characteristic polynomial of the transverse block", (x * sp.eye(4) - B).det()),
        Step("Schur complement", (x**2 * sp.eye(2) - g * g.T).det(),
             why="det [[xI, -G], [-G^T, xI]] = det(xI) det(xI - G^T G / x) = det(x^2 I - G G^T)"),
    )
