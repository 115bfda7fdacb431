"""Statements and checked derivations of the collapse-instability claims (spec ddcl_incrt.md §2.3, §2.5,
§3.3-§3.4): the critical temperature tau_c = c lambda_1 (c = 4 full, c = 2 stop-gradient / free energy),
its unconditional reading, and seed Theorem 2's amplification readings.

The mode constant c lives here only: the checks pass the exact Hessian's observables (negative count,
Rayleigh quotients along the relative modes, the product's tau_c) and the part of the mode they ran
(``part`` = label, ``label + "_F"`` for the stop-gradient objective F).
"""

from __future__ import annotations

from typing import Any

# the mode constant of each objective: live-q L_q (full) and the free energy F (stop-gradient)
_MODES = (("", 4), ("_F", 2))
# symbol names the checks use as keys of their observables
N_OLD, N_NEW = "n(C)", r"n(C_{\mathrm{new}})"


def _sp():
    import sympy as sp

    return sp


def critical_temperature() -> Any:
    """For K >= 2 and the empirical covariance C (1/N) with eigenvalues lambda_1 >= ... >= lambda_d:

    * relative_modes: the Hessian of the loss at collapse has, along the relative modes
      w_k = xi_k v_j (sum_k xi_k = 0), the eigenvalue h_j = (2/K)(1 - c lambda_j / tau);
    * translation: along the translation modes (all w_k = v_j) the eigenvalue 2/K;
    * negative_count: collapse is linearly unstable (n_- > 0 negative Hessian eigenvalues) iff tau < c lambda_1
      (tau = c lambda_1 is degenerate and excluded);
    * threshold: the critical temperature is tau_c = c lambda_1;
    with c = 4 for L_q with live assignments (full training) and c = 2 for F (stop-gradient training).
    """
    sp = _sp()
    from verify import AllOf, ForAll

    tau, lam1, lamj, tau_c = sp.symbols("tau lambda_1 lambda_j tau_c", positive=True)
    K = sp.Symbol("K", positive=True, integer=True)
    h_j, h_t = sp.symbols("h_j h_t", real=True)
    n_neg = sp.Symbol("n_-", nonnegative=True, integer=True)
    Z = sp.Symbol("Z")
    parts = []
    for suffix, c in _MODES:
        parts += [
            ("relative_modes" + suffix, sp.Eq(h_j, 2 * (1 - c * lamj / tau) / K)),
            ("negative_count" + suffix, sp.And(sp.Implies(sp.Lt(tau, c * lam1), sp.Gt(n_neg, 0)),
                                               sp.Implies(sp.Gt(tau, c * lam1), sp.Eq(n_neg, 0)))),
            ("threshold" + suffix, sp.Eq(tau_c, c * lam1)),
        ]
    parts.append(("translation", sp.Eq(h_t, 2 / K)))
    return ForAll((Z, K, tau), "data sets Z in Q^{N x d} (C = empirical covariance, 1/N), K >= 2, tau > 0; "
                  "parts without suffix: L_q with live assignments (full training); suffix _F: the free "
                  "energy F (stop-gradient training)", AllOf(*parts))


def critical_temperature_derivation() -> Any:
    """The relative-mode Hessian eigenvalue at collapse, derived from the loss itself (full training,
    c = 4) on Z = {-a, a} (lambda_1 = a^2), K = 2: the Rayleigh quotient of the Hessian of L_q along the
    relative mode (1, -1)/sqrt 2 is d^2/dt^2 L_q(p = (t, -t)/sqrt 2) at t = 0."""
    sp = _sp()
    from verify import Derivation, Step

    a, tau = sp.symbols("a tau", positive=True)
    t = sp.Symbol("t", real=True)
    P = (t / sp.sqrt(2), -t / sp.sqrt(2))
    Lq = 0
    for z in (-a, a):
        dist = [(z - p) ** 2 for p in P]
        w = [sp.exp(-dk / tau) for dk in dist]
        Lq += sum(wk * dk for wk, dk in zip(w, dist)) / sum(w)
    Lq = Lq / 2
    return Derivation(
        Step("d^2/dt^2 L_q((t, -t)/sqrt 2) at t = 0 (Z = {-a, a}, K = 2, live Gibbs assignments)",
             sp.diff(Lq, t, 2).subs(t, 0)),
        Step("at collapse every Gibbs weight is 1/2", 1 - 4 * a ** 2 / tau),
        Step("h_1 = (2/K)(1 - c lambda_1/tau) with K = 2, c = 4, lambda_1 = a^2", 2 * (1 - 4 * a ** 2 / tau) / 2),
    )


def unconditional() -> Any:
    """R0: for every tau > 0 and every data set, collapse is unstable (n_- > 0)."""
    sp = _sp()
    from verify import AllOf, ForAll

    n_neg = sp.Symbol("n_-", nonnegative=True, integer=True)
    Z, K, tau = sp.symbols("Z K tau", positive=True)
    return ForAll((Z, K, tau), "data sets Z, K >= 2, every tau > 0, objective L_q (full) or F (stop-gradient)",
                  AllOf(negative_count=sp.Gt(n_neg, 0)))


def _counts():
    sp = _sp()
    t = sp.Symbol("t", positive=True)
    n_old, n_new = sp.Symbol(N_OLD, nonnegative=True, integer=True), sp.Symbol(N_NEW, nonnegative=True, integer=True)
    return t, n_old, n_new


def amplification() -> Any:
    """M-cat: C_new = [[C, B], [B^T, D]] (the head's channel appended).  For every threshold t = tau/c,
    n(C_new) = #{j : lambda_j(C_new) > t} >= #{j : lambda_j(C) > t} = n(C) (Cauchy interlacing), so
    n_u, gamma_max, Phi and tau_c never decrease."""
    sp = _sp()
    from verify import AllOf, ForAll

    t, n_old, n_new = _counts()
    C, B, D = sp.symbols("C B D")
    return ForAll((C, B, D, t), "rational covariances C (d x d) of Y and C_new of [Y, O] (M-cat), thresholds t > 0",
                  AllOf(count=sp.Ge(n_new, n_old)))


def amplification_derivation() -> Any:
    """The interlacing chain for one appended channel on a 1-D input (C = c, C_new = [[c, b], [b, e]]):
    lambda_1(C_new) = (c + e)/2 + sqrt(((c - e)/2)^2 + b^2) >= (c + e)/2 + |c - e|/2 = max(c, e) >= c."""
    sp = _sp()
    from verify import Derivation, Step

    c, e = sp.symbols("c e", positive=True)
    b = sp.Symbol("b", real=True)
    return Derivation(
        Step("top eigenvalue of [[c, b], [b, e]]", (c + e) / 2 + sp.sqrt(((c - e) / 2) ** 2 + b ** 2)),
        Step("drop b^2 >= 0 under the root", (c + e) / 2 + sp.sqrt(((c - e) / 2) ** 2), relation=">="),
        Step("(c + e)/2 + |c - e|/2 = max(c, e)", sp.Max(c, e)),
        Step("max(c, e) >= c = lambda_1(C)", c, relation=">="),
    )


def amplification_additive() -> Any:
    """M-add: C_new = C + B + B^T + D (the head's output added, any head): n(C_new) >= n(C)."""
    sp = _sp()
    from verify import AllOf, ForAll

    t, n_old, n_new = _counts()
    C, B, D = sp.symbols("C B D")
    return ForAll((C, B, D, t), "rational covariances C of Y and C_new of Y + O (M-add), any head output O, "
                  "thresholds t > 0", AllOf(count=sp.Ge(n_new, n_old)))


def amplification_additive_uncorrelated() -> Any:
    """M-add with Cov(y, o) = 0: C_new = C + D, D >= 0 (Weyl), so n(C + D) >= n(C)."""
    sp = _sp()
    from verify import AllOf, ForAll

    t, n_old, n_new = _counts()
    C, D = sp.symbols("C D")
    return ForAll((C, D, t), "rational covariances C of Y and C_new of Y + O with Cov(Y, O) = 0 exactly, "
                  "thresholds t > 0", AllOf(count=sp.Ge(n_new, n_old)))


def amplification_incrt() -> Any:
    """Seed Theorem 2 as stated: every INCRT birth (u the top eigenvector of A_res, its channel appended)
    strictly raises the collapse instability: n(C_new) > n(C) at t = tau/c, or lambda_1(C_new) > lambda_1(C)
    (sigma = sign(lambda_1(C_new) - lambda_1(C)), decided exactly)."""
    sp = _sp()
    from verify import AllOf, ForAll

    t, n_old, n_new = _counts()
    sigma = sp.Symbol("sigma", integer=True)  # sign(lambda_1(C_new) - lambda_1(C))
    G, M = sp.symbols("G M_a")
    return ForAll((G, M), "tokens with covariance G = C, antisymmetric M_a, INCRT's birth u (lambda_max(A_res) "
                  "> theta), K, tau, c as before and after the birth",
                  AllOf(amplification=sp.Or(sp.Gt(n_new, n_old), sp.Gt(sigma, 0))))


def amplification_incrt_weak() -> Any:
    """Repaired: an INCRT birth never lowers the instability: n(C_new) >= n(C) at every sampled t and
    lambda_1(C_new) >= lambda_1(C) (sigma >= 0)."""
    sp = _sp()
    from verify import AllOf, ForAll

    t, n_old, n_new = _counts()
    sigma = sp.Symbol("sigma", integer=True)  # sign(lambda_1(C_new) - lambda_1(C))
    G, M = sp.symbols("G M_a")
    return ForAll((G, M), "tokens with covariance G = C, antisymmetric M_a, INCRT's birth u, thresholds t",
                  AllOf(amplification=sp.And(sp.Ge(n_new, n_old), sp.Ge(sigma, 0))))


def objective_alone() -> Any:
    """The abstract's sentence as a predicate: under the objective's own gradient dynamics, with no
    regulariser term, collapse is not a stable state -- 'stable' and 'the dynamics' are not fixed by the
    source (full or stop-gradient training, every tau or some), so the claim is expected UNKNOWN."""
    import sympy as sp

    from verify import ForAll

    Z, tau = sp.Symbol("Z"), sp.Symbol("tau", positive=True)
    return ForAll((Z, tau), "data sets and temperatures under the candidate readings (undetermined)",
                  sp.Not(sp.Function("StableCollapse")(Z, tau)))
