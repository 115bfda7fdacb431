"""Statements of the training claims (spec §4.12-4.14, §5, §6): lazy builders.

The Tikhonov upper bound and linear law (on the exact ridge model and the softmax construction) and
the ResNet crossover, as relations between observables the checks compute from :mod:`.training`,
the construction and the count functions.
"""

from __future__ import annotations

from typing import Any


def tikhonov_symbols() -> dict[str, Any]:
    import sympy as sp

    return {"eps": sp.Symbol("epsilon", positive=True), "n2": sp.Symbol("|theta_dagger|^2", positive=True),
            "J": sp.Symbol("inf_J_epsilon", nonnegative=True), "E": sp.Symbol("E(theta_dagger)", nonnegative=True),
            "dH": sp.Symbol("d_H", nonnegative=True), "tol": sp.Symbol("epsilon_p", positive=True),
            "n2_dense": sp.Symbol("|theta|^2_dense", positive=True)}


def tikhonov_statement():
    """For every eps > 0 and every exact interpolant theta_dag: inf J_eps <= J_eps(theta_dag) =
    eps |theta_dag|^2 (J_eps = E + eps |theta|^2, spec §4.12); the construction's theta_dag (tau0
    absorbed) interpolates at tau = 1 (d_H within 10^-(p-12)) and its |theta_dag|^2 is the sum of squares
    of its materialised tensors."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = tikhonov_symbols()
    return ForAll((s["eps"], sp.Symbol("theta_dagger")), "eps > 0 and exact interpolants theta_dag (E = 0)",
                  AllOf(bound=sp.Le(s["J"], s["eps"] * s["n2"]),
                        tau1_exact=sp.Le(s["dH"], s["tol"]),
                        norm=sp.Eq(s["n2"], s["n2_dense"])))


def tikhonov_derivation():
    """inf J_eps <= J_eps(theta_dag) = E(theta_dag) + eps |theta_dag|^2 = eps |theta_dag|^2."""
    import sympy as sp

    from verify import Derivation, Step

    s = tikhonov_symbols()
    g = sp.Symbol("g", nonnegative=True)  # J_eps(theta_dag) - inf J_eps >= 0
    J, E, eps, n2 = s["J"], s["E"], s["eps"], s["n2"]
    return Derivation(
        Step("inf J_eps", J),
        Step("the infimum is <= the value at theta_dag", E + eps * n2, relation="<=",
             subs={J: E + eps * n2 - g}),
        Step("theta_dag interpolates exactly: E(theta_dag) = 0", eps * n2, subs={E: 0}),
        concludes="bound")


def linear_statement():
    """lim_{eps -> 0} min J_eps / eps = min{|theta|^2 : E(theta) = 0} (spec §5.1 item 4), the data term
    E(theta_eps) = o(eps); observed on the exact ridge model as min J_eps/eps -> |V_mn|^2 and E/eps -> 0."""
    import sympy as sp

    from verify import AllOf, ForAll

    r, n_mn, data = sp.symbols("r_J |V_mn|^2 r_E", real=True)
    return ForAll(sp.Symbol("X"), "ridge instances (N <= d, independent columns), eps -> 0",
                  AllOf(J_order=sp.Eq(r, n_mn), data_term_order=sp.Eq(data, 0)))


def linear_derivation():
    """On the reference ridge instance: min J_eps / eps = 2(23 eps + 107)/(4 eps^2 + 32 eps + 59) -> 214/59."""
    import sympy as sp

    from verify import Derivation, Step

    eps = sp.Symbol("epsilon", positive=True)
    mJ = 2 * eps * (23 * eps + 107) / (4 * eps ** 2 + 32 * eps + 59)
    return Derivation(
        Step("min J_eps / eps (closed form, spec §5.2)", mJ / eps),
        Step("cancel eps", 2 * (23 * eps + 107) / (4 * eps ** 2 + 32 * eps + 59)),
        Step("at eps = 0 (a rational function continuous there): |V_mn|^2",
             sp.Eq((2 * (23 * eps + 107) / (4 * eps ** 2 + 32 * eps + 59)).subs(eps, 0), sp.Rational(214, 59),
                   evaluate=False)),
        Step("|V_mn|^2 - min J_eps/eps = eps (856 eps + 4134)/(59 (4 eps^2 + 32 eps + 59)) >= 0: the ratio "
             "increases to its limit",
             sp.Eq(sp.Rational(214, 59) - 2 * (23 * eps + 107) / (4 * eps ** 2 + 32 * eps + 59),
                   eps * (856 * eps + 4134) / (59 * (4 * eps ** 2 + 32 * eps + 59)), evaluate=False)),
    )


def resnet_symbols() -> dict[str, Any]:
    import sympy as sp

    return {k: sp.Symbol(k, positive=True) for k in ("N", "M", "d", "n")} | {
        "P_H": sp.Symbol("P_H", positive=True), "P_Res": sp.Symbol("P_Res", positive=True)}


def resnet_statement():
    """P_H < P_Res iff n > n* = (P_H - 4N)/(6dN), with P_Res = N(6dn + 4) the ResNet count of the same
    gadgets (spec §6; heuristic counts of two constructions, no lower bound)."""
    import sympy as sp

    from verify import AllOf, ForAll

    s = resnet_symbols()
    N, d, n, PH, PR = s["N"], s["d"], s["n"], s["P_H"], s["P_Res"]
    nstar = (PH - 4 * N) / (6 * d * N)  # iff, written as two implications
    return ForAll((N, s["M"], d, n), "N, M = sum m_j, d >= 2, input length n",
                  AllOf(crossover=sp.And(sp.Implies(sp.Lt(PH, PR), sp.Gt(n, nstar)),
                                         sp.Implies(sp.Gt(n, nstar), sp.Lt(PH, PR)))))


def resnet_derivation():
    """P_Res - P_H = 6dN (n - n*): the sign of the difference is the sign of n - n*."""

    from verify import Derivation, Step

    s = resnet_symbols()
    N, d, n, PH = s["N"], s["d"], s["n"], s["P_H"]
    return Derivation(
        Step("P_Res - P_H", N * (6 * d * n + 4) - PH),
        Step("factor 6dN", 6 * d * N * (n - (PH - 4 * N) / (6 * d * N))),
    )
