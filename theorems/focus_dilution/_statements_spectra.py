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
G_Phi_ik = sp.Symbol("G_{Phi,ik}(0)", real=True)
mu0_sq = sp.Symbol("mu_0^2", positive=True)             # squared top eigenvalue of -Hessian(L)(0)
mu_ref_sq = sp.Symbol("(mu_0^ref)^2", positive=True)    # the product's closed form (reference_formulas)
n_pi2 = sp.Symbol("|pi|^2", positive=True)
n_v2 = sp.Symbol("|v|^2", positive=True)
n_plus, n_minus, n_zero = sp.symbols("n_+ n_- n_0", nonnegative=True, integer=True)
n_J = sp.Symbol("#{-Hess L(0) != J_0}", nonnegative=True, integer=True)


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
