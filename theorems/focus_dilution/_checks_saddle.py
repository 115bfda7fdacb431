"""Checks of the saddle claims at theta_c^1 (spec §4.6, §4.7, §4.9), except the arb-certified spectrum
(:mod:`._checks_saddle_certified`): location (sympy, mpmath), exact eigenstructure on the critical family
(sympy rational-function fields), float eigenstructure, and the growth rate c.

Variants (negative controls):

* saddle location: ``pi_minus_uniform`` (the "pi - 1/d point" at its best scale is not critical);
* growth rate: ``lambda_squared`` (c proportional to lam^2), ``opposite_sign`` (sign c = -sign K2).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.arithmetic import MPArithmetic, SympyArithmetic
from numerics.markov import MarkovChain, anti_persistent, metropolis, two_state_anti_focus
from numerics.precision import arb_precision, float_tolerance, tolerance_for
from numerics.strategies import chains, lazy_chains
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted, reject, statement_of

from ._checks_model import E1_PI, _describe_chain, pinned_chains
from ._hessians import (ARB_BITS, SymbolicSaddle, _arb, _arb_refs, _att_index, _iid, _is_e1, _KtSK,
                        _lazy_lambda, _outer_K, _uniform, saddle_hessian_symbolic, saddle_hessian_symbolic_f1)
from ._statements_common import first_refuted, part_observation
from ._symbolic import reduced_residual
from .critical_points import full_jacobian_float
from .flow import Shapes, theta_c1, unpack
from .population import chain_mp, grad_M_Phi, param_grads, population_loss, reference_formulas

# -- §4.6 saddle location -------------------------------------------------------------------------------
def _mp_point(ch: MarkovChain, ar: MPArithmetic, m: int, mk: int, variant: str) -> tuple[list[Any], Any]:
    """theta_c^1 (or the variant's point) as mpmath object arrays."""
    ctx = ar.ctx
    pi_l, P_l = chain_mp(ch, ctx)
    d = ch.d
    pi = np.array(pi_l, dtype=object)
    npi = ctx.sqrt(sum(x * x for x in pi_l))
    W0 = np.array([[ctx.mpf(0)] * m for _ in range(d)], dtype=object)
    W1 = np.array([[ctx.mpf(0)] * d for _ in range(m)], dtype=object)
    WQ = np.array([[ctx.mpf(0)] * mk for _ in range(m)], dtype=object)
    WK = WQ.copy()
    if variant == "pi_minus_uniform":
        v = [x - ctx.mpf(1) / d for x in pi_l]
        nv = ctx.sqrt(sum(x * x for x in v))
        Pm = np.array(P_l, dtype=object)

        def loss_at(s: Any) -> Any:
            W0[:, 0] = [s * x / npi for x in pi_l]
            W1[0, :] = [s * x / nv for x in v]
            return population_loss(pi, Pm, W0 @ W1, W0 @ WQ @ WK.T @ W0.T, ctx.mpf(1), ar)

        s = ctx.findroot(lambda s: ctx.diff(loss_at, s), ctx.mpf(1.6))
        loss_at(s)
        return [W0, W1, WQ, WK], s
    f = reference_formulas(pi_l, P_l, log=ctx.log, sqrt=ctx.sqrt)
    W0[:, 0] = f["gamma1"]
    W1[0, :] = f["beta1"]
    return [W0, W1, WQ, WK], ctx.sqrt(f["sc2"])


SADDLE_LOCATION_ID = "focus.stage2.saddle_location"


def saddle_mp(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """mpmath at 35 digits on S_pi x S_P, evaluating the claim's statement at theta_c^1 (the product's
    reference_formulas point) to tolerance_for(35) = 1e-25: critical (|grad L| from param_grads) and
    values (L from population_loss against H(pi) formed here, G_Phi from grad_M_Phi against the
    statement's closed form with the product's r and n2 = |pi|^2 formed here).
    Variant 'pi_minus_uniform': the point W0 = s' pi_hat e1^T, W1 = s' e1 v_hat^T at its
    loss-minimising s' must have |grad L| > tolerance."""
    st = statement_of(SADDLE_LOCATION_ID)
    dps = 35
    tol = tolerance_for(dps)
    tally = Tally(precision=f"dps={dps}", backend="mpmath", tolerance=tol, seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if all(abs(x - ch.pi[0]) < 1e-15 for x in ch.pi):
            reject()  # uniform pi: theta_c^1 is the origin (N/A)
        ops = MPArithmetic(dps)
        ctx = ops.ctx
        W, _ = _mp_point(ch, ops, 2, 2, variant)
        pi_l, P_l = chain_mp(ch, ctx)
        pi = np.array(pi_l, dtype=object)
        P = np.array(P_l, dtype=object)
        g = param_grads(pi, P, *W, ctx.mpf(1), ops)
        gn = ctx.sqrt(sum(x * x for G in g for x in G.flat))
        obs = [part_observation(st, {r"\|\nabla L(\theta_{c}^{1})\|": gn}, "critical", tol=tol, variant=variant)]
        f = reference_formulas(pi_l, P_l, log=ctx.log, sqrt=ctx.sqrt)
        L = population_loss(pi, P, W[0] @ W[1], W[0] @ W[2] @ W[3].T @ W[0].T, ctx.mpf(1), ops)
        _, GPhi = grad_M_Phi(pi, P, W[0] @ W[1], W[0] @ W[2] @ W[3].T @ W[0].T, ctx.mpf(1), ops)
        H = -ctx.fsum(p * ctx.log(p) for p in pi_l)  # the entropy of pi, formed here
        n2 = ctx.fsum(p * p for p in pi_l)
        for q in range(ch.d):
            for k in range(ch.d):
                obs.append(part_observation(st, {r"L(\theta_{c}^{1})": L, r"H(\pi)": H, r"G_{\Phi,qk}(\theta_c^1)": GPhi[q, k],
                                                 "pi_q": pi_l[q], "pi_k": pi_l[k], "n_2": n2, "r_q": f["r"][q],
                                                 "tau": ctx.mpf(1)}, "values", tol=tol, q=q, k=k))
        return first_refuted(obs)

    E1 = MarkovChain.lazy(E1_PI, "1/2")
    explore(chains(max_d=6), body, tally, seed=seed, max_examples=profile.pick(10, 40, 200),
            examples=[E1] + pinned_chains(), describe=_describe_chain)
    return tally.evidence(level_cap=Verdict.CONSISTENT)


class _ExpandingExp(SympyArithmetic):
    """sympy with exp(x) := expand_power_exp(exp(expand(cancel(x)))): exp(log pi_k - mu) becomes
    pi_k e^{-mu}, so the identities below are rational in (pi, lam, e^{-mu}) plus linear log terms."""

    def exp(self, x: Any) -> Any:
        import sympy as sp

        return sp.expand_power_exp(sp.exp(sp.expand(sp.cancel(sp.together(x)))))


def _is_zero(expr: Any) -> bool:
    """expr = 0 exactly: :func:`._symbolic.reduced_residual` (the expanded numerator proves 0; else cancel)."""
    return bool(reduced_residual(expr) == 0)


def saddle_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy, d = 3, symbolic pi (positive, pi3 = 1 - pi1 - pi2) and symbolic lam (F1):
    at M = pi l^T / n2 (= W0 W1 at theta_c^1) and Phi = 0, G_M = 0 exactly (hence grad L = 0, since
    W_Q = W_K = 0 kill the attention terms), L = H(pi), and the G_Phi formula holds."""
    import sympy as sp

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
    ops = _ExpandingExp()
    pi = np.array(pil, dtype=object)
    Pm = np.array(P, dtype=object)
    GM, GPhi = grad_M_Phi(pi, Pm, M, Z, sp.Integer(1), ops)
    for i in range(d):
        for k in range(d):
            holds = _is_zero(sp.expand(GM[i, k]))
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_M[{i},{k}] != 0 at the candidate point", variant=variant, sub_check="critical"))
            if not holds:
                return tally.evidence()
    Ls = population_loss(pi, Pm, M, Z, sp.Integer(1), ops)
    H = -sum(x * sp.log(x) for x in pil)
    holds = bool(sp.simplify(sp.expand_log(sp.cancel(sp.together(Ls - H)), force=True)) == 0)
    tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted("L != H(pi)", variant=variant,
                                                                            sub_check="values"))
    for q in range(d):
        for k in range(d):
            e = GPhi[q, k] + pil[q] * pil[k] * (pil[k] / n2 - 1) * r[q]
            holds = _is_zero(sp.expand(e))
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_Phi[{q},{k}] formula fails", variant=variant, sub_check="values"))
            if not holds:
                return tally.evidence()
    tally.details["scope"] = "d = 3, symbolic pi and lam (F1)"
    return tally.evidence()


# -- §4.7 eigenstructure ------------------------------------------------------------------------------
def _product_c_identity(S: SymbolicSaddle, d: int, att: Any, tally: Tally, fail: Callable[..., Any],
                        level: Verdict) -> None:
    """The PRODUCT's closed forms (population.reference_formulas, evaluated on sympy expressions: it is
    written against a generic arithmetic) against the Hessian of L, in sympy:

    * s_c^2 of the product satisfies s_c^4 = |l|^2/n2, the balancedness |gamma| = |beta| of the family
      member W0 = a pi e1^T, W1 = e1 l^T/(a n2) at a^2 = s_c^2/n2 (theta_c^1);
    * the product's c equals the attention entry -H[W_Q, W_K] of the Hessian of L at that member: the
      field's generators l'_k are replaced by the product's l_k/n2 and a by sqrt(s_c^2/n2).

    log pi_k is a free symbol L_k (so the identity holds for every value of the logs, in particular the
    true ones); l = centred L is what the product builds from them.  A mutation of the product's c, K1, K2,
    r or s_c^2 leaves this check's level."""
    import sympy as sp

    pi = [p.as_expr() for p in S.pi]
    P = [[x.as_expr() for x in row] for row in S.P]
    Ls = sp.symbols(f"L1:{d + 1}")
    lmap: dict[Any, Any] = {}
    for p, L_ in zip(pi, Ls):
        lmap.setdefault(sp.sympify(p), L_)

    def log(x: Any) -> Any:
        x = sp.sympify(x)
        return lmap.get(x, sp.log(x))

    R = reference_formulas(pi, P, log=log, sqrt=sp.sqrt)
    n2, ell, sc2 = R["n2"], R["ell"], R["sc2"]
    bal = reduced_residual(sc2 ** 2 - sum(x * x for x in ell) / n2)  # 0 proved, else cancel(together(.))
    tally.exact(bal == 0, level=level, counterexample=fail(
        "the product's s_c^2 violates s_c^4 = |l|^2/n2 (theta_c^1 not balanced)", residual=str(bal)[:120]))
    gens = S.K.gens
    sub = {gens[1 + k].as_expr(): ell[k] / n2 for k in range(d)}
    sub[gens[0].as_expr()] = sp.sqrt(sc2 / n2)
    diff = reduced_residual(R["c"] - att.as_expr().subs(sub))
    tally.exact(diff == 0, level=level, counterexample=fail(
        "the product's c (reference_formulas) is not the attention entry of -Hessian(L) at theta_c^1",
        residual=str(diff)[:120]))


def _symbolic_structure(S: SymbolicSaddle, d: int, m: int, mk: int, tally: Tally, label: str,
                        level: Verdict) -> str:
    """The exact block structure of -Hessian(L) on the critical family (see :func:`eigen_symbolic`)."""
    from sympy.polys.matrices import DomainMatrix

    K, pi, H = S.K, S.pi, S.H
    n = len(H)
    n0, q0, k0 = _att_index(d, m, mk)
    z = K.zero

    def fail(what: str, **kw: Any) -> Any:
        return lambda: refuted(what, chain=label, m=m, mk=mk, **kw)

    tally.exact(all(x == 0 for x in S.grad), level=level, counterexample=fail("grad L != 0 on the family"))
    tally.exact(all(H[i][j] == 0 for i in range(n0) for j in range(n0, n)), level=level,
                counterexample=fail("cross block (W0, W1) x (W_Q, W_K) is not exactly 0"))
    n2 = sum(p * p for p in pi)
    K1 = (sum(p ** 3 for p in pi) - n2 ** 2) / n2
    r = [sum(((S.P[q][k] - pi[k]) * S.ell[k] for k in range(d)), z) for q in range(d)]
    K2 = sum((pi[q] ** 2 * r[q] for q in range(d)), z)
    c = S.a ** 2 * K1 * K2
    gam = [S.W[0][i, 0] for i in range(d)]
    c_jac = -sum((gam[q] * S.GPhi[q, k] * gam[k] for q in range(d) for k in range(d)), z)
    want = [[z] * (n - n0) for _ in range(n - n0)]
    for j in range(mk):
        want[q0 - n0 + j][k0 - n0 + j] = c
        want[k0 - n0 + j][q0 - n0 + j] = c
    att_ok = all(-H[n0 + i][n0 + j] == want[i][j] for i in range(n - n0) for j in range(n - n0))
    tally.exact(att_ok and c_jac == c, level=level, counterexample=fail(
        "attention block of -Hessian(L) is not c (E_QK + E_KQ) with c = a^2 K1 K2 = -gamma^T G_Phi gamma"))
    _product_c_identity(S, d, -H[q0][k0], tally, fail, level)
    Kmat = _outer_K(pi, [list(r_) for r_ in S.W[0]], [list(r_) for r_ in S.W[1]], z)
    tally.exact(all(H[i][j] == v for i, row in enumerate(_KtSK(Kmat, pi, z)) for j, v in enumerate(row)),
                level=level,
                counterexample=fail("outer block of Hessian(L) is not K^T (diag pi - pi pi^T) K"))
    # diag pi - pi pi^T = sum_{i<j} pi_i pi_j (e_i - e_j)(e_i - e_j)^T (uses sum pi = 1): PSD, kernel span 1
    Ssum = [[sum(((pi[i] * pi[j] if {r_, s} <= {i, j} else z) * (1 if r_ == s else -1)
                  for i in range(d) for j in range(i + 1, d)), z) for s in range(d)] for r_ in range(d)]
    tally.exact(all(Ssum[r_][s] == (pi[r_] if r_ == s else 0) - pi[r_] * pi[s]
                    for r_ in range(d) for s in range(d)), level=level,
                counterexample=fail("diag pi - pi pi^T != sum_{i<j} pi_i pi_j (e_i - e_j)(e_i - e_j)^T"))
    rank = DomainMatrix([row[:n0] for row in H[:n0]], (n0, n0), K.to_domain()).rank()
    tally.exact(rank == d - 1, level=level, counterexample=fail("outer block rank != d - 1", rank=rank))
    if S.lam is not None:
        cov = sum(p * p * lk for p, lk in zip(pi, S.ell)) - n2 * sum(p * lk for p, lk in zip(pi, S.ell))
        tally.exact(K2 == S.lam * cov, level=level, counterexample=fail("K2 != lam Cov for F1"))
    return f"{label}, m = {m}, m_k = {mk}: outer null space dim {n0 - rank} = 2dm - (d - 1)"


_STRUCTURE_DOC = """
    * grad L = 0 exactly (every member of the family is critical);
    * the cross block (W0, W1) x (W_Q, W_K) of the Hessian of L is exactly 0;
    * the attention block of J = -Hessian is exactly c (E_QK + E_KQ), E the m_k unit pairs
      (W_Q[0, j], W_K[0, j]), with c = a^2 K1 K2 = (s_c^2/n2) K1 K2 (K2 = sum pi_q^2 r_q,
      r = (P - 1 pi^T) l) and also c = -gamma^T G_Phi gamma with the closed-form G_Phi: eigenvalues +-c
      (x m_k) and 0 (x 2 m m_k - 2 m_k), exactly; [[0, c], [c, 0]] for m = m_k = 1;
    * the outer block is exactly K^T S K with
      S = diag(pi) - pi pi^T = sum_{i<j} pi_i pi_j (e_i - e_j)(e_i - e_j)^T (an exact identity; PSD with
      kernel span(1) since pi > 0): J_outer = -K^T S K is negative semidefinite; its rank over the field
      is d - 1, so its null space -- the exact zero eigenvalues, rank-raising directions included -- has
      dimension 2dm - (d - 1) (the rank can only drop at a particular point; eigen_certified certifies
      d - 1 nonzero eigenvalues at theta_c^1)."""


def eigen_symbolic(*, seed: int, profile: Profile) -> Evidence:
    """sympy, exact, PROVED for F1 with d = 3, SYMBOLIC pi and lam, m = m_k = 1 (the spec's case), for every
    point of the critical family W0 = a pi e1^T, W1 = e1 l^T/(a n2), W_Q = W_K = 0 (theta_c^1 is
    a = s_c/|pi|; :func:`saddle_hessian_symbolic_f1`), on the Hessian of L itself: see _STRUCTURE_DOC
    (appended below), and K2 = lam Cov_pi(pi., log pi.) (so c is linear in lam)."""
    tally = Tally(precision="symbolic", backend="sympy rational-function field (forward-mode Hessian of L)",
                  seeds=(seed,))
    S = saddle_hessian_symbolic_f1(3, 1, 1)
    tally.details["instances"] = [_symbolic_structure(S, 3, 1, 1, tally, "F1, d = 3, symbolic pi and lam",
                                                      Verdict.PROVED)]
    tally.details["scope"] = "F1, d = 3, every pi > 0 and lam, m = m_k = 1, the whole critical family"
    return tally.evidence()


SYMBOLIC_CHAINS = (
    ("F1 lazy pi = (1/2, 1/3, 1/6), lam = 1/2", lambda: MarkovChain.lazy(["1/2", "1/3", "1/6"], "1/2"),
     ((2, 2),)),
    ("F2 Metropolis pi = (1/2, 1/3, 1/6)", lambda: metropolis(
        [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)],
        [[0, Fraction(3, 10), Fraction(1, 5)], [Fraction(3, 10), 0, Fraction(2, 5)],
         [Fraction(1, 5), Fraction(2, 5), 0]]), ((1, 1), (2, 2))),
    ("F6 anti-persistent pi = (3/5, 3/10, 1/10) (K2 < 0)",
     lambda: anti_persistent([Fraction(3, 5), Fraction(3, 10), Fraction(1, 10)]), ((1, 1), (2, 2))),
    ("F7 (d = 2, K2 < 0)", two_state_anti_focus, ((1, 1), (2, 2))),
)


def eigen_exact(*, seed: int, profile: Profile) -> Evidence:
    """sympy, exact, on rational chains beyond F1 and at the certified size: F1 (d = 3) with m = m_k = 2;
    F2, F6 (d = 3) and F7 (d = 2) with (m, m_k) in {(1, 1), (2, 2)} (:func:`saddle_hessian_symbolic`), for
    every point of the critical family, on the Hessian of L itself: see _STRUCTURE_DOC (appended below)."""
    tally = Tally(precision="exact", backend="sympy rational-function field (forward-mode Hessian of L)",
                  seeds=(seed,))
    done = []
    for label, make, configs in SYMBOLIC_CHAINS:
        ch = make()
        for m, mk in configs:
            done.append(_symbolic_structure(saddle_hessian_symbolic(ch, m, mk), ch.d, m, mk, tally, label,
                                            Verdict.CERTIFIED))
    tally.details["instances"] = done
    tally.details["scope"] = "the rational chains listed, every point of the critical family through theta_c1"
    return tally.evidence()


eigen_symbolic.__doc__ = (eigen_symbolic.__doc__ or "") + _STRUCTURE_DOC
eigen_exact.__doc__ = (eigen_exact.__doc__ or "") + _STRUCTURE_DOC


TOL_ARB = 1e-60   # equality of two arb enclosures (256 bits, radii ~1e-70) within 1e-60
TOL_SIGN = 1e-12  # a float64 sign decision: the product (dW_Q dW_K) K2 must exceed it
E1_OUTER = (-0.900953, -0.217677, -0.044301)  # spec §4.7 anchors (6 digits), lam = 1/2 and 0.9
E1_C = {"1/2": 0.079785, "9/10": 0.143612}     # spec §4.7 (lam = 1/2); §3 (lam = 0.9: c = 0.14361246257...)


def eigen_float(*, seed: int, profile: Profile) -> Evidence:
    """float64: torch autograd Hessian at theta_c^1 (m = 3, m_k = 2) on E1 (lam = 1/2 and 9/10) and S_pi x S_P
    (d <= 5).  With J = -Hessian of size n and the Weyl budget tol = n * float_tolerance(64 d, scale =
    max |J_ij|) on each eigenvalue (entrywise budget float_tolerance(64 d) per entry):

    * the cross block is 0 to float_tolerance(64 d) (exactly 0.0 at the E1 anchors);
    * outer block: exactly d - 1 eigenvalues below -tol and every other |eigenvalue| <= tol;
    * attention block: m_k eigenvalues within tol of +c, m_k within tol of -c, the others within tol of 0;
    * the largest eigenvalue of J is |c| to 1e-9 (relative to max(1, |c|));
    * E1 anchors (6 digits, |x - anchor| <= 5e-7): outer {-0.900953, -0.217677, -0.044301} at both lam,
      attention +-0.079785 (lam = 1/2) and +-0.143612 (lam = 9/10), each x 2.

    N/A: uniform pi, K2 = 0 exactly, and |c| <= 4 tol (the +-c and 0 windows would overlap)."""
    tally = Tally(precision="float64", backend="torch autograd Hessian", tolerance=1e-9, seeds=(seed,))
    anchors = {}

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        m, mk = 3, 2
        d = ch.d
        sh = Shapes(d, m, mk)
        J = full_jacobian_float(ch, unpack(theta_c1(ch, m, mk), sh))
        n, n0 = sh.size, 2 * d * m
        ent = float_tolerance(64 * d)
        tol = n * float_tolerance(64 * d, scale=float(np.max(np.abs(J))))
        with arb_precision(ARB_BITS):
            c = float(_arb_refs(ch)["c"].mid())
        if _iid(ch) or abs(c) <= 4 * tol:
            reject()  # K2 = 0 (no strict saddle) or c inside the float budget: +-c and 0 unresolvable (N/A)
        cross = float(np.max(np.abs(J[:n0, n0:])))
        ev = np.linalg.eigvalsh(J)
        ev_out = np.linalg.eigvalsh(J[:n0, :n0])
        ev_att = np.linalg.eigvalsh(J[n0:, n0:])
        bad = []
        if cross > ent:
            bad.append(f"cross block {cross:.3g} > {ent:.3g}")
        if int(np.sum(ev_out < -tol)) != d - 1 or int(np.sum(np.abs(ev_out) > tol)) != d - 1:
            bad.append(f"outer spectrum {np.sort(ev_out)[:d + 1].tolist()}: not d - 1 negative and zeros")
        n_plus = int(np.sum(np.abs(ev_att - c) <= tol))
        n_minus = int(np.sum(np.abs(ev_att + c) <= tol))
        n_zero = int(np.sum(np.abs(ev_att) <= tol))
        if (n_plus, n_minus, n_zero) != (mk, mk, 2 * m * mk - 2 * mk):
            bad.append(f"attention multiplicities (+c, -c, 0) = {(n_plus, n_minus, n_zero)}")
        top_err = abs(ev[-1] - abs(c)) / max(1.0, abs(c))
        if top_err > 1e-9:
            bad.append(f"top eigenvalue {ev[-1]} != |c| = {abs(c)}")
        lam = _lazy_lambda(ch)
        if lam is not None and _is_e1(ch) and str(lam) in E1_C:
            outer3 = np.sort(ev_out)[:3]
            att = np.sort(ev_att)
            anchors[str(lam)] = {"outer": outer3.tolist(),
                                 "attention": [float(x) for x in (att[0], att[1], att[-2], att[-1])],
                                 "cross_max": cross, "zeros_max": float(np.max(np.abs(np.sort(ev_out)[3:])))}
            dev = max([abs(x - y) for x, y in zip(outer3, E1_OUTER)]
                      + [abs(x + E1_C[str(lam)]) for x in att[:2]]
                      + [abs(x - E1_C[str(lam)]) for x in att[-2:]])
            if dev > 5e-7 or cross != 0.0:
                bad.append(f"E1 anchor off by {dev:.3g} (cross block {cross})")
        if bad:
            return Observation(Verdict.REFUTED, error=top_err, counterexample=refuted(
                "; ".join(bad), c=c, tol=tol))
        return Observation(Verdict.CONSISTENT, error=top_err)

    explore(chains(max_d=5), body, tally, seed=seed, max_examples=profile.pick(4, 30, 150),
            examples=[MarkovChain.lazy(E1_PI, "1/2"), MarkovChain.lazy(E1_PI, "9/10")],
            describe=_describe_chain)
    tally.details["anchors"] = anchors
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- §4.9 growth rate sign ------------------------------------------------------------------------------
def growth_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy, symbolic pi (d = 3, 4) and lam: for F1, reference_formulas' K2 = lam Cov_pi(pi., log pi.) and
    K1 = Var_pi(pi.)/n2 identically, Var and Cov written here in centred form (independent of the product's
    uncentred var and cov), so c/lam is free of lam.  Variant 'lambda_squared': K2 = lam^2 Cov."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    lam = sp.Symbol("lam", positive=True)
    for d in (3, 4):
        ps = list(sp.symbols(f"p1:{d}", positive=True))
        pil = ps + [1 - sum(ps)]
        P = [[lam * (1 if i == j else 0) + (1 - lam) * pil[j] for j in range(d)] for i in range(d)]
        f = reference_formulas(pil, P, log=sp.log, sqrt=sp.sqrt, is_zero=lambda x: x == 0)
        power = 2 if variant == "lambda_squared" else 1
        # the product's K1 and K2 against the DEFINITIONS in centred form, written here independently of
        # reference_formulas (whose var = sum pi^3 - n2^2 and cov are the uncentred forms): with
        # E_pi[g] = sum_k pi_k g_k, Var_pi(pi.) = E_pi[(pi. - n2)^2] and Cov_pi(pi., log pi.) =
        # E_pi[(pi. - n2)(log pi. - E_pi log pi.)] -- equal to the uncentred forms only because sum pi = 1
        n2 = sum(p * p for p in pil)
        mlog = sum(p * sp.log(p) for p in pil)
        var_def = sum(p * (p - n2) ** 2 for p in pil)
        cov_def = sum(p * (p - n2) * (sp.log(p) - mlog) for p in pil)
        e1 = sp.expand(sp.expand_log(f["K2"] - lam ** power * cov_def, force=True))
        e2 = sp.expand(f["K1"] - var_def / n2)
        e2 = e2 if e2 == 0 else sp.simplify(e2)
        holds = bool(e1 == 0 or sp.simplify(e1) == 0) and bool(e2 == 0)
        tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
            f"K2 != lam^{power} Cov or K1 != Var/n2 at d = {d}", variant=variant))
        if not holds:
            break
    tally.details["scope"] = "F1, d in {3, 4}, symbolic pi and lam"
    return tally.evidence()


GROWTH_ID = "focus.stage2.growth_rate_sign"


def growth_certified(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """arb on S_pi x F1 (rational lam > 0), evaluating the claim's statement on the product's K1, K2, c
    (reference_formulas in arb) and on Var_pi(pi.), Cov_pi(pi., log pi.) formed here in centred form
    from pi (E_pi[(pi. - n2)^2], E_pi[(pi. - n2)(log pi. - E_pi log pi.)]), |l| (the centred logs) and
    |pi|: closed_form (c = lam |l| Var Cov / |pi|^5), K2_cov, K1_var, sign (c > 0)
    and lambda_scaling (c(lam/2) = c(lam)/2, the product's c at lam/2).  Variant 'lambda_squared' (the
    law c proportional to lam^2): c(lam/2) is read as 2 c(lam/2), what that law would need for the
    statement's c(lam)/2 -- certified to differ."""
    st = statement_of(GROWTH_ID)
    tally = Tally(precision=f"arb {ARB_BITS} bits", backend="python-flint", seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        lam = _lazy_lambda(ch)
        if lam is None or lam == 0:
            reject()  # c = 0 exactly (edge case recorded by the symbolic check)
        ch2 = MarkovChain.lazy(ch.pi_exact, lam / 2)
        with arb_precision(ARB_BITS):
            f = _arb_refs(ch)
            c2 = _arb_refs(ch2)["c"] * (2 if variant == "lambda_squared" else 1)
            pi = [_arb(x) for x in ch.pi_exact]
            nn = sum(x * x for x in pi)
            mlog = sum(x * x.log() for x in pi)
            var_c = sum(x * (x - nn) ** 2 for x in pi)
            cov_c = sum(x * (x - nn) * (x.log() - mlog) for x in pi)
            logs = [x.log() for x in pi]
            ell = [x - sum(logs) / len(logs) for x in logs]
            vals = {"K_2": f["K2"], "K_1": f["K1"], "n_2": f["n2"], "lambda": _arb(lam), "c": f["c"],
                    r"\mathrm{Cov}_\pi(\pi, \log \pi)": cov_c, r"\mathrm{Var}_\pi(\pi)": var_c, r"c(\lambda/2)": c2,
                    r"\|\ell\|": sum(x * x for x in ell).sqrt(), r"\|\pi\|": nn.sqrt()}
            parts = ("lambda_scaling",) if variant == "lambda_squared" else (
                "closed_form", "K2_cov", "K1_var", "sign", "lambda_scaling")
            return first_refuted([part_observation(st, vals, part, tol=TOL_ARB, lam=str(lam), variant=variant)
                                  for part in parts])

    explore(lazy_chains(), body, tally, seed=seed, max_examples=profile.pick(20, 60, 300),
            examples=[MarkovChain.lazy(E1_PI, "1/2")], describe=_describe_chain)
    return tally.evidence()


def growth_eigenvector_sign(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """float64 on S_pi x {F2, F3} plus F6, F7: the top eigenvector of the Hessian flow at theta_c^1
    (m = m_k = 1) has sign(dW_Q dW_K) = sign(K2) (so kappa grows with the sign of c): the statement's
    mode_sign, (dW_Q dW_K)_u K2 > 0 beyond TOL_SIGN (float64 eigenvector products are ~1e-16 accurate; the
    products here are >= 1e-7); instances with |K2| < 1e-6 are N/A.  Variant 'opposite_sign': the
    observed sign is reversed."""
    st = statement_of(GROWTH_ID)
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
        mode = float(vec[n0] * vec[n0 + 1]) * (-1 if variant == "opposite_sign" else 1)
        return part_observation(st, {r"(\delta W_{Q} \, \delta W_{K})_{u}": mode, "K_2": K2}, "mode_sign", tol=TOL_SIGN,
                                variant=variant)

    explore(chains(max_d=5, families=("metropolis", "positive")), body, tally, seed=seed,
            max_examples=profile.pick(10, 40, 150),
            examples=[anti_persistent(E1_PI), two_state_anti_focus(), MarkovChain.lazy(E1_PI, "1/2")],
            describe=_describe_chain)
    return tally.evidence(level_cap=Verdict.CONSISTENT)
