"""Focus-dilution model checks read off the spectrum of -Hessian of a user's population loss (issue 12; spec
§2.4, §4.4, §4.6-4.7, §4.14): at the origin (focus.stage1.origin_spectrum), at the saddle theta_c^1
(focus.stage2.saddle_eigenstructure) and at the degenerate point theta2_delta of F5
(focus.stage4.transverse_mode).  Hessians by ``torch.func.hessian`` of the user's
``population_loss(pi, P, W0, W1, WQ, WK)`` (the protocol of :mod:`.models`), float64.

At theta_c1 the check evaluates ``focus.stage2.saddle_eigenstructure``: parts ``spectrum`` -- exactly m_k
positive and d - 1 + m_k negative eigenvalues of J = -Hessian -- and ``c_formula`` -- the attention entry c_H
of J is (s_c^2/n_2) K_1 K_2, with s_c^2, n_2, K_1, K_2 from :func:`.population.reference_quantities`.  An
eigenvalue counts as nonzero beyond ``8 n eps(dtype) max|H|`` (n parameters); c_H is compared within
``8 n eps max|H|``.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any

from verify import Evidence, Profile, Tally, statement_of

from .markov_model import one_thread

__all__ = ["one_thread", "origin_spectrum", "saddle_eigenstructure", "transverse_mode"]

SAFETY = 8
M = MK = 2


def _chains(profile: Profile) -> list[Any]:
    from numerics.markov import MarkovChain

    lams = profile.pick((Fraction(1, 2),), (Fraction(1, 3), Fraction(1, 2)),
                        (Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(4, 5)))
    return [MarkovChain.lazy(["3/5", "1/4", "3/20"], lam) for lam in lams]


def _jacobian(model: Any, ch: Any, theta: Any, m: int = M, mk: int = MK) -> tuple[Any, Any, float]:
    """(J, its eigenvalues, the threshold below which an eigenvalue counts as zero): J = -Hessian of the
    user's population loss at ``theta`` (torch.func; hidden width m, key width mk), symmetrised; threshold
    8 n eps max(1, max|J|)."""
    import torch
    from torch.func import hessian

    from .flow import Shapes, unpack

    sh = Shapes(ch.d, m, mk)
    pi = torch.tensor(ch.pi, dtype=torch.float64)
    P = torch.tensor(ch.P, dtype=torch.float64)

    def loss(t: Any) -> Any:
        W0, W1, WQ, WK = unpack(t, sh)
        return model.population_loss(pi, P, W0, W1, WQ, WK)

    with warnings.catch_warnings():  # torch.func's forward mode scripts a helper on first use
        warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated",
                                category=DeprecationWarning)
        with one_thread():
            H = hessian(loss)(torch.as_tensor(theta, dtype=torch.float64))
    J = -(H + H.T) / 2
    thr = SAFETY * J.shape[0] * float(torch.finfo(torch.float64).eps) * max(float(J.abs().max()), 1.0)
    return J, torch.linalg.eigvalsh(J), thr


def origin_spectrum(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage1.origin_spectrum on the user's loss: at theta = 0, J = -Hessian has m eigenvalues +mu0,
    m eigenvalues -mu0 and 2dm + 2m m_k - 2m zeros (part ``charpoly``), with mu0^2 = |pi|^2 |v|^2, v = pi -
    1/d (part ``eigenvalue``; mu0 the largest eigenvalue of the user's J)."""
    import numpy as np

    from .flow import Shapes

    st = statement_of("focus.stage1.origin_spectrum")
    tally = Tally(precision="float64 (user model, torch.func.hessian)", backend="torch.func", seeds=(seed,))
    for ch in _chains(profile):
        d = ch.d
        J, ev, thr = _jacobian(model, ch, np.zeros(Shapes(d, M, MK).size))
        pi = np.asarray(ch.pi, dtype=float)
        inst = {"chain": ch.P.tolist()}
        tally.statement(st, {"n_+": int((ev > thr).sum()), "n_-": int((ev < -thr).sum()),
                             "n_0": int((ev.abs() <= thr).sum()), "m": M, "m_k": MK, "d": d,
                             "instance": inst}, part="charpoly")
        top = float(ev.max())
        tally.statement(st, {"mu_0^2": top * top, r"\|\pi\|^2": float(pi @ pi),
                             r"\|v\|^2": float(((pi - 1 / d) ** 2).sum()), "instance": inst},
                        part="eigenvalue", tol=2 * thr * max(1.0, top))
    tally.details.update(safety=SAFETY, tolerance_rule="8 n eps max(1, max|J|), n parameters")
    return tally.evidence()


def saddle_eigenstructure(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage2.saddle_eigenstructure on the user's loss (module docstring)."""
    from .flow import theta_c1
    from .population import reference_quantities

    st = statement_of("focus.stage2.saddle_eigenstructure")
    tally = Tally(precision="float64 (user model, torch.func.hessian)", backend="torch.func", seeds=(seed,))
    for ch in _chains(profile):
        d = ch.d
        J, ev, thr = _jacobian(model, ch, theta_c1(ch, M, MK))
        # the attention entry: W_Q[0, 0] against W_K[0, 0] in the packed order (W0, W1, WQ, WK)
        iq = d * M + M * d
        ik = iq + M * MK
        ref = reference_quantities(ch, dps=30)
        inst = {"chain": str(ch.name or ch.P.tolist()), "lambda": "pinned F1 family"}
        tally.statement(st, {"n_{J>0}": int((ev > thr).sum()), "n_{J<0}": int((ev < -thr).sum()),
                             "m_k": MK, "d": d, "instance": inst}, part="spectrum")
        tally.statement(st, {"c_H": float(J[iq, ik]), "s_c^2": float(ref.sc2), "n_2": float(ref.n2),
                             "K_1": float(ref.K1), "K_2": float(ref.K2), "instance": inst},
                        part="c_formula", tol=thr)
    tally.details.update(safety=SAFETY, tolerance_rule="8 n eps max(1, max|J|), n parameters")
    return tally.evidence()


#: F5 (spec §4.14): F4 (d = 5, pi = (3/5, 1/10 x 4), lam = 1/2) with rare masses 1/10 + delta c
F5_D, F5_PI1, F5_LAM, F5_C, F5_DELTA = 5, Fraction(3, 5), Fraction(1, 2), \
    (Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(-1, 2)), Fraction(1, 1000)


def transverse_mode(model: Any, *, seed: int, profile: Profile) -> Evidence:
    """focus.stage4.transverse_mode on the user's loss, parts ``top_vs_sigma`` and ``transverse`` (spec
    §4.14): at the product's 30-digit critical point theta2_delta of F5 (delta = 1/1000,
    :func:`.critical_points.perturbed_point`) embedded with m = 2, m_k = 1 (W0 = gamma e1^T, W1 = e1 beta^T,
    W_Q = W_K = sqrt(kappa) e1), the top eigenvalue of J = -Hessian of the user's loss (torch.func) equals
    sigma_max(G_M) of the point (mpmath SVD), and its eigenvector lies in the transverse block (the second
    hidden direction) with weight >= 0.999.  Budget of the eigenvalue: n max|Delta J_ij| with the entrywise
    float_tolerance(64 d, max|J|) (Weyl) + eigh's float_tolerance(n, ||J||_2) + tolerance_for(30)."""
    import numpy as np

    from numerics.markov import perturbed_rare
    from numerics.precision import float_tolerance, tolerance_for

    from ._working import polish_precision
    from .critical_points import perturbed_point
    from .flow import Shapes, pack

    st = statement_of("focus.stage4.transverse_mode")
    tally = Tally(precision=f"float64 (user model, torch.func.hessian) + {polish_precision(30)}",
                  backend="torch.func",
                  seeds=(seed,))
    d, m, mk = F5_D, 2, 1
    pt = perturbed_point(d, F5_PI1, F5_LAM, F5_C, F5_DELTA, dps=30)
    ch = perturbed_rare(d, F5_PI1, F5_LAM, F5_C, F5_DELTA)
    ctx = pt.ctx
    sig = float(max(ctx.svd_r(ctx.matrix([[x for x in r] for r in pt.GM]), compute_uv=False)))
    W0, W1, WQ, WK = np.zeros((d, m)), np.zeros((m, d)), np.zeros((m, mk)), np.zeros((m, mk))
    W0[:, 0] = [float(x) for x in pt.gamma]
    W1[0] = [float(x) for x in pt.beta]
    WQ[0, 0] = WK[0, 0] = float(ctx.sqrt(pt.kappa))
    J, _, _ = _jacobian(model, ch, pack(W0, W1, WQ, WK), m, mk)
    J = J.numpy()
    w, V = np.linalg.eigh(J)
    top, vec = float(w[-1]), V[:, -1]
    sh = Shapes(d, m, mk)
    mask = np.zeros(sh.size, dtype=bool)  # the second hidden direction: W0[:, 1], W1[1], W_Q[1], W_K[1]
    mask[[i * m + 1 for i in range(d)]] = True
    mask[[d * m + d + k for k in range(d)]] = True
    mask[[2 * d * m + mk, 2 * d * m + m * mk + mk]] = True
    trans = float(np.linalg.norm(vec[mask]))
    n = J.shape[0]
    tol = n * float_tolerance(64 * d, scale=float(np.abs(J).max())) \
        + float_tolerance(n, scale=float(np.linalg.norm(J, 2))) + tolerance_for(30)
    inst = {"chain": "F5", "delta": str(F5_DELTA), "c": [str(c) for c in F5_C], "m": m, "m_k": mk}
    tally.statement(st, {"lambda_top": top, "sigma_max": sig, "instance": inst}, part="top_vs_sigma", tol=tol)
    tally.statement(st, {"w_perp": trans, "instance": inst}, part="transverse", tol=0.0)
    tally.details.update(sigma_max_GM=sig, top_full=top, transverse_weight=trans, top_vs_sigma_tolerance=tol,
                         tolerance_rule="n float_tolerance(64 d, max|J|) + float_tolerance(n, |J|_2) "
                                        "+ tolerance_for(30)")
    return tally.evidence()
