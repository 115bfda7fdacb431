"""Critical points of the population loss (spec §4.4, §4.6, §4.13, §4.14).

* the origin: G_M(0) = -G0, G0 = pi (pi - 1/d)^T, exactly (rationals), and its exact flow Jacobian J0;
* theta_c^1 (saddle): W0 = s_c pi_hat a1^T, W1 = s_c a1 l_hat^T, W_Q = W_K = 0;
* theta_c^2 (F4 degenerate point) and theta^2_delta (F5): the reduced flow (float64, LSODA) followed by a
  Gauss-Newton polish at high precision of the reduced critical equations with kappa fixed at the flow
  value and the gauges 1^T beta = 0, |gamma|^2 - |beta|^2 - 2 kappa = 0 (spec §4.13);
* :func:`symmetry_breaking_rate`: lambda_perp(delta) = sigma_max(G_M(theta^2_delta)) (spec §4.14);
* :func:`in_manifold_hessian`: the reduced Hessian by central differences at high precision.

The polish and the Hessian's field evaluations run in arb midpoints at the bits of the point's mpmath
context (:mod:`._working`; mpmath, the previous implementation, is kept as ``arithmetic="mpmath"`` and is
the tests' oracle); points, Hessians, G_M, G_Phi, residuals and losses are returned as mpmath values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from numerics.arithmetic import ArbArithmetic, ExactArithmetic, MPArithmetic, TorchArithmetic
from numerics.markov import MarkovChain, perturbed_rare, symmetric_rare
from numerics.validation import check_dps

from .flow import reduced_field, reduced_state
from .population import chain_mp, grad_M_Phi, lumped_loss, lumped_targets, population_loss

__all__ = ["origin_G0", "origin_jacobian", "ReducedPoint", "polish_reduced", "degenerate_point",
           "perturbed_point", "symmetry_breaking_rate", "in_manifold_hessian", "in_manifold_eigenvalues",
           "full_jacobian_float",
           "factored_equations", "factored_parts", "CertifiedPoint", "certify_reduced_point"]


def origin_G0(chain: MarkovChain) -> list[list[Fraction]]:
    """-G_M(0) computed EXACTLY by the closed-form gradient on rational object arrays (exp only at 0)."""
    if chain.P_exact is None:
        raise ValueError("origin_G0 needs a chain with rational entries")
    d = chain.d
    pi = np.array(chain.pi_exact, dtype=object)
    P = np.array(chain.P_exact, dtype=object)
    Z = np.array([[Fraction(0)] * d for _ in range(d)], dtype=object)
    GM, GPhi = grad_M_Phi(pi, P, Z, Z, Fraction(1), ExactArithmetic("fraction"))
    if any(x != 0 for x in GPhi.flat):
        raise AssertionError("G_Phi(0) is not zero")  # pragma: no cover - a theorem of §4.4
    return [[-x for x in row] for row in GM]


def origin_jacobian(G: Sequence[Sequence[Any]], m: int, mk: int) -> list[list[Any]]:
    """The flow Jacobian J0 at theta = 0 in the coordinates (vec W0, vec W1, vec W_Q, vec W_K).

    With L = log d + <G_M(0), W0 W1> + O(|theta|^3) and G_M(0) = -G0, the Hessian is the bilinear form
    (dW0, dW1) -> -2 <G0, dW0 dW1>, so the flow dW0' = G0 dW1^T, dW1' = dW0^T G0 and J0 = -Hessian.
    """
    d = len(G)
    n0 = d * m
    size = 2 * d * m + 2 * m * mk
    J = [[Fraction(0)] * size for _ in range(size)]
    for i in range(d):
        for a in range(m):
            r = i * m + a  # W0[i, a]
            for k in range(d):
                c = n0 + a * d + k  # W1[a, k]
                J[r][c] = G[i][k]
                J[c][r] = G[i][k]
    return J


@dataclass
class ReducedPoint:
    """A polished critical point of the reduced loss (mpmath values of ``ctx``, whatever arithmetic found
    it: :func:`polish_reduced`)."""

    gamma: list[Any]
    beta: list[Any]
    kappa: Any
    loss: Any
    GM: Any
    GPhi: Any
    residual: Any
    ctx: Any
    iterations: int
    kappa_exact: Fraction | None = None  # the pinned kappa as an exact (dyadic) rational
    # derived quantities of this point, computed once (in_manifold_hessian), keyed by the chain's exact P
    memo: dict = field(default_factory=dict, repr=False, compare=False)


def _critical_equations(pi, P, g, b, kap, ops):
    """The reduced critical equations at (gamma, beta) = (g, b) with kappa = kap pinned (spec §2.8, §4.13):
    e1 = G_M beta + kappa (G_Phi + G_Phi^T) gamma, e2 = G_M^T gamma, e3 = gamma^T G_Phi gamma (the reduced
    gradient; zero at a critical point), then the gauges 1^T beta and |gamma|^2 - |beta|^2 - 2 kappa.
    Generic over ``ops`` (mpmath, or arb for the polish's midpoints).  Returns (equations, G_M, G_Phi)."""
    ga = np.array(g, dtype=object)
    be = np.array(b, dtype=object)
    M = ga[:, None] * be[None, :]
    Phi = kap * ga[:, None] * ga[None, :]
    GM, GPhi = grad_M_Phi(pi, P, M, Phi, ops.convert(1), ops)
    e1 = GM @ be + kap * ((GPhi + GPhi.T) @ ga)
    e2 = GM.T @ ga
    e3 = ga @ GPhi @ ga
    gauge1 = sum(b)
    gauge2 = sum(x * x for x in g) - sum(x * x for x in b) - 2 * kap
    return list(e1) + list(e2) + [e3, gauge1, gauge2], GM, GPhi


def polish_reduced(chain: MarkovChain, z: np.ndarray, *, dps: int = 30, max_iter: int = 30,
                   arithmetic: str = "arb") -> ReducedPoint:
    """Gauss-Newton on the reduced critical equations (kappa fixed at the flow value, two gauges).

    Working precision dps + 20 digits (the mpmath context of the returned point, ``ctx.prec`` bits: 169 at
    dps = 30).  The 2d + 3 equations (:func:`_critical_equations`) in the 2d unknowns (gamma, beta) form a
    consistent overdetermined system; its Jacobian is taken by central differences with step
    h = 10^-floor((dps + 20)/3) (truncation O(h^2) and cancellation O(eps/h), both ~10^-(2(dps+20)/3):
    they only slow the quadratic convergence, the zero itself is that of F), and each step solves the
    normal equations.  Stops when max |F| < 10^-(dps+5).

    ``arithmetic`` is the working arithmetic of the iteration (:class:`._working.Working`): "arb" (arb
    midpoints at ctx.prec bits, ~6x faster) or "mpmath" (the reference, which it agrees with to the
    working precision).  Either way the returned point is an mpmath point of the context, and its
    equations, G_M, G_Phi, residual and loss are evaluated at it in mpmath: the evidence the checks read is
    computed as it always was, only the iteration that found the point is faster."""
    from ._working import Working

    dps = check_dps(dps, minimum=5)  # the working precision is dps + 20: dps = 0 must not pass silently
    d = chain.d
    mp = MPArithmetic(dps + 20)
    ctx = mp.ctx
    pi_l, P_l = chain_mp(chain, ctx)
    # kappa is pinned at the flow value, a product of two doubles: exact as a rational and at ctx precision
    kap_exact = Fraction(float(z[2 * d])) * Fraction(float(z[2 * d + 1]))
    kap_mp = ctx.mpf(kap_exact.numerator) / kap_exact.denominator
    h_mp = ctx.mpf(10) ** (-(dps + 20) // 3)
    tol = ctx.mpf(10) ** (-(dps + 5))
    it = 0
    with Working(ctx, arithmetic, mp) as w:
        ops, num = w.ops, w.from_mp
        pi = np.array([num(x) for x in pi_l], dtype=object)
        P = np.array([[num(x) for x in r] for r in P_l], dtype=object)
        kap, h = num(kap_mp), num(h_mp)
        x = [num(ctx.mpf(float(v))) for v in z[:2 * d]]
        for it in range(1, max_iter + 1):
            F = _critical_equations(pi, P, x[:d], x[d:], kap, ops)[0]
            if max(abs(w.to_mp(f)) for f in F) < tol:  # compared as exact mpf values of the midpoints
                break
            cols = []
            for j in range(2 * d):
                xp = list(x)
                xm = list(x)
                xp[j] = w.point(xp[j] + h)
                xm[j] = w.point(xm[j] - h)
                Fp = _critical_equations(pi, P, xp[:d], xp[d:], kap, ops)[0]
                Fm = _critical_equations(pi, P, xm[:d], xm[d:], kap, ops)[0]
                cols.append([(Fp[i] - Fm[i]) / (2 * h) for i in range(len(F))])
            step = w.gauss_newton_step([list(r) for r in zip(*cols)], F)
            x = [w.point(xi + step[i]) for i, xi in enumerate(x)]
        xs = [w.to_mp(v) for v in x]
    pi_m = np.array(pi_l, dtype=object)
    P_m = np.array(P_l, dtype=object)
    # the evidence of the point, in mpmath at the returned x (after the last step when not converged)
    F, GM, GPhi = _critical_equations(pi_m, P_m, xs[:d], xs[d:], kap_mp, mp)
    ga = np.array(xs[:d], dtype=object)
    be = np.array(xs[d:], dtype=object)
    L = population_loss(pi_m, P_m, ga[:, None] * be[None, :], kap_mp * ga[:, None] * ga[None, :], ctx.mpf(1),
                        mp)
    return ReducedPoint(xs[:d], xs[d:], kap_mp, L, GM, GPhi, max(abs(f) for f in F), ctx, it, kap_exact)


def _flow_to_point(chain: MarkovChain, T: float, symmetric: bool, lam_q: float = 1e-5) -> np.ndarray:
    """Reduced flow from the reference start.  With ``symmetric`` the rare components of the FIELD are
    averaged at every evaluation (the exact field preserves the symmetry; this removes round-off, which
    would otherwise break it in the unstable regime, spec §4.13)."""
    from numerics.flows import geometric_grid, integrate

    from .flow import reduced_rhs

    d = chain.d
    z0 = reduced_state(chain, lam_q)
    rhs = reduced_rhs(chain)

    def f(t: float, z: np.ndarray) -> np.ndarray:
        v = rhs(t, z)
        if symmetric:
            v[1:d] = v[1:d].mean()
            v[d + 1:2 * d] = v[d + 1:2 * d].mean()
        return v

    _, Z = integrate(f, z0, geometric_grid(0.1, T, 20), method="LSODA", rtol=1e-11, atol=1e-14)
    return Z[-1].copy()


def degenerate_point(d: int, pi1: Any, lam: Any, *, dps: int = 30, T: float = 1000.0,
                     lam_q: float = 1e-5) -> tuple[ReducedPoint, Any]:
    """theta_c^2 of F4 (spec §4.13): reduced flow from the reference start, then Newton at ``dps``.

    Returns the polished point and L_lump at the same precision.
    """
    dps = check_dps(dps, minimum=5)
    return _degenerate_point(d, _key(pi1), _key(lam), dps, T, lam_q)


@lru_cache(maxsize=32)
def _degenerate_point(d: int, pi1: Any, lam: Any, dps: int, T: float,
                      lam_q: float) -> tuple[ReducedPoint, Any]:
    """Cached: several checks (and their controls) read the same point in one process; it is not mutated."""
    chain = symmetric_rare(d, pi1, lam)
    z = _flow_to_point(chain, T, True, lam_q)
    pt = polish_reduced(chain, z, dps=dps)
    ctx = pt.ctx
    p1 = chain_mp(chain, ctx)[0][0]
    lm = ctx.mpf(lam.numerator) / lam.denominator if isinstance(lam, Fraction) else ctx.mpf(
        str(lam) if isinstance(lam, str) else float(lam))
    return pt, lumped_loss(p1, lm, d, log=ctx.log)


def perturbed_point(d: int, pi1: Any, lam: Any, direction: Sequence[Any], delta: Any, *, dps: int = 30,
                    T: float = 2000.0) -> ReducedPoint:
    """theta^2_delta of F5 (spec §4.14): reduced flow, then Newton at ``dps``."""
    dps = check_dps(dps, minimum=5)
    return _perturbed_point(d, _key(pi1), _key(lam), tuple(_key(c) for c in direction), _key(delta), dps, T)


def _key(x: Any) -> Any:
    """A hashable cache key with the same meaning: lists are not hashable, '3/5' and Fraction(3, 5) agree."""
    if isinstance(x, str):
        try:
            return Fraction(x)
        except ValueError:
            return x
    return x


@lru_cache(maxsize=64)
def _perturbed_point(d: int, pi1: Any, lam: Any, direction: tuple, delta: Any, dps: int,
                     T: float) -> ReducedPoint:
    """Cached: the Lyapunov-Schmidt checks and their controls read the same points in one process."""
    chain = perturbed_rare(d, pi1, lam, direction, delta)
    return polish_reduced(chain, _perturbed_start(d, pi1, lam, direction, delta, T), dps=dps)


@lru_cache(maxsize=64)
def _perturbed_start(d: int, pi1: Any, lam: Any, direction: tuple, delta: Any, T: float) -> np.ndarray:
    """The float64 reduced-flow end point that theta^2_delta's polish starts from (read-only): it does
    not depend on the polish's dps, so the polishes of one point at several dps share it."""
    z = _flow_to_point(perturbed_rare(d, pi1, lam, direction, delta), T, False)
    z.flags.writeable = False
    return z


def factored_equations(pi: Any, P: Any, gamma: Sequence[Any], beta: Sequence[Any], kappa: Any,
                       drop: tuple[int, int], ops: Any) -> list[Any]:
    """The reduced critical equations in factored form, square in (gamma, beta) at fixed kappa.

    On the rank-one manifold the logits of query q are z_q = A_q gamma beta^T = h_q beta^T with
    h_q := A_q . gamma, so the reduced loss factors as l(gamma, beta, kappa) = F(h(gamma, kappa), beta),
    F(h, beta) = sum_q pi_q CE(P_q, softmax(h_q beta)), and

        dF/dh_q = pi_q s_q,  s_q := beta . (Pred_q - P_q),      dF/dbeta = v := sum_q pi_q h_q (Pred_q - P_q).

    F is invariant under (h, beta) -> (a h, beta / a): at fixed kappa this is a symmetry of the reduced
    loss that is not among the gauges of spec §2.8, and it is why the critical set at fixed kappa is a
    curve (the "one-parameter family" of spec §4.13); the second gauge cuts it to a point.  Two identities
    hold everywhere: 1^T v = 0 (rows of Pred and P sum to 1) and beta^T v = sum_q pi_q h_q s_q.  The square
    system is therefore

        s_q = 0 (q = 1..d),  v_k = 0 (k not in ``drop``),  1^T beta = 0,  |gamma|^2 - |beta|^2 - 2 kappa = 0,

    and at a zero, the identities give v_i + v_j = 0 and beta_i v_i + beta_j v_j = 0, so v = 0 whenever
    beta_i != beta_j.  Then s = v = 0 imply every reduced critical equation (spec §2.8): dl/dgamma =
    sum_q pi_q s_q grad_gamma h_q = 0, dl/dbeta = v = 0 (= G_M^T gamma),
    dl/dkappa = sum_q pi_q s_q dh_q/dkappa = 0, and also G_Phi = 0
    ((G_Phi)_qk = pi_q A_qk (gamma_k - h_q) s_q) and G_M beta = 0 -- the structure spec §4.14 states for
    theta^2_delta.

    Uses :func:`population.predictions` (the one definition of A and Pred) with any backend ``ops``,
    including arb balls and forward-mode duals (the Krawczyk test).
    """
    d = len(gamma)
    g = np.array(list(gamma), dtype=object)
    b = np.array(list(beta), dtype=object)
    _, s, v = factored_parts(pi, P, g, b, kappa, ops)
    return (list(s) + [v[k] for k in range(d) if k not in drop]
            + [sum(b), sum(g * g) - sum(b * b) - 2 * kappa])


def factored_parts(pi: Any, P: Any, gamma: Any, beta: Any, kappa: Any, ops: Any) -> tuple[Any, Any, Any]:
    """(h, s, v) of :func:`factored_equations`: h_q = A_q . gamma, s_q = beta . (Pred_q - P_q),
    v = sum_q pi_q h_q (Pred_q - P_q), with A and Pred from :func:`population.predictions` at
    M = gamma beta^T, Phi = kappa gamma gamma^T."""
    from .population import predictions

    A, Pred = predictions(pi, gamma[:, None] * beta[None, :], kappa * gamma[:, None] * gamma[None, :], 1, ops)
    h = A @ gamma
    R = Pred - P
    return h, R @ beta, (pi * h) @ R


@dataclass(frozen=True)
class CertifiedPoint:
    """A Krawczyk-certified critical point of the reduced loss at a pinned kappa, with sigma_max(G_M).

    ``existence`` is the Krawczyk result for :func:`factored_equations`; ``beta_gap`` encloses
    beta_i - beta_j over the box (it must exclude 0 for the zero to be a critical point);
    ``sigma_max`` encloses sigma_max(G_M) at the certified zero (None unless both hold);
    ``gradient_bound`` (an arb upper bound, or None) bounds |e1|, |e2|, |e3| and |G_Phi| of the closed-form
    gradient over the box (a cross-check of the factored reasoning: of the order of the box radius).
    """

    existence: Any
    kappa: Fraction
    radius: str
    drop: tuple[int, int]
    beta_gap: Any
    sigma_max: Any
    gradient_bound: Any
    center: list[str]

    @property
    def decision(self) -> Any:
        from numerics.precision import Tri

        if self.existence.decision is not Tri.TRUE:
            return self.existence.decision
        return Tri.TRUE if (self.beta_gap > 0 or self.beta_gap < 0) else Tri.UNKNOWN


def certify_reduced_point(chain: MarkovChain, pt: ReducedPoint, *, radius: str = "1e-20", bits: int = 256,
                          gauge_shift: Any = 0) -> CertifiedPoint:
    """Certify the critical point ``pt`` (from :func:`polish_reduced`) and enclose sigma_max(G_M) there.

    Krawczyk (arb, ``bits``) on :func:`factored_equations` with kappa pinned at ``pt.kappa_exact``, on the
    box of half-width ``radius`` about the Newton point; the dropped pair is (1, j) with j maximising
    |beta_1 - beta_j| (best conditioned).  If a unique zero exists and beta_1 - beta_j excludes 0 over the
    box, the zero is a critical point of the reduced loss (see :func:`factored_equations`).  Then
    sigma_max(G_M) at the zero is enclosed by Weyl's inequality: |sigma_max(G) - sigma_max(G_mid)| <=
    |G - G_mid|_F for G_M enclosed over the box, and sigma_max(G_mid) is the top eigenvalue of the exact
    symmetric matrix [[0, G_mid], [G_mid^T, 0]] (certified by :func:`numerics.linalg.ball_spectrum`).

    ``gauge_shift`` adds a constant to the second gauge: a deliberately false system for negative controls.
    """
    import flint

    from numerics.krawczyk import krawczyk_fn
    from numerics.linalg import ball_spectrum
    from numerics.precision import Tri, to_arb

    if pt.kappa_exact is None:
        raise ValueError("certify_reduced_point needs a point with a pinned exact kappa (polish_reduced)")
    if chain.P_exact is None:
        raise ValueError("certify_reduced_point needs a chain with rational entries")
    d = chain.d
    beta_mid = [float(x) for x in pt.beta]
    j = max(range(1, d), key=lambda k: abs(beta_mid[0] - beta_mid[k]))
    drop = (0, j)
    center = [pt.ctx.nstr(x, pt.ctx.dps) for x in list(pt.gamma) + list(pt.beta)]
    shift = Fraction(gauge_shift)

    with ArbArithmetic(bits) as ops:
        pi = np.array([to_arb(x) for x in chain.pi_exact], dtype=object)
        P = np.array([[to_arb(x) for x in r] for r in chain.P_exact], dtype=object)
        kap = to_arb(pt.kappa_exact)

        def system(x: list[Any]) -> list[Any]:
            eqs = factored_equations(pi, P, x[:d], x[d:], kap, drop, ops)
            eqs[-1] = eqs[-1] - to_arb(shift)
            return eqs

        res = krawczyk_fn(system, center, radius, bits=bits)
        r = to_arb(radius)
        box = [to_arb(c) + flint.arb(0, r.upper()) for c in center]
        gap = box[d] - box[d + j]
        sigma = None
        gbound = None
        if res.decision is Tri.TRUE and (gap > 0 or gap < 0):
            g = np.array(box[:d], dtype=object)
            b = np.array(box[d:], dtype=object)
            GM, GPhi = grad_M_Phi(pi, P, g[:, None] * b[None, :], kap * g[:, None] * g[None, :], 1, ops)
            e1 = GM @ b + kap * ((GPhi + GPhi.T) @ g)
            e2 = GM.T @ g
            e3 = g @ GPhi @ g
            gbound = max((abs(x).upper() for x in [*e1, *e2, e3, *GPhi.flat]), key=float)
            mid = [[flint.arb(GM[i, k].mid()) for k in range(d)] for i in range(d)]
            frob = flint.arb(0)
            for i in range(d):
                for k in range(d):
                    frob += flint.arb(GM[i, k].rad()) ** 2
            wide = frob.sqrt()
            block = [[flint.arb(0)] * (2 * d) for _ in range(2 * d)]
            for i in range(d):
                for k in range(d):
                    block[i][d + k] = mid[i][k]
                    block[d + k][i] = mid[i][k]
            top = ball_spectrum(block, bits=bits)[-1]
            if top.multiplicity != 1:
                raise ArithmeticError("sigma_max(G_M) is not separated from the next singular value")
            sigma = top.enclosure + flint.arb(0, wide.upper())
    return CertifiedPoint(res, pt.kappa_exact, radius, drop, gap, sigma, gbound, center)


def symmetry_breaking_rate(pi1: Any, d: int, lam: Any, direction: Sequence[Any], delta: Any, *,
                           dps: int = 30, T: float = 2000.0) -> Any:
    """lambda_perp(delta) = sigma_max(G_M(theta^2_delta)), the top transverse eigenvalue (spec §4.14).

    Arguments may be exact (``Fraction`` or ``"p/q"`` strings) or floats.  Returns an mpmath number.

    >>> lp = symmetry_breaking_rate("3/5", 5, "1/2", [1, -1, "1/2", "-1/2"], "1/1000", dps=20)
    >>> round(float(lp) / 1e-3, 4)
    0.0766
    """
    from numerics.errors import InputError, check_arg
    from numerics.validation import check_dps, check_int, check_positive_real

    d = check_int(d, "d", minimum=3, maximum=64, what="the symmetric-rare family; larger d is not supported")
    dps = check_dps(dps, minimum=5)
    T_q = check_positive_real(T, "T")
    check_arg(1 < T_q < 10**7, "T", "must be a time horizon in (1, 1e7)", T)
    T = float(T_q)
    if isinstance(direction, (str, bytes)) or not hasattr(direction, "__len__"):
        raise InputError("direction", f"must be a sequence of d - 1 = {d - 1} real numbers", direction)
    direction = list(direction.tolist() if isinstance(direction, np.ndarray) else direction)
    perturbed_rare(d, pi1, lam, direction, delta)  # validates pi1, lam, direction and delta (names them)
    pt = perturbed_point(d, pi1, lam, direction, delta, dps=dps, T=T)
    ctx = pt.ctx
    G = ctx.matrix([[x for x in row] for row in pt.GM])
    out = max(ctx.svd_r(G, compute_uv=False))
    if not ctx.isfinite(out):  # pragma: no cover - a defensive guard: never return NaN
        raise InputError("delta", "the perturbed critical point could not be computed for these arguments")
    return out


def in_manifold_hessian(chain: MarkovChain, pt: ReducedPoint) -> Any:
    """Hessian of the reduced loss in (gamma, beta, lam_Q, lam_K) at pt (central differences at the
    point's precision; lam_Q = lam_K = sqrt(kappa)).  Returns an mpmath matrix (symmetrised), a fresh copy.

    The points are cached per process (:func:`degenerate_point`, :func:`perturbed_point`) and several
    checks read the Hessian of the same point: it is memoised on the point, keyed by the chain's exact P
    (not memoised for a chain without one)."""
    key = ("in_manifold_hessian", chain.P_exact) if chain.P_exact is not None else None
    if key is not None and key in pt.memo:
        return pt.memo[key].copy()
    H = _in_manifold_hessian(chain, pt)
    if key is not None:
        pt.memo[key] = H.copy()
    return H


def in_manifold_eigenvalues(chain: MarkovChain, pt: ReducedPoint) -> tuple[Any, ...]:
    """The eigenvalues of :func:`in_manifold_hessian` (mpmath ``eigsy``, in its order), as a tuple of
    mpmath numbers: memoised on the point like the Hessian (the stage-IV checks read the spectrum of the
    same cached points several times; 50-digit eigsy of an 18 x 18 matrix is ~0.05 s)."""
    key = ("in_manifold_eigenvalues", chain.P_exact) if chain.P_exact is not None else None
    if key is not None and key in pt.memo:
        return pt.memo[key]
    ev = pt.ctx.eigsy(in_manifold_hessian(chain, pt), eigvals_only=True)
    out = tuple(ev[i] for i in range(ev.rows))
    if key is not None:
        pt.memo[key] = out
    return out


def _in_manifold_hessian(chain: MarkovChain, pt: ReducedPoint, arithmetic: str = "arb") -> Any:
    """H_ij = -(f_i(z + h e_j) - f_i(z - h e_j)) / 2h for the reduced field f = -grad l at the point's
    precision (ctx.prec bits), h = 10^-floor(dps/3) (1e-16 at 50 digits: truncation O(h^2) ~ 1e-32,
    cancellation O(eps/h) ~ 1e-34, so zero modes come out at that level), symmetrised in mpmath.  The 2n
    field evaluations run in the working ``arithmetic`` (:class:`._working.Working`; arb midpoints by
    default, mpmath as the reference); the quotients are converted to the context exactly."""
    from ._working import Working

    ctx = pt.ctx
    d = chain.d
    pi_l, P_l = chain_mp(chain, ctx)
    lq = ctx.sqrt(pt.kappa)
    z_mp = list(pt.gamma) + list(pt.beta) + [lq, lq]
    n = len(z_mp)
    h = ctx.mpf(10) ** (-(ctx.dps // 3))
    H = [[None] * n for _ in range(n)]
    with Working(ctx, arithmetic) as w:
        ops, num = w.ops, w.from_mp
        pi = np.array([num(x) for x in pi_l], dtype=object)
        P = np.array([[num(x) for x in r] for r in P_l], dtype=object)
        z = [num(x) for x in z_mp]
        h = num(h)
        one = ops.convert(1)
        for j in range(n):
            zp = list(z)
            zm = list(z)
            zp[j] = w.point(zp[j] + h)
            zm[j] = w.point(zm[j] - h)
            fp = reduced_field(pi, P, np.array(zp, dtype=object), d, one, ops)
            fm = reduced_field(pi, P, np.array(zm, dtype=object), d, one, ops)
            for i in range(n):
                H[i][j] = -(fp[i] - fm[i]) / (2 * h)
        H = ctx.matrix([[w.to_mp(v) for v in r] for r in H])
    return (H + H.T) / 2


def full_jacobian_float(chain: MarkovChain, W: tuple[np.ndarray, ...], tau: float = 1.0) -> np.ndarray:
    """The flow Jacobian -Hessian of L at the full parameters W (torch autograd Hessian, float64)."""
    import torch

    from .population import model_matrices

    ops = TorchArithmetic()
    shapes = [w.shape for w in W]
    sizes = [w.size for w in W]
    pi = torch.tensor(chain.pi, dtype=torch.float64)
    P = torch.tensor(chain.P, dtype=torch.float64)

    def L(x: Any) -> Any:
        parts = torch.split(x, sizes)
        W0, W1, WQ, WK = (p.reshape(s) for p, s in zip(parts, shapes))
        M, Phi = model_matrices(W0, W1, WQ, WK, ops)
        return population_loss(pi, P, M, Phi, tau, ops)

    x = torch.tensor(np.concatenate([w.ravel() for w in W]), dtype=torch.float64)
    H = torch.autograd.functional.hessian(L, x).detach().numpy()
    return -(H + H.T) / 2


def lumped_system(pi1: Any, lam: Any, d: int, *,
                  target_shift: Any = 0) -> tuple[list[Any], tuple[Any, ...], Any]:
    """The lumped critical equations of spec §4.13 in (g1, g_l, b), with kappa a free symbol.

    With Phi = kappa gamma gamma^T, gamma = (g1, g_l, ..., g_l), beta = (b1, b_l, ...), 1^T beta = 0 and
    b = b1 - b_l (so b1 = b (d-1)/d, b_l = -b/d):

        a  = pi1 e^{kappa g1^2} / (pi1 e^{kappa g1^2} + (1-pi1) e^{kappa g1 g_l}),
        a' = pi1 e^{kappa g1 g_l} / (pi1 e^{kappa g1 g_l} + (1-pi1) e^{kappa g_l^2}),
        h1 = a g1 + (1-a) g_l,  h' = a' g1 + (1-a') g_l,

        h1 b = T1,  h' b = T',  |gamma|^2 - |beta|^2 - 2 kappa = 0  (the second gauge),

    T1 = log[(d-1)(lam + (1-lam)pi1) / ((1-lam)(1-pi1))], T' = log[(d-1)(1-lam)pi1 / rho_l],
    rho_l = lam + (1-lam)(1-pi1).  ``target_shift`` adds a constant to T1 (a deliberately false
    variant for the negative control).  Returns (equations, (g1, g_l, b), kappa).
    """
    import sympy as sp

    p1, lm = sp.Rational(str(pi1)), sp.Rational(str(lam))
    g1, gl, b, kap = sp.symbols("g_1 g_l b kappa", real=True)
    a = p1 * sp.exp(kap * g1**2) / (p1 * sp.exp(kap * g1**2) + (1 - p1) * sp.exp(kap * g1 * gl))
    ap = p1 * sp.exp(kap * g1 * gl) / (p1 * sp.exp(kap * g1 * gl) + (1 - p1) * sp.exp(kap * gl**2))
    h1 = a * g1 + (1 - a) * gl
    hp = ap * g1 + (1 - ap) * gl
    T1, Tp = lumped_targets(p1, lm, d, log=sp.log)
    T1 = T1 + sp.Rational(str(target_shift))
    gauge = g1**2 + (d - 1) * gl**2 - b**2 * sp.Rational(d - 1, d) - 2 * kap
    return [h1 * b - T1, hp * b - Tp, gauge], (g1, gl, b), kap
