"""Statements and checked derivations of the directional-information claims (seed Theorem 4; spec
ddcl_incrt.md §2.5, §3.6): DI(B; C) = tr(B^T C B) / tr C for an orthonormal basis B (d x m)."""

from __future__ import annotations

from typing import Any

# symbol names the checks use as keys of their observables
EDI, DI_TOP, DI_MAX, DI0 = r"\mathbb{E}_W\mathrm{DI}", r"\mathrm{DI}_{top}", r"\mathrm{DI}_{max}", r"\mathrm{DI}_0"


def _sp():
    import sympy as sp

    return sp


def mlp_vs_dictionary() -> Any:
    """For 0 < m < d and C >= 0 with eigenvalues lambda_1 >= ... >= lambda_d (S_m = sum_{j <= m} lambda_j,
    T = tr C): E_W DI(B_W; C) = m/d for Gaussian W; the best rank-m basis keeps S_m/T (Ky Fan: every DI
    <= S_m/T, attained by the top-m eigenbasis) and S_m/T >= m/d, strictly iff lambda_1 > lambda_d."""
    sp = _sp()
    from verify import AllOf, ForAll

    m, d = sp.symbols("m d", positive=True, integer=True)
    S, T, lam1, lamd = sp.symbols("S_m T lambda_1 lambda_d", nonnegative=True)
    EDI_, DI_top, DI_max = (sp.Symbol(n, nonnegative=True) for n in (EDI, DI_TOP, DI_MAX))
    C = sp.Symbol("C")
    return ForAll((C, m), "covariances C (d x d, tr C > 0), ranks 0 < m < d",
                  AllOf(ky_fan=sp.And(sp.Ge(S / T, m / d), sp.Implies(sp.Gt(lam1, lamd), sp.Gt(S / T, m / d))),
                        mc_mean=sp.Eq(EDI_, m / d),
                        ky_fan_witness=sp.And(sp.Eq(DI_top, S / T), sp.Le(DI_max, S / T))))


def mlp_vs_dictionary_derivation() -> Any:
    """E DI for d = 2, m = 1: a uniformly random unit vector v = (cos th, sin th) keeps
    (1/2pi) int v^T C v dth = tr C / 2, i.e. DI = 1/2 = m/d."""
    sp = _sp()
    from verify import Derivation, Step

    th = sp.Symbol("theta", real=True)
    a, c = sp.symbols("a c", positive=True)
    b = sp.Symbol("b", real=True)
    quad = a * sp.cos(th) ** 2 + 2 * b * sp.sin(th) * sp.cos(th) + c * sp.sin(th) ** 2
    return Derivation(
        Step("E_theta v^T C v / tr C, v = (cos th, sin th)", sp.integrate(quad, (th, 0, 2 * sp.pi)) / (2 * sp.pi * (a + c))),
        Step("the mean of cos^2 and sin^2 is 1/2, of sin cos 0", ((a + c) / 2) / (a + c)),
        Step("= m/d with m = 1, d = 2", sp.Rational(1, 2)),
    )


def trained() -> Any:
    """A trained dictionary (tau = 1 < tau_c of its retained directions) keeps more than m/d of the
    variance in >= 9 of 10 seeds (w = number of winning seeds out of n; quick: every seed); at
    tau = 6/5 tau_c it collapses and keeps nothing (DI_0 = 0)."""
    sp = _sp()
    from verify import AllOf, ForAll

    w, n = sp.symbols("w n", nonnegative=True, integer=True)
    DI0_ = sp.Symbol(DI0, nonnegative=True)
    mode = sp.Symbol("mode")
    return ForAll((mode,), "d = 8, spectrum (4, 2, 1, 1/2, 1/4, 1/10, 1/10, 1/10) rotated, K = 4, both modes",
                  AllOf(beats=sp.Ge(w, sp.Min(n, 9)), collapsed_DI=sp.Eq(DI0_, 0)))


def mlp_as_stated() -> Any:
    """The seed's sentence as a quantified predicate over its undetermined readings: for the adaptive
    (trained or spectral) rank-m basis B and a random one B_R, B loses strictly less directional
    information -- the measure of 'directional information' and the comparison (in expectation, for
    every draw) are not fixed by the seed, so the claim is expected UNKNOWN (its checks run the
    candidate readings)."""
    import sympy as sp

    from verify import ForAll

    B, BR, m = sp.Symbol("B"), sp.Symbol("B_R"), sp.Symbol("m", positive=True, integer=True)
    loss = sp.Function("InformationLoss")
    return ForAll((B, BR), "adaptive and random rank-m bases under the candidate readings (undetermined)",
                  sp.Function("StrictlyLess")(loss(B, m), loss(BR, m)))
