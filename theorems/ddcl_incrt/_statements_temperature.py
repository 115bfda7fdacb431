"""Statements and checked derivations of the learnable-temperature claims (seed Theorem 3; spec
ddcl_incrt.md §2.2, §3.5, §5.2).  The pass criteria of the MEASURED split (fixed in advance in the spec)
are the statement's constants: 4/5 and 6/5 of tau_0 around the boundary, 10^-4, 999/1000, 1/10, 1/5."""

from __future__ import annotations

from typing import Any

# symbol names the checks use as keys of their observables
DLQ, DF, VAR = r"\partial_{\tau}L_{q}", r"\partial_{\tau}F", r"\mathrm{Var}_q(d)"
TAU_C, TAU_T, HREL = r"\tau_{c,h}", r"{\tau_h(T)}", r"{H_h/\log K}"


def _sp():
    import sympy as sp

    return sp


def sign_laws() -> Any:
    """For a distance row d (Gibbs q at tau > 0): dL_q/dtau = Var_q(d)/tau^2 >= 0, with equality iff
    the row is constant (spread s = max d - min d = 0); dF/dtau = -H <= 0."""
    sp = _sp()
    from verify import AllOf, ForAll

    tau = sp.Symbol("tau", positive=True)
    dLq, dF = sp.Symbol(DLQ, real=True), sp.Symbol(DF, real=True)
    var, H, spread = sp.Symbol(VAR, nonnegative=True), sp.Symbol("H", nonnegative=True), sp.Symbol("s", nonnegative=True)
    d = sp.Symbol("d")
    return ForAll((d, tau), "distance rows d in [0, oo)^K (K >= 2), tau > 0, Gibbs q",
                  AllOf(dLq_sign=sp.And(sp.Ge(dLq, 0), sp.Implies(sp.Gt(spread, 0), sp.Gt(dLq, 0))),
                        dLq_formula=sp.Eq(dLq, var / tau ** 2),
                        dF_sign=sp.Le(dF, 0),
                        dF_formula=sp.Eq(dF, -H)))


def sign_laws_derivation() -> Any:
    """dF/dtau = -H for one row, K = 2: F = -tau log(e^{-d_1/tau} + e^{-d_2/tau})."""
    sp = _sp()
    from verify import Derivation, Step

    d1, d2, tau = sp.symbols("d_1 d_2 tau", positive=True)
    Zs = sp.exp(-d1 / tau) + sp.exp(-d2 / tau)
    q1, q2 = sp.exp(-d1 / tau) / Zs, sp.exp(-d2 / tau) / Zs
    return Derivation(
        Step("dF/dtau, F = -tau log sum_k e^{-d_k/tau}", sp.diff(-tau * sp.log(Zs), tau)),
        Step("= -log Z - sum_k q_k d_k / tau", -sp.log(Zs) - (q1 * d1 + q2 * d2) / tau),
        Step("log q_k = -d_k/tau - log Z: = sum_k q_k log q_k = -H",
             q1 * (-d1 / tau - sp.log(Zs)) + q2 * (-d2 / tau - sp.log(Zs)), why="sum_k q_k = 1"),
    )


def _split(sign_part: Any) -> Any:
    sp = _sp()
    from verify import AllOf, ForAll

    tau_c, tau0, tau_T = (sp.Symbol(n, positive=True) for n in (TAU_C, "tau_0", TAU_T))
    Hr = sp.Symbol(HREL, nonnegative=True)
    h = sp.Symbol("h")
    R = sp.Rational
    low = sp.Implies(sp.Le(tau_c, R(4, 5) * tau0),
                     sp.And(sp.Le(sp.Abs(tau_T - tau0), R(1, 10 ** 4)), sp.Ge(Hr, R(999, 1000))))
    high = sp.Implies(sp.Ge(tau_c, R(6, 5) * tau0), sp.And(sp.Le(tau_T, tau0 / 10), sp.Le(Hr, R(1, 5))))
    return ForAll((h,), "heads h with their own dictionary (K = 4) on a channel of variance lambda_h, common "
                  "tau_0, prototypes near collapse; tau_{c,h} = c lambda_h (the product's critical temperature)",
                  AllOf(sign=sign_part, low=low, high=high))


def divergence() -> Any:
    """L_q-driven per-head temperatures: tau_h never increases (largest one-step rise u_h <= 0); heads with
    tau_c,h <= 4/5 tau_0 stay collapsed and soft, heads with tau_c,h >= 6/5 tau_0 become hard."""
    sp = _sp()
    return _split(sp.Le(sp.Symbol("u_h", nonnegative=True), 0))


def divergence_free_energy() -> Any:
    """F-driven per-head temperatures: tau_h never decreases (largest one-step fall v_h <= 0, the F sign
    law), and the same local/global split as ddcl.temperature.divergence."""
    sp = _sp()
    return _split(sp.Le(sp.Symbol("v_h", nonnegative=True), 0))


def scale_specialisation() -> Any:
    """The seed's sentence as a predicate: learnable per-head temperatures split the heads into a hard
    (local) and a soft (global) group through the training dynamics alone -- the split criterion and the
    drive are not fixed by the seed, so the claim is expected UNKNOWN (its checks run the candidates)."""
    import sympy as sp

    from verify import ForAll

    heads = sp.Symbol("heads")
    return ForAll((heads,), "per-head temperatures trained under the candidate readings (undetermined)",
                  sp.Function("SplitsIntoHardAndSoft")(heads))
