"""The batched per-head temperature simulation (``_temperature_sim``) is the per-seed loop it replaced.

* Every seed's output (final tau_h, H/log K, largest rise/fall per step, trajectories, tau_c, probe
  agreement) equals, bit for bit, the reference loop below -- the earlier implementation: one seed at
  a time, arrays (heads, N, K), numpy's reductions over the prototype and sample axes (the prototype
  gradient's sample sums pairwise per row, as the batch takes them).  The batched code sums in the
  loop's orders (module docstring), so equality is exact, not within a tolerance.
* A seed's numbers do not depend on the batch it runs in (so sharded seed blocks merge to the
  unsharded evidence).
* Bad arguments raise InputError.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.errors import InputError
from theorems.ddcl_incrt._temperature_sim import (
    _exp,
    _log,
    _product_agreement,
    simulate_heads,
    simulate_heads_batch,
)
from theorems.ddcl_incrt.dictionary import (
    gibbs,
    grad_detached,
    grad_live_Lq,
    math_inv_softplus,
    sample_tau_derivatives,
    sqdist_matrix,
)
from theorems.ddcl_incrt.hessian import critical_temperature

LAMS = [0.05, 0.2, 0.3, 1.0]


def _reference(lams, *, mode, drive, steps, seed, K=4, N=512, tau0=1.0, tau_min=1e-3, eta_p=0.1, eta_s=0.05,
               record_every=0):
    """The per-seed loop of the earlier ``_checks_temperature.simulate_heads`` (layout (heads, N, K)),
    with the sums over the samples in the prototype gradient taken pairwise over each (head, prototype)
    row and, for the F drive, sum_k q log q as sum_k q L_k - log r, as the batched step does (the
    earlier loop summed the samples i = 0, 1, ... in order and took a log of every q)."""
    def assign(Z, P, tau, exponents=None):
        D = (Z[:, :, None] - P[:, None, :]) ** 2
        L = -D / tau[:, None, None]
        L -= L.max(2, keepdims=True)
        if exponents is not None:
            exponents.append(L.copy())
        Q = _exp(L)  # the step's exp and log (torch's, entrywise): the loop differs in layout and order only
        r = Q.sum(2, keepdims=True)
        if exponents is not None:
            exponents.append(r[:, :, 0])
        Q /= r
        return D, Q

    def qlogq(Q):
        return np.where(Q > 0, Q * _log(np.where(Q > 0, Q, 1)), 0)

    def grads(Z, P, tau):
        kept = []
        D, Q = assign(Z, P, tau, kept)
        ell = (Q * D).sum(2, keepdims=True)
        W = Q * (1 - (D - ell) / tau[:, None, None]) if mode == "full" else Q
        Wt = np.ascontiguousarray(W.transpose(0, 2, 1))  # (heads, K, N): pairwise sums over each row
        gP = (2.0 / Z.shape[1]) * (Wt.sum(2) * P - (Wt * Z[:, None, :]).sum(2))
        if drive == "L_q":
            gt = ((Q * (D - ell) ** 2).sum(2)).mean(1) / tau ** 2
        else:  # sum_k q log q as sum_k q L_k - log r, as the batched step takes it
            L, r = kept
            gt = ((Q * L).sum(2) - _log(r)).mean(1)
        return gP, gt

    def ent(D, Q):
        return -qlogq(Q).sum(2).mean(1) / math.log(K)

    rng = np.random.default_rng(seed)
    lam = np.asarray(lams, float)
    Hh = len(lam)
    X = rng.standard_normal((Hh, N))
    X -= X.mean(1, keepdims=True)
    X /= X.std(1, keepdims=True)
    Z = X * np.sqrt(lam)[:, None]
    tau_c = [critical_temperature(Z[h][:, None], mode, certified=False).value for h in range(Hh)]
    P = 1e-3 * np.sqrt(lam)[:, None] * rng.standard_normal((Hh, K))
    s = np.full(Hh, math_inv_softplus(tau0 - tau_min))
    max_up, max_down = np.zeros(Hh), np.zeros(Hh)
    tau_prev = tau_min + np.logaddexp(0, s)
    traj, ent_traj, agreement = [], [], []
    for it in range(steps):
        tau = tau_min + np.logaddexp(0, s)
        if record_every and it % record_every == 0:
            traj.append((it, tau.tolist()))
            ent_traj.append((it, ent(*assign(Z, P, tau)).tolist()))
        gP, gt = grads(Z, P, tau)
        if it in {0, steps // 2, steps - 1}:
            agreement.append(_product_agreement(Z, P, tau, mode, drive, gP, gt))
        sig = 1 / (1 + np.exp(-s))
        P = P - eta_p * gP
        s = s - eta_s * gt * sig
        tau_new = tau_min + np.logaddexp(0, s)
        max_up = np.maximum(max_up, tau_new - tau_prev)
        max_down = np.maximum(max_down, tau_prev - tau_new)
        tau_prev = tau_new
    tau = tau_min + np.logaddexp(0, s)
    return {"lams": lam.tolist(), "tau": tau.tolist(), "P": P.tolist(),
            "H_over_logK": ent(*assign(Z, P, tau)).tolist(),
            "max_up": max_up.tolist(), "max_down": max_down.tolist(), "trajectory": traj,
            "entropy_trajectory": ent_traj, "product_agreement": max(agreement) if agreement else 0.0,
            "tau_c": tau_c}


@pytest.mark.parametrize("mode,drive", [("full", "L_q"), ("stopgrad", "L_q"), ("full", "F"), ("stopgrad", "F")])
def test_batched_simulation_is_the_per_seed_loop_bit_for_bit(mode, drive):
    """300 steps (the heads above tau_c separate and their tau falls within them), three seeds in one
    batch, the first recording: each seed's dict equals the reference loop's exactly."""
    seeds, steps = [3, 4, 5], 300
    got = simulate_heads_batch(LAMS, mode=mode, drive=drive, steps=steps, seeds=seeds, N=128,
                               record_every=[40, 0, 0])
    for sd, rec, out in zip(seeds, [40, 0, 0], got):
        ref = _reference(LAMS, mode=mode, drive=drive, steps=steps, seed=sd, N=128, record_every=rec)
        assert out == ref, (mode, drive, sd)
    assert got[0]["trajectory"] and not got[1]["trajectory"]


@pytest.mark.parametrize("fn", ["exp", "log"])
def test_exp_and_log_are_entrywise(fn):
    """The step's exp and log give each entry the value it gets alone, whatever the array's size (a
    vectorised loop's tail), strides, layout or torch's thread count -- the premise of the bit-for-bit
    comparisons above -- and stay within 1 ulp of libm's (numpy's) value."""
    import torch

    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-800, 0, 4000), rng.uniform(-1, 0, 4000), [0.0, -745.2, -708.4, -1e-310]])
    if fn == "log":
        x = np.abs(x) + 0.0
    f = (lambda a: _exp(a.copy())) if fn == "exp" else _log
    whole = f(x)
    alone = np.concatenate([f(x[i:i + 1]) for i in range(len(x))])
    odd = np.concatenate([f(x[i:i + 7]) for i in range(0, len(x), 7)])
    strided = f(np.stack([x, x], 1))[:, 1]
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        two = f(np.tile(x, 8))[-len(x):]  # > torch's grain size: split between threads
    finally:
        torch.set_num_threads(threads)
    for other in (alone, odd, strided, two):
        assert np.array_equal(other, whole)
    ref = np.exp(x) if fn == "exp" else np.log(x, where=x > 0, out=np.full_like(x, -np.inf))
    fin = np.isfinite(ref) & (ref != 0)
    assert np.array_equal(whole[~fin], ref[~fin])
    assert (np.abs(whole[fin] - ref[fin]) <= np.spacing(np.abs(ref[fin]))).all()


@pytest.mark.parametrize("lams", [[1.0], [0.05]])
def test_one_head_batch_is_the_per_seed_loop(lams):
    """A batch of one head (the sample sums then run over the innermost axis) keeps the loop's order."""
    out = simulate_heads(lams, mode="full", drive="L_q", steps=200, seed=1, N=128)
    assert out == _reference(lams, mode="full", drive="L_q", steps=200, seed=1, N=128)


def test_dynamics_moved_in_the_compared_window():
    """The bit-for-bit comparison is not vacuous: the large-lambda head's tau has fallen, the others have
    not risen (L_q sign law), at full precision."""
    out = simulate_heads(LAMS, mode="full", drive="L_q", steps=300, seed=3, N=128)
    assert out["tau"][-1] < 0.99 and max(out["max_up"]) <= 1e-12
    assert out["product_agreement"] < 1e-12


def test_a_seed_does_not_depend_on_its_batch():
    """Seed blocks of any size give each seed its own run's numbers (sharding merges exactly)."""
    kw = {"mode": "full", "drive": "L_q", "steps": 80, "N": 64}
    together = simulate_heads_batch(LAMS, seeds=[7, 8, 9], **kw)
    alone = [simulate_heads(LAMS, seed=sd, **kw) for sd in (7, 8, 9)]
    assert together == alone
    assert together[0]["tau"] != together[1]["tau"]  # the seeds are different runs


def _agreement_per_sample(Z, P, tau, mode, drive, gP, gt):
    """The earlier ``_product_agreement``: ``sample_tau_derivatives`` on each sample's scalars in a loop."""
    worst, K = 0.0, P.shape[1]
    for h in range(Z.shape[0]):
        z, p, t = Z[h][:, None], P[h][:, None], float(tau[h])
        Q, D = gibbs(z, p, t), sqdist_matrix(z, p)
        amp = 1.0 + float(D.max()) / t
        ref = grad_live_Lq(z, p, t) if mode == "full" else grad_detached(z, p, Q)["L_q"]
        worst = max(worst, float(np.abs(ref[:, 0] - gP[h]).max()) / ((float(np.abs(z).max() + np.abs(p).max()))
                                                                      * amp))
        dLq = dF = 0.0
        for qrow, drow in zip(Q, D):
            a, b = sample_tau_derivatives(list(qrow), list(drow), t, lambda x: math.log(x) if x > 0 else 0.0)
            dLq, dF = dLq + a, dF + b
        ref_t = (dLq if drive == "L_q" else dF) / Z.shape[1]
        worst = max(worst, abs(ref_t - float(gt[h])) / (amp ** 2 if drive == "L_q" else 1.0 + math.log(K)))
    return worst


@pytest.mark.parametrize("mode,drive", [("full", "L_q"), ("stopgrad", "F")])
def test_product_agreement_is_the_per_sample_loop_bit_for_bit(mode, drive):
    """The column-wise call of ``sample_tau_derivatives`` and the ordered sample sum give the per-sample
    loop's number exactly: soft heads, hard heads (q underflowing to 0, log taken as 0) and a tie."""
    rng = np.random.default_rng(11)
    Z = rng.standard_normal((3, 64)) * np.array([[0.1], [1.0], [30.0]])
    P = rng.standard_normal((3, 4)) * np.array([[0.01], [1.0], [30.0]])
    P[0, 1] = P[0, 0]
    tau = np.array([1.0, 0.3, 1e-3])
    gP, gt = rng.standard_normal((3, 4)) * 1e-9, rng.standard_normal(3) * 1e-9
    assert (gibbs(Z[2][:, None], P[2][:, None], 1e-3) == 0).any()  # the hard head has q = 0 entries
    got = _product_agreement(Z, P, tau, mode, drive, gP, gt)
    assert got == _agreement_per_sample(Z, P, tau, mode, drive, gP, gt)
    assert got > 0


@pytest.mark.parametrize("kw", [{"mode": "live"}, {"drive": "H"}, {"K": 1}, {"record_every": [1, 2]}])
def test_bad_arguments_raise_input_error(kw):
    args = {"mode": "full", "drive": "L_q", "steps": 2, "seeds": [0], "N": 8} | kw
    with pytest.raises(InputError):
        simulate_heads_batch(LAMS, **args)


def test_memo_gives_the_run_and_a_fresh_copy(monkeypatch):
    """simulate_heads_batch memoises seed by seed on its exact arguments: a second call returns the
    unmemoised run's numbers, in a fresh copy (changing a result does not change the next); a batch
    simulates only the seeds not yet run; other seeds or recording intervals are other runs; the memo
    stays bounded."""
    from theorems.ddcl_incrt import _temperature_sim as ts

    monkeypatch.setattr(ts, "_SIM_MEMO", {})
    inner = ts._simulate_heads_batch
    ran: list[list[int]] = []

    def counting(*a, **k):
        ran.append(list(k["seeds"]))
        return inner(*a, **k)

    monkeypatch.setattr(ts, "_simulate_heads_batch", counting)
    kw = {"mode": "full", "drive": "L_q", "steps": 60, "N": 32}
    fixed = {"K": 4, "tau0": 1.0, "tau_min": 1e-3, "eta_p": 0.1, "eta_s": 0.05}
    first = simulate_heads_batch(LAMS, seeds=[2], **kw)
    first[0]["tau"][0] = -1.0
    again = simulate_heads_batch(LAMS, seeds=[2], **kw)
    assert again == inner(LAMS, seeds=[2], record_every=0, **kw, **fixed) and again[0]["tau"][0] != -1.0
    both = simulate_heads_batch(LAMS, seeds=[3, 2], record_every=[0, 5], **kw)
    assert both == inner(LAMS, seeds=[3, 2], record_every=[0, 5], **kw, **fixed)
    assert ran == [[2], [3, 2]]  # seed 2 recording every 5 steps is another run; seed 2 unrecorded is not
    assert simulate_heads_batch(LAMS, seeds=[3, 2], record_every=[0, 5], **kw) == both and len(ran) == 2
    assert both[0] != again[0]
    for s in range(ts._SIM_MEMO_SIZE + 3):
        simulate_heads_batch(LAMS, **{**kw, "steps": 2, "seeds": [100 + s]})
    assert len(ts._SIM_MEMO) <= ts._SIM_MEMO_SIZE


def test_pruning_keeps_the_kept_heads_draws_and_names_a_bad_keep():
    """``keep`` prunes the per-head model: keeping every head is the unpruned run, a kept head starts
    from its own draws (so a per-head model leaves it bit for bit unchanged), and a bad ``keep`` is an
    InputError naming it."""
    from numerics.errors import InputError

    kw = dict(mode="full", drive="L_q", steps=40, seed=2, N=64, K=3)
    whole = simulate_heads(LAMS, **kw)
    assert simulate_heads(LAMS, keep=list(range(len(LAMS))), **kw) == whole
    pruned = simulate_heads(LAMS, keep=[0, 2], **kw)
    assert pruned["P"] == [whole["P"][0], whole["P"][2]]
    assert pruned["tau"] == [whole["tau"][0], whole["tau"][2]]
    for bad in ([], [2, 0], [0, 0], [0, len(LAMS)], [-1], [0.0]):
        with pytest.raises(InputError, match="keep"):
            simulate_heads(LAMS, keep=bad, **kw)

