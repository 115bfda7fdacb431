"""Checks of ``ddcl.dictionary.gradients`` and of the stationary-point hull claims (spec §2.3, §3.2).

R1 (gradients): with Gibbs q and ``omega_ij = q_ij [1 - (d_ij - ell_i)/tau]``,
``grad_{p_j} L_q = (2/N) sum_i omega_ij (p_j - z_i)`` (live), ``grad_{p_k} F = (2/N) sum_i q_ik (p_k - z_i)``
(= detached grad L_q), ``dL_q/dtau = mean_i Var_{q_i}(d_i.)/tau^2``, ``dF/dtau = -H`` and ``F = L_q - tau H``.

R2 (stationary points): full-gradient (live q) stationary points can leave the data's convex hull
(exact regression case Z = {-1, +1}, K = 2, p = +-a: a = 1.0846134585... at tau = 1); F-stationary
points cannot, since grad F = 0 means ``p_k = sum_i q_ik z_i / n_k``.

Variants (negative controls) through the same checks:
* ``detached``  the detached formula presented as the live gradient of L_q;
* ``plus``      the weight ``q_ij [1 + (d_ij - ell_i)/tau]``;
* ``tau_sign``  ``dL_q/dtau = -Var/tau^2``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

import numpy as np

from numerics.precision import Tri, arb_precision, float_tolerance, mp_context, tri_negative, tri_positive
from verify import Evidence, Profile, Tally, Verdict, observe, refuted, statement_of

from ._statements_dictionary import DF, DLQ, GRADF, VAR, ZT
from .dictionary import (all_losses, descent_gradient, gibbs, gibbs_row, grad_detached, grad_live_Lq,
                         live_weight_row, live_weights, sample_entropy, sample_free_energy, sample_tau_derivatives,
                         sqdist_matrix)

VARIANTS = ("statement", "detached", "plus", "tau_sign", "block_detached")


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose from {VARIANTS}")


def _symbolic_part(st: Any, part: str, vals: dict, rational: Any) -> bool | None:
    """The statement's Eq / Ne part decided on sympy observables (``rational`` cancels the residual)."""
    import sympy as sp

    from verify._statement import select

    rel = select(st, part)
    if not isinstance(rel, (sp.Eq, sp.Ne)):
        return None
    subs = {sym: vals[sym.name] for sym in rel.free_symbols if sym.name in vals}
    zero = rational(rel.lhs.xreplace(subs) - rel.rhs.xreplace(subs)) == 0
    return zero if isinstance(rel, sp.Eq) else not zero


def symbolic(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """sympy, one sample (hence every N), d = 1, K in {2, 3}: the claim's statement, part by part, on the
    exact derivatives of the product's per-sample losses (``variant="plus"``: the control's own weight).

    After differentiation every exp(-d_k/tau) is replaced by a symbol E_k and log(sum E) by a symbol,
    so that each residual is a rational function; it is zero iff its cancelled numerator is.
    """
    _check_variant(variant)
    ev = _symbolic(variant, statement_of("ddcl.dictionary.gradients"))
    # the derivation does not depend on the seed: one per (variant, statement) per process (shared by
    # ddcl.dictionary.gradients and ddcl.temperature.sign_laws), stamped with this check's seed
    return replace(ev, seeds=(seed,), details=dict(ev.details))


@functools.lru_cache(maxsize=8)
def _symbolic(variant: str, st: Any) -> Evidence:
    """The body of :func:`symbolic` (seed-free)."""
    import sympy as sp

    tally = Tally(precision="symbolic", backend="sympy", seeds=())
    z = sp.Symbol("z", real=True)
    tau = sp.Symbol("tau", positive=True)
    for K in (2, 3):
        ps = sp.symbols(f"p1:{K + 1}", real=True)
        dist = [(z - p) ** 2 for p in ps]
        ex = [sp.exp(-dk / tau) for dk in dist]
        Zs = sum(ex)
        q = [e / Zs for e in ex]
        Lq = sum(qk * dk for qk, dk in zip(q, dist))
        Fs = sample_free_energy(dist, tau, sp.exp, sp.log)
        w = live_weight_row(q, dist, tau, sign=+1 if variant == "plus" else -1)
        E = sp.symbols(f"E1:{K + 1}", positive=True)
        LZ = sp.Symbol("logZ")
        logq = {qk: -dk / tau - LZ for qk, dk in zip(q, dist)}

        def rational(expr):
            expr = expr.subs({sp.log(Zs): LZ}).subs({e: Ek for e, Ek in zip(ex, E)})
            return sp.cancel(sp.together(expr))

        if variant == "plus":  # the control's own false weight q_j [1 + (d_j - ell)/tau]
            for j, p in enumerate(ps):
                r0 = rational(sp.diff(Lq, p) - 2 * w[j] * (p - z))
                tally.exact(r0 == 0, level=Verdict.PROVED, counterexample=lambda: refuted(
                    f"symbolic residual of dL_q/dp is not zero at K={K}, d=1", K=K, variant=variant,
                    residual=str(r0)[:300], sub_check="dL_q/dp"))
                if r0 != 0:
                    return tally.evidence()
            continue
        # the claim's statement, part by part, on symbolic observables: the exact derivatives and the
        # product's Gibbs row, distances, ell, entropy (tau_sign presents -dL_q/dtau)
        ell = sum(qk * dk for qk, dk in zip(q, dist))
        dLq_sym = sp.diff(Lq, tau)
        obs = [("dF/dtau", {DF: sp.diff(Fs, tau), "H": sample_entropy(q, lambda x: logq[x])}),
               ("dL_q/dtau", {DLQ: -dLq_sym if variant == "tau_sign" else dLq_sym, "tau": tau,
                              VAR: sum(qk * (dk - ell) ** 2 for qk, dk in zip(q, dist))}),
               ("F = L_q - tau H", {"F": Fs, "L_q": Lq, "tau": tau, "H": sample_entropy(q, lambda x: logq[x])})]
        for j, p in enumerate(ps):
            live = sp.diff(Lq, p)
            if variant == "detached":  # the detached derivative (q held fixed) presented as the live one
                live = sum(qk * sp.diff(dk, p) for qk, dk in zip(q, dist))
            obs.append(("live grad L_q", {"g": live, "q_k": q[j], "d_k": dist[j], "ell": ell, "p_k": p, "z": z,
                                          "tau": tau}))
            obs.append(("grad F", {"g": sp.diff(Fs, p), "q_k": q[j], "p_k": p, "z": z}))
        # the product's tau-derivatives (sample_tau_derivatives) are the exact ones
        pd_Lq, pd_F = sample_tau_derivatives(q, dist, tau, lambda x: logq[x])
        for name, mine, ref in (("product dL_q/dtau", pd_Lq, dLq_sym), ("product dF/dtau", pd_F, sp.diff(Fs, tau))):
            ok = rational(mine - ref) == 0
            tally.exact(ok, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"{name} differs from the exact derivative at K={K}, d=1", K=K, sub_check=name))
            if not ok:
                return tally.evidence()
        for part, vals in obs:
            ok = _symbolic_part(st, part, vals, rational)
            if ok is None:
                continue
            tally.exact(ok, level=Verdict.PROVED, counterexample=lambda: refuted(
                f"the statement's part {part!r} is not an identity at K={K}, d=1", K=K, variant=variant,
                sub_check=part))
            if not ok:
                return tally.evidence()
    tally.details["scope"] = "one sample (every N by linearity), d = 1, K in {2, 3}, tau > 0"
    return tally.evidence()


def _per_sample_observables(Z: np.ndarray, P: np.ndarray, tau: float, Q: np.ndarray, D: np.ndarray,
                            variant: str) -> dict[str, dict[str, Any]]:
    """The statement's observables, per part, as torch float64 tensors of broadcastable shapes
    (samples i x prototypes k x coordinates): the per-sample derivatives by torch autograd (Jacobians of
    the per-sample losses) and the product's Gibbs rows q = ``gibbs`` and distances d = ``sqdist_matrix``
    (ell_i = sum_k q_ik d_ik, zt_i = sum_k q_ik p_k, Var_q(d_i), H_i their definitions).

    ``variant="detached"`` presents the gradient of L_q with q held fixed as the live gradient;
    ``"tau_sign"`` presents -dL_q/dtau."""
    import functools

    import torch
    from torch.autograd.functional import jacobian as _jacobian

    # the rows of each Jacobian by one vmapped backward pass instead of one pass per sample: the same
    # floats (each per-sample derivative collects exactly one nonzero term per entry, whatever the
    # batching; tests/unit/ddcl_incrt/test_ddcl_observables.py compares with the row-by-row passes)
    jacobian = functools.partial(_jacobian, vectorize=True)
    T = lambda a: torch.as_tensor(np.asarray(a, dtype=float), dtype=torch.float64)  # noqa: E731
    Zt, Pt, tt, Qd = T(Z), T(P), torch.tensor(float(tau), dtype=torch.float64), T(Q)

    def dist(P_):
        return ((Zt[:, None] - P_[None]) ** 2).sum(-1)

    def per_Lq(P_, t_):
        D_ = dist(P_)
        return (torch.softmax(-D_ / t_, 1) * D_).sum(1)

    def per_F(P_, t_):
        return -t_ * torch.logsumexp(-dist(P_) / t_, 1)

    live = (jacobian(lambda P_: (Qd * dist(P_)).sum(1), Pt) if variant == "detached"
            else jacobian(lambda P_: per_Lq(P_, tt), Pt))
    g_F = jacobian(lambda P_: per_F(P_, tt), Pt)
    g_O = jacobian(lambda P_: ((Zt - Qd @ P_) ** 2).sum(1), Pt)
    g_V = jacobian(lambda P_: (Qd * ((P_[None] - (Qd @ P_)[:, None]) ** 2).sum(-1)).sum(1), Pt)
    d_Lq = jacobian(lambda t_: per_Lq(Pt, t_), tt) * (-1 if variant == "tau_sign" else 1)
    d_F = jacobian(lambda t_: per_F(Pt, t_), tt)
    N, K = Q.shape
    q, dk = Qd[:, :, None], T(D)[:, :, None]
    ell = (q * dk).sum(1, keepdim=True)
    zt = (Qd @ Pt)[:, None, :]
    z, p = Zt[:, None, :], Pt[None]
    var = (Qd * (T(D) - ell[:, :, 0]) ** 2).sum(1)
    H = T([-sum(x * _safe_log(x) for x in row) for row in Q])
    return {"live grad L_q": {"g": live, "q_k": q, "d_k": dk, "ell": ell, "p_k": p, "z": z, "tau": tau},
            "grad F": {"g": g_F, "q_k": q, "p_k": p, "z": z},
            "detached grad L_OLS": {"g": g_O, "q_k": q, ZT: zt, "z": z},
            "detached grad V": {"g": g_V, "q_k": q, "p_k": p, ZT: zt},
            "dL_q/dtau": {DLQ: d_Lq, VAR: var, "tau": tau},
            "dF/dtau": {DF: d_F, "H": H}}


def autograd(*, seed: int, profile: Profile, variant: str = "statement") -> Evidence:
    """The claim's statement, part by part, on per-sample torch-autograd derivatives (float64) of
    random data, K, d, tau, including far prototypes whose q underflows; ``F = L_q - tau H`` on the
    product's ``all_losses``.  Then the product's N-sample gradients (``grad_live_Lq``,
    ``grad_detached``) against the autograd means (sub-checks ``product ...``).

    Budget: ``float_tolerance(ops = 16 N K d, scale = s (1 + max d_ik/tau))`` with s the larger of
    the quantity's size and its natural scale (max|z| + max|p| for gradients, (max d/tau)^2 for
    dL_q/dtau, 1 + log K for dF/dtau = -H): the Gibbs weights' rounding is amplified by d/tau.
    """
    from verify import statement_of

    _check_variant(variant)
    st = statement_of("ddcl.dictionary.gradients")
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="torch autograd", seeds=(seed,))
    n_cases = profile.pick(25, 150, 1000)
    for case in range(n_cases):
        N, K, d = int(rng.integers(2, 40)), int(rng.integers(1, 7)), int(rng.integers(1, 6))
        Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d))
        P = Z[rng.integers(0, N, K)] + 0.5 * rng.standard_normal((K, d))
        if case % 7 == 3:  # a far prototype: its q underflows
            P[0] += 1e3
        trC = float(np.trace(np.cov(Z.T, bias=True).reshape(d, d)))
        tau = float(np.exp(rng.uniform(-3, 3)) * trC / d)
        Q = gibbs(Z, P, tau)
        D = sqdist_matrix(Z, P)
        L = all_losses(Z, P, tau)
        if variant == "block_detached" or (variant == "statement" and case % 5 == 0):
            if not _block_agrees(tally, Z, P, tau, Q, L, variant, case):
                return tally.evidence(level_cap=Verdict.CONSISTENT)
            if variant == "block_detached":
                continue
        obs = _per_sample_observables(Z, P, tau, Q, D, variant)
        unit = float(np.abs(Z).max() + np.abs(P).max())  # natural scales of each quantity
        dmax = float(np.max(np.where(Q > 1e-300, D, 0.0)))
        amp = 1.0 + dmax / tau
        floors = {"dL_q/dtau": (dmax / tau) ** 2, "dF/dtau": 1.0 + math.log(K)}
        inst = dict(variant=variant, N=N, K=K, d=d, tau=tau, case=case)
        for part, vals in obs.items():
            main = next(iter(vals.values()))
            if not bool(main.isfinite().all()):
                return Evidence(Verdict.UNKNOWN, instances=case, notes=f"non-finite autograd value in {part}")
            scale = max(float(main.abs().max()), floors.get(part, unit), 1e-300)
            tol = float_tolerance(ops=16 * N * K * d, scale=scale * amp)
            o = tally.statement(st, vals, part=part, tol=tol, counterexample=lambda: refuted(
                f"statement part {part!r} fails on the autograd derivatives (budget {tol:.3g})", **inst,
                Z=Z.tolist(), P=P.tolist(), sub_check=part))
            if o.level is Verdict.REFUTED:
                return tally.evidence(level_cap=Verdict.CONSISTENT)
        scale = max(abs(L["F"]), dmax + tau * (1 + math.log(K)))
        o = tally.statement(st, {"F": L["F"], "L_q": L["L_q"], "H": L["H"], "tau": tau}, part="F = L_q - tau H",
                            tol=float_tolerance(ops=16 * N * K * d, scale=scale * amp))
        if o.level is Verdict.REFUTED or not _product_agrees(tally, Z, P, tau, Q, obs, unit, amp, inst):
            return tally.evidence(level_cap=Verdict.CONSISTENT)
        W = live_weights(Z, P, tau)
        tally.close(float(np.abs(W.sum(1) - 1).max()), 0.0, float_tolerance(ops=4 * K, scale=amp))
    tally.details["cases"] = n_cases
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def _product_agrees(tally: Tally, Z: np.ndarray, P: np.ndarray, tau: float, Q: np.ndarray, obs: dict,
                    unit: float, amp: float, inst: dict) -> bool:
    """The product's N-sample gradients equal the means of the per-sample autograd derivatives:
    ``grad_live_Lq`` (live L_q) and ``grad_detached(gibbs)`` (F = detached L_q, L_OLS, V)."""
    N, K, d = inst["N"], inst["K"], inst["d"]
    det = grad_detached(Z, P, Q)
    pairs = [("product live grad L_q", grad_live_Lq(Z, P, tau), "live grad L_q"),
             ("product grad F", det["L_q"], "grad F"), ("product grad L_OLS", det["L_OLS"], "detached grad L_OLS"),
             ("product grad V", det["V"], "detached grad V")]
    for name, mine, part in pairs:
        ref = obs[part]["g"].mean(0).numpy()
        scale = max(float(np.abs(ref).max()), float(np.abs(mine).max()), unit, 1e-300)
        tol = float_tolerance(ops=16 * N * K * d, scale=scale * amp)
        err = float(np.abs(mine - ref).max())
        o = tally.close(err, 0.0, tol, counterexample=lambda: refuted(
            f"{name}: differs from the autograd mean by {err:.3g} (budget {tol:.3g})", **inst, sub_check=name))
        if o.level is Verdict.REFUTED:
            return False
    return True


def _safe_log(x: float) -> float:
    return math.log(x) if x > 0 else 0.0  # q log q -> 0 as q -> 0 (underflowed Gibbs weights)


def _block_agrees(tally: Tally, Z: np.ndarray, P: np.ndarray, tau: float, Q: np.ndarray, L: dict,
                  variant: str, case: int) -> bool:
    """The torch module ``DictionaryBlock`` (free prototypes P, fixed tau): its ``losses`` equal the
    numpy ``all_losses`` and the autograd gradient of its ``dictionary_loss`` equals ``grad_live_Lq``
    (mode full: L_q with live q) and ``grad_detached(gibbs)["L_q"]`` (mode stopgrad: F).  Budget as
    for the closed forms.  ``variant="block_detached"`` claims the full-mode gradient is the detached one."""
    import torch

    from .dictionary_torch import DictionaryBlock

    N, d = Z.shape
    K = P.shape[0]
    D = sqdist_matrix(Z, P)
    amp = 1.0 + float(np.max(np.where(Q > 1e-300, D, 0.0))) / tau
    Zt = torch.tensor(Z)
    unit = float(np.abs(Z).max() + np.abs(P).max())
    for mode in ("full", "stopgrad"):
        block = DictionaryBlock(d, K, tau=tau, mode=mode, init=P)
        out = {k: float(v.detach()) for k, v in block.losses(Zt).items()}  # no grad-tensor -> float
        for name in ("L_q", "L_OLS", "V", "H", "F"):
            if variant == "block_detached":
                break
            ref = L[name]
            scale = max(abs(ref), abs(out[name]), unit ** 2, 1.0 + math.log(K))
            tol = float_tolerance(ops=16 * N * K * d, scale=scale * amp)
            err = abs(out[name] - ref)
            obs = tally.close(err, 0.0, tol, counterexample=lambda: refuted(
                f"DictionaryBlock.losses()[{name!r}] = {out[name]!r} differs from all_losses {ref!r} "
                f"(budget {tol:.3g})", N=N, K=K, d=d, tau=tau, case=case, sub_check="block_losses"))
            if obs.level is Verdict.REFUTED:
                return False
        g = torch.autograd.grad(block.dictionary_loss(Zt), block.P)[0].numpy()
        if mode == "full" and variant != "block_detached":
            ref = grad_live_Lq(Z, P, tau)
        else:
            ref = grad_detached(Z, P, Q)["L_q"]
        scale = max(float(np.abs(ref).max()), float(np.abs(g).max()), unit)
        tol = float_tolerance(ops=16 * N * K * d, scale=scale * amp)
        err = float(np.abs(g - ref).max())
        obs = tally.close(err, 0.0, tol, counterexample=lambda: refuted(
            f"DictionaryBlock ({mode}): autograd of dictionary_loss differs from the closed form by "
            f"{err:.3g} (budget {tol:.3g})", variant=variant, N=N, K=K, d=d, tau=tau, case=case,
            sub_check="block_grad"))
        if obs.level is Verdict.REFUTED:
            return False
    return True


def mp_differences(*, seed: int, profile: Profile) -> Evidence:
    """mpmath (dps 50) central differences with h = 1e-20 against the live and F gradients, relative
    budget 10 x 10^-dps max(1, |L|/s) / h (derived below; the achieved error is recorded)."""
    dps = 50
    ctx = mp_context(dps)
    rng = np.random.default_rng(seed)
    h = ctx.mpf(10) ** -20
    # central differences: rounding 10^-dps |L| / h = 1e-30 |L|, truncation h^2 |L^(3)| / 6 ~ 1e-41;
    # relative to the gradient scale s: 10^-dps max(1, |L|/s) / h, with a safety factor 10
    round_off, safety = 10.0 ** -dps / 1e-20, 10.0
    worst, scales = 0.0, 0.0
    tally = Tally(precision=f"dps={dps}", backend="mpmath", seeds=(seed,), tolerance=safety * round_off)
    for _ in range(profile.pick(4, 10, 40)):
        N, K, d = int(rng.integers(1, 5)), int(rng.integers(2, 4)), int(rng.integers(1, 3))
        Z = [[ctx.mpf(float(x)) for x in rng.standard_normal(d)] for _ in range(N)]
        P = [[ctx.mpf(float(x)) for x in rng.standard_normal(d)] for _ in range(K)]
        tau = ctx.mpf(float(np.exp(rng.uniform(-1, 1))))

        def losses(P):
            Lq = Fv = 0
            for z in Z:
                dist = [sum((a - b) ** 2 for a, b in zip(z, p)) for p in P]
                q = gibbs_row(dist, tau, ctx.exp)
                Lq += sum(a * b for a, b in zip(q, dist))
                Fv += sample_free_energy(dist, tau, ctx.exp, ctx.log)
            return Lq / N, Fv / N

        for j in range(K):
            for a in range(d):
                Pp = [list(p) for p in P]
                Pm = [list(p) for p in P]
                Pp[j][a] += h
                Pm[j][a] -= h
                (lp, fp), (lm, fm) = losses(Pp), losses(Pm)
                num_l, num_f = (lp - lm) / (2 * h), (fp - fm) / (2 * h)
                gl = gf = 0
                for z in Z:
                    dist = [sum((x - y) ** 2 for x, y in zip(z, p)) for p in P]
                    q = gibbs_row(dist, tau, ctx.exp)
                    w = live_weight_row(q, dist, tau)
                    gl += 2 * w[j] * (P[j][a] - z[a])
                    gf += 2 * q[j] * (P[j][a] - z[a])
                gl, gf = gl / N, gf / N
                s = max(abs(gl), abs(gf), 1)
                L0 = max(abs(x) for x in losses(P))
                scales = max(scales, float(L0 / s))
                # the difference is taken in mpmath: converting each side to float first (as
                # Tally.close does) would hide every discrepancy below float64's 1e-16
                tol = safety * round_off * max(1.0, float(L0 / s))
                for num, ref in ((num_l, gl), (num_f, gf)):
                    diff = num - ref
                    worst = max(worst, float(abs(diff) / s))
                    tally.close(diff, 0, tol, scale=float(s))
    tally.details.update({"h": "1e-20", "achieved relative error": worst, "largest |L| / gradient scale": scales,
                          "tolerance derivation": "10 x 10^-dps max(1, |L| / s) / h per comparison "
                                                  "(rounding of the difference quotient; truncation "
                                                  "h^2 |L^(3)| / 6 ~ 1e-41 is negligible)"})
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- R2: stationary points and the data hull ------------------------------------------------------
def _sym_grad(a: Any, tau: Any, exp: Any) -> Any:
    """d/da of L_q(p = (-a, +a)) / 2 for Z = {-1, +1}, K = 2, via the live-weight formula:
    the gradient of L_q in p_2 = a (the p_1 component is its mirror image)."""
    g = 0
    P = [-a, a]
    for z in (-1, 1):
        dist = [(z - p) ** 2 for p in P]
        q = gibbs_row(dist, tau, exp)
        w = live_weight_row(q, dist, tau)
        g = g + 2 * w[1] * (a - z)
    return g / 2


def full_stationary_outside_hull(*, seed: int, profile: Profile, slack: str = "0") -> Evidence:
    """Statement tested: "every stationary point of full-gradient training lies in the data's hull
    (up to ``slack``)".  Exact regression case Z = {-1, +1}, K = 2, p = (-a, +a): the live gradient
    in a changes sign on [a_lo, a_hi] (decided in arb balls), so a stationary point a* > 1 + slack
    exists (intermediate value theorem); findroot gives its 30 digits."""
    from fractions import Fraction

    import flint

    from verify import statement_of

    st = statement_of("ddcl.dictionary.stationary_hull")
    tally = Tally(precision="arb 256 bits", backend="python-flint arb + mpmath findroot", seeds=(seed,))
    ctx = mp_context(40)
    sl = Fraction(slack)
    for tau, expected in ((1, "1.08461345852286"), (3, "1.04742481713446")):
        root = ctx.findroot(lambda a: _sym_grad(a, ctx.mpf(tau), ctx.exp), ctx.mpf(expected))
        if abs(root - ctx.mpf(expected)) > ctx.mpf(10) ** -14:
            # the product's gradient no longer has the spec's regression root (15 digits): the evidence
            # is void, not a refutation (the claim is expected REFUTED, which would hide the change)
            return Evidence(Verdict.UNKNOWN, notes=f"stationary point {ctx.nstr(root, 20)} at tau = {tau} "
                            f"differs from the regression value {expected}")
        lo = Fraction(str(ctx.nstr(root - ctx.mpf(10) ** -25, 35)))
        hi = Fraction(str(ctx.nstr(root + ctx.mpf(10) ** -25, 35)))
        with arb_precision(256):
            g_lo = _sym_grad(flint.arb(flint.fmpq(lo.numerator, lo.denominator)), flint.arb(tau), lambda x: x.exp())
            g_hi = _sym_grad(flint.arb(flint.fmpq(hi.numerator, hi.denominator)), flint.arb(tau), lambda x: x.exp())
            bracket = (tri_negative(g_lo) is Tri.TRUE and tri_positive(g_hi) is Tri.TRUE) or (
                tri_positive(g_lo) is Tri.TRUE and tri_negative(g_hi) is Tri.TRUE)
        if not bracket:
            tally.add(observe.ball(Tri.UNKNOWN))
            continue
        # the observable: the certified bracket [lo, hi] of a* as a ball (the control slack_1pc presents
        # a* / (1 + slack): "stationary points leave the hull by at most the slack")
        with arb_precision(256):
            a_star = (flint.arb(flint.fmpq(lo.numerator, lo.denominator)).union(
                flint.arb(flint.fmpq(hi.numerator, hi.denominator)))) / flint.arb(flint.fmpq(*(1 + sl).as_integer_ratio()))
            tally.statement(st, {"a^*": a_star}, part="outside_hull", counterexample=lambda: refuted(
                f"full-gradient stationary point a* = {ctx.nstr(root, 30)} > 1 + {slack} at tau = {tau}: "
                f"the prototypes +-a* lie outside the data hull [-1, 1]",
                margin=float(1 + sl - lo), Z=[-1, 1], K=2, tau=tau, mode="full", a_star=ctx.nstr(root, 30),
                certified_bracket=[str(lo), str(hi)], sub_check="outside_hull"))
    return tally.evidence()


_HULL_CLAIMS = ("ddcl.dictionary.stationary_hull_free_energy", "ddcl.dictionary.stationary_hull")


def f_stationary_in_hull(*, seed: int, profile: Profile, mode: str = "stopgrad") -> Evidence:
    """Train prototypes by gradient descent (``mode``: stopgrad = grad F, full = live grad L_q) with
    eta = 0.05 from random starts until the gradient is < 1e-11; then each p_k must lie in the data's
    hull.  For F, ``p_k - sum_i q_ik z_i / n_k = (N / (2 n_k)) grad_{p_k} F`` exactly, so the
    distance to the hull point is bounded by that and compared with a float budget; for a
    1-D dataset the hull is the interval [min z, max z] (checked directly)."""
    from verify import statement_of
    from verify._statement import current_claim

    # the running claim's statement: ddcl.dictionary.stationary_hull (R2 read for full training: its
    # pinned case p = +-a*) or ..._free_energy (whose control full_mode runs this check in full mode)
    cur = current_claim()
    claim = cur[0] if cur is not None and cur[0] in _HULL_CLAIMS else _HULL_CLAIMS[mode == "full"]
    st = statement_of(claim)
    rng = np.random.default_rng(seed)
    tally = Tally(precision="float64", backend="numpy", seeds=(seed,))
    cases = [(np.array([[-1.0], [1.0]]), np.array([[-1e-3], [1e-3]]), 1.0)]
    for _ in range(profile.pick(6, 20, 100)):
        N, K, d = int(rng.integers(2, 30)), int(rng.integers(2, 5)), int(rng.integers(1, 4))
        Z = rng.standard_normal((N, d))
        cases.append((Z, Z[rng.integers(0, N, K)] + 0.1 * rng.standard_normal((K, d)),
                      float(np.exp(rng.uniform(-1.5, 0.5)))))
    for Z, P, tau in cases:
        N = Z.shape[0]
        # grad_detached at gibbs (mode != full) or grad_live_Lq, validated once, the same floats
        grad = descent_gradient(Z, tau, mode, K=P.shape[0], d=P.shape[1])
        for _ in range(20000):
            g = grad(P)
            P = P - 0.05 * g
            if np.abs(g).max() < 1e-11:
                break
        Q = gibbs(Z, P, tau)
        n = Q.sum(0)
        if claim == _HULL_CLAIMS[1]:
            if len(Z) == 2 and Z.ravel().tolist() == [-1.0, 1.0]:  # the claim's domain: Z = {-1, +1}, K = 2
                tally.statement(st, {"a^*": float(np.abs(P).max())}, part="outside_hull",
                                tol=float_tolerance(ops=100, scale=1.0), counterexample=lambda: refuted(
                                    f"{mode}: the limit p = +-{float(np.abs(P).max()):.12g} of gradient descent "
                                    f"lies outside the data hull [-1, 1]", mode=mode, tau=tau, sub_check="outside_hull"))
        elif Z.shape[1] == 1:
            lo, hi = Z.min(), Z.max()
            excess = float(max(0.0, (P.max() - hi), (lo - P.min())))
            tol = float_tolerance(ops=100, scale=float(np.abs(Z).max()))
            tally.statement(st, {"e": excess}, part="in_hull", tol=tol, counterexample=lambda: refuted(
                f"{mode}: stationary prototype outside the data interval by {excess:.6g}",
                margin=-excess, mode=mode, Z=Z.ravel().tolist(), P=P.ravel().tolist(), tau=tau,
                sub_check="in_hull"))
        else:
            # gap_k <= (N / 2 n_k) |grad_k| <= N |grad|_max / (2 min_k n_k)
            hullpt = (Q.T @ Z) / np.maximum(n[:, None], 1e-300)
            tally.statement(st, {"delta": float(np.abs(P - hullpt).max()), "N": float(N),
                                 "n_k": float(max(n.min(), 1e-300)), GRADF: float(np.abs(g).max())},
                            part="hull_point", tol=float_tolerance(ops=10 * N, scale=float(np.abs(Z).max())))
        if tally.counterexample is not None:
            break
    return tally.evidence(level_cap=Verdict.CONSISTENT)
