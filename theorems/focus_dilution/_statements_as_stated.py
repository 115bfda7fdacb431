"""Statements of the as-stated headline claims of the seed's four stages (arXiv:2605.01199, seed 002
L24-L45), as sympy relations over the observables the checks read off the product's flows, Hessians and
closed forms.  Builders are lazy; AllOf labels are the sub-check names the controls target."""

from __future__ import annotations

from typing import Any

import sympy as sp

# -- the cycle and the dilution (E1 reference runs; event times from flow.events) ----------------------
t_R1, t_onset, t_focus, t_peak, t_dil, t_new, t_second = sp.symbols(
    "t_R1 t_onset t_focus t_peak t_dilution t_new t_second", positive=True)
F_peak = sp.Symbol(r"F(t_{\mathrm{peak}})", positive=True)
F_min = sp.Symbol(r"\min_{t_{\mathrm{peak}} \le t \le t_{\mathrm{new}}} F", positive=True)


def cycle() -> Any:
    """seed L20, L43, L45: the four stages occur, in order -- condensation (R1), attention onset, focus
    (A_11 >= 0.9) at or before the focus peak, dilution (F <= F(peak) - 1e-3), the new embedding direction
    (sigma2(W0) >= 0.1) -- and then the next cycle's attention direction (sigma2(W_Q W_K^T) >= 0.1)."""
    from verify import AllOf, ForAll

    return ForAll(
        sp.Symbol("E1"),
        "the E1 flow: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam = 1/2 (ci: also 9/10), eps = 1e-3, m = m_k = 8; "
        "t_x the first time of each event of flow.events (every event occurs)",
        AllOf(order=sp.And(sp.Lt(t_R1, t_onset), sp.Lt(t_onset, t_focus), sp.Le(t_focus, t_peak),
                           sp.Lt(t_peak, t_dil), sp.Lt(t_dil, t_new), sp.Lt(t_new, t_second))))


def dilution() -> Any:
    """seed L36: after the focus peak the focus mass F = sum_q pi_q A_q1 falls by at least 1e-3 (1000 x
    its integration error) before the new embedding direction appears."""
    from verify import AllOf, ForAll

    return ForAll(
        sp.Symbol("E1"),
        "the E1 flow (lam = 1/2; ci: also 9/10), eps = 1e-3; F = sum_q pi_q A_q1",
        AllOf(dilution=sp.And(sp.Lt(t_peak, t_new), sp.Le(F_min, F_peak - sp.Rational(1, 1000)))))


# -- Stage II as stated: the saddle -----------------------------------------------------------------------
g_i = sp.Symbol(r"(\nabla L(\theta_{c}^{1}))_{i}", real=True)
lam_outer = sp.Symbol(r"\lambda_{\max}(J_{\mathrm{outer}})", real=True)
eta = sp.Symbol("eta", positive=True)
n_unstable, n_stable, n_att_unstable = sp.symbols("n_{J>0} n_{J<0} n_{att>0}", nonnegative=True, integer=True)
lam_u, lam_att = sp.symbols("lambda_u lambda_att", real=True)


def saddle() -> Any:
    """seed L30: theta_c1 is a saddle point (critical; an unstable and a stable eigenvalue of
    J = -Hessian(L)), the (W0, W1) subsystem contracts or is neutral (no outer eigenvalue reaches eta),
    and the attention subsystem has a unique unstable mode (exactly one unstable eigenvalue, the
    attention block's)."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("lambda")),
        "F1 chains, lam in (0, 1), pi not uniform (d <= 4, E1 at lam = 1/2, 9/10), m = 2, m_k = 1, "
        "eta = 1e-30; i over the parameters",
        AllOf(critical=sp.Eq(g_i, 0), outer_stability=sp.Lt(lam_outer, eta),
              unstable_count=sp.And(sp.Eq(n_unstable, 1), sp.Ge(n_stable, 1)),
              attention_mode=sp.And(sp.Eq(n_att_unstable, 1), sp.Eq(lam_att, lam_u))))


# -- Stage III as stated: opposite motion ---------------------------------------------------------------
k_split = sp.Symbol("k", positive=True, integer=True)
d_tok = sp.Symbol("d", positive=True, integer=True)
rho_prefix_min = sp.Symbol(r"\min_{q \le k} \rho_q", real=True)
rho_rest_max = sp.Symbol(r"\max_{q > k} \rho_q", real=True)
rho_1 = sp.Symbol("rho_1", real=True)
rho_others_max = sp.Symbol(r"\max_{q \ge 2} \rho_q", real=True)


def opposite_motion_plural() -> Any:
    """seed L36, plural 'tokens': with the tokens sorted by frequency, a frequency prefix {1..k}
    (1 <= k <= d - 1) moves one way (rho_q > 0) and the rest the other (rho_q < 0); rho =
    lim P_pi^perp gamma / kappa (the product's closed form)."""
    from verify import AllOf, Exists, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("lambda")),
        "F1 chains, lam in (0, 1), pi not uniform (d <= 6), tokens sorted by frequency",
        Exists(k_split, "1..d-1 (the check supplies the witness: the number of leading positive rho_q)",
               AllOf(prefix_split=sp.And(sp.Ge(k_split, 1), sp.Le(k_split, d_tok - 1), sp.Gt(rho_prefix_min, 0),
                                         sp.Lt(rho_rest_max, 0)))))


def opposite_motion_singular() -> Any:
    """seed L36, singular 'token': the most frequent token moves opposite to every other token,
    rho_1 > 0 > rho_q for q >= 2 (tokens sorted by frequency)."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("lambda")),
        "F1 chains, lam in (0, 1), pi not uniform; tokens sorted by frequency",
        AllOf(singular_split=sp.And(sp.Gt(rho_1, 0), sp.Lt(rho_others_max, 0))))


# -- Stage II as stated: exponential growth along the unstable eigendirection, focus on the frequent token
rate = sp.Symbol(r"\mathrm{rate}(\|(W_Q, W_K)\|^2)", real=True)
lam_unst = sp.Symbol("lambda_u", real=True)
sin_angle = sp.Symbol(r"\sin \angle((W_{Q}, W_{K}), u)", nonnegative=True)
b_dir = sp.Symbol("b_dir", positive=True)   # the direction budget (non-growing part + nonlinear term)
A_min = sp.Symbol(r"\min_q A_{q k^*}", positive=True)
pi_star = sp.Symbol(r"\pi_{k^*}", positive=True)
A11_min = sp.Symbol(r"\min_{T_I < t \le t_{\mathrm{focus}}} A_{11}", positive=True)
F_stage_min = sp.Symbol(r"\min_{T_I < t \le t_{\mathrm{focus}}} F", positive=True)
pi_1 = sp.Symbol("pi_1", positive=True)


def focus() -> Any:
    """seed L31: from theta_c1 |(W_Q, W_K)|^2 grows exponentially at twice the unstable eigenvalue lam_u of
    -Hessian(L)(theta_c1) and its direction tends to the unstable eigenvector u; attention rises above its
    start pi_k* on the most frequent key(s) k* for every query; on the E1 flow A_11 and F stay above pi_1
    from T_I to the focus event."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("lambda")),
        "F1 chains with K2 > 0 and c >= 0.01 (pinned E1, (0.5, 0.3, 0.1, 0.1), the tie (0.4, 0.4, 0.1, 0.1)), "
        "m = 2, m_k = 1, started at theta_c1 + O(1e-6); stage_focus: the E1 flow, eps = 1e-3",
        AllOf(growth=sp.And(sp.Gt(rate, 0), sp.Eq(rate, 2 * lam_unst)),
              direction=sp.Le(sin_angle, b_dir),
              saddle_focus=sp.Gt(A_min, pi_star),
              stage_focus=sp.And(sp.Gt(A11_min, pi_1), sp.Gt(F_stage_min, pi_1))))


# -- Stage I as stated: rank-one condensation ---------------------------------------------------------
eps = sp.Symbol("epsilon", positive=True)
cos_W0 = sp.Symbol(r"\min \cos(u_{1}(W_{0}), \pi)", nonnegative=True)
cos_W1 = sp.Symbol(r"\min \cos(v_1(W_1), \pi - \mathbf{1}/d)", nonnegative=True)
sigma2_max = sp.Symbol(r"\max_{t \le T_I} \sigma_2(W_0)", nonnegative=True)
att_max = sp.Symbol(r"\max_{t \le T_I} \max(\|W_Q\|, \|W_K\|)", nonnegative=True)
att_0 = sp.Symbol(r"\max(\|W_{Q}(0)\|, \|W_{K}(0)\|)", positive=True)
att_ratio = sp.Symbol(r"r_{10^{-3}/10^{-4}}", positive=True)


def condensation() -> Any:
    """seed L24-L26: on the linear window (sigma1(W0) in [50 eps, 0.3]) W0 is aligned with pi and W1 with
    pi - 1/d (cosines >= 0.99), W0 stays rank one up to T_I (sigma2 <= 10 eps), and W_Q, W_K stay O(eps):
    at most 3 x their start, and their maximum scales like eps (ratio between eps = 1e-3 and 1e-4 in
    [3, 30])."""
    from verify import AllOf, ForAll

    c99 = sp.Rational(99, 100)
    return ForAll(
        (sp.Symbol("pi"), eps),
        "F1 chains E1 (lam = 1/2), (2/5, 7/20, 3/20, 1/10) (lam = 1/2), (1/2, 1/5, 3/20, 1/10, 1/20) "
        "(lam = 9/10); Gaussian starts of scale eps in {1e-3, 1e-4}, m = m_k = 8",
        AllOf(W0_direction=sp.Ge(cos_W0, c99), W1_direction=sp.Ge(cos_W1, c99),
              rank_one=sp.Le(sigma2_max, 10 * eps), attention_bound=sp.Le(att_max, 3 * att_0),
              attention_scaling=sp.And(sp.Ge(att_ratio, 3), sp.Le(att_ratio, 30))))
