"""Faithful (as-stated) readings of the seed's theorems (issue "Faithful readings", item 2).

Theorem 2 with the objects INCRT's own rule produces
-----------------------------------------------------
Seed 000 L32-33: "When INCRT adds a new head, that head is initialized in the direction of maximum
residual information ... As a result, DDCL's prototype separation force is amplified."  Objects:

* tokens with covariance G (= the dictionary input's covariance C, zero-mean tokens), a current
  antisymmetric M_a; the growth signal S = sym(G M_a) (``incrt.growth_signal``), INCRT grows iff
  lambda_max(A_res) > theta and the new head's direction u is the top eigenvector of A_res
  (``incrt.greedy_growth(S, theta, max_heads=1)``; no head yet, so A_res = S);
* "expanding the space": the head's channel o = u^T y is appended (M-cat), so
  C_new = W^T C W with W = [I, u];
* the separation force: the collapse instability of the dictionary on its input, n_u (the number of
  unstable directions, (K - 1) #{j : c lambda_j > tau}), gamma_max = (2/K)(c lambda_1/tau - 1) and
  Phi = (2/K) sum_j max(c lambda_j/tau - 1, 0) (spec §2.5).

Decided exactly.  The nonzero spectrum of C_new is that of the pencil (C, B) with
B = (I + u u^T)^{-1} = I - u u^T/(1 + |u|^2) (Sherman-Morrison), so #{j : lambda_j(C_new) > t} is the
positive inertia of C - t B (Sylvester; B is positive definite), a rational matrix whenever u u^T is:
for the pinned cases u = v/|v| with v rational (u u^T = v v^T / v^T v), for random cases u is the
float vector greedy_growth returns, read as the dyadic rational it is (the head actually grown).

Pinned counterexample to strict amplification (readings draft §2.2, re-derived here):
G = C = diag(10, 6/5, 4/5), M_a = e2 e3^T - e3 e2^T: S has eigenvalues {1/5, 0, -1/5}, INCRT grows at
theta = 1/10 along u = (e2 + e3)/sqrt 2; K = 2, c = 4, tau = 20 (tau/c = 5).  The grown channel lies
in the (e2, e3) block, whose new top eigenvalue is 3/2 + sqrt(33/100) < 5, so lambda_1 stays 10,
n_u stays K - 1 = 1, gamma_max stays 1 and Phi stays 1: the force is kept, not amplified.

Witness that INCRT growth can raise the force (control "never_raised"): G = diag(2, 1),
M_a = e1 e2^T - e2 e1^T: S has eigenvalues +-1/2, u = (e1 + e2)/sqrt 2 touches v_1 = e1 and
lambda_1 rises above 2.

Variants of :func:`incrt_amplification`:
* ``strict``        (as stated) every INCRT birth strictly raises the force (n_u at tau/c, or lambda_1);
* ``weak``          (repaired) every INCRT birth never lowers it: #{lambda_j(C_new) > t} >=
                    #{lambda_j(C) > t} at every sampled t, and lambda_1(C_new) >= lambda_1(C);
* ``never_raised``  (false control) an INCRT birth never raises it.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.linalg import inertia
from numerics.precision import float_tolerance
from verify import Evidence, Profile, Tally, Verdict, refuted

from ._candidates import run_candidates
from ._checks_amplification import _count_above, top_eigenvalue_order
from ._statements_separation import N_NEW, N_OLD
from .hessian import exact_covariance, gamma_max, unstable_count
from .incrt import greedy_growth, growth_signal

AMP_VARIANTS = ("strict", "weak", "never_raised")

F = Fraction


def _diag(xs):
    n = len(xs)
    return [[F(xs[a]) if a == b else F(0) for b in range(n)] for a in range(n)]


def _plane(d, i, j):
    M = [[F(0)] * d for _ in range(d)]
    M[i][j], M[j][i] = F(1), F(-1)
    return M


# (C = G, M_a, theta, exact direction v (u = v/|v|, up to sign), exact lambda_1(C), K, c, tau, name)
PINNED_STRICT = (_diag([10, F(6, 5), F(4, 5)]), _plane(3, 1, 2), F(1, 10), [0, 1, 1], F(10), 2, 4, F(20),
                 "pinned: C = diag(10, 6/5, 4/5), tau = 20")
WITNESS_RAISE = (_diag([2, 1]), _plane(2, 0, 1), F(1, 10), [1, 1], F(2), 2, 4, F(4),
                 "witness: C = diag(2, 1), tau = 4")


def _sym_product(G, Ma):
    d = len(G)
    X = [[sum((G[a][k] * Ma[k][b] for k in range(d)), F(0)) for b in range(d)] for a in range(d)]
    return [[(X[a][b] + X[b][a]) / 2 for b in range(d)] for a in range(d)]


def _pencil_count(C, P, t):
    """#{j : lambda_j(C (I + P)) > t} for P = u u^T (rational), t > 0: positive inertia of C - t B."""
    d = len(C)
    s = sum((P[a][a] for a in range(d)), F(0))
    B = [[(F(1) if a == b else F(0)) - P[a][b] / (1 + s) for b in range(d)] for a in range(d)]
    return inertia([[C[a][b] - t * B[a][b] for b in range(d)] for a in range(d)]).positive


def _cat_covariance(C, u):
    """C_new = W^T C W, W = [I, u], exact."""
    d = len(C)
    Cu = [sum((C[a][k] * u[k] for k in range(d)), F(0)) for a in range(d)]
    uCu = sum((u[a] * Cu[a] for a in range(d)), F(0))
    return [list(C[a]) + [Cu[a]] for a in range(d)] + [Cu + [uCu]]


def _random_case(rng):
    d = int(rng.integers(2, 5))
    N = int(rng.integers(d + 1, 9))
    E = [[int(rng.integers(-3, 4)) for _ in range(d)] for _ in range(N)]
    Ma = [[F(0)] * d for _ in range(d)]
    for a in range(d):
        for b in range(a + 1, d):
            x = F(int(rng.integers(-2, 3)))
            Ma[a][b], Ma[b][a] = x, -x
    return E, Ma


def _grow(C, Ma, theta, tally, inst):
    """The product's INCRT birth on S = sym(G M_a), against an independent exact S.

    ``tally`` is the gate of product comparisons (a failure there voids the evidence).  Returns the
    grown direction (float) or None (no birth)."""
    S_exact = _sym_product(C, Ma)
    Gf = np.array([[float(x) for x in r] for r in C])
    Mf = np.array([[float(x) for x in r] for r in Ma])
    Sf = growth_signal(Gf, Mf)
    Sref = np.array([[float(x) for x in r] for r in S_exact])
    scale = float(np.abs(Gf).max() * max(1.0, np.abs(Mf).max()))
    tol = float_tolerance(ops=4 * len(C), scale=scale)
    tally.close(float(np.abs(Sf - Sref).max()), 0.0, tol, counterexample=lambda: refuted(
        "growth_signal differs from the exact sym(G M_a)", **inst))
    fires = _count_above(S_exact, theta) >= 1          # INCRT's rule, decided exactly
    grown = greedy_growth(Sf, float(theta), max_heads=1)
    tally.exact(grown.count == (1 if fires else 0), level=Verdict.CONSISTENT, counterexample=lambda: refuted(
        f"greedy_growth grew {grown.count} heads, the exact rule says {int(fires)}", **inst))
    if grown.count != 1:
        return None
    u = grown.directions[:, 0]
    # u must be a top eigenvector of S: residual |S u - birth u| within the eigh budget
    # (backward error ~ d eps |S|_2, safety factor 10)
    nS = float(np.linalg.norm(Sf, 2))
    tally.le(float(np.linalg.norm(Sf @ u - grown.births[0] * u)), 0.0, 10 * len(C) * 2.2e-16 * max(nS, 1e-300),
             counterexample=lambda: refuted("greedy_growth's direction is not an eigenvector of S", **inst))
    tally.exact(_count_above(S_exact, F(grown.births[0]) + F(1, 10**9) * (1 + abs(F(grown.births[0])))) == 0,
                level=Verdict.CONSISTENT, counterexample=lambda: refuted(
                    "greedy_growth's birth eigenvalue is not the top eigenvalue of S", **inst))
    return u


def incrt_amplification(*, seed: int, profile: Profile, variant: str = "strict") -> Evidence:
    """Exact: does the head INCRT's own rule grows (top residual eigenvector, M-cat channel) amplify the
    collapse instability of the dictionary?  See the module docstring for the objects and variants."""
    if variant not in AMP_VARIANTS:
        raise ValueError(f"variant must be one of {AMP_VARIANTS}")
    from verify import statement_of

    st = statement_of("ddcl.separation.amplification_incrt_weak" if variant == "weak"
                      else "ddcl.separation.amplification_incrt")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="exact (fmpq, Descartes) + float64 growth", backend="python-flint", seeds=(seed,))
    gate = Tally(precision="float64 vs exact", backend="numpy", seeds=(seed,))  # product comparisons
    taus = [F(k, 4) for k in range(1, 81, 5)]
    cs = (4, 2)
    # the as-stated (strict) reading is refuted by its pinned case; the weak reading and the control
    # run the witness and the random births too
    cases = {"strict": [PINNED_STRICT], "weak": [PINNED_STRICT, WITNESS_RAISE],
             "never_raised": [WITNESS_RAISE, PINNED_STRICT]}[variant]
    n_random = profile.pick(15, 40, 150) if variant != "strict" else 0
    details: dict[str, Any] = {"pinned": {}, "random_births": 0, "random_strict": 0}
    for k in range(len(cases) + n_random):
        if k < len(cases):
            C, Ma, theta, v, lam1, K, c, tau, name = cases[k]
            inst = {"case": name, "C": [[str(x) for x in r] for r in C], "M_a": [[str(x) for x in r] for r in Ma],
                    "theta": str(theta), "K": K, "c": c, "tau": str(tau)}
            u = _grow(C, Ma, theta, gate, inst)
            if u is None or gate.counterexample is not None:
                return _void(gate, details)
            # the product's head is the exact direction v/|v| up to sign (eigh accuracy / gap,
            # gap >= 1/5 here, safety 100)
            vf = np.array(v, dtype=float) / np.linalg.norm(v)
            dev = min(np.linalg.norm(u - vf), np.linalg.norm(u + vf))
            gate.le(float(dev), 0.0, 100 * len(C) * 2.2e-16 / 0.2, counterexample=lambda: refuted(
                "greedy_growth's head is not the predicted top eigenvector", **inst))
            if gate.counterexample is not None:
                return _void(gate, details)
            vv = sum(F(x) ** 2 for x in v)
            P = [[F(v[a]) * F(v[b]) / vv for b in range(len(C))] for a in range(len(C))]
            # lambda_1 rational: order by the pencil count above lambda_1(C) (none above: not raised)
            assert _count_above(C, lam1) == 0 and _count_above(C, lam1 - F(1, 10**6)) >= 1
            raised_top = _pencil_count(C, P, lam1) >= 1
            top_order = 1 if raised_top else 0          # >= 0 by interlacing, checked under "weak"
            count = lambda t, C=C, P=P: _pencil_count(C, P, t)
            taus_here = [tau] + taus
            Cnew_f = None
        else:
            E, Ma = _random_case(rng)
            C = exact_covariance(E)
            Sx = _sym_product(C, Ma)
            if _count_above(Sx, F(0)) == 0:
                continue
            top = float(np.linalg.eigvalsh(np.array([[float(x) for x in r] for r in Sx]))[-1])
            theta = F(top) * F(int(rng.integers(20, 90)), 100)
            K, c, tau = 2, int(rng.choice(cs)), None
            inst = {"case": f"random {k}", "E": E, "M_a": [[str(x) for x in r] for r in Ma], "theta": str(theta)}
            u = _grow(C, Ma, theta, gate, inst)
            if gate.counterexample is not None:
                return _void(gate, details)
            if u is None:
                continue
            details["random_births"] += 1
            ur = [F(float(x)) for x in u]
            Cn = _cat_covariance(C, ur)
            top_order = top_eigenvalue_order(C, Cn)
            count = lambda t, Cn=Cn: _count_above(Cn, t)
            taus_here = taus
            Cnew_f = np.array([[float(x) for x in r] for r in Cn])
        counts = {}  # (tau, c) -> (n(C), n(C_new)) at t = tau/c, exact
        for cc in cs:
            for tt in taus_here:
                t = tt / cc
                b, a = _count_above(C, t), count(t)
                counts[(tt, cc)] = (b, a)
                # independent float corroboration of the product's unstable_count / gamma_max on the
                # random instances, away from the threshold (relative gap > 1e-9)
                if Cnew_f is not None:
                    lam = np.linalg.eigvalsh(Cnew_f)
                    if np.min(np.abs(lam - float(t))) > 1e-9 * max(1.0, float(t)):
                        gate.exact(unstable_count(lam, 2, float(tt), cc) == a, level=Verdict.CONSISTENT,
                                    counterexample=lambda: refuted("unstable_count disagrees with the exact "
                                                                   "inertia count", **inst))
        if k < len(cases):
            details["pinned"][name] = {"lambda1_raised": bool(top_order > 0),
                                       "n_u_before": (K - 1) * _count_above(C, tau / c),
                                       "n_u_after": (K - 1) * count(tau / c)}
        else:
            lam_old = np.linalg.eigvalsh(np.array([[float(x) for x in r] for r in C]))
            lam_new = np.linalg.eigvalsh(Cnew_f)
            g_old, g_new = gamma_max(lam_old[-1], 2, 1.0, 4), gamma_max(lam_new[-1], 2, 1.0, 4)
            gate.le(g_old, g_new, 1e-12 * max(1.0, abs(g_old)), counterexample=lambda: refuted(
                "float gamma_max lowered by the INCRT birth", **inst))
            if gate.counterexample is not None:
                return _void(gate, details)
            details["random_strict"] += int(top_order > 0)
        if variant == "strict":
            # the claim's statement at the instance's own threshold t = tau/c (pinned cases) or the first
            # sampled one (random cases), with sigma = sign(lambda_1(C_new) - lambda_1(C)) decided exactly
            b, a = counts[(taus_here[0], c)]
            tally.statement(st, {N_OLD: b, N_NEW: a, "sigma": top_order}, part="amplification",
                            counterexample=lambda: refuted(
                                "INCRT's head (top residual eigenvector) leaves the separation force unchanged: "
                                "lambda_1, n_u, gamma_max and Phi are the same before and after the birth", **inst,
                                n_u=(K - 1) * b, sub_check="amplification"))
        elif variant == "weak":
            for (tt, cc), (b, a) in counts.items():
                obs = tally.statement(st, {N_OLD: b, N_NEW: a, "sigma": top_order}, part="amplification",
                                      counterexample=lambda: refuted(
                                          "an INCRT birth lowered the instability", **inst, tau_c=[str(tt), cc],
                                          sub_check="amplification"))
                if obs.level is Verdict.REFUTED:
                    break
        else:  # never_raised (the control's own false statement)
            tally.exact(top_order <= 0, counterexample=lambda: refuted(
                "an INCRT birth raised lambda_1 (hence gamma_max) of the dictionary input", **inst,
                sub_check="amplification"))
        if tally.counterexample is not None:
            break
    if gate.counterexample is not None:
        return _void(gate, details)
    # the float product comparisons cap the evidence at CONSISTENT (the counts themselves are exact)
    ev = tally.evidence(level_cap=Verdict.CONSISTENT if gate.instances else None)
    return replace(ev, details={**dict(ev.details), **details, "product_comparisons": gate.instances})


def _void(gate: Tally, details: dict) -> Evidence:
    ce = gate.counterexample
    return Evidence(Verdict.UNKNOWN, instances=gate.instances, details={**details, "product_disagreement":
                    {"description": ce.description, **ce.data} if ce else "no birth on a pinned case"},
                    notes="a product function disagrees with its independent computation: no verdict")


# -------------------------------------------------------------------------------------------------
# Undetermined readings: run every candidate reading's decisive check and report their verdicts
# -------------------------------------------------------------------------------------------------
def _candidates(which: str) -> tuple[tuple[str, Any, dict], ...]:
    from . import _checks_mlp as _mlp
    from . import _checks_separation as _sep
    from . import _checks_temperature as _tem

    table = {
        # seed L20 "separate ... even without explicit regularization": the objective and the tau
        # regime are not given; under L_q / F collapse is unstable iff tau < c lambda_1 (holds), "for
        # every tau" is refuted at Z = {-1, 1}, K = 2, full, tau = 5
        "objective_alone": (
            ("ddcl.separation.critical_temperature", _sep.certified, {}),
            ("ddcl.separation.unconditional", _sep.certified, {"variant": "unconditional"}),
        ),
        # seed L43 "strictly reduce the loss of directional information": DI and the conditions are
        # not given; R1 (expectation, strict iff anisotropic) holds, the unconditional strict reading
        # is refuted by C = I (every rank-m basis keeps m/d)
        "mlp": (
            ("ddcl.mlp_vs_dictionary", _mlp.expectation, {}),
            ("ddcl.mlp_vs_dictionary (literal: strict for every C)", _mlp.expectation,
             {"variant": "isotropic_strict"}),
        ),
        # seed L42 "through a learnable temperature ... the heads naturally differentiate into local
        # (hard) and global (soft)": the objective that moves tau is not given; driven by L_q (live
        # assignments) the heads split at lambda_h = tau_0 / c (holds), driven by F every tau rises
        # without bound and no head becomes hard (refuted)
        "temperature": (
            ("ddcl.temperature.divergence", _tem.divergence, {"mode": "full"}),
            ("ddcl.temperature.divergence_free_energy", _tem.divergence, {"mode": "full", "drive": "F"}),
        ),
    }
    return table[which]




def undetermined(*, seed: int, profile: Profile, which: str, variant: str = "statement") -> Evidence:
    """The undetermined seed sentence ``which`` (objective_alone, temperature, mlp): see
    :func:`._candidates.run_candidates`."""
    return run_candidates(which, _candidates(which), seed=seed, profile=profile, variant=variant)
