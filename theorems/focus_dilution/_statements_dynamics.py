"""Statements and derivations of the focus dynamics claims (spec §4.5, §4.8, §4.10-§4.12, §4.15).

Lazy builders (``Claim(statement=condensation_statement)``).  The labels of the :class:`verify.AllOf` parts
are the sub-check names the checks record and the controls target; the checks compute observables from the
product code (flows of :mod:`.flow`, closed forms of :func:`.population.reference_formulas`) and evaluate the
parts on them (``gate(part).statement(st, values, part=part, tol=...)``).  Closed forms whose value the
product computes (mu0, c, rho, H(Y|X)) enter as observables; the relations between them and the flow
observables are the statements.
"""

from __future__ import annotations

from typing import Any

E1_DOMAIN = "E1: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam in {1/2, 9/10}, m = m_k = 8, eps = 1e-3, seeds 0-2"


def _sp() -> Any:
    import sympy as sp

    return sp


def symbols() -> dict[str, Any]:
    """The dynamics symbols, by the names the checks bind."""
    sp = _sp()
    real, pos, nonneg = dict(real=True), dict(positive=True), dict(nonnegative=True)
    names = {
        # condensation
        "r_sigma1": real, "mu_0": pos, "lambda_J0": real, "c_W0": real, "c_W1": real, "c_shared": real,
        "sigma_2": nonneg, "epsilon": pos, "Delta_A": nonneg, "rho_A": pos, "Delta_lin": nonneg, "t": nonneg,
        "c_l": real, "c_v": real,
        # focus direction
        "r_kappa": real, "c": real, "kappa": real, "s_c2": pos, "n_2": pos, "pi_q": pos, "pi_k": pos,
        "Delta_A_qk": real, "cos_Phi": real,
        # redistribution
        "u_gamma": real, "u_rho": real, "r_ugamma": real, "g_perp": real, "rho": real,
        # dilution
        "f_fall": real, "pi_1": pos, "A_max": pos, "A_later": pos, "D_max": pos, "D_min": pos,
        "F_max": pos, "F_end": pos, "A21_max": pos, "A21_end": pos,
        # plateaus
        "L_0": pos, "d": dict(positive=True, integer=True), "L_1": pos, "L_1_fine": pos, "L_final": pos,
        "H_YX": pos, "L_prev": pos, "L_next": pos, "r_W0": dict(nonnegative=True, integer=True),
        "pi_2": pos, "pi_3": pos, "pi_4": pos,
        # anti-focus
        "K_2": real, "A_11": pos,
    }
    return {n: sp.Symbol(n, **a) for n, a in names.items()}


# -- focus.stage1.condensation ----------------------------------------------------------------------------
def condensation_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    eps, mu0, t, dev = s["epsilon"], s["mu_0"], s["t"], s["Delta_lin"]
    return ForAll(
        (sp.Symbol("seed"),), E1_DOMAIN + " (lam = 1/2), the flow from eps N(0, 1) up to T_I",
        AllOf(rate=sp.Eq(s["r_sigma1"], mu0),                       # sigma1(W0) grows at mu0 = |pi||v|
              mu0_spectrum=sp.Eq(s["lambda_J0"], mu0),              # mu0 is the top eigenvalue of J0
              W0_direction=sp.Ge(s["c_W0"], sp.Rational(999, 1000)),     # u1(W0) along pi_hat
              W1_direction=sp.Ge(s["c_W1"], sp.Rational(999, 1000)),     # v1(W1) along v_hat
              shared_alpha=sp.Ge(s["c_shared"], sp.Rational(999, 1000)),  # one hidden direction alpha1
              rank_one=sp.Le(s["sigma_2"], 10 * eps),
              frozen=sp.Le(s["Delta_A"], sp.Rational(1, 10**4)),   # max|A(T_I) - 1 pi^T| at eps = 1e-3
              frozen_eps2=sp.And(sp.Ge(s["rho_A"], 30), sp.Le(s["rho_A"], 300)),  # O(eps^2): ratio 1e-3/1e-4
              linear_bound=sp.Le(dev, eps**2 * sp.exp(2 * mu0 * t)),
              cubic_deviation=sp.And(sp.Ge(dev / (eps**3 * sp.exp(3 * mu0 * t)), sp.Rational(1, 10)),
                                     sp.Le(dev / (eps**3 * sp.exp(3 * mu0 * t)), 10)),
              W1_plateau=sp.And(sp.Ge(s["c_l"], sp.Rational(995, 1000)), sp.Le(s["c_v"], sp.Rational(95, 100)))))


def condensation_derivation() -> Any:
    """mu0 = |pi| |v|: the origin Jacobian on (W0, W1) is [[0, -G0], [-G0^T, 0]] (x identity on the hidden
    index) with G0 = G_M(0) = -pi v^T, a rank-one matrix whose only nonzero singular value is |G0|_F =
    |pi| |v| (d = 3 shown; v = pi - 1/d)."""
    from verify import Derivation, Step

    sp = _sp()
    p1, p2 = sp.symbols("pi_1 pi_2", positive=True)
    pi = [p1, p2, 1 - p1 - p2]
    v = [p - sp.Rational(1, 3) for p in pi]
    G0 = sp.Matrix(3, 3, lambda i, j: -pi[i] * v[j])
    return Derivation(
        Step("sigma_max(G0)^2 = trace(G0 G0^T) (rank one)", (G0 * G0.T).trace()),
        Step("factor", sum(p**2 for p in pi) * sum(x**2 for x in v), why="(G0 G0^T)_ii = pi_i^2 |v|^2"),
    )


# -- focus.stage2.focus_direction ---------------------------------------------------------------------------
def focus_direction_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    kap, sc2, n2, pq, pk = s["kappa"], s["s_c2"], s["n_2"], s["pi_q"], s["pi_k"]
    return ForAll(
        (sp.Symbol("P"),), "chains with c > 0: pinned E1, pi = (0.5, 0.3, 0.1, 0.1), the tie (0.4, 0.4, 0.1, 0.1) "
        "and S_pi x F1; flows from theta_c1 (W_Q, W_K of scale 1e-6), and the E1 reference run",
        AllOf(saddle_rate=sp.Eq(s["r_kappa"], 2 * s["c"]),        # kappa ∝ e^{2ct} near theta_c1
              formula=sp.Eq(s["Delta_A_qk"], kap * sc2 * pq * pk * (pk - n2) / n2),
              gain_sign=sp.Ge(s["Delta_A_qk"] * (pk - n2), 0),    # key k gains iff pi_k > |pi|^2
              e1_rate=sp.Eq(s["r_kappa"], 2 * s["c"]),
              e1_alignment=sp.Ge(s["cos_Phi"], sp.Rational(999, 1000))))   # Phi/|Phi| -> pi_hat pi_hat^T


def focus_direction_derivation() -> Any:
    """Delta A at theta_c1: with Phi = kappa gamma gamma^T, gamma = s pi/|pi| (tau = 1),
    dA_qk/dkappa at 0 = pi_k gamma_q (gamma_k - sum_j pi_j gamma_j) = s^2 pi_q pi_k (pi_k - n2)/n2
    (d = 3, entry (q, k) = (1, 2) shown; the other entries are the same computation)."""
    from verify import Derivation, Step

    sp = _sp()
    p1, p2, kap, sc = sp.symbols("pi_1 pi_2 kappa s", positive=True)
    pi = [p1, p2, 1 - p1 - p2]
    n2 = sum(p**2 for p in pi)
    gam = [sc * p / sp.sqrt(n2) for p in pi]

    def A(q: int, k: int) -> Any:
        den = sum(pi[j] * sp.exp(kap * gam[q] * gam[j]) for j in range(3))
        return pi[k] * sp.exp(kap * gam[q] * gam[k]) / den

    return Derivation(
        Step("dA_12/dkappa at kappa = 0", sp.diff(A(0, 1), kap).subs(kap, 0)),
        Step("softmax derivative", pi[1] * gam[0] * (gam[1] - sum(pi[j] * gam[j] for j in range(3))),
             why="d/dk [pi_k e^{k x_k} / sum_j pi_j e^{k x_j}] at 0 = pi_k (x_k - sum_j pi_j x_j), sum pi = 1"),
        Step("closed form (spec §4.8)", sc**2 * pi[0] * pi[1] * (pi[1] - n2) / n2,
             why="gamma_q = s pi_q/|pi|, sum_j pi_j gamma_j = s n2/|pi|"),
    )


# -- focus.stage3.mass_redistribution ---------------------------------------------------------------------
def redistribution_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    return ForAll(
        (s["kappa"],), "kappa in [1e-6, 1e-3] on the F4 reduced flow (pi = (0.6, 0.1 x 4), lam = 1/2) and "
        "kappa in [1e-7, 1e-3] on the full E1 flow from theta_c1 (m = m_k = 8)",
        AllOf(ratio=sp.Eq(s["u_gamma"] / s["kappa"], s["u_rho"]),   # u.gamma = kappa u.rho + o(kappa)
              rate=sp.Eq(s["r_ugamma"], s["r_kappa"]),               # u.gamma ∝ kappa (not sqrt(kappa))
              kappa_rate=sp.Eq(s["r_kappa"], 2 * s["c"]),
              rho=sp.Eq(s["g_perp"] / s["kappa"], s["rho"])))        # P_pi^perp gamma = kappa rho + o(kappa)


def redistribution_derivation() -> Any:
    """The secondary's combination (1 - pi1) gamma_1 - (d - 1) pi1 gamma_l (F4) is u.gamma with
    u = ((d - 1) pi_l, -pi1, ..., -pi1), and u is orthogonal to pi: u.gamma reads P_pi^perp gamma
    (d = 5, pi_l = (1 - pi1)/4; the rare components equal by the F4 symmetry)."""
    from verify import Derivation, Step

    sp = _sp()
    p1, g1, gl = sp.symbols("pi_1 gamma_1 gamma_l", real=True)
    d = 5
    pl = (1 - p1) / (d - 1)
    u = [(d - 1) * pl] + [-p1] * (d - 1)
    gam = [g1] + [gl] * (d - 1)
    pi = [p1] + [pl] * (d - 1)
    return Derivation(
        Step("u.gamma", sum(a * b for a, b in zip(u, gam))),
        Step("secondary's combination", (1 - p1) * g1 - (d - 1) * p1 * gl, why="(d - 1) pi_l = 1 - pi1"),
        Step("plus u.pi = 0", (1 - p1) * g1 - (d - 1) * p1 * gl + sum(a * b for a, b in zip(u, pi)),
             why="u.pi = (d - 1) pi_l pi1 - pi1 (d - 1) pi_l = 0"),
    )


# -- focus.stage3.dilution ---------------------------------------------------------------------------------
def dilution_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    p1 = s["pi_1"]
    return ForAll(
        (sp.Symbol("seed"),), E1_DOMAIN + "; the F4 reduced run (pi = (0.6, 0.1 x 4), lam = 1/2)",
        AllOf(fall=sp.Ge(s["f_fall"], sp.Rational(3, 100)),     # F falls >= 3% below its peak before sigma2 = 0.1
              rare_dilution=sp.And(sp.Gt(s["A_max"], p1), sp.Lt(s["A_later"], p1)),   # every rare q
              dbar=sp.Le(s["D_min"], sp.Rational(4, 5) * s["D_max"]),   # D-bar: max, drop >= 20 %, rise
              f4_fall=sp.And(sp.Gt(s["F_max"], p1), sp.Le(s["F_end"], sp.Rational(97, 100) * s["F_max"])),
              f4_rare=sp.And(sp.Gt(s["A21_max"], p1), sp.Lt(s["A21_end"], p1))))


# -- focus.plateaus ----------------------------------------------------------------------------------------
def _entropy4(s: dict[str, Any]) -> Any:
    sp = _sp()
    return -sum(s[f"pi_{k}"] * sp.log(s[f"pi_{k}"]) for k in range(1, 5))


def plateaus_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    H = _entropy4(s)
    return ForAll(
        (sp.Symbol("seed"),), E1_DOMAIN + " (d = 4, to T = 3e4; eps = 1e-4 runs to t = 150)",
        AllOf(log_d=sp.Eq(s["L_0"], sp.log(s["d"])),                      # the loss starts at log d
              H_plateau=sp.Le(sp.Abs(s["L_1"] - H), sp.Rational(2, 1000)),  # first interior plateau H(pi)
              H_gap_shrinks=sp.Le(sp.Abs(s["L_1_fine"] - H), sp.Abs(s["L_1"] - H)),
              final=sp.Eq(s["L_final"], s["H_YX"]),
              decreasing=sp.Lt(s["L_next"], s["L_prev"]),
              rank=sp.Eq(s["r_W0"], s["d"] - 1)))


def plateaus_derivation() -> Any:
    """The first drop: L(theta = 0) = log d and, with Phi = 0 and the best M (Pred_q = pi for every q),
    L = H(pi) because pi P = pi; the drop log d - H(pi) = KL(pi || uniform) >= 0 (F1, d = 3)."""
    from verify import Derivation, Step

    sp = _sp()
    w = sp.symbols("w_1:4", positive=True)   # pi_k = w_k / sum w: every spot-check point is a distribution
    lm = sp.Symbol("lambda", positive=True)
    pi = [x / sum(w) for x in w]
    P = [[lm * int(i == j) + (1 - lm) * pi[j] for j in range(3)] for i in range(3)]
    L0 = -sum(pi[q] * P[q][y] * sp.log(sp.Rational(1, 3)) for q in range(3) for y in range(3))
    LH = -sum(pi[q] * P[q][y] * sp.log(pi[y]) for q in range(3) for y in range(3))
    H = -sum(p * sp.log(p) for p in pi)
    return Derivation(
        Step("L(0) - L(Phi = 0, Pred = pi)", L0 - LH),
        Step("rows of P sum to 1; pi P = pi", sp.log(3) - H, why="sum_y P_qy = 1, sum_q pi_q P_qy = pi_y (F1)"),
        Step("KL(pi || uniform)", sum(p * sp.log(3 * p) for p in pi)),
        Step("Gibbs", sp.Integer(0), relation=">=", why="KL >= 0"),
    )


# -- focus.ext.anti_focus ------------------------------------------------------------------------------------
def anti_focus_statement() -> Any:
    from verify import AllOf, ForAll

    sp = _sp()
    s = symbols()
    return ForAll(
        (sp.Symbol("P"),), "chains with |K2| bounded away from 0: F6 (E1's pi), P(theta) = theta F1 + "
        "(1 - theta) F6 at theta in {0.2, 0.34, 0.44, 0.6, 1}, F7, drawn F2/F3 (|K2| >= 1e-2); kappa and A_11 "
        "read when |kappa| first exceeds 1e-2",
        AllOf(kappa_sign=sp.Gt(s["kappa"] * s["K_2"], 0),                   # sign(kappa) = sign(K2)
              attention_sign=sp.Gt((s["A_11"] - s["pi_1"]) * s["K_2"], 0)))  # sign(A_11 - pi1) = sign(K2)


def anti_focus_derivation() -> Any:
    """sign(c) = sign(K2): c K2 = (s_c^2/n2) K1 K2^2 >= 0 with s_c^2, n2 > 0 and K1 = Var_pi(pi)/n2 >= 0."""
    from verify import Derivation, Step

    sp = _sp()
    sc2, n2, K1 = sp.symbols("s_c2 n_2 K_1", positive=True)
    K2, c = sp.symbols("K_2 c", real=True)
    c_formula = {c: sc2 / n2 * K1 * K2}   # spec §3
    return Derivation(
        Step("c K2", c * K2),
        Step("insert c = (s_c^2/n2) K1 K2", sc2 * K1 * K2**2 / n2, subs=c_formula),
        Step("nonnegative", sp.Integer(0), relation=">=", why="s_c^2, n2 > 0, K1 >= 0"),
    )
