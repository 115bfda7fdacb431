"""Soundness *and* sharpness of the softmax certificate ``tau_c`` (``interp.softmax.exact``, spec §3.5, §4.4).

On the construction's instances the recursion of :func:`.softmax.certify` is very loose (Lipschitz products
of the hats), so the grid check only sees ``tau_c <= tau*_grid``: a certificate that lost a factor (the
n_j - 1 keys of the attention leak, the snap's acceptance radius gamma) would still pass.  Here small
witness networks make the recursion tight, so a loosened certificate is caught by the network itself:

* block 1: an FF sends x* = (1, 0, 0) to (1, 1, 0) and the k other inputs (0, 0, i) all to (0, 1, 0);
  a rank-one SA (p = e1, q = e2, rho = 0, lam = 1) gives every row the maximiser x*, gap 1, and k keys at
  distance 1, so the softmax leak is k e^{-1/tau} / (1 + k e^{-1/tau}) while the recursion bounds it by
  r = k e^{-1/tau} (tight as tau -> 0);
* block 2: the line map x -> relu(e1 . x) e1 (slot coordinate 1), block 3: the snap move of gamma onto the
  target y = (5, 5, 0), exact exactly on [1 - gamma, 1 + gamma].

So the network is exact iff k e^{-1/tau} / (1 + k e^{-1/tau}) <= gamma, i.e. tau <= tau_true =
1/ln(k (1 - gamma)/gamma), while the recursion certifies tau_cert = 1/ln(k/gamma) < tau_true;
:func:`certify` returns a 3-digit decimal in [0.8 tau_cert, tau_cert].  The check asserts, through the
product's :func:`certify` and :func:`exact_at`:

* soundness: exact (dps and 2 dps) at tau_c and tau_c/10;
* sharpness: NOT exact at FACTOR * tau_c, FACTOR = 2 >= tau_true / (0.8 tau_cert) (= 1.58 at k = 1,
  gamma = 1/4; 1.42 at k = 3), so a certificate more than a factor 2 below the truth is flagged too.

The witnesses (k, gamma) = (1, 1/4) and (3, 1/4) separate a doubled acceptance radius (tau_cert' = 1/ln 2 >
tau_true = 1/ln 3 at k = 1) and a dropped key count (1/ln(1/gamma) > 1/ln(9) at k = 3).  Control
``gamma_doubled``: the same networks with the line map declared to accept 2 gamma; soundness fails.
"""

from __future__ import annotations

from fractions import Fraction

from verify import Evidence, Observation, Profile, Tally, Verdict, refuted

from numerics.attention import AttentionMatrix

from .blocks import FF, SA, Block
from .construction import InterpolatingTransformer, _snap
from .dataset import Dataset

F = Fraction
FACTOR = 2
WITNESSES = ((1, F(1, 4)), (3, F(1, 4)))
TARGET = (F(5), F(5), F(0))


def witness_network(k: int, gamma: Fraction, declared_gamma: Fraction | None = None) -> InterpolatingTransformer:
    """The three-block witness of the module docstring (k keys below the maximiser, snap radius gamma)."""
    e1, e2, zero = (F(1), F(0), F(0)), (F(0), F(1), F(0)), (F(0), F(0), F(0))
    inputs = [(F(1), F(0), F(0))] + [(F(0), F(0), F(i)) for i in range(1, k + 1)]
    y = TARGET
    ff0 = FF(F(0), (e1, zero), (F(0), F(1)), (e1, e2))
    sa1 = SA(F(0), F(1), AttentionMatrix(factors=((e1, e2),)))
    line = FF(F(0), (e1,), (F(0),), (e1,))
    s = F(1)
    U, b, W = _snap(e1, (s - 2 * gamma, s - gamma, s + gamma, s + 2 * gamma), y, F)
    blocks = [Block(ff0, sa1, label="witness: collapse k keys + rank-one attention", stage="S"),
              Block(line, SA(F(1), F(0)), label="line map", stage="line"),
              Block(FF(F(1), tuple(U), tuple(b), tuple(W)), SA(F(1), F(0)), label="snap", stage="I")]
    D = Dataset([inputs], [[y]])
    g = gamma if declared_gamma is None else declared_gamma
    return InterpolatingTransformer(blocks, 3, "softmax", D, 0, "bondy", 1,
                                    {"line": dict(u=e1, m0=F(0), e=e1, gamma=g)}, "fraction", 1)


def certificate_witness(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """Soundness at tau_c and tau_c/10, sharpness at FACTOR tau_c, on the witness networks."""
    from .softmax import certify, exact_at

    dps = profile.pick(50, 50, 60)
    tally = Tally(precision=f"arb certificate; mpmath dps={dps} and {2 * dps}", backend="python-flint, mpmath",
                  tolerance=10.0 ** -(dps - 12), seeds=(seed,))
    recs = []
    for k, gamma in WITNESSES:
        m = witness_network(k, gamma, 2 * gamma if variant == "gamma_doubled" else None)
        if m(m.dataset.inputs[0], kernel="hardmax") != [TARGET] * (k + 1):
            tally.exact(False, counterexample=refuted("the witness network is not exact under hardmax", k=k,
                                                              sub_check="hardmax_exact"))
            return tally.evidence()
        cert = certify(m)
        if not cert.certified:
            tally.add(Observation(Verdict.UNKNOWN))
            continue
        tc = F(cert.tau_c)
        rec = {"k": k, "gamma": str(gamma), "tau_c": cert.tau_c}
        for t in (tc, tc / 10):
            for p in (dps, 2 * dps):
                ok, dev = exact_at(m, t, p)
                if not ok:
                    tally.add(Observation(Verdict.REFUTED, error=dev, counterexample=refuted(
                        f"unsound certificate: witness k = {k}, gamma = {gamma} is not exact at tau = {t} <= "
                        f"tau_c = {cert.tau_c} (dps {p}): d_H = {dev:.3g}", k=k, gamma=str(gamma), tau=str(t),
                        tau_c=cert.tau_c, deviation=dev, variant=variant, sub_check="soundness")))
                    return tally.evidence()
        ok, dev = exact_at(m, FACTOR * tc, dps)
        rec["deviation_at_factor_tau_c"] = dev
        recs.append(rec)
        if ok:
            tally.add(Observation(Verdict.REFUTED, error=dev, counterexample=refuted(
                f"certificate not sharp: witness k = {k} still exact at {FACTOR} tau_c = {float(FACTOR * tc):.4g}",
                k=k, tau_c=cert.tau_c, sub_check="sharpness")))
            return tally.evidence()
        tally.add(Observation(Verdict.CONSISTENT, error=0.0))
    tally.details.update(witnesses=recs, factor=FACTOR)
    return tally.evidence(level_cap=Verdict.CONSISTENT)
