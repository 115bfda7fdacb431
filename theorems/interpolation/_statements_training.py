"""Statements (lazy sympy builders) of the training claims; see _claims_training.py."""

from __future__ import annotations


def tikhonov_statement():
    import sympy as sp

    eps, n2, J = sp.symbols("epsilon |theta_dagger|^2 inf_J_epsilon", positive=True)
    return sp.Le(J, eps * n2)


def linear_statement():
    import sympy as sp

    eps = sp.Symbol("epsilon", positive=True)
    J = sp.Function("min_J")(eps)
    return sp.Eq(sp.Limit(J / eps, eps, 0), sp.Symbol("min{|theta|^2 : E(theta) = 0}"))


def resnet_statement():
    import sympy as sp

    from ._checks_tikhonov import p_resnet, p_transformer

    N, M, d, n = sp.symbols("N M d n", positive=True)
    return sp.Equivalent(sp.Lt(p_transformer(N, M, d), p_resnet(N, n, d)),
                         sp.Gt(n, (p_transformer(N, M, d) - 4 * N) / (6 * d * N)))
