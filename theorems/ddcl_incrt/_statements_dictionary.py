"""Statements (single source of truth) and checked derivations of the dictionary-block claims
(spec ddcl_incrt.md §2.2-§2.3, §3.1-§3.2).  Lazy builders: ``Claim(statement=decomposition, ...)``.

Each ``AllOf`` label is the name of the sub-check that evaluates it (``tally.statement(..., part=label)``),
so a control's ``targets`` names the part it must refute.  The checks supply observables computed by the
product code (and by independent computations such as torch autograd); the formulas live here only.
"""

from __future__ import annotations

from typing import Any

# symbol names the checks use as keys of their observables (LaTeX-friendly)
Q2 = r"\|q_i\|^{2}"
DLQ, DF = r"\partial_{\tau}L_{q}", r"\partial_{\tau}F"
VAR = r"\mathrm{Var}_q(d)"
ZT = r"\tilde{z}"
GRADF = r"\|\nabla_{p_k}F\|"


def _sp():
    import sympy as sp

    return sp


# -------------------------------------------------------------------------------------------------
# ddcl.dictionary.decomposition (§3.1)
# -------------------------------------------------------------------------------------------------
def _losses():
    sp = _sp()
    return sp.symbols("L_q L_OLS V", real=True)


def decomposition() -> Any:
    """L_q = L_OLS + V; V_i = 1/2 S_i with S_i = sum_{k,l} q_ik q_il |p_k - p_l|^2; V_i >= 0 and, for
    K >= 2, 1/2 D_min (1 - |q_i|^2) <= V_i <= 1/2 D_max (1 - |q_i|^2), D = squared pairwise distances."""
    sp = _sp()
    from verify import AllOf, ForAll

    L_q, L_ols, V = _losses()
    V_i, S_i = sp.symbols("V_i S_i", real=True)
    Dmin, Dmax, qn = sp.Symbol("D_min", nonnegative=True), sp.Symbol("D_max", nonnegative=True), sp.Symbol(Q2, nonnegative=True)
    Z, P, Q = sp.symbols("Z P Q")
    return ForAll((Z, P, Q), "data Z in R^{N x d}, prototypes P in R^{K x d}, rows q_i of Q in the simplex",
                  AllOf(identity=sp.Eq(L_q, L_ols + V),
                        pairwise=sp.Eq(V_i, S_i / 2),
                        sandwich=sp.And(sp.Ge(V_i, 0), sp.Le(Dmin * (1 - qn) / 2, V_i),
                                        sp.Le(V_i, Dmax * (1 - qn) / 2))))


def decomposition_derivation() -> Any:
    """One sample, d = 1, K = 3 with q_3 = 1 - q_1 - q_2 (every N by averaging, every d coordinatewise):
    expand |z - p_k|^2 around the reconstruction zt; the cross term vanishes since sum_k q_k (zt - p_k) = 0."""
    sp = _sp()
    from verify import Derivation, Step

    L_q, L_ols, V = _losses()
    z, p1, p2, p3 = sp.symbols("z p_1 p_2 p_3", real=True)
    q1, q2 = sp.symbols("q_1 q_2", positive=True)
    q = [q1, q2, 1 - q1 - q2]
    p = [p1, p2, p3]
    zt = sum(qk * pk for qk, pk in zip(q, p))
    defs = {L_q: sum(qk * (z - pk) ** 2 for qk, pk in zip(q, p)), L_ols: (z - zt) ** 2,
            V: sum(qk * (pk - zt) ** 2 for qk, pk in zip(q, p))}
    return Derivation(
        Step("L_q of one sample", L_q),
        Step("definition of L_q, and z - p_k = (z - zt) + (zt - p_k) with zt = sum_k q_k p_k",
             sum(qk * ((z - zt) + (zt - pk)) ** 2 for qk, pk in zip(q, p)), subs=defs),
        Step("expand the square",
             (z - zt) ** 2 * sum(q) + 2 * (z - zt) * sum(qk * (zt - pk) for qk, pk in zip(q, p))
             + sum(qk * (zt - pk) ** 2 for qk, pk in zip(q, p))),
        Step("sum_k q_k = 1 and sum_k q_k (zt - p_k) = 0", (z - zt) ** 2 + sum(qk * (pk - zt) ** 2 for qk, pk in zip(q, p)),
             why="the rows lie on the simplex"),
        Step("the definitions L_OLS = |z - zt|^2 and V = sum_k q_k |p_k - zt|^2", L_ols + V, subs=defs),
        concludes="identity",
    )


# -------------------------------------------------------------------------------------------------
# ddcl.dictionary.gradients (§2.3, §3.2): per sample (the N-sample gradients are averages)
# -------------------------------------------------------------------------------------------------
def _tau_symbols():
    sp = _sp()
    tau = sp.Symbol("tau", positive=True)
    dLq, dF = sp.Symbol(DLQ, real=True), sp.Symbol(DF, real=True)
    var, H = sp.Symbol(VAR, nonnegative=True), sp.Symbol("H", nonnegative=True)
    return tau, dLq, dF, var, H


def gradients() -> Any:
    """For one sample z, prototypes p_k, tau > 0, Gibbs q_k, d_k = |z - p_k|^2, ell = sum_k q_k d_k,
    zt = sum_k q_k p_k: the derivatives g of the per-sample losses (any coordinate) satisfy

    * live grad L_q:  g = 2 q_k (1 - (d_k - ell)/tau) (p_k - z);
    * grad F:          g = 2 q_k (p_k - z)  (= the detached L_q gradient);
    * detached grad L_OLS: g = 2 q_k (zt - z);  detached grad V: g = 2 q_k (p_k - zt);
    * dL_q/dtau = Var_q(d)/tau^2 with Var_q(d) = sum_k q_k (d_k - ell)^2;  dF/dtau = -H;  F = L_q - tau H.
    """
    sp = _sp()
    from verify import AllOf, ForAll

    tau, dLq, dF, var, H = _tau_symbols()
    g, q, dk, ell, p, z = sp.symbols("g q_k d_k ell p_k z", real=True)
    zt = sp.Symbol(ZT, real=True)
    F, L_q = sp.symbols("F L_q", real=True)
    return ForAll((z, p, tau), "one sample z, prototypes p_1..p_K in R^d, tau > 0, Gibbs q (every "
                  "coordinate; the N-sample gradients are averages of these)",
                  AllOf(("live grad L_q", sp.Eq(g, 2 * q * (1 - (dk - ell) / tau) * (p - z))),
                        ("grad F", sp.Eq(g, 2 * q * (p - z))),
                        ("detached grad L_OLS", sp.Eq(g, 2 * q * (zt - z))),
                        ("detached grad V", sp.Eq(g, 2 * q * (p - zt))),
                        ("dL_q/dtau", sp.Eq(dLq, var / tau ** 2)),
                        ("dF/dtau", sp.Eq(dF, -H)),
                        ("F = L_q - tau H", sp.Eq(F, L_q - tau * H))))


def gradients_derivation() -> Any:
    """dL_q/dtau for one sample, K = 2 (distances d_1, d_2 fixed): differentiate q_k = e^{-d_k/tau}/Z."""
    sp = _sp()
    from verify import Derivation, Step

    tau, dLq, _, var, _ = _tau_symbols()
    d1, d2 = sp.symbols("d_1 d_2", positive=True)
    e1, e2 = sp.exp(-d1 / tau), sp.exp(-d2 / tau)
    q1, q2 = e1 / (e1 + e2), e2 / (e1 + e2)
    ell = q1 * d1 + q2 * d2
    defs = {dLq: sp.diff(q1 * d1 + q2 * d2, tau), var: q1 * (d1 - ell) ** 2 + q2 * (d2 - ell) ** 2}
    return Derivation(
        Step("dL_q/dtau of one row", dLq),
        Step("L_q = sum_k q_k d_k, dq_k/dtau = q_k (d_k - ell)/tau^2",
             (q1 * (d1 - ell) * d1 + q2 * (d2 - ell) * d2) / tau ** 2, subs=defs),
        Step("subtract ell sum_k q_k (d_k - ell) = 0", (q1 * (d1 - ell) ** 2 + q2 * (d2 - ell) ** 2) / tau ** 2,
             why="sum_k q_k (d_k - ell) = 0"),
        Step("the definition Var_q(d) = sum_k q_k (d_k - ell)^2", var / tau ** 2, subs=defs),
        concludes="dL_q/dtau",
    )


# -------------------------------------------------------------------------------------------------
# R2: stationary points and the data hull (§3.2)
# -------------------------------------------------------------------------------------------------
def stationary_hull() -> Any:
    """Every full-gradient stationary point lies in the data hull: on Z = {-1, +1}, K = 2, p = +-a,
    a stationary a* satisfies a* <= 1."""
    sp = _sp()
    from verify import AllOf, ForAll

    a = sp.Symbol("a^*", positive=True)
    return ForAll((a,), "stationary points p = (-a*, a*) of full-gradient training on Z = {-1, +1}, K = 2, "
                  "tau > 0", AllOf(outside_hull=sp.Le(a, 1)))


def stationary_hull_free_energy() -> Any:
    """F-stationary prototypes lie in the data hull: the distance e of p_k outside [min z, max z]
    (1-D) is 0, and in d dimensions |p_k - sum_i q_ik z_i / n_k| <= (N / 2 n_k) |grad_{p_k} F|."""
    sp = _sp()
    from verify import AllOf, ForAll

    e, gap, N, n = sp.symbols("e delta N n_k", nonnegative=True)
    g = sp.Symbol(GRADF, nonnegative=True)
    P = sp.Symbol("P")
    return ForAll((P,), "gradient-descent limits P of F (stop-gradient training), tau > 0",
                  AllOf(in_hull=sp.Le(e, 0), hull_point=sp.Le(gap, N * g / (2 * n))))
