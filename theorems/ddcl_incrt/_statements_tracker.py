"""Statements (and the checked derivation) of the tracker and dwell-time claims (spec §2.4, §5.3, §5.5,
§5.6).  Lazy builders for ``Claim(statement=..., derivation=...)``; AllOf labels are the sub-check names
the checks record and the controls target."""

from __future__ import annotations

from typing import Any

from verify import AllOf, Derivation, ForAll, Step

__all__ = ["convergence_statement", "coupled_thresholds_statement", "mca_statement", "dwell_code_statement",
           "dwell_normalised_statement", "dwell_normalised_derivation"]


def convergence_statement() -> Any:
    """The tracker brings u_+ to sin angle < 1e-6 to v_1 within 2e4 steps, for A = c A0 at every scale c
    and every start (fixed-step coupled or uncoupled Oja; or the normalised step eta = eta_0/|A|_2)."""
    import sympy as sp

    s = sp.Symbol("sin_angle", nonnegative=True)
    return ForAll((sp.Symbol("c", positive=True), sp.Symbol("u_0")),
                  "scales c > 0 of A = c A0 (and gapped random operators), tracker starts u_0",
                  AllOf(convergence=sp.Le(s, sp.Rational(1, 10**6))))


def coupled_thresholds_statement() -> Any:
    """The code's coupled tracker on A = c A0 (eta_+ = 1/60, gamma* = 5/18): every recorded start converges
    (sin < 1e-6) at c = 47 < c_lo = 48 and at c = 80, and stalls (sin > 1e-3) at c = 120 > c_hi = 100."""
    import sympy as sp

    s47, s80, s120 = sp.symbols("sin_47 sin_80 sin_120", nonnegative=True)
    return ForAll(sp.Symbol("u_0"), "recorded starts u_0 (default_rng(j)) of the coupled tracker",
                  AllOf(("c=47", sp.Le(s47, sp.Rational(1, 10**6))), ("c=80", sp.Le(s80, sp.Rational(1, 10**6))),
                        ("c=120", sp.Gt(s120, sp.Rational(1, 10**3)))))


def mca_statement() -> Any:
    """The MCA step finds the bottom of an indefinite A_res: after 1e4 steps |R(u_-) - lambda_min| <= 1e-3
    and |cos(u_-, v_min)| > 0.999."""
    import sympy as sp

    R, lmin = sp.symbols("R_minus lambda_min", real=True)
    cos = sp.Symbol("cos_bottom", nonnegative=True)
    return ForAll(sp.Symbol("u_0"), "starts u_0 of u_- (u_+ = e_1 fixed) on A = diag(1, .6, .3, .1, -.1, -.3, "
                  "-.6, -1), eta_- = 1/160, gamma* = 1/2",
                  AllOf(limit=sp.Le(sp.Abs(R - lmin), sp.Rational(1, 1000)),
                        bottom_vector=sp.Gt(cos, sp.Rational(999, 1000))))


def dwell_code_statement() -> Any:
    """The code's dwell time T_d = ceil(kappa ln(1/eps)/(eta Delta^2)) (kappa = 2, eps = 0.05, eta = 1/60)
    is at least the number of Oja steps needed to reach sin angle < eps, at every scale c of A = c A0."""
    import sympy as sp

    T, n = sp.symbols("T_d n_needed", integer=True, nonnegative=True)
    return ForAll(sp.Symbol("c", positive=True), "scales c of A = c A0, with T_d = ceil(kappa ln(1/eps)/(eta "
                  "Delta^2)) the code's dwell time (incrt.dwell_time_code)", AllOf(dwell=sp.Ge(T, n)))


def _dwell_symbols() -> tuple[Any, ...]:
    import sympy as sp

    kappa, eps, eta0, gap, nA = sp.symbols("kappa epsilon eta_0 Delta norm_A", positive=True)
    return kappa, eps, eta0, gap, nA


def dwell_normalised_statement() -> Any:
    """The scale-consistent dwell time T = ceil(kappa ln(1/eps)/(eta_0 Delta/|A|_2)) (eta = eta_0/|A|_2) covers
    the steps needed (dwell) from the recorded start; it is approached at the covered witness start
    (n_w <= T <= phi n_w, phi the recorded factor) and exceeded just outside the derived cover (edge)."""
    import sympy as sp

    kappa, eps, eta0, gap, nA = _dwell_symbols()
    T, n, nw, ne = sp.symbols("T n_needed n_witness n_edge", integer=True, nonnegative=True)
    phi = sp.Symbol("phi", positive=True)
    return ForAll(sp.Symbol("c", positive=True), "scales c of A = c A0 (eta_0 = 1/2, kappa = 2, eps = 0.05)",
                  AllOf(rule=sp.Eq(T, sp.ceiling(kappa * sp.log(1 / eps) / (eta0 * gap / nA))),
                        dwell=sp.Ge(T, n),
                        witness_cover=sp.And(sp.Le(nw, T), sp.Le(T, phi * nw)),
                        edge_start=sp.Gt(ne, T)))


def dwell_normalised_derivation() -> Derivation:
    """T is scale free: with eta = eta_0/|A|_2 the contraction per step of the Oja tangent, 1 - eta Delta,
    depends on Delta/|A|_2 only, and A -> cA scales Delta and |A|_2 alike.  Chain: the general dwell rule
    T = ceil(kappa ln(1/eps)/(eta Delta)) at scale c (Delta_c = c Delta, |A_c| = c |A|) with the
    normalised step equals ceil(kappa ln(1/eps)/(eta_0 Delta/|A|_2))."""
    import sympy as sp

    kappa, eps, eta0, gap, nA = _dwell_symbols()
    c, eta = sp.symbols("c eta", positive=True)
    x = sp.Symbol("x", positive=True)
    return Derivation(
        Step("dwell rule at scale c: T = ceil(kappa ln(1/eps)/(eta Delta_c)), Delta_c = c Delta",
             sp.ceiling(kappa * sp.log(1 / eps) / (eta * c * gap))),
        Step("normalised step eta = eta_0/|A_c|_2 = eta_0/(c |A|_2)",
             sp.ceiling(kappa * sp.log(1 / eps) / (eta0 / (c * nA) * c * gap)), subs={eta: eta0 / (c * nA)}),
        Step("c cancels: T does not depend on the scale", sp.ceiling(kappa * sp.log(1 / eps) / (eta0 * gap / nA))),
        Step("why kappa ln(1/eps)/(eta Delta) steps suffice: ln(1/(1 - x)) >= x for 0 < x < 1, so (1 - x)^T <= "
             "eps^kappa once T x >= kappa ln(1/eps)", sp.Ge(-sp.log(1 - x / (1 + x)), x / (1 + x))),
        concludes="rule")
