"""Statements (and checked derivations) of the spectral claims at the origin and at theta_c^1 (spec §4.4,
§4.6, §4.7, §4.9), as sympy relations over the observables the checks compute from the product code.

Each builder is lazy (``Claim(statement=origin_spectrum)``); the AllOf labels are the sub-check names the
claims' controls target.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

# -- symbols (a symbol's name is the key of the observable a check supplies) ---------------------------
d, m, m_k = sp.symbols("d m m_k", positive=True, integer=True)
pi_i, pi_k, pi_q = sp.symbols("pi_i pi_k pi_q", positive=True)
G_M_ik = sp.Symbol("G_{M,ik}(0)", real=True)
G_Phi_ik = sp.Symbol(r"G_{\Phi,ik}(0)", real=True)
mu0_sq = sp.Symbol("mu_0^2", positive=True)             # squared top eigenvalue of -Hessian(L)(0)
mu_ref_sq = sp.Symbol(r"(\mu_0^{\mathrm{ref}})^2", positive=True)    # the product's closed form (reference_formulas)
n_pi2 = sp.Symbol(r"\|\pi\|^2", positive=True)
n_v2 = sp.Symbol(r"\|v\|^2", positive=True)
n_plus, n_minus, n_zero = sp.symbols("n_+ n_- n_0", nonnegative=True, integer=True)
n_J = sp.Symbol(r"N_{-\nabla^2 L(0) \neq J_0}", nonnegative=True, integer=True)


def origin_spectrum() -> Any:
    """spec §4.4: at theta = 0, G_M = -pi v^T (v = pi - 1/d), G_Phi = 0, -Hessian(L)(0) is the flow
    Jacobian J0 built from G0 = pi v^T, and its spectrum is {+mu0 (x m), -mu0 (x m), 0 (x 2dm + 2m m_k -
    2m)} with mu0 = |pi| |v|; the product's mu0 is that eigenvalue."""
    from verify import AllOf, ForAll

    P = sp.Symbol("P")
    return ForAll(
        (sp.Symbol("pi"), P),
        "rational Markov chains (pi P = pi, pi not uniform), d <= 4 (pinned: d <= 5), m = m_k = 2; "
        "i, k in 1..d",
        AllOf(G0=sp.And(sp.Eq(G_M_ik, -pi_i * (pi_k - 1 / d)), sp.Eq(G_Phi_ik, 0)),
              jacobian=sp.Eq(n_J, 0),
              eigenvalue=sp.Eq(mu0_sq, n_pi2 * n_v2),
              charpoly=sp.And(sp.Eq(n_plus, m), sp.Eq(n_minus, m),
                              sp.Eq(n_zero, 2 * d * m + 2 * m * m_k - 2 * m)),
              mu0=sp.Eq(mu_ref_sq, mu0_sq)))


def origin_spectrum_derivation() -> Any:
    """mu0^2 = |pi|^2 |v|^2 from the Jacobian blocks (d = 3, symbolic pi): on (W0, W1) the flow at 0 is
    dW0' = G0 dW1^T, dW1' = dW0^T G0, so J0^2 acts on W0 as dW0 -> G0 G0^T dW0; G0 = pi v^T has rank one,
    so the one nonzero eigenvalue of G0 G0^T is its trace, sum_{i,k} pi_i^2 v_k^2 = |pi|^2 |v|^2."""
    from verify import Derivation, Step

    p = sp.symbols("pi_1:4", positive=True)
    v = [x - sp.Rational(1, 3) for x in p]
    G0 = sp.Matrix(3, 3, lambda i, k: p[i] * v[k])
    GG = G0 * G0.T
    return Derivation(
        Step("J0^2 on W0 is G0 G0^T (rank one): its nonzero eigenvalue is the trace", GG.trace()),
        Step("expand the trace of pi v^T v pi^T", sum(p[i] ** 2 * v[k] ** 2 for i in range(3) for k in range(3))),
        Step("factor", sum(x * x for x in p) * sum(x * x for x in v)),
        Step("name the norms", n_pi2 * n_v2, why="|pi|^2 = sum pi_i^2, |v|^2 = sum (pi_k - 1/3)^2",
             subs={n_pi2: sum(x * x for x in p), n_v2: sum(x * x for x in v)}),
        concludes="eigenvalue")


# -- §4.7 the saddle's eigenstructure ------------------------------------------------------------------
c_H = sp.Symbol("c_H", real=True)              # the attention entry -Hessian(L)[W_Q[0, j], W_K[0, j]]
c_ref = sp.Symbol("c", real=True)              # the product's growth rate (reference_formulas)
s_c2 = sp.Symbol("s_c^2", positive=True)
n2 = sp.Symbol("n_2", positive=True)           # |pi|^2
K1, K2 = sp.symbols("K_1 K_2", real=True)
n_pos, n_neg = sp.symbols("n_{J>0} n_{J<0}", nonnegative=True, integer=True)
n_out_pos, n_out_neg = sp.symbols("n_{outer>0} n_{outer<0}", nonnegative=True, integer=True)
n_att_pos, n_att_neg = sp.symbols("n_{att>0} n_{att<0}", nonnegative=True, integer=True)


def saddle_eigenstructure() -> Any:
    """spec §4.7: at theta_c^1 the attention entries of J = -Hessian(L) are c = (s_c^2/n2) K1 K2 (the
    product's c), J has exactly m_k certified positive and d - 1 + m_k certified negative eigenvalues,
    its (W0, W1) block d - 1 negative and none positive, its attention block +-|c| (x m_k)."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("P")),
        "rational Markov chains with pi not uniform and K2 != 0 (d <= 4, pinned chains), m = m_k = 2",
        AllOf(c_formula=sp.Eq(c_H, s_c2 / n2 * K1 * K2),
              attention_c=sp.Eq(c_ref, c_H),
              spectrum=sp.And(sp.Eq(n_pos, m_k), sp.Eq(n_neg, d - 1 + m_k)),
              outer_spectrum=sp.And(sp.Eq(n_out_neg, d - 1), sp.Eq(n_out_pos, 0)),
              attention_spectrum=sp.And(sp.Eq(n_att_pos, m_k), sp.Eq(n_att_neg, m_k))))


def saddle_eigenstructure_derivation() -> Any:
    """c = -gamma^T G_Phi gamma (the attention entry of the flow Jacobian at theta_c^1, W0 = gamma e1^T)
    with the closed form (G_Phi)_qk = -pi_q pi_k (pi_k/n2 - 1) r_q and gamma = s_c pi / |pi| (d = 3,
    symbolic pi, r, s_c^2): the double sum factors into K2 = sum_q pi_q^2 r_q times
    sum_k pi_k^2 (pi_k/n2 - 1) = (sum pi^3 - n2^2)/n2 = K1 = Var_pi(pi.)/n2."""
    from verify import Derivation, Step

    p = sp.symbols("pi_1:4", positive=True)
    r = sp.symbols("r_1:4", real=True)
    sc2 = s_c2
    nn = sum(x * x for x in p)
    gam = [sp.sqrt(sc2) * x / sp.sqrt(nn) for x in p]
    GPhi = [[-p[q] * p[k] * (p[k] / nn - 1) * r[q] for k in range(3)] for q in range(3)]
    k2 = sum(p[q] ** 2 * r[q] for q in range(3))
    k1 = (sum(x ** 3 for x in p) - nn ** 2) / nn
    return Derivation(
        Step("attention entry of J at theta_c1", -sum(gam[q] * GPhi[q][k] * gam[k] for q in range(3)
                                                      for k in range(3))),
        Step("gamma = s_c pi/|pi|", sc2 / nn * sum(p[q] ** 2 * p[k] ** 2 * (p[k] / nn - 1) * r[q]
                                                   for q in range(3) for k in range(3))),
        Step("the double sum factors", sc2 / nn * k2 * sum(p[k] ** 2 * (p[k] / nn - 1) for k in range(3))),
        Step("sum_k pi_k^2 (pi_k/n2 - 1) = (sum pi^3 - n2^2)/n2 = K1", sc2 / nn * k2 * k1),
        Step("name n2, K1, K2", s_c2 / n2 * K1 * K2, why="n2 = |pi|^2, K1 = Var_pi(pi.)/n2, K2 = sum pi_q^2 r_q",
             subs={n2: nn, K1: k1, K2: k2}),
        concludes="c_formula")


# -- §4.9 the growth rate's sign -------------------------------------------------------------------------
lam = sp.Symbol("lambda", positive=True)
cov = sp.Symbol(r"\mathrm{Cov}_\pi(\pi, \log \pi)", real=True)    # centred covariance under pi
var = sp.Symbol(r"\mathrm{Var}_\pi(\pi)", nonnegative=True)      # centred variance under pi
c_half = sp.Symbol(r"c(\lambda/2)", real=True)
sigma_mode = sp.Symbol(r"(\delta W_{Q} \, \delta W_{K})_{u}", real=True)    # attention sign of J's unstable eigenvector
l_norm = sp.Symbol(r"\|\ell\|", positive=True)              # norm of the centred log-frequencies
pi_norm = sp.Symbol(r"\|\pi\|", positive=True)


def growth_rate_sign() -> Any:
    """spec §4.9: for F1 (P = lam I + (1 - lam) 1 pi^T) K2 = lam Cov_pi(pi., log pi.) and K1 =
    Var_pi(pi.)/n2, so c = (s_c^2/n2) K1 K2 = lam |l| Var Cov / |pi|^5 > 0 (s_c^2 = |l|/|pi|) and c is
    linear in lam; for any chain the unstable
    eigenvector of -Hessian(L)(theta_c1) has sign(dW_Q dW_K) = sign(K2)."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), lam),
        "F1 chains with pi not uniform and lam in (0, 1) (mode_sign: Metropolis and positive chains, F6, F7 "
        "with |K2| >= 1e-6; m = m_k = 1)",
        AllOf(closed_form=sp.Eq(c_ref, lam * l_norm * var * cov / pi_norm ** 5),
              K2_cov=sp.Eq(K2, lam * cov), K1_var=sp.Eq(K1, var / n2), sign=sp.Gt(c_ref, 0),
              lambda_scaling=sp.Eq(c_half, c_ref / 2), mode_sign=sp.Gt(sigma_mode * K2, 0)))


def growth_rate_sign_derivation() -> Any:
    """K2 = lam Cov_pi(pi., log pi.) for F1 (d = 3, symbolic pi with pi_3 = 1 - pi_1 - pi_2, symbolic lam
    and shift mu of the centred logs): P - 1 pi^T = lam (I - 1 pi^T), so r_q = lam (l_q - pi.l) and
    K2 = sum_q pi_q^2 r_q = lam (sum_q pi_q^2 l_q - n2 pi.l); the shift mu cancels because sum pi = 1."""
    from verify import Derivation, Step

    p1, p2, mu = sp.symbols("pi_1 pi_2 mu", positive=True)
    p = [p1, p2, 1 - p1 - p2]
    ell = [sp.log(x) - mu for x in p]
    P = [[lam * (1 if i == j else 0) + (1 - lam) * p[j] for j in range(3)] for i in range(3)]
    nn = sum(x * x for x in p)
    mlog = sum(x * sp.log(x) for x in p)
    cov_def = sum(x * (x - nn) * (sp.log(x) - mlog) for x in p)
    return Derivation(
        Step("K2 = sum_q pi_q^2 r_q, r = (P - 1 pi^T) l",
             sum(p[q] ** 2 * sum((P[q][k] - p[k]) * ell[k] for k in range(3)) for q in range(3))),
        Step("P - 1 pi^T = lam (I - 1 pi^T)",
             lam * sum(p[q] ** 2 * (ell[q] - sum(p[k] * ell[k] for k in range(3))) for q in range(3))),
        Step("collect", lam * (sum(p[q] ** 2 * ell[q] for q in range(3)) - nn * sum(p[k] * ell[k] for k in range(3)))),
        Step("the shift mu cancels (sum pi = 1)", lam * (sum(x * x * sp.log(x) for x in p) - nn * mlog)),
        Step("centred form", lam * cov_def, why="E_pi[(pi. - n2)(log pi. - E_pi log pi.)], sum pi = 1"),
        Step("name the covariance", lam * cov, subs={cov: cov_def}),
        concludes="K2_cov")


# -- §4.6 the saddle's location --------------------------------------------------------------------------
grad_norm = sp.Symbol(r"\|\nabla L(\theta_{c}^{1})\|", nonnegative=True)
L_c = sp.Symbol(r"L(\theta_{c}^{1})", real=True)
H_pi = sp.Symbol(r"H(\pi)", positive=True)
G_Phi_qk = sp.Symbol(r"G_{\Phi,qk}(\theta_c^1)", real=True)
r_q = sp.Symbol("r_q", real=True)
tau = sp.Symbol("tau", positive=True)


def saddle_location() -> Any:
    """spec §4.6: theta_c^1 (W0 = s_c pi_hat e1^T, W1 = s_c e1 l_hat^T, W_Q = W_K = 0) is critical, with
    L = H(pi) and (G_Phi)_qk = -(1/tau) pi_q pi_k (pi_k/n2 - 1) r_q, r = (P - 1 pi^T) l."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("pi"), sp.Symbol("P")),
        "Markov chains with pi not uniform (d <= 6), m = m_k = 2, tau = 1; q, k in 1..d",
        AllOf(critical=sp.Eq(grad_norm, 0),
              values=sp.And(sp.Eq(L_c, H_pi), sp.Eq(G_Phi_qk, -pi_q * pi_k * (pi_k / n2 - 1) * r_q / tau))))


def saddle_location_derivation() -> Any:
    """L(theta_c1) = H(pi) (F1, d = 3, symbolic pi, lam and shift mu): at theta_c1 Phi = 0 and
    Z = A M = 1 l^T with l = log pi - mu, softmax(l) = pi, and sum_q pi_q P_qy = pi_y."""
    from verify import Derivation, Step

    p1, p2, mu = sp.symbols("pi_1 pi_2 mu", positive=True)
    p = [p1, p2, 1 - p1 - p2]
    P = [[lam * (1 if i == j else 0) + (1 - lam) * p[j] for j in range(3)] for i in range(3)]
    ell = [sp.log(x) - mu for x in p]
    Zs = sum(sp.exp(x) for x in ell)
    return Derivation(
        Step("L at Z = 1 l^T", -sum(p[q] * P[q][y] * sp.log(sp.exp(ell[y]) / Zs) for q in range(3)
                                    for y in range(3))),
        Step("softmax(l) = pi (the shift mu cancels)", -sum(p[q] * P[q][y] * sp.log(p[y]) for q in range(3)
                                                            for y in range(3))),
        Step("pi P = pi", -sum(p[y] * sp.log(p[y]) for y in range(3)), why="stationarity"),
        Step("the entropy", H_pi, subs={H_pi: -sum(x * sp.log(x) for x in p)}))
