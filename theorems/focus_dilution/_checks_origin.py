"""Checks of focus.stage1.origin_spectrum (spec §4.4): the Hessian of L at theta = 0.

Variants (negative controls): ``mu_v`` (mu0' = |v|), ``G_v_pi`` (G0' = v pi^T), ``mult_one`` (multiplicity 1
for +-mu0).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.arithmetic import ExactArithmetic, SympyArithmetic
from numerics.exact import charpoly, rational_matrix
from numerics.linalg import exact_spectrum
from numerics.markov import MarkovChain
from numerics.precision import arb_precision, float_tolerance, mp_context, tri_lt
from numerics.strategies import chains
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted, reject, statement_of

from ._checks_model import E1_PI, _describe_chain, pinned_chains
from ._hessians import _uniform, origin_hessian_exact
from ._statements_common import first_refuted, part_observation
from ._symbolic import symengine_rational_zero
from .critical_points import full_jacobian_float, origin_G0, origin_jacobian
from .flow import Shapes, unpack
from .population import grad_M_Phi, reference_formulas


def _charpoly_target(n: int, k: int, mu2: Fraction) -> list[Fraction]:
    """Coefficients (lowest degree first) of x^(n - 2k) (x^2 - mu2)^k."""
    out = [Fraction(0)] * (n + 1)
    for j in range(k + 1):  # (x^2 - mu2)^k = sum_j C(k, j) x^(2j) (-mu2)^(k - j)
        out[n - 2 * k + 2 * j] = Fraction(math.comb(k, j)) * (-mu2) ** (k - j)
    return out


# -- §4.4 origin --------------------------------------------------------------------------------------
ORIGIN_ID = "focus.stage1.origin_spectrum"


def _root_multiplicities(coeffs: list[Fraction]) -> tuple[int, Fraction | None, int, int]:
    """(multiplicity of 0, the largest squared nonzero root a if the nonzero roots come as x -> +-r with
    r^2 rational, multiplicity of +sqrt(a), multiplicity of -sqrt(a)) of the polynomial with these
    coefficients (lowest degree first), by exact factorisation over Q (python-flint): roots of other
    factors count towards none of the three."""
    import flint

    poly = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in coeffs])
    zero, roots = 0, []  # (r^2, sign, multiplicity); sign 0 for an irreducible x^2 - a (both signs)
    for f, e in poly.factor()[1]:
        c = [Fraction(int(x.p), int(x.q)) for x in f.coeffs()]
        c = [x / c[-1] for x in c]
        if c == [0, 1]:
            zero += e
        elif len(c) == 2:
            roots.append((c[0] ** 2, -1 if c[0] > 0 else 1, e))
        elif len(c) == 3 and c[1] == 0 and c[0] < 0:
            roots.append((-c[0], 0, e))
    if not roots:
        return zero, None, 0, 0
    a = max(r for r, _, _ in roots)
    plus = sum(e for r, sg, e in roots if r == a and sg >= 0)
    minus = sum(e for r, sg, e in roots if r == a and sg <= 0)
    return zero, a, plus, minus


def origin_exact(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """Exact rationals on S_pi x S_P (d <= 4) and the pinned chains, m = m_k = 2, on the Hessian H of L
    itself at theta = 0 (second-order forward mode through population_loss, exact; exp is only ever
    needed at 0), evaluating the claim's statement (:func:`._statements_spectra.origin_spectrum`) on:

    * G0: G_M(0), G_Phi(0) from the product's closed-form gradient (``grad_M_Phi`` in exact arithmetic);
    * jacobian: the number of entries where -H differs from the flow Jacobian J0 built from the
      product's G0 (``origin_jacobian(origin_G0)``): the (W0, W1) block dW0' = G0 dW1^T,
      dW1' = dW0^T G0, attention rows and columns 0;
    * eigenvalue, charpoly: the exact factorisation over Q of charpoly(-H): the multiplicity of 0, the
      largest squared root mu0^2 and the multiplicities of +-mu0; |pi|^2 and |v|^2 of the chain;
    * mu0: the product's mu0 (population.reference_formulas, exact in sympy) against that eigenvalue.

    Also L(0) = log d, grad L(0) = 0 exactly (origin_value), and the unstable eigenspace: with
    p_b = (pi e_b^T, 0) and q_b = (0, e_b v^T), -H p_b = n2 q_b and -H q_b = |v|^2 p_b exactly, so
    u_b = |v| p_b + |pi| q_b, proportional to (pi_hat e_b^T, e_b v_hat^T), has -H u_b = mu0 u_b; the m
    vectors u_b are independent and mu0 has multiplicity m, so they span the unstable eigenspace.

    Variants (the object or observable changes, the statement does not): 'G_v_pi' (J0 built from
    G0' = v pi^T), 'mu_v' (|pi|^2 := 1: the eigenvalue |v|), 'mult_one' (m := 1 in the multiplicities).
    Uniform pi is N/A."""
    if variant not in ("statement", "mu_v", "G_v_pi", "mult_one"):
        raise ValueError(f"unknown variant {variant!r}")
    import sympy as sp

    st = statement_of(ORIGIN_ID)
    m, mk = 2, 2
    tally = Tally(precision="exact", backend="Fractions: forward-mode Hessian of L + flint charpoly",
                  seeds=(seed,))

    def body(ch: MarkovChain) -> Observation:
        if _uniform(ch):
            reject()
        d = ch.d
        pi = ch.pi_exact
        v = [p - Fraction(1, d) for p in pi]
        n2 = sum(p * p for p in pi)
        nv2 = sum(x * x for x in v)
        L0, g0, H = origin_hessian_exact(ch, m, mk)
        n = len(H)
        if sp.expand(L0 - sp.log(d)) != 0 or any(x != 0 for x in g0):
            return Observation(Verdict.REFUTED, counterexample=refuted(
                "L(0) != log d or grad L(0) != 0", L0=str(L0), variant=variant, sub_check="origin_value"))
        obs = []
        Z = np.array([[Fraction(0)] * d for _ in range(d)], dtype=object)
        GM, GPhi = grad_M_Phi(np.array(pi, dtype=object), np.array(ch.P_exact, dtype=object), Z, Z,
                              Fraction(1), ExactArithmetic("fraction"))
        for i in range(d):
            for k in range(d):
                obs.append(part_observation(st, {"G_{M,ik}(0)": GM[i, k], r"G_{\Phi,ik}(0)": GPhi[i, k],
                                                 "pi_i": pi[i], "pi_k": pi[k], "d": d}, "G0", i=i, k=k))
        G0 = origin_G0(ch)
        if variant == "G_v_pi":
            G0 = [[v[i] * pi[k] for k in range(d)] for i in range(d)]
        J0 = origin_jacobian(G0, m, mk)
        J = [[-x for x in r] for r in H]
        n_diff = sum(1 for i in range(n) for j in range(n) if J[i][j] != J0[i][j])
        obs.append(part_observation(st, {r"N_{-\nabla^2 L(0) \neq J_0}": n_diff}, "jacobian", variant=variant))
        zero, mu2, plus, minus = _root_multiplicities(list(charpoly(rational_matrix(J))))
        if mu2 is None:
            return Observation(Verdict.REFUTED, counterexample=refuted(
                "charpoly(-Hessian(L)(0)) has no roots +-r with r^2 rational", d=d, sub_check="charpoly"))
        mm = 1 if variant == "mult_one" else m
        obs.append(part_observation(st, {"mu_0^2": mu2, r"\|\pi\|^2": 1 if variant == "mu_v" else n2, r"\|v\|^2": nv2},
                                    "eigenvalue", variant=variant))
        obs.append(part_observation(st, {"n_+": plus, "n_-": minus, "n_0": zero, "m": mm, "m_k": mk, "d": d},
                                    "charpoly", variant=variant))
        # mu0 as the product computes it (population.reference_formulas, exact in sympy)
        mu_ref2 = _mu0_sq_reference(ch)
        obs.append(Observation(Verdict.REFUTED, counterexample=refuted(
            "reference_formulas' mu0^2 is not rational", d=d, sub_check="mu0")) if mu_ref2 is None else
            part_observation(st, {r"(\mu_0^{\mathrm{ref}})^2": mu_ref2, "mu_0^2": mu2}, "mu0"))
        n0 = d * m
        for b in range(m):
            p = [Fraction(0)] * n
            q = [Fraction(0)] * n
            for i in range(d):
                p[i * m + b] = pi[i]
                q[n0 + b * d + i] = v[i]
            Jp = [sum(J[r][c] * p[c] for c in range(n)) for r in range(n)]
            Jq = [sum(J[r][c] * q[c] for c in range(n)) for r in range(n)]
            if Jp != [n2 * x for x in q] or Jq != [nv2 * x for x in p]:
                obs.append(Observation(Verdict.REFUTED, counterexample=refuted(
                    "(pi_hat e_b^T, e_b v_hat^T) is not a mu0 eigenvector of -Hessian(L)(0)", b=b,
                    variant=variant, sub_check="eigenvectors")))
        return first_refuted(obs)

    explore(chains(max_d=4), body, tally, seed=seed, max_examples=profile.pick(12, 40, 200),
            examples=pinned_chains(), describe=_describe_chain)
    tally.details["scope"] = "rational chains, d <= 4 (pinned: d <= 5), m = m_k = 2; Hessian of L, exact"
    return tally.evidence()


def _mu0_sq_reference(ch: MarkovChain) -> Fraction | None:
    """mu0^2 from :func:`population.reference_formulas` evaluated exactly (sympy rationals, sympy sqrt):
    a rational number for the spec's closed form mu0 = |pi| |v|; None if it is not rational."""
    import sympy as sp

    q = lambda x: sp.Rational(x.numerator, x.denominator)  # noqa: E731
    f = reference_formulas([q(x) for x in ch.pi_exact], [[q(x) for x in r] for r in ch.P_exact],
                           log=sp.log, sqrt=sp.sqrt, is_zero=lambda x: x == 0)
    mu2 = sp.expand(f["mu0"] ** 2)
    return Fraction(int(mu2.p), int(mu2.q)) if mu2.is_Rational else None


def _zero(expr: Any) -> bool:
    """expr = 0: symengine's exact zero test (:func:`._symbolic.symengine_rational_zero`, a proof) or else
    sympy's ``simplify`` as before.  The check's entries are zeros simplify finds too (PROVED either way);
    a nonzero entry (the control) goes to simplify, as before."""
    import sympy as sp

    return symengine_rational_zero(expr) or bool(sp.simplify(expr) == 0)


def origin_symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy: d = 3, symbolic pi (pi3 = 1 - pi1 - pi2) and a symbolic P with pi P = pi imposed (two
    entries solved for): G_M(0) = -pi v^T and G_Phi(0) = 0 exactly."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=(seed,))
    p1, p2 = sp.symbols("pi1 pi2", positive=True)
    a, b, c, e, f, g = sp.symbols("a b c e f g", positive=True)
    pi = [p1, p2, 1 - p1 - p2]
    P = sp.Matrix([[a, b, 1 - a - b], [c, e, 1 - c - e], [f, g, 1 - f - g]])
    sol = sp.solve(list(sp.Matrix([pi]) * P - sp.Matrix([pi]))[:2], [f, g], dict=True)[0]
    P = P.subs(sol)
    Z = np.array([[sp.Integer(0)] * 3 for _ in range(3)], dtype=object)
    GM, GPhi = grad_M_Phi(np.array(pi, dtype=object), np.array(P.tolist(), dtype=object), Z, Z,
                          sp.Integer(1), SympyArithmetic())
    v = [x - sp.Rational(1, 3) for x in pi]
    for i in range(3):
        for k in range(3):
            tgt = -(v[i] * pi[k]) if variant == "G_v_pi" else -(pi[i] * v[k])
            holds = _zero(GM[i, k] - tgt) and _zero(GPhi[i, k])
            tally.exact(holds, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"G_M(0)[{i},{k}] differs from the stated form", variant=variant))
            if not holds:
                return tally.evidence()
    tally.details["scope"] = "d = 3, every pi and every P with pi P = pi"
    return tally.evidence()


E1_MU0 = "0.4595012948839209"  # spec §3, 16 digits
E1_MU0_PRINTED = "0.459501"    # spec §4.4 anchor, 6 digits


def origin_anchor(*, seed: int, profile: Profile) -> Evidence:
    """E1 (pi = (3/4, 19/100, 1/20, 1/100), lam = 1/2) with m = 3, m_k = 2 (36 parameters): the exact
    spectrum of -Hessian(L)(0) (certified root isolation of its rational charpoly, exact multiplicities) is
    {-mu0 (x 3), 0 (x 30), +mu0 (x 3)}; the enclosure of mu0 lies within 5e-7 of the printed anchor
    0.459501 and within 1e-14 of the 16-digit anchor 0.4595012948839209; the claim's statement (parts
    charpoly and eigenvalue, the latter on the 128-bit enclosure of mu0 to 1e-30) holds at m = 3."""
    import flint

    tally = Tally(precision="exact + arb 128 bits", backend="Fractions + flint fmpq_poly.complex_roots",
                  seeds=(seed,))
    E1 = MarkovChain.lazy(E1_PI, "1/2")
    m, mk = 3, 2
    _, _, H = origin_hessian_exact(E1, m, mk)
    n = len(H)
    cl = exact_spectrum([[-x for x in r] for r in H])
    mults = [c.multiplicity for c in cl]
    tally.details["E1_m3_spectrum"] = [(c.enclosure.str(12), c.multiplicity) for c in cl]
    ok_shape = mults == [m, n - 2 * m, m] and all(c.exact_multiplicity for c in cl)
    tally.exact(ok_shape, counterexample=lambda: refuted("E1 spectrum at 0 is not {-mu0 (x3), 0, +mu0 (x3)}",
                                                         multiplicities=mults))
    if ok_shape:
        with arb_precision(128):
            mu0 = cl[2].enclosure
            zero_ok = cl[1].enclosure.contains(0) and (cl[0].enclosure + mu0).contains(0)
            tally.exact(bool(zero_ok), counterexample=lambda: refuted("clusters not symmetric about 0"))
            from .population import reference_quantities

            # the product's mu0 (reference_quantities at 40 digits) against the certified top eigenvalue of the
            # Hessian of L: the budget 1e-25 is 10^13 times both errors (the 128-bit enclosure, ~1e-38, and the
            # 40-digit rounding), so any change of the closed form beyond 1e-25 relative is caught
            mu0_ref = mp_context(40).nstr(reference_quantities(E1, dps=40).mu0, 40)
            tally.details["E1_mu0_reference_quantities"] = mu0_ref
            for anchor, tol in ((E1_MU0_PRINTED, "5e-7"), (E1_MU0, "1e-14"), (mu0_ref, "1e-25")):
                dev = abs(mu0 - flint.arb(anchor))
                tally.ball(tri_lt(dev, flint.arb(tol)), margin=float((flint.arb(tol) - dev).lower()),
                           counterexample=lambda: refuted(f"mu0 = {mu0.str(20)} differs from {anchor}"))
            tally.details["E1_mu0"] = mu0.str(20)
            # the claim's statement at m = 3: multiplicities (exact) and mu0^2 = |pi|^2 |v|^2 (ball, 1e-30)
            st = statement_of(ORIGIN_ID)
            pi = E1.pi_exact
            v = [p - Fraction(1, E1.d) for p in pi]
            tally.statement(st, {"n_+": cl[2].multiplicity, "n_-": cl[0].multiplicity, "n_0": cl[1].multiplicity,
                                 "m": m, "m_k": mk, "d": E1.d}, part="charpoly")
            tally.statement(st, {"mu_0^2": mu0 * mu0, r"\|\pi\|^2": flint.arb(_q(sum(p * p for p in pi))),
                                 r"\|v\|^2": flint.arb(_q(sum(x * x for x in v)))}, part="eigenvalue", tol=1e-30)
    return tally.evidence()


def _q(x: Fraction) -> object:
    import flint

    return flint.fmpq(x.numerator, x.denominator)


def origin_hessian_float(*, seed: int, profile: Profile) -> Evidence:
    """torch autograd Hessian of L at theta = 0 equals the exact forward-mode Hessian of L (float64); E1 with
    m = 3, m_k = 2 and the pinned chains (quick: the first three) with m = m_k = 2.  Budget
    float_tolerance(ops = 64 d)."""
    tally = Tally(precision="float64", backend="torch autograd Hessian", seeds=(seed,))
    E1 = MarkovChain.lazy(E1_PI, "1/2")
    for ch, m, mk in [(E1, 3, 2)] + [(c, 2, 2) for c in pinned_chains()[:profile.pick(3, 7, 7)]]:
        sh = Shapes(ch.d, m, mk)
        J = full_jacobian_float(ch, unpack(np.zeros(sh.size), sh))
        H = np.array(origin_hessian_exact(ch, m, mk)[2], dtype=np.float64)
        tol = float_tolerance(ops=64 * ch.d)
        tally.tolerance = tol
        tally.close(float(np.max(np.abs(J + H))), 0.0, tol, counterexample=lambda: refuted(
            "autograd Hessian at 0 differs from the exact Hessian of L", chain=ch.name))
    return tally.evidence(level_cap=Verdict.CONSISTENT)
