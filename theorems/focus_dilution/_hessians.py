"""Hessians of the population loss L at the origin and on the critical family through theta_c^1 (spec
§4.4, §4.7), and the arb views of a rational chain that the spectral checks share.

Every Hessian here is the Hessian of L itself: second-order forward mode (numerics.krawczyk.Jet2) through
``population_loss`` composed with ``model_matrices`` -- exact rationals at the origin, sympy
rational-function fields on the critical family through theta_c^1, arb balls at theta_c^1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.arithmetic import Arithmetic, ArbArithmetic, ExactArithmetic, TabulatedArithmetic
from numerics.krawczyk import JetArithmetic, hessian_forward
from numerics.markov import MarkovChain

from ._checks_model import E1_PI
from .population import grad_M_Phi, model_matrices, population_loss, reference_formulas

ARB_BITS = 256


def _arb(x: Fraction) -> Any:
    import flint

    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def _arb_chain(ch: MarkovChain) -> tuple[list[Any], list[list[Any]]]:
    return [_arb(x) for x in ch.pi_exact], [[_arb(x) for x in r] for r in ch.P_exact]


def _arb_refs(ch: MarkovChain) -> dict[str, Any]:
    pi, P = _arb_chain(ch)
    return reference_formulas(pi, P, log=lambda x: x.log(), sqrt=lambda x: x.sqrt(),
                              is_zero=lambda x: x.is_exact() and x == 0)


def _uniform(ch: MarkovChain) -> bool:
    return all(x == ch.pi_exact[0] for x in ch.pi_exact)


def _iid(ch: MarkovChain) -> bool:
    """P = 1 pi^T exactly (F1 with lam = 0): r = 0, K2 = 0, c = 0 exactly."""
    return all(tuple(row) == tuple(ch.pi_exact) for row in ch.P_exact)


# -- Hessians of L: second-order forward mode through population_loss itself ----------------------------
# Coordinates (vec W0, vec W1, vec W_Q, vec W_K), row-major: the order of flow.pack and origin_jacobian.
def loss_hessian(pi: Any, P: Any, W: tuple[Any, ...], ar: Arithmetic, tau: Any = 1
                 ) -> tuple[Any, list[Any], list[list[Any]]]:
    """(L, grad L, Hessian of L) at W = (W0, W1, W_Q, W_K), arrays of scalar values.

    Second-order forward mode (:class:`numerics.krawczyk.Jet2`) through ``population_loss`` composed with
    ``model_matrices`` -- the loss itself, not the closed-form gradient.  ``ar`` (the jets' function provider)
    is the arithmetic of the values: exp and log on exact rationals at the origin, on sympy field elements,
    on arb balls; the kernel itself runs in :class:`numerics.krawczyk.JetArithmetic`.  Entries that are exactly 0
    are proven zeros (an exact zero propagates exactly); all others are exact values or enclosures.
    """
    shapes = [np.shape(w) for w in W]
    sizes = [int(np.prod(s)) for s in shapes]
    x0 = [x for w in W for x in np.asarray(w, dtype=object).ravel()]
    jets = JetArithmetic()
    pi_a = np.array(list(pi), dtype=object)
    P_a = np.array([list(r) for r in P], dtype=object)

    def f(x: list[Any]) -> Any:
        parts, o = [], 0
        for s, k in zip(shapes, sizes):
            parts.append(np.array(x[o:o + k], dtype=object).reshape(s))
            o += k
        M, Phi = model_matrices(*parts, jets)
        return population_loss(pi_a, P_a, M, Phi, tau, jets)

    return hessian_forward(f, x0, ar)


class _ExactAtOrigin(ExactArithmetic):
    """Exact rationals (Fractions) at theta = 0: every exponent is exactly 0 there (exp = 1; anything
    else raises TypeError), and log is only taken of rationals -- its value is kept symbolic (sympy), its
    derivatives 1/v and -1/v^2 are rational, so the Hessian is exact."""

    def __init__(self) -> None:
        super().__init__("fraction")

    def log(self, x: Any) -> Any:
        import sympy as sp

        return sp.log(sp.Rational(x.numerator, x.denominator))


def _zeros(shape: tuple[int, int], z: Any) -> Any:
    out = np.empty(shape, dtype=object)
    out.fill(z)
    return out


def origin_hessian_exact(ch: MarkovChain, m: int, mk: int) -> tuple[Any, list[Any], list[list[Fraction]]]:
    """(L(0) as a sympy number, grad L(0), Hessian of L at 0), exactly, for a rational chain."""
    d, z = ch.d, Fraction(0)
    W = (_zeros((d, m), z), _zeros((m, d), z), _zeros((m, mk), z), _zeros((m, mk), z))
    return loss_hessian(ch.pi_exact, ch.P_exact, W, _ExactAtOrigin(), Fraction(1))


def _lazy_lambda(ch: MarkovChain) -> Fraction | None:
    """lam if P = lam I + (1 - lam) 1 pi^T exactly (F1), else None."""
    if ch.P_exact is None or ch.d < 2:
        return None
    pi = ch.pi_exact
    lam = ch.P_exact[0][0] - ch.P_exact[1][0]
    ok = all(ch.P_exact[i][j] == (lam if i == j else 0) + (1 - lam) * pi[j]
             for i in range(ch.d) for j in range(ch.d))
    return lam if ok else None


def _is_e1(ch: MarkovChain) -> bool:
    return ch.pi_exact is not None and tuple(ch.pi_exact) == tuple(Fraction(x) for x in E1_PI)


# -- the critical family through theta_c^1 ------------------------------------------------------------
def _outer_K(pi: Sequence[Any], W0: Any, W1: Any, zero: Any) -> list[list[Any]]:
    """K = du/d(vec W0, vec W1) for u = W1^T W0^T pi (d x 2dm): u_y += W1[a, y] pi_i dW0[i, a] and
    u_y += (W0^T pi)_a dW1[a, y]."""
    d, m = len(pi), len(W0[0])
    n0 = d * m
    K = [[zero] * (2 * n0) for _ in range(d)]
    W0tpi = [sum((W0[i][a] * pi[i] for i in range(d)), zero) for a in range(m)]
    for y in range(d):
        for i in range(d):
            for a in range(m):
                K[y][i * m + a] = K[y][i * m + a] + W1[a][y] * pi[i]
        for a in range(m):
            K[y][n0 + a * d + y] = K[y][n0 + a * d + y] + W0tpi[a]
    return K


def _KtSK(K: list[list[Any]], pi: Sequence[Any], zero: Any) -> list[list[Any]]:
    """K^T S K with S = diag(pi) - pi pi^T (the unigram Hessian), entry by entry."""
    d, n = len(K), len(K[0])
    Kpi = [sum((pi[y] * K[y][j] for y in range(d)), zero) for j in range(n)]
    return [[sum((pi[y] * K[y][i] * K[y][j] for y in range(d)), zero) - Kpi[i] * Kpi[j] for j in range(n)]
            for i in range(n)]


def theta_c1_arb(ch: MarkovChain, m: int, mk: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """theta_c^1 as arb arrays (W0 = s_c pi_hat e1^T, W1 = s_c e1 l_hat^T, W_Q = W_K = 0) and the arb
    reference formulas; call inside arb_precision."""
    import flint

    f = _arb_refs(ch)
    d, z = ch.d, flint.arb(0)
    W0, W1 = _zeros((d, m), z), _zeros((m, d), z)
    W0[:, 0] = f["gamma1"]
    W1[0, :] = f["beta1"]
    return (W0, W1, _zeros((m, mk), z), _zeros((m, mk), z)), f


def saddle_hessian_arb(ch: MarkovChain, m: int, mk: int
                       ) -> tuple[Any, list[Any], list[list[Any]], dict[str, Any]]:
    """(L, grad L, Hessian of L, reference formulas) at theta_c^1 in arb balls (call inside arb_precision):
    second-order forward mode through population_loss; exact zeros are proven zeros."""
    import flint

    W, f = theta_c1_arb(ch, m, mk)
    pi, P = _arb_chain(ch)
    L, g, H = loss_hessian(pi, P, W, ArbArithmetic.current(), flint.arb(1))
    return L, g, H, f


@dataclass
class SymbolicSaddle:
    """The exact Hessian of L on the critical family through theta_c^1 (:func:`saddle_hessian_symbolic`)."""

    K: Any                 # sympy rational-function field Q(a, l'_1..l'_d, T, LT[, pi_1..pi_{d-1}, lam])
    a: Any
    ell: list[Any]         # l = n2 l' (field elements)
    pi: list[Any]
    P: list[list[Any]]
    W: tuple[Any, ...]
    L: Any
    grad: list[Any]
    H: list[list[Any]]
    GPhi: Any              # closed-form G_Phi at the same point (field elements)
    lam: Any = None        # the symbol lam (symbolic F1 only)


def _symbolic_saddle(K: Any, gens: Sequence[Any], d: int, pi: list[Any], P: list[list[Any]], m: int, mk: int,
                     lam: Any = None) -> SymbolicSaddle:
    a, lp, T, LT = gens[0], list(gens[1:1 + d]), gens[1 + d], gens[2 + d]
    n2 = sum(p * p for p in pi)
    ell = [n2 * x for x in lp]  # the generators are l' = l / n2: denominators stay monomials in a, T
    fam = TabulatedArithmetic(K.one, [(ell[k], pi[k] * T) for k in range(d)], [(T, LT)],
                              name="critical-family field")
    z = K.zero
    W0, W1 = _zeros((d, m), z), _zeros((m, d), z)
    W0[:, 0] = [a * p for p in pi]
    W1[0, :] = [x / a for x in lp]
    W = (W0, W1, _zeros((m, mk), z), _zeros((m, mk), z))
    L, g, H = loss_hessian(pi, P, W, fam, K.one)
    _, GPhi = grad_M_Phi(np.array(pi, dtype=object), np.array(P, dtype=object), W0 @ W1,
                         _zeros((d, d), z), K.one, fam)
    return SymbolicSaddle(K, a, ell, pi, P, W, L, g, H, GPhi, lam)


def _saddle_field(d: int, extra: Sequence[str] = ()) -> tuple[Any, list[Any]]:
    from sympy import QQ
    from sympy.polys.fields import field

    K, *gens = field(",".join(["a"] + [f"l{k + 1}" for k in range(d)] + ["T", "LT"] + list(extra)), QQ)
    return K, gens


def saddle_hessian_symbolic(ch: MarkovChain, m: int, mk: int) -> SymbolicSaddle:
    """Exact Hessian of L, in sympy's rational-function field Q(a, l'_1..l'_d, T, LT), at

        W0 = a pi e1^T,  W1 = e1 l^T / (a n2),  W_Q = W_K = 0,   with  exp(l_k) := pi_k T,  log T := LT.

    Then M = pi l^T / n2 and Z = A M = 1 l^T exactly, so the forward mode needs exp only at 0 and at the
    l_k, and log only at T = sum_k pi_k T (anything else raises).  At a = s_c/|pi|, l = centred log pi and
    T = exp(-mean log pi) every substituted relation holds and the point is theta_c^1; an identity of
    field elements (for all a, l, T) holds in particular there.  pi and P are the chain's rationals; the
    field's generators are a, l'_k = l_k / n2 (so that every denominator is a monomial in a and T: cheap
    cancellations), T and LT."""
    K, gens = _saddle_field(ch.d)
    pi = [K(x) for x in ch.pi_exact]
    P = [[K(x) for x in r] for r in ch.P_exact]
    return _symbolic_saddle(K, gens, ch.d, pi, P, m, mk)


def saddle_hessian_symbolic_f1(d: int, m: int, mk: int) -> SymbolicSaddle:
    """As :func:`saddle_hessian_symbolic`, for F1 with SYMBOLIC pi (pi_d = 1 - pi_1 - ... - pi_{d-1}) and
    lam: the field is Q(a, l, T, LT, pi_1..pi_{d-1}, lam), so identities hold for every pi and lam."""
    K, gens = _saddle_field(d, [f"pi{k + 1}" for k in range(d - 1)] + ["lam"])
    ps, lam = list(gens[3 + d:3 + d + d - 1]), gens[-1]
    pi = ps + [1 - sum(ps)]
    P = [[lam * (1 if i == j else 0) + (1 - lam) * pi[j] for j in range(d)] for i in range(d)]
    return _symbolic_saddle(K, gens, d, pi, P, m, mk, lam)


def _att_index(d: int, m: int, mk: int) -> tuple[int, int, int]:
    """(n0, start of vec W_Q, start of vec W_K)."""
    n0 = 2 * d * m
    return n0, n0, n0 + m * mk
