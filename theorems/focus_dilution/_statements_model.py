"""Statements (and checked derivations) of the model claims of spec §4.1-§4.3 -- the population limit,
the closed-form gradients and the conservation laws -- as sympy relations over the observables the
checks compute from the product code.  Builders are lazy; AllOf labels are the controls' sub-check
names."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

# -- §4.1 population limit --------------------------------------------------------------------------------
z_s = sp.Symbol(r"z_s", real=True)
z_hat = sp.Symbol(r"\hat{A}_q M", real=True)
L_hat = sp.Symbol(r"\hat{L}_s", real=True)
L_pop = sp.Symbol("L", real=True)
SE = sp.Symbol("SE", positive=True)
s_ctx = sp.Symbol("s", positive=True, integer=True)
p_decay = sp.Symbol("p", real=True)


def population_limit() -> Any:
    """spec §4.1: the finite-context logits regroup exactly into A_hat_q M; the finite-context loss (a
    Monte Carlo mean over n sequences) is within 4 standard errors plus 1/s of the population loss with a
    stationary start; with a uniform start the bias decays like s^-p, p in [1/2, 5/2] ('roughly 1/s')."""
    from verify import AllOf, ForAll

    return ForAll(
        s_ctx, "context lengths s (regrouping: s < 64, Markov chains d <= 6; mean: E1's pi, lam = 3/5, "
        "s in {64, 256}, n = 1e4; exponent: s in {8, 16, 32, 64}), (M, Phi) fixed",
        AllOf(regrouping=sp.Eq(z_s, z_hat),
              mean=sp.Le(sp.Abs(L_hat - L_pop), 4 * SE + 1 / s_ctx),
              exponent=sp.And(sp.Ge(p_decay, sp.Rational(1, 2)), sp.Le(p_decay, sp.Rational(5, 2)))))


# -- §4.2 gradients --------------------------------------------------------------------------------------
g_closed = sp.Symbol(r"\nabla L", real=True)
g_autograd = sp.Symbol(r"\nabla L^{\mathrm{autograd}}", real=True)
g_fd = sp.Symbol(r"\nabla L^{\mathrm{fd}}", real=True)
rows_GM = sp.Symbol(r"G_M \mathbf{1}", real=True)
rows_GPhi = sp.Symbol(r"G_\Phi \mathbf{1}", real=True)


def gradients() -> Any:
    """spec §4.2: the closed-form gradient (G_M = A^T D, G_Phi = (1/tau) A o (X - rowsum(A o X) 1^T) and
    the chain rule) is the gradient of L: it equals torch autograd's and central differences', and the
    rows of G_M and G_Phi sum to 0."""
    from verify import AllOf, ForAll

    return ForAll(
        (sp.Symbol("theta"), sp.Symbol("tau")),
        "parameters theta (random, the origin, theta_c1; d <= 6, m, m_k <= 6) and tau > 0",
        AllOf(autograd=sp.Eq(g_closed, g_autograd), fd=sp.Eq(g_closed, g_fd),
              sums=sp.And(sp.Eq(rows_GM, 0), sp.Eq(rows_GPhi, 0))))


def gradients_derivation() -> Any:
    """The rows of G_M sum to 0 (d = 3, symbolic A, pi, Pred, P with rows of Pred and P summing to 1):
    (G_M 1)_i = sum_k sum_q A_qi pi_q (Pred_qk - P_qk) = sum_q A_qi pi_q (1 - 1) = 0."""
    from verify import Derivation, Step

    A = sp.Matrix(3, 3, lambda q, i: sp.Symbol(f"A_{q + 1}{i + 1}"))
    pi = sp.symbols("pi_1:4", positive=True)
    Pr = sp.Matrix(3, 3, lambda q, k: sp.Symbol(f"Pred_{q + 1}{k + 1}"))
    Pm = sp.Matrix(3, 3, lambda q, k: sp.Symbol(f"P_{q + 1}{k + 1}"))
    rows = {Pr[q, 2]: 1 - Pr[q, 0] - Pr[q, 1] for q in range(3)} | {Pm[q, 2]: 1 - Pm[q, 0] - Pm[q, 1] for q in range(3)}
    i = 0
    return Derivation(
        Step("(G_M 1)_1 with G_M = A^T diag(pi)(Pred - P)",
             sum(A[q, i] * pi[q] * (Pr[q, k] - Pm[q, k]) for q in range(3) for k in range(3))),
        Step("sum over k first", sum(A[q, i] * pi[q] * (sum(Pr[q, k] for k in range(3))
                                                          - sum(Pm[q, k] for k in range(3))) for q in range(3))),
        Step("rows of Pred and P sum to 1", sp.Integer(0), subs=rows))


# -- §4.3 conservation -------------------------------------------------------------------------------
rate_D = sp.Symbol(r"\|\dot{\mathcal{D}}\| / (\|\theta\| + \|\nabla L\|)^2", nonnegative=True)
rate_E = sp.Symbol(r"\|\dot{\mathcal{E}}\| / (\|\theta\| + \|\nabla L\|)^2", nonnegative=True)
rate_W1 = sp.Symbol(r"\|\tfrac{d}{dt} W_1 \mathbf{1}\| / (\|\theta\| + \|\nabla L\|)^2", nonnegative=True)


def conservation() -> Any:
    """spec §4.3: along theta' = -grad L, D = W0^T W0 - W1 W1^T - W_Q W_Q^T - W_K W_K^T,
    E = W_Q^T W_Q - W_K^T W_K and W1 1 are constant (their time derivatives vanish)."""
    from verify import AllOf, ForAll

    return ForAll(
        sp.Symbol("theta"), "parameters theta (random; Markov chains d <= 6), the exact gradient flow",
        AllOf(D=sp.Eq(rate_D, 0), E=sp.Eq(rate_E, 0), W1_ones=sp.Eq(rate_W1, 0)))


def conservation_derivation() -> Any:
    """d/dt D = 0 for m = m_k = 1 and d = 2 (symbolic W0, W1, W_Q = q, W_K = k, G_M, G_Phi), with the
    product's chain rule (population.chain_rule in sympy): along -grad L,
    d/dt |W0|^2 = -2 (W0^T G_M W1^T + 2 q k W0^T G_Phi_sym W0) is matched term by term by
    d/dt (|W1|^2 + q^2 + k^2)."""
    from numerics.arithmetic import SympyArithmetic
    from verify import Derivation, Step

    from .population import chain_rule

    u = sp.Matrix(sp.symbols("u_1:3", real=True))
    w = sp.Matrix(sp.symbols("w_1:3", real=True)).T
    q, k = sp.symbols("q k", real=True)
    GM = sp.Matrix(2, 2, lambda a, b: sp.Symbol(f"g_{a + 1}{b + 1}"))
    GP = sp.Matrix(2, 2, lambda a, b: sp.Symbol(f"h_{a + 1}{b + 1}"))
    o = lambda M: np.array(M.tolist(), dtype=object)  # noqa: E731
    g0, g1, gq, gk = chain_rule(o(GM), o(GP), o(u), o(w), o(sp.Matrix([[q]])), o(sp.Matrix([[k]])),
                                SympyArithmetic())
    dD = -2 * (sum(u[i] * g0[i, 0] for i in range(2)) - sum(w[0, j] * g1[0, j] for j in range(2))
               - q * gq[0, 0] - k * gk[0, 0])
    a = (u.T * GM * w.T)[0, 0]
    b = (u.T * GP * u)[0, 0] * q * k
    return Derivation(
        Step("dD/dt along -grad L (the product's chain rule)", dD),
        Step("W0.g0 = a + 2b and W1.g1 + q gq + k gk = a + 2b (a = W0^T G_M W1^T, b = qk W0^T G_Phi W0)",
             -2 * ((a + 2 * b) - (a + 2 * b))),
        Step("cancel", sp.Integer(0)),
        concludes="D")
