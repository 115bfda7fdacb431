"""Checks of the spectral claims at the origin and at theta_c^1 (spec §4.4, §4.6, §4.7, §4.9).

Variants (negative controls):

* origin: ``mu_v`` (mu0' = |v|), ``G_v_pi`` (G0' = v pi^T), ``mult_one`` (multiplicity 1 for +-mu0);
* saddle location: ``pi_minus_uniform`` (the "pi - 1/d point" at its best scale is not critical);
* eigenstructure: ``psd_attention`` (attention block PSD), ``outer_unstable`` (an unstable outer mode);
* growth rate: ``lambda_squared`` (c proportional to lam^2), ``opposite_sign`` (sign c = -sign K2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

import math

from numerics.exact import charpoly, rational_matrix
from numerics.linalg import ball_spectrum
from numerics.markov import MarkovChain, anti_persistent, two_state_anti_focus
from numerics.precision import (Tri, arb_precision, float_tolerance, mp_context, tolerance_for, tri_contains,
                                tri_negative, tri_positive)
from numerics.strategies import chains, lazy_chains
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted, reject

from ._checks_model import E1_PI, _describe_chain, pinned_chains
from .critical_points import full_jacobian_float, origin_G0, origin_jacobian
from .flow import Shapes, theta_c1, unpack
from .population import (FLOAT, arb_ops, chain_mp, grad_M_Phi, mp_ops, param_grads, population_loss,
                         reference_formulas)

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


# -- §4.4 origin --------------------------------------------------------------------------------------
def origin_exact(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Exact rationals on S_pi x S_P (d <= 4; m = 2, m_k = 2): G_M(0) = -pi v^T exactly (closed-form
    gradient evaluated on rationals), G_Phi(0) = 0, and the exact characteristic polynomial of the flow
    Jacobian J0 is x^(2dm + 2 m m_k - 2m) (x^2 - mu0^2)^m with mu0^2 = |pi|^2 |v|^2: eigenvalues +-mu0
    with multiplicity exactly m each and 0 with multiplicity 2dm + 2 m m_k - 2m.  Uniform pi is N/A."""
    if variant not in ("statement", "mu_v", "G_v_pi", "mult_one"):
        raise ValueError(f"unknown variant {variant!r}")
    m, mk = 2, 2
    tally = Tally(precision="exact", backend="fractions + flint charpoly", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        d = ch.d
        G = origin_G0(ch)
        pi = ch.pi_exact
        v = [p - Fraction(1, d) for p in pi]
        target = [[(v[i] * pi[k] if variant == "G_v_pi" else pi[i] * v[k]) for k in range(d)] for i in range(d)]
        if G != target:
            return Observation(Verdict.REFUTED, counterexample=refuted(
                "G0 differs from the stated rank-one matrix", variant=variant,
                G0=[[str(x) for x in r] for r in G]))
        # exact: charpoly(J0) = x^(n - 2k) (x^2 - mu0^2)^k with mu0^2 = n2 |v|^2 rational and k = m
        n = 2 * d * m + 2 * m * mk
        mu2 = sum(x * x for x in v) * (1 if variant == "mu_v" else sum(p * p for p in pi))
        k = 1 if variant == "mult_one" else m
        target_poly = [Fraction(0)] * (n + 1)
        for j in range(k + 1):  # (x^2 - mu2)^k = sum_j C(k, j) x^(2j) (-mu2)^(k - j)
            target_poly[n - 2 * k + 2 * j] = Fraction(math.comb(k, j)) * (-mu2) ** (k - j)
        cp = charpoly(rational_matrix(origin_jacobian(G, m, mk)))
        if list(cp) == target_poly:
            return Observation(Verdict.CERTIFIED, margin=0.0)
        return Observation(Verdict.REFUTED, counterexample=refuted(
            "charpoly(J0) differs from x^(n-2k) (x^2 - mu0^2)^k", variant=variant, k=k, mu0_sq=str(mu2),
            d=d))

    explore(chains(max_d=4), body, tally, seed=seed, max_examples=profile.pick(12, 40, 200),
            examples=pinned_chains(), describe=_describe_chain)
    tally.details["scope"] = "rational chains, d <= 4, m = m_k = 2"
    return tally.evidence()


def origin_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy: d = 3, symbolic pi (pi3 = 1 - pi1 - pi2) and a symbolic P with pi P = pi imposed (two
    entries solved for): G_M(0) = -pi v^T and G_Phi(0) = 0 exactly."""
    import sympy as sp

    from .population import sympy_ops

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    p1, p2 = sp.symbols("pi1 pi2", positive=True)
    a, b, c, e, f, g = sp.symbols("a b c e f g", positive=True)
    pi = [p1, p2, 1 - p1 - p2]
    P = sp.Matrix([[a, b, 1 - a - b], [c, e, 1 - c - e], [f, g, 1 - f - g]])
    sol = sp.solve(list(sp.Matrix([pi]) * P - sp.Matrix([pi]))[:2], [f, g], dict=True)[0]
    P = P.subs(sol)
    Z = np.array([[sp.Integer(0)] * 3 for _ in range(3)], dtype=object)
    GM, GPhi = grad_M_Phi(np.array(pi, dtype=object), np.array(P.tolist(), dtype=object), Z, Z,
                          sp.Integer(1), sympy_ops())
    v = [x - sp.Rational(1, 3) for x in pi]
    for i in range(3):
        for k in range(3):
            tgt = -(v[i] * pi[k]) if variant == "G_v_pi" else -(pi[i] * v[k])
            holds = bool(sp.simplify(GM[i, k] - tgt) == 0) and bool(sp.simplify(GPhi[i, k]) == 0)
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_M(0)[{i},{k}] differs from the stated form", variant=variant))
            if not holds:
                return tally.evidence()
    tally.details["scope"] = "d = 3, every pi and every P with pi P = pi"
    return tally.evidence()


def origin_hessian_float(*, seed: int, profile: Profile) -> Evidence:
    """torch autograd Hessian of L at theta = 0 equals -J0 (float64); E1 with m = 3, m_k = 2 and the pinned
    chains with m = m_k = 2.  Budget float_tolerance(ops = 64 d)."""
    tally = Tally(precision="float64", backend="torch autograd Hessian", seeds=(seed,))
    E1 = MarkovChain.lazy(E1_PI, "1/2")
    for ch, m, mk in [(E1, 3, 2)] + [(c, 2, 2) for c in pinned_chains()]:
        sh = Shapes(ch.d, m, mk)
        W = unpack(np.zeros(sh.size), sh)
        J = full_jacobian_float(ch, W)
        J0 = np.array(origin_jacobian(origin_G0(ch), m, mk), dtype=np.float64)
        tol = float_tolerance(ops=64 * ch.d)
        tally.tolerance = tol
        tally.close(float(np.max(np.abs(J - J0))), 0.0, tol, counterexample=lambda: refuted(
            "autograd Hessian at 0 differs from -J0", chain=ch.name))
    ev = np.linalg.eigvalsh(np.array(origin_jacobian(origin_G0(E1), 3, 2), dtype=np.float64))
    tally.details["E1_m3_top"] = sorted(ev)[-3:]
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- §4.6 saddle location -------------------------------------------------------------------------------
def _mp_point(ch: MarkovChain, ctx: Any, m: int, mk: int, variant: str) -> tuple[list[Any], Any]:
    """theta_c^1 (or the variant's point) as mpmath object arrays."""
    pi_l, P_l = chain_mp(ch, ctx)
    d = ch.d
    pi = np.array(pi_l, dtype=object)
    npi = ctx.sqrt(sum(x * x for x in pi_l))
    logs = [ctx.log(x) for x in pi_l]
    ell = [x - sum(logs) / d for x in logs]
    nl = ctx.sqrt(sum(x * x for x in ell))
    W0 = np.array([[ctx.mpf(0)] * m for _ in range(d)], dtype=object)
    W1 = np.array([[ctx.mpf(0)] * d for _ in range(m)], dtype=object)
    WQ = np.array([[ctx.mpf(0)] * mk for _ in range(m)], dtype=object)
    WK = WQ.copy()
    if variant == "pi_minus_uniform":
        v = [x - ctx.mpf(1) / d for x in pi_l]
        nv = ctx.sqrt(sum(x * x for x in v))
        Pm = np.array(P_l, dtype=object)
        ops = mp_ops(ctx)

        def loss_at(s: Any) -> Any:
            W0[:, 0] = [s * x / npi for x in pi_l]
            W1[0, :] = [s * x / nv for x in v]
            return population_loss(pi, Pm, W0 @ W1, W0 @ WQ @ WK.T @ W0.T, ctx.mpf(1), ops)

        s = ctx.findroot(lambda s: ctx.diff(loss_at, s), ctx.mpf(1.6))
        loss_at(s)
        return [W0, W1, WQ, WK], s
    sc = ctx.sqrt(nl / npi)
    W0[:, 0] = [sc * x / npi for x in pi_l]
    W1[0, :] = [sc * x / nl for x in ell]
    return [W0, W1, WQ, WK], sc


def saddle_mp(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """mpmath at 35 digits on S_pi x S_P: at theta_c^1 |grad L| <= 1e-25 (tolerance_for(35)),
    L = H(pi) and G_Phi = -(1/tau) pi_q pi_k (pi_k/n2 - 1) r_q to the same tolerance.
    Variant 'pi_minus_uniform': the point W0 = s' pi_hat e1^T, W1 = s' e1 v_hat^T at its
    loss-minimising s' must have |grad L| > tolerance."""
    dps = 35
    tol = tolerance_for(dps)
    tally = Tally(precision=f"dps={dps}", backend="mpmath", tolerance=tol, seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if all(abs(x - ch.pi[0]) < 1e-15 for x in ch.pi):
            reject()  # uniform pi: theta_c^1 is the origin (N/A)
        ctx = mp_context(dps)
        ops = mp_ops(ctx)
        W, _ = _mp_point(ch, ctx, 2, 2, variant)
        pi_l, P_l = chain_mp(ch, ctx)
        pi = np.array(pi_l, dtype=object)
        P = np.array(P_l, dtype=object)
        g = param_grads(pi, P, *W, ctx.mpf(1), ops)
        gn = ctx.sqrt(sum(x * x for G in g for x in G.flat))
        if gn > tol:
            return Observation(Verdict.REFUTED, margin=float(tol - gn), error=float(gn), counterexample=refuted(
                f"|grad L| = {ctx.nstr(gn, 5)} > {tol:.1e}: not a critical point", variant=variant))
        f = reference_formulas(pi_l, P_l, log=ctx.log, sqrt=ctx.sqrt)
        L = population_loss(pi, P, W[0] @ W[1], W[0] @ W[2] @ W[3].T @ W[0].T, ctx.mpf(1), ops)
        _, GPhi = grad_M_Phi(pi, P, W[0] @ W[1], W[0] @ W[2] @ W[3].T @ W[0].T, ctx.mpf(1), ops)
        d = ch.d
        err_phi = max(abs(GPhi[q, k] + pi_l[q] * pi_l[k] * (pi_l[k] / f["n2"] - 1) * f["r"][q])
                      for q in range(d) for k in range(d))
        err = max(abs(L - f["H"]), err_phi, gn)
        if err <= tol:
            return Observation(Verdict.CONSISTENT, margin=float(tol - err), error=float(err))
        return Observation(Verdict.REFUTED, margin=float(tol - err), error=float(err), counterexample=refuted(
            f"L - H(pi) or the G_Phi formula off by {ctx.nstr(err, 5)}", variant=variant))

    E1 = MarkovChain.lazy(E1_PI, "1/2")
    explore(chains(max_d=6), body, tally, seed=seed, max_examples=profile.pick(10, 40, 200),
            examples=[E1] + pinned_chains(), describe=_describe_chain)
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def saddle_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy, d = 3, symbolic pi (positive, pi3 = 1 - pi1 - pi2) and symbolic lam (F1):
    at M = pi l^T / n2 (= W0 W1 at theta_c^1) and Phi = 0, G_M = 0 exactly (hence grad L = 0, since
    W_Q = W_K = 0 kill the attention terms), L = H(pi), and the G_Phi formula holds."""
    import sympy as sp

    from .population import sympy_ops

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    p1, p2, lam, mu = sp.symbols("pi1 pi2 lam mu", positive=True)
    pil = [p1, p2, 1 - p1 - p2]
    d = 3
    P = [[lam * (1 if i == j else 0) + (1 - lam) * pil[j] for j in range(d)] for i in range(d)]
    n2 = sum(x * x for x in pil)
    # l = log pi - mu 1 with a symbolic shift mu (the statement is shift invariant: softmax(l) and
    # r = (P - 1 pi^T) l do not see mu); then exp(l_k) = pi_k e^{-mu} and everything is rational in
    # (pi, lam, e^{-mu}) plus linear log terms, which sympy decides quickly.
    ell = [sp.log(x) - mu for x in pil]
    if variant == "pi_minus_uniform":
        ell = [x - sp.Rational(1, 3) for x in pil]  # W1 along v instead of l (any scale): not critical
    r = [sum((P[q][k] - pil[k]) * ell[k] for k in range(d)) for q in range(d)]
    M = np.array([[pil[i] * ell[k] / n2 for k in range(d)] for i in range(d)], dtype=object)
    Z = np.array([[sp.Integer(0)] * d for _ in range(d)], dtype=object)
    from .population import object_ops

    ops = object_ops("sympy", lambda x: sp.expand_power_exp(sp.exp(sp.expand(sp.cancel(sp.together(x))))), sp.log)
    pi = np.array(pil, dtype=object)
    Pm = np.array(P, dtype=object)
    GM, GPhi = grad_M_Phi(pi, Pm, M, Z, sp.Integer(1), ops)
    for i in range(d):
        for k in range(d):
            holds = bool(sp.cancel(sp.together(sp.expand(GM[i, k]))) == 0)
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_M[{i},{k}] != 0 at the candidate point", variant=variant))
            if not holds:
                return tally.evidence()
    Ls = population_loss(pi, Pm, M, Z, sp.Integer(1), ops)
    H = -sum(x * sp.log(x) for x in pil)
    holds = bool(sp.simplify(sp.expand_log(sp.cancel(sp.together(Ls - H)), force=True)) == 0)
    tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted("L != H(pi)", variant=variant))
    for q in range(d):
        for k in range(d):
            e = GPhi[q, k] + pil[q] * pil[k] * (pil[k] / n2 - 1) * r[q]
            holds = bool(sp.cancel(sp.together(sp.expand(e))) == 0)
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_Phi[{q},{k}] formula fails", variant=variant))
            if not holds:
                return tally.evidence()
    tally.details["scope"] = "d = 3, symbolic pi and lam (F1)"
    return tally.evidence()


# -- §4.7 eigenstructure ---------------------------------------------------------------------------------
def _saddle_blocks_arb(ch: MarkovChain, m: int, mk: int) -> tuple[Any, Any, list[list[Any]], list[list[Any]]]:
    """(c from the Jacobian, c closed form, outer Hessian K^T S K, attention flow block) in arb.

    At theta_c^1, G_M = 0 and W_Q = W_K = 0, so the Hessian is block diagonal:
    outer: L depends on (W0, W1) through u = M^T pi only (A = 1 pi^T), with Hessian
      S = diag(pi) - pi pi^T in u, and u' = K (dW0, dW1), K = dW1^T W0^T pi + W1^T dW0^T pi;
    attention: L = <G_Phi, W0 dW_Q dW_K^T W0^T> = sum_ab B_ab (dW_Q dW_K^T)_ab, B = W0^T G_Phi W0.
    """
    import flint

    pi, P = _arb_chain(ch)
    f = _arb_refs(ch)
    d = ch.d
    sc = f["sc2"].sqrt()
    gam = [sc * p / f["normpi"] for p in pi]
    bet = [sc * x / f["norml"] for x in f["ell"]]
    W0 = [[gam[i] if a == 0 else flint.arb(0) for a in range(m)] for i in range(d)]
    W1 = [[bet[k] if a == 0 else flint.arb(0) for k in range(d)] for a in range(m)]
    M = np.array([[gam[i] * bet[k] for k in range(d)] for i in range(d)], dtype=object)
    Z = np.array([[flint.arb(0)] * d for _ in range(d)], dtype=object)
    GM, GPhi = grad_M_Phi(np.array(pi, dtype=object), np.array(P, dtype=object), M, Z, flint.arb(1), arb_ops())
    c_jac = -sum(gam[q] * GPhi[q, k] * gam[k] for q in range(d) for k in range(d))
    # outer block
    n0, n1 = d * m, m * d
    K = [[flint.arb(0)] * (n0 + n1) for _ in range(d)]
    W0tpi = [sum(W0[i][a] * pi[i] for i in range(d)) for a in range(m)]
    for y in range(d):
        for i in range(d):
            for a in range(m):  # dW0[i, a]: u_y += W1[a, y] pi_i
                K[y][i * m + a] += W1[a][y] * pi[i]
        for a in range(m):  # dW1[a, y]: u_y += (W0^T pi)_a
            K[y][n0 + a * d + y] += W0tpi[a]
    # attention flow block (-Hessian) on (vec W_Q, vec W_K)
    B = [[sum(W0[i][a] * GPhi[i, k] * W0[k][b] for i in range(d) for k in range(d)) for b in range(m)]
         for a in range(m)]
    na = m * mk
    J_att = [[flint.arb(0)] * (2 * na) for _ in range(2 * na)]
    for a in range(m):
        for b in range(m):
            for j in range(mk):
                J_att[a * mk + j][na + b * mk + j] = -B[a][b]
                J_att[na + b * mk + j][a * mk + j] = -B[a][b]
    return c_jac, f["c"], K, J_att


def eigen_certified(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """arb (256 bits) on rational chains (d <= 4), m = 2, m_k = 2:

    * c = -gamma^T G_Phi gamma (from the Jacobian) and the closed form (s_c^2/n2) K1 K2 overlap, and the
      enclosure excludes 0;
    * attention block: exactly 2 m_k structurally nonzero entries (+-c pairs), so its eigenvalues are
      +c (x m_k), -c (x m_k) and 0 (x 2 m m_k - 2 m_k) -- exact multiplicities from the pattern, signs
      certified by the enclosure of c;
    * outer block: J_outer = -K^T S K with S = diag(pi) - pi pi^T (x^T S x = Var_pi(x) >= 0, kernel
      exactly span(1)); rank(K^T S K) = rank K - [1 in range K]; an arb-certified nonzero d x d minor
      of K proves rank K = d, hence exactly d - 1 negative eigenvalues of J_outer and zeros elsewhere
      (including the rank-raising directions).
    Variants: 'psd_attention' (asserts the attention block has no negative eigenvalue),
    'outer_unstable' (asserts an unstable outer direction).  Chains with K2 = 0 are N/A."""
    if variant not in ("statement", "psd_attention", "outer_unstable"):
        raise ValueError(f"unknown variant {variant!r}")
    m, mk = 2, 2
    tally = Tally(precision=f"arb {ARB_BITS} bits", backend="python-flint", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch) or _iid(ch):
            reject()  # N/A: uniform pi (theta_c1 = 0) or K2 = 0 exactly (no strict saddle)
        with arb_precision(ARB_BITS):
            c_jac, c_cf, K, J_att = _saddle_blocks_arb(ch, m, mk)
            if c_cf.is_exact() and c_cf == 0:
                reject()  # K2 = 0 (e.g. lam = 0): no strict saddle, N/A
            if not c_jac.overlaps(c_cf):
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    "Jacobian c and closed-form c do not overlap", c_jac=str(c_jac), c_cf=str(c_cf)))
            sc = tri_positive(c_jac) if tri_positive(c_jac) is Tri.TRUE else tri_negative(c_jac)
            if sc is not Tri.TRUE:
                return Observation(Verdict.UNKNOWN)
            nz = [(i, j) for i, r in enumerate(J_att) for j, x in enumerate(r) if not (x.is_exact() and x == 0)]
            pattern_ok = len(nz) == 2 * mk and all(J_att[j][i].overlaps(J_att[i][j]) for i, j in nz)
            if variant == "psd_attention":
                # PSD would need every eigenvalue >= 0; the pair (+c, -c) has a certified negative member
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    "the attention block has the certified negative eigenvalue -|c|", c=str(c_jac)))
            # rank(K^T S K) = rank(K) - [1 in range K]; a certified nonzero d x d minor of K gives
            # rank K = d, so range K = R^d contains 1 and K^T S K (PSD) has exactly d - 1 positive
            # eigenvalues: J_outer has d - 1 negative eigenvalues and zeros elsewhere.
            import flint

            d = ch.d
            cols = list(range(d * m, d * m + d))  # the dW1[0, :] columns
            minor = flint.arb_mat([[K[y][j] for j in cols] for y in range(d)]).det()
            npos = d - 1 if tri_positive(minor * minor) is Tri.TRUE else -1
            nneg_certain = 0
        d = ch.d
        if variant == "outer_unstable":
            # an unstable outer mode would be a negative eigenvalue of K^T S K, impossible once d - 1
            # positive ones are certified (rank <= d - 1, PSD)
            if npos == d - 1:
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    "outer block certified: d - 1 stable directions, the rest exactly zero", d=d))
            return Observation(Verdict.UNKNOWN)
        ok = pattern_ok and npos == d - 1 and nneg_certain == 0
        if ok:
            return Observation(Verdict.CERTIFIED)
        if not pattern_ok or nneg_certain:
            return Observation(Verdict.REFUTED, counterexample=refuted(
                "block structure differs", npos=npos, pattern=nz))
        return Observation(Verdict.UNKNOWN)

    E1 = MarkovChain.lazy(E1_PI, "1/2")
    explore(chains(max_d=4), body, tally, seed=seed, max_examples=profile.pick(10, 40, 200),
            examples=[E1, anti_persistent(E1_PI), two_state_anti_focus()] + pinned_chains(),
            describe=_describe_chain)
    return tally.evidence()


def eigen_float(*, seed: int, profile: Profile) -> Evidence:
    """float64: torch autograd Hessian at theta_c^1 (E1, m = 3, m_k = 2, lam = 1/2 and 0.9, plus S_pi x S_P):
    the largest eigenvalue equals c to 1e-9 (relative to max(1, |c|)), exactly d - 1 eigenvalues below
    -1e-9, the cross block (W0, W1) x (W_Q, W_K) is 0 to float_tolerance(64 d)."""
    tally = Tally(precision="float64", backend="torch autograd Hessian", tolerance=1e-9, seeds=(seed,))
    anchors = {}

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        m, mk = 3, 2
        sh = Shapes(ch.d, m, mk)
        J = full_jacobian_float(ch, unpack(theta_c1(ch, m, mk), sh))
        n0 = 2 * ch.d * m
        cross = float(np.max(np.abs(J[:n0, n0:])))
        ev = np.linalg.eigvalsh(J)
        ev_out = np.linalg.eigvalsh(J[:n0, :n0])
        c = float(_arb_refs(ch)["c"].mid()) if ch.pi_exact is not None else None
        with arb_precision(ARB_BITS):
            c = float(_arb_refs(ch)["c"].mid())
        if ch.name.startswith("lazy") and ch.d == 4 and abs(ch.pi[0] - 0.75) < 1e-12:
            anchors[ch.name] = {"outer": sorted(ev_out)[:3], "attention_top": float(ev[-1])}
        errs = [abs(ev[-1] - abs(c)) / max(1.0, abs(c)), cross]
        nneg = int(np.sum(ev_out < -1e-9))
        ok = errs[0] <= 1e-9 and cross <= float_tolerance(64 * ch.d) and nneg == ch.d - 1
        if ok:
            return Observation(Verdict.CONSISTENT, error=max(errs))
        return Observation(Verdict.REFUTED, error=max(errs), counterexample=refuted(
            "float Hessian at theta_c1 disagrees", top=float(ev[-1]), c=c, cross=cross, nneg=nneg))

    E1 = MarkovChain.lazy(E1_PI, "1/2")
    explore(chains(max_d=5), body, tally, seed=seed, max_examples=profile.pick(8, 30, 150),
            examples=[E1, MarkovChain.lazy(E1_PI, "9/10")], describe=_describe_chain)
    tally.details["anchors"] = anchors
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- §4.9 growth rate sign ------------------------------------------------------------------------------
def growth_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy, symbolic pi (d = 3, 4) and lam: for F1, K2 = lam Cov_pi(pi., log pi.) and
    K1 = Var_pi(pi.)/n2 identically, so c/lam is free of lam.  Variant 'lambda_squared': K2 = lam^2 Cov."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    lam = sp.Symbol("lam", positive=True)
    for d in (3, 4):
        ps = list(sp.symbols(f"p1:{d}", positive=True))
        pil = ps + [1 - sum(ps)]
        P = [[lam * (1 if i == j else 0) + (1 - lam) * pil[j] for j in range(d)] for i in range(d)]
        f = reference_formulas(pil, P, log=sp.log, sqrt=sp.sqrt, is_zero=lambda x: x == 0)
        power = 2 if variant == "lambda_squared" else 1
        e1 = sp.expand(sp.expand_log(f["K2"] - lam ** power * f["cov"], force=True))
        e2 = sp.simplify(f["K1"] - f["var"] / f["n2"])
        holds = bool(e1 == 0 or sp.simplify(e1) == 0) and bool(e2 == 0)
        tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
            f"K2 != lam^{power} Cov or K1 != Var/n2 at d = {d}", variant=variant))
        if not holds:
            break
    tally.details["scope"] = "F1, d in {3, 4}, symbolic pi and lam"
    return tally.evidence()


def growth_certified(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """arb on S_pi x F1 (rational lam > 0): the enclosure of c is certified > 0; c(lam)/lam is the same
    ball-overlapping value for lam and lam/2 (linearity).  Variant 'lambda_squared': c(lam)/lam^2 must
    agree between lam and lam/2 -- certified to differ."""
    tally = Tally(precision=f"arb {ARB_BITS} bits", backend="python-flint", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        lam = ch.P_exact[0][0] - (1 - ch.P_exact[0][0]) * 0 if False else None  # noqa: F841
        # recover lam from P = lam I + (1 - lam) 1 pi^T: lam = P_12 ... use P_11 - P_21
        lam = ch.P_exact[0][0] - ch.P_exact[1][0]
        if lam == 0:
            reject()  # c = 0 exactly (edge case recorded by the symbolic check)
        ch2 = MarkovChain.lazy(ch.pi_exact, lam / 2)
        with arb_precision(ARB_BITS):
            c1 = _arb_refs(ch)["c"]
            c2 = _arb_refs(ch2)["c"]
            p = 2 if variant == "lambda_squared" else 1
            r1 = c1 / _arb(lam) ** p
            r2 = c2 / _arb(lam / 2) ** p
            pos = tri_positive(c1)
            same = r1.overlaps(r2)
        if variant == "lambda_squared":
            if not same:
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    "c/lam^2 differs between lam and lam/2 (certified)", lam=str(lam), r1=str(r1), r2=str(r2)))
            return Observation(Verdict.UNKNOWN)
        if pos is Tri.TRUE and same:
            return Observation(Verdict.CERTIFIED)
        if pos is Tri.FALSE or not same:
            return Observation(Verdict.REFUTED, counterexample=refuted(
                "c <= 0 or c/lam not constant", c=str(c1), lam=str(lam)))
        return Observation(Verdict.UNKNOWN)

    explore(lazy_chains(), body, tally, seed=seed, max_examples=profile.pick(20, 60, 300),
            examples=[MarkovChain.lazy(E1_PI, "1/2")], describe=_describe_chain)
    return tally.evidence()


def growth_eigenvector_sign(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """float64 on S_pi x {F2, F3} plus F6, F7: the top eigenvector of the Hessian flow at theta_c^1
    (m = m_k = 1) has sign(dW_Q dW_K) = sign(K2) (so kappa grows with the sign of c); instances with
    |K2| < 1e-6 are N/A.  Variant 'opposite_sign': sign = -sign(K2)."""
    tally = Tally(precision="float64", backend="torch autograd Hessian", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        with arb_precision(ARB_BITS):
            K2 = float(_arb_refs(ch)["K2"].mid())
        if abs(K2) < 1e-6:
            reject()
        sh = Shapes(ch.d, 1, 1)
        J = full_jacobian_float(ch, unpack(theta_c1(ch, 1, 1), sh))
        w, V = np.linalg.eigh(J)
        vec = V[:, -1]
        n0 = 2 * ch.d
        s = np.sign(vec[n0] * vec[n0 + 1])
        want = -np.sign(K2) if variant == "opposite_sign" else np.sign(K2)
        if s == want:
            return Observation(Verdict.CONSISTENT, margin=abs(vec[n0] * vec[n0 + 1]))
        return Observation(Verdict.REFUTED, counterexample=refuted(
            "sign of the unstable attention mode differs", K2=K2, mode_sign=float(s), variant=variant))

    explore(chains(max_d=5, families=("metropolis", "positive")), body, tally, seed=seed,
            max_examples=profile.pick(10, 40, 150),
            examples=[anti_persistent(E1_PI), two_state_anti_focus(), MarkovChain.lazy(E1_PI, "1/2")],
            describe=_describe_chain)
    return tally.evidence(level_cap=Verdict.CONSISTENT)
