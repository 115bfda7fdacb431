"""Checks of ``interp.hardmax.exact`` (spec §4.1) and ``interp.softmax.exact`` (spec §4.4).

* :func:`hardmax_exact` -- exact (fmpq): build, every stage's post-condition asserted by running the
  emitted weights, the final set equality ``set(T(X^j)) = set(Y^j)``, the reference evaluator
  (:func:`numerics.attention.self_attention` over Fractions) agreeing token by token, and the invalid
  dataset kinds rejected.  Variants (negative controls): ``perturb_move`` (+1/1000 on one move's D),
  ``skip_separation`` and ``no_collapse`` on the nested chain.
* :func:`hardmax_torch` -- the float64 torch export within 1e-6 of the targets on instances whose
  gadget margin is at least 1e-3 (corroborating; floats are never evidence of exactness).
* :func:`softmax_certificate` -- arb: a certified ``tau_c > 0`` for one fixed set of weights.
* :func:`softmax_grid` -- mpmath at dps and 2 dps on the grid ``tau = 10^(k/2)`` in ``[1e-6, tau_c]``
  refined by ``tau_c`` itself (a coarse grid can jump over tau_c, e.g. tau_c = 0.451 between 0.316 and
  1); records ``tau*_grid`` up to 10 and asserts ``tau_c <= tau*_grid``.  Variants: ``tau_infinity``,
  ``hardmax_network``, ``line_map_residual``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from numerics.strategies import (NESTED_CHAIN, INVALID_KINDS, edge_case_datasets, interpolation_datasets,
                                 invalid_datasets)
from verify import Evidence, Observation, Profile, Tally, Verdict, explore, refuted

from .blocks import FF, Block, run_generic
from .construction import ConstructionError, build_interpolator
from .dataset import Dataset, DatasetError

F = Fraction


def _scratch() -> Tally:
    """A throw-away tally used only to build one Observation (explore records it)."""
    return Tally(precision="", backend="")


def describe(raw: Any) -> dict[str, Any]:
    ins, outs = raw
    return {"inputs": [[[str(v) for v in t] for t in s] for s in ins],
            "outputs": [[[str(v) for v in t] for t in s] for s in outs]}


def _fmt(outs):
    return [[[str(v) for v in t] for t in o] for o in outs]


#: a dataset with some m_j >= 2 for the softmax checks (and control (a))
SOFTMAX_PINNED = (
    NESTED_CHAIN,
    ([[(F(0), F(1)), (F(1), F(0)), (F(1), F(1))], [(F(1), F(0)), (F(2), F(2))]],
     [[(F(3), F(-1)), (F(-2), F(2))], [(F(4), F(4))]]),
)


def hardmax_exact(*, seed: int, profile: Profile, variant: str | None = None,
                  separation: str = "bondy", collapse: str = "identity") -> Evidence:
    """Exact interpolation by the hardmax construction, with every post-condition asserted exactly."""
    tally = Tally(precision="exact", backend="python-flint fmpq (+ Fraction reference)", seeds=(seed,))
    stats = {"instances": 0, "max_tokens": 0, "reference_checked": 0, "max_den_bits": 0}

    def body(raw) -> Observation:
        D = Dataset(*raw)
        try:
            model = build_interpolator(D, "hardmax", separation=separation, seed=seed, collapse=collapse,
                                       _variant=variant)
        except ConstructionError as e:
            return _scratch().exact(False, counterexample=refuted(f"post-condition failed: {e}", variant=variant))
        outs = model.evaluate_dataset()
        stats["instances"] += 1
        stats["max_tokens"] = max(stats["max_tokens"], D.num_tokens)
        stats["max_den_bits"] = max(stats["max_den_bits"], model.max_denominator_bits())
        for j, (o, y) in enumerate(zip(outs, D.outputs)):
            if set(o) != set(y):
                return _scratch().exact(False, counterexample=refuted(
                    f"sequence {j}: output set differs from the targets", sequence=j, outputs=_fmt([o]),
                    variant=variant))
        if D.num_tokens <= 40:  # independent reference evaluator (numerics.attention, Fractions)
            stats["reference_checked"] += 1
            for j, x in enumerate(D.inputs):
                ref = run_generic(model.blocks, x, "fraction")
                fast = [tuple(F(int(v.p), int(v.q)) if hasattr(v, "p") else F(v) for v in t) for t in outs[j]]
                if ref != fast:
                    return _scratch().exact(False, counterexample=refuted(
                        f"reference and fast exact evaluators disagree on sequence {j}",
                        reference=_fmt([ref]), fast=_fmt([fast])))
        return _scratch().exact(True, margin=model.gadget_margin())

    if variant in ("skip_separation", "no_collapse"):
        examples, n = [NESTED_CHAIN], 0
    else:
        examples, n = edge_case_datasets(), profile.pick(20, 60, 300)
    explore(interpolation_datasets(), body, tally, seed=seed, max_examples=n, examples=examples,
            describe=describe)
    if variant is None:  # invalid datasets of every kind are rejected by the validation
        for kind in INVALID_KINDS:
            rejected = [0]

            def inv(raw, kind=kind) -> Observation:
                try:
                    Dataset(*raw)
                except DatasetError:
                    rejected[0] += 1
                    return Observation(Verdict.CERTIFIED)
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    f"an invalid dataset of kind {kind} was accepted", kind=kind))

            explore(invalid_datasets(kind), inv, tally, seed=seed, max_examples=profile.pick(3, 10, 50),
                    describe=describe)
        stats["invalid_kinds"] = list(INVALID_KINDS)
    tally.details.update(stats)
    return tally.evidence()


def hardmax_torch(*, seed: int, profile: Profile) -> Evidence:
    """torch float64 export within 1e-6 of the targets where the gadget margin is >= 1e-3."""
    import torch

    from .torch_export import pad_batch

    tally = Tally(precision="float64", backend=f"torch {torch.__version__}", tolerance=1e-6, seeds=(seed,))
    skipped = [0]

    def body(raw) -> Observation:
        D = Dataset(*raw)
        model = build_interpolator(D, "hardmax", separation="mean", seed=seed)
        if model.gadget_margin() < 1e-3:
            skipped[0] += 1
            from verify import reject

            reject()
        tm = model.to_torch()
        X, mask = pad_batch(D.inputs)
        with torch.no_grad():
            Y = tm(X, mask)
        worst = 0.0
        for j, y in enumerate(D.outputs):
            T = torch.tensor([[float(v) for v in t] for t in y], dtype=torch.float64)
            out = Y[j, :len(D.inputs[j])]
            dist = torch.cdist(out, T)
            worst = max(worst, float(dist.min(dim=1).values.max()), float(dist.min(dim=0).values.max()))
        return _scratch().close(worst, 0.0, 1e-6)

    explore(interpolation_datasets(), body, tally, seed=seed, max_examples=profile.pick(8, 30, 200),
            examples=edge_case_datasets(), describe=describe)
    tally.details["skipped_small_margin"] = skipped[0]
    return tally.evidence(level_cap=Verdict.CONSISTENT)


def _block_budget(blk, X, d: int) -> float:
    """Forward float64 error budget of one exported block (FF then SA) on the exact inputs ``X``: the
    inputs and weights are rounded once (relative 2^-53) and every output coordinate is a sum of at most
    d + 4 products per neuron, so with ``s_FF = max_x (|eta| |x| + sum_k |W_k| (|U_k|_1 |x| + |b_k|))``
    (infinity norms) the FF error is ``float_tolerance(d + 4, scale=s_FF)`` (safety factor 8); the SA mixes
    n values with rho and lam: ``(|rho| + |lam|) e_FF + float_tolerance(n + 2, scale=(|rho| + |lam|) h)``,
    h = max |FF output|.  Valid when every hardmax row's exact score gap exceeds the float score error
    (checked by the caller)."""
    from numerics.precision import float_tolerance

    from .construction import _as_fraction as fr

    ff, sa = blk.ff, blk.sa
    xm = max(float(max(abs(fr(v)) for v in x)) for x in X)
    s_ff = abs(float(fr(ff.eta))) * xm + sum(
        float(max(abs(fr(w)) for w in W)) * (float(sum(abs(fr(u)) for u in U)) * xm + abs(float(fr(bb))))
        for U, bb, W in zip(ff.U, ff.b, ff.W))
    e_ff = float_tolerance(d + 4, scale=max(s_ff, xm))
    rl = abs(float(fr(sa.rho))) + abs(float(fr(sa.lam)))
    return rl * e_ff + float_tolerance(len(X) + 2, scale=rl * max(s_ff, xm)) + e_ff


def torch_blockwise(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """The float64 torch export block by block, against the exact reference on the exact hardmax
    trajectory, within the derived budget :func:`_block_budget` (recorded with the achieved error).

    Covers what :func:`hardmax_torch` (mean separation only) never reaches: the rank-one factor scores of
    the Bondy separation, the alpha I collapse, the non-residual line map and the snap moves (softmax
    constructions, run here with the float hardmax kernel on their exact hardmax trajectory).  Blocks whose
    exact score gaps are not far above the float score error are skipped (counted).  Variant
    ``transpose_factors`` (control): the exported factors swapped (p <-> q), i.e. A^T exported."""
    import torch

    from numerics.attention import scores

    from .blocks import SA, block_apply
    from .construction import _as_fraction as fr
    from .torch_export import TorchInterpolator
    from numerics.precision import float_tolerance

    import random

    from ._checks_necessary import random_network
    from .construction import InterpolatingTransformer

    tally = Tally(precision="float64 (budget per block)", backend=f"torch {torch.__version__}", seeds=(seed,))
    worst_ratio, skipped, blocks_checked = [0.0], [0], [0]
    runs = []  # (label, blocks, d, input sequence)
    for raw in SOFTMAX_PINNED:
        D = Dataset(*raw)
        model = build_interpolator(D, "softmax", seed=seed)
        runs += [(f"softmax construction, sequence {j}", model.blocks, D.d, x) for j, x in enumerate(D.inputs)]
    # a pinned near-tie: A = I on (1, 0), (1 - 2^-30, 0): both rows pick (1, 0) with gap ~2^-30, far above the
    # float score error (~1e-14) and far below a careless tie window
    from numerics.attention import AttentionMatrix

    runs.append(("near tie, gap 2^-30", [Block(FF(F(1)), SA(F(0), F(1), AttentionMatrix(alpha=F(1))), "A = I")], 2,
                 [(F(1), F(0)), (1 - F(1, 2 ** 30), F(0))]))
    rng = random.Random(seed)
    for k in range(profile.pick(12, 40, 200)):  # random networks: non-symmetric factors, alpha, eta in {0, 1}
        d = rng.randint(2, 3)
        X = [tuple(F(rng.randint(-8, 8), rng.choice([1, 2, 4])) for _ in range(d)) for _ in range(rng.randint(2, 5))]
        runs.append((f"random network {k}", random_network(rng, d), d, X))
    for label, blocks, d, x in runs:
        traj = run_generic(blocks, x, "fraction", trajectory=True)
        for bi, blk in enumerate(blocks):
            X, Y = traj[bi], traj[bi + 1]
            A = blk.sa.A
            if A is not None and blk.sa.lam != 0:
                H = block_apply(type(blk)(blk.ff, SA(1, 0)), X, "fraction")
                S = scores(H, A, "fraction")
                hm = max(float(max(abs(fr(v)) for v in h)) for h in H)
                s_err = float_tolerance(4 * d * (A.rank + 1), scale=(abs(float(fr(A.alpha))) + sum(
                    float(sum(abs(fr(v)) for v in p_)) * float(sum(abs(fr(v)) for v in q_))
                    for p_, q_ in A.factors)) * max(hm, 1.0) ** 2)
                gaps = [max(r) - max([v for v in r if v != max(r)], default=max(r) - 1) for r in S]
                if min(float(g) for g in gaps) < 1e3 * s_err:  # a near-tie: float hardmax may differ
                    skipped[0] += 1
                    continue
            eb = blk
            if variant == "transpose_factors" and A is not None and A.factors:
                eb = type(blk)(blk.ff, SA(blk.sa.rho, blk.sa.lam, AttentionMatrix(
                    alpha=A.alpha, factors=tuple((q_, p_) for p_, q_ in A.factors))), blk.label, blk.stage)
            tm = TorchInterpolator(InterpolatingTransformer([eb], d, "hardmax", None, 0, "bondy"))
            with torch.no_grad():
                out = tm(torch.tensor([[float(fr(v)) for v in t] for t in X], dtype=torch.float64))
            err = max(abs(o - float(fr(v))) for ot, yt in zip(out.tolist(), Y) for o, v in zip(ot, yt))
            tol = _block_budget(blk, X, d)
            blocks_checked[0] += 1
            worst_ratio[0] = max(worst_ratio[0], err / tol)
            if not err <= tol:
                tally.add(Observation(Verdict.REFUTED, error=err, counterexample=refuted(
                    f"{label}, block {bi} ({blk.label}): torch export off the exact output by {err:.3g} > "
                    f"budget {tol:.3g}", block=bi, label=blk.label, error=err, budget=tol, variant=variant)))
                return tally.evidence()
            tally.add(Observation(Verdict.CONSISTENT, error=err, margin=tol - err))
    tally.details.update(blocks_checked=blocks_checked[0], skipped_near_ties=skipped[0],
                         worst_error_over_budget=worst_ratio[0])
    return tally.evidence(level_cap=Verdict.CONSISTENT)


# -- softmax ------------------------------------------------------------------------------------------
def _softmax_instances(profile: Profile):
    return interpolation_datasets(d_min=2, d_max=3, N_max=3, n_max=4)


def softmax_certificate(*, seed: int, profile: Profile) -> Evidence:
    """A certified tau_c > 0 (arb) for the one fixed set of softmax weights of every instance."""
    from .softmax import certify

    tally = Tally(precision="arb 256 bits", backend="python-flint arb", seeds=(seed,))
    taus = []

    def body(raw) -> Observation:
        D = Dataset(*raw)
        model = build_interpolator(D, "softmax", seed=seed)
        cert = certify(model)
        if not cert.certified:
            return Observation(Verdict.UNKNOWN)
        taus.append(cert.tau_c)
        return Observation(Verdict.CERTIFIED, margin=cert.tau_c)

    explore(_softmax_instances(profile), body, tally, seed=seed, max_examples=profile.pick(0, 6, 20),
            examples=SOFTMAX_PINNED, describe=describe)
    tally.details["tau_c"] = taus
    return tally.evidence()


def _grid(lo_exp2: int = -12, hi_exp2: int = 2) -> list[Fraction]:
    """tau = 10^(k/2), k = lo..hi, as exact rationals (10^(k/2) rounded to 6 significant digits)."""
    return [F(f"{10 ** (k / 2):.6g}") for k in range(lo_exp2, hi_exp2 + 1)]


#: control ``tiny_offset``: one snap target moved by this much; exact at precision p must see it for
#: every p used here (10^-(p-12) <= 10^-38 at p = 50), so a loosened exactness tolerance cannot pass
TINY = F(1, 10 ** 20)


def _resnapped(model, variant: str):
    """The softmax blocks with one snap move re-aimed (construction's own gadget :func:`_snap` with the
    block's kinks): ``merged_targets`` sends slot 1 of the first sequence with m_j >= 2 onto that
    sequence's target 0 (every output is then on a target, but a target is missed: only the
    target-to-output side of the Hausdorff distance sees it); ``tiny_offset`` moves the target of the
    first snap move by TINY in its first coordinate."""
    from .construction import _as_fraction, _snap

    D = model.dataset
    e = tuple(_as_fraction(v) for v in model.stats["line"]["e"])
    snaps = [i for i, b in enumerate(model.blocks) if b.stage == "I"]
    k = 0
    for j, y in enumerate(D.outputs):
        if variant == "merged_targets" and len(y) >= 2:
            idx, target = snaps[k + 1], y[0]
            break
        if variant == "tiny_offset":
            idx, target = snaps[0], (_as_fraction(y[0][0]) + TINY,) + tuple(y[0][1:])
            break
        k += len(y)
    else:
        return None
    blk = model.blocks[idx]
    kinks = tuple(-_as_fraction(v) for v in blk.ff.b)
    U, b, W = _snap(e, kinks, tuple(_as_fraction(v) for v in target), F)
    blocks = list(model.blocks)
    blocks[idx] = Block(FF(1, tuple(U), tuple(b), tuple(W)), blk.sa, label=f"{blk.label} ({variant})", stage="I")
    return blocks


def softmax_grid(*, seed: int, profile: Profile, variant: str | None = None) -> Evidence:
    """High-precision exactness on the tau grid below tau_c (dps and 2 dps); tau*_grid recorded."""
    from .softmax import certify, exact_at

    dps = profile.pick(50, 50, 60)
    tally = Tally(precision=f"dps={dps} and {2 * dps}", backend="mpmath", tolerance=10.0 ** -(dps - 12),
                  seeds=(seed,))
    records = []

    def body(raw) -> Observation:
        D = Dataset(*raw)
        model = build_interpolator(D, "softmax", seed=seed)
        cert = certify(model)
        if not cert.certified:
            return Observation(Verdict.UNKNOWN)
        # the grid is refined by tau_c itself: a coarse grid may jump over tau_c (reading of §4.4)
        grid = sorted(set(_grid()) | {F(cert.tau_c)})
        # tau*_grid: the largest grid tau at which it and every smaller grid value are exact
        tstar = None
        for t in grid:
            ok, dev = exact_at(model, t, dps)
            if not ok:
                break
            tstar = t
        rec = {"tau_c": cert.tau_c, "tau_star_grid": str(tstar)}
        records.append(rec)
        if variant is None:
            for t in [t for t in grid if t <= F(cert.tau_c)]:
                for p in (dps, 2 * dps):
                    ok, dev = exact_at(model, t, p)
                    if not ok:
                        return Observation(Verdict.REFUTED, error=dev, counterexample=refuted(
                            f"not exact at tau = {t} <= tau_c = {cert.tau_c} (dps {p}): d_H = {dev:.3g}",
                            tau=str(t), dps=p, deviation=dev))
            if tstar is None or F(cert.tau_c) > tstar:
                return Observation(Verdict.REFUTED, counterexample=refuted(
                    f"tau_c = {cert.tau_c} exceeds tau*_grid = {tstar}", **rec))
            return Observation(Verdict.CONSISTENT, margin=float(tstar) / cert.tau_c)
        if variant == "tau_infinity":
            # tau = 10^3 max |score| over the hardmax trajectory: near-uniform attention
            from .softmax import _summaries

            smax = F(1)
            for stp in _summaries(model):
                if stp.kind == "sa_attn":
                    B2 = stp.data[3]
                    smax = max(smax, F(int(B2.p), int(B2.q)) if hasattr(B2, "p") else F(B2))
            t = 1000 * smax
            blocks = model.blocks
        elif variant == "hardmax_network":
            hm = build_interpolator(D, "hardmax", seed=seed)
            t, blocks = tstar or _grid()[0], hm.blocks
        elif variant == "line_map_residual":
            i = model.line_map_index
            lm = model.blocks[i]
            blocks = list(model.blocks)
            blocks[i] = Block(FF(1, lm.ff.U, lm.ff.b, lm.ff.W), lm.sa, label="line map with eta = 1", stage="line")
            t = tstar or _grid()[0]
        elif variant in ("merged_targets", "tiny_offset"):
            blocks = _resnapped(model, variant)
            if blocks is None:  # no sequence with m_j >= 2 (merged_targets needs one)
                return Observation(Verdict.UNKNOWN)
            t = F(cert.tau_c)
        else:
            raise ValueError(f"unknown variant {variant!r}")
        ok, dev = exact_at(model, t, dps, blocks=blocks)
        if ok:
            return Observation(Verdict.CONSISTENT, error=dev)
        return Observation(Verdict.REFUTED, error=dev, counterexample=refuted(
            f"variant {variant}: not exact at tau = {t}: d_H = {dev:.3g}", tau=str(t), deviation=dev,
            variant=variant))

    examples = SOFTMAX_PINNED if variant != "tau_infinity" else SOFTMAX_PINNED[1:]
    explore(_softmax_instances(profile), body, tally, seed=seed,
            max_examples=profile.pick(0, 4, 20) if variant is None else 0,
            examples=examples, describe=describe)
    tally.details["records"] = records
    return tally.evidence(level_cap=Verdict.CONSISTENT)
