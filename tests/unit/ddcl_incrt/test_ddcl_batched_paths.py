"""Issue 14 (speed): the batched paths of the DDCL checks give the floats of the runs they batch.

* dictionary.descent_gradients / descend_batch (B descents as one program): the very floats of B
  separate descent_gradient / descend calls, and the same kind of errors, naming the stacked arguments;
* the critical-temperature simulation's batched collapse descents record the per-run loop's windows,
  last spreads and prototypes exactly (the check corroborates, so a slip there would not show in the
  claim's verdict);
* the pruning check's EM loop that stops at a repeated iterate returns the full loop's last iterate;
* stacked Haar draws and residual operators (ddcl.growth.unique_minimal) are the single calls'.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.errors import InputError
from theorems.ddcl_incrt import dictionary as dc


@pytest.mark.parametrize("d,K", [(1, 2), (1, 5), (2, 2), (2, 4), (2, 8), (3, 5), (8, 2), (8, 4), (8, 8),
                                 (9, 9), (17, 3)])
def test_batched_descent_gradients_are_the_separate_ones_bit_for_bit(d, K):
    """Each data set of the batch its own scale, temperature and prototype spread (near collapse to far
    apart, hard to soft assignments), B = 1 and B = 5, N from 2 to 400."""
    rng = np.random.default_rng(100 * d + K)
    for B, N in ((1, int(rng.integers(2, 60))), (5, int(rng.integers(50, 400)))):
        Zs = [rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d)) for _ in range(B)]
        taus = list(np.exp(rng.uniform(-3, 2.5, B)))
        for mode in ("full", "stopgrad", "free_energy"):
            grad = dc.descent_gradients(Zs, taus, mode, K=K, d=d)
            for s in (1e-9, 1e-3, 1.0, 30.0):
                Ps = np.stack([Z.mean(0) + s * rng.standard_normal((K, d)) for Z in Zs])
                got = grad(Ps)
                for b in range(B):
                    ref = dc.descent_gradient(Zs[b], taus[b], mode, K=K, d=d)(Ps[b])
                    assert np.array_equal(got[b], ref), (mode, b, s)


def test_descend_batch_is_the_separate_descents_bit_for_bit():
    rng = np.random.default_rng(8)
    Zs = [rng.standard_normal((150, 3)) * (b + 1) for b in range(3)]
    Ps = np.stack([Z.mean(0) + 1e-4 * rng.standard_normal((4, 3)) for Z in Zs])
    taus = [0.3, 1.5, 6.0]
    for mode in ("full", "stopgrad"):
        got = dc.descend_batch(Zs, Ps, taus, mode, 250, 0.05)
        for b in range(3):
            assert np.array_equal(got[b], dc.descend(Zs[b], Ps[b], taus[b], mode, 250, 0.05)), (mode, b)
        assert not np.array_equal(got[0], got[1])


def test_batched_descent_names_bad_inputs():
    rng = np.random.default_rng(2)
    Zs = [rng.standard_normal((20, 2)) for _ in range(2)]
    grad = dc.descent_gradients(Zs, [1.0, 2.0], "full", K=3, d=2)
    P = np.zeros((2, 3, 2))
    P[1, 0, 1] = np.nan
    with pytest.raises(InputError, match="'Ps'"):
        grad(P)
    with pytest.raises(InputError, match="'Ps'"):
        grad(np.zeros((2, 3, 3)))
    P = np.zeros((2, 3, 2))
    P[0, 0, 0] = 1e200
    with pytest.raises(InputError, match="'Zs'"):
        grad(P)
    with pytest.raises(InputError, match="'Zs'"):
        dc.descent_gradients([Zs[0], rng.standard_normal((21, 2))], [1.0, 1.0], "full", K=3, d=2)
    with pytest.raises(InputError, match="'Zs'"):
        dc.descent_gradients([], [], "full", K=3, d=2)
    with pytest.raises(InputError, match="'taus'"):
        dc.descent_gradients(Zs, [1.0], "full", K=3, d=2)
    with pytest.raises(InputError, match="'taus'"):
        dc.descent_gradients(Zs, [1.0, -1.0], "full", K=3, d=2)
    with pytest.raises(InputError, match="'K'"):
        dc.descent_gradients(Zs, [1.0, 1.0], "full", K=1, d=2)
    with pytest.raises(InputError, match="'mode'"):
        dc.descent_gradients(Zs, [1.0, 1.0], "live", K=3, d=2)
    with pytest.raises(InputError, match="'Ps'"):
        dc.descend_batch(Zs, np.zeros((3, 2)), [1.0, 1.0], "full", 2, 0.1)


def _collapse_descent_loop(r, steps, eta):
    """The per-run loop the critical-temperature simulation ran before its runs were batched."""
    sq = math.sqrt(r["lam1"])
    lo, hi = ((1e-6, 1e-3) if r["rho"] < 1 else (1e-9, 1e-6))
    grad, P, logs, spread = dc.descent_gradient(r["Z"], r["tau"], r["mode"], K=r["K"], d=r["d"]), r["P"], [], None
    for t in range(steps):
        P = P - eta * grad(P)
        spread = float(np.abs(P - P.mean(0)).max())
        if lo * sq <= spread <= hi * sq:
            logs.append((t, math.log(spread)))
        if r["rho"] < 1 and spread > 1e-2 * sq and len(logs) > 10:
            break
        if r["rho"] > 1 and spread < 1e-10 * sq:
            break
    return logs, spread, P


def test_batched_collapse_descents_are_the_per_run_loop():
    """ddcl.separation.critical_temperature's simulation: the runs of one (d, K, mode) descend as one batch
    (runs leaving it as they stop) and each records the per-run loop's (t, log spread) window, its last
    spread and its prototypes exactly -- growing runs below tau_c (stopping once past 1e-2 sqrt(lambda_1))
    and decaying ones above (stopping below 1e-10 sqrt(lambda_1)), and a run cut off by ``steps``."""
    from theorems.ddcl_incrt._checks_separation_dynamics import _descend_from_collapse
    from theorems.ddcl_incrt.hessian import critical_temperature

    rng = np.random.default_rng(4)
    for d, K, mode, steps in ((2, 2, "full", 3000), (3, 4, "stopgrad", 3000), (2, 2, "full", 150)):
        Z = rng.standard_normal((200, d)) * np.linspace(2, 0.5, d)
        tc = critical_temperature(Z, mode, certified=False).value
        lam1 = float(np.linalg.eigvalsh(dc.covariance(Z))[-1])
        runs = []
        for rho in (0.5, 0.9, 1.25, 2.0):
            s0 = (1e-8 if rho < 1 else 1e-3) * math.sqrt(lam1)
            xi = rng.standard_normal(K)
            xi -= xi.mean()
            v = rng.standard_normal(d)
            P = Z.mean(0) + np.outer(xi / np.abs(xi).max() * s0, v / np.linalg.norm(v))
            runs.append(dict(d=d, K=K, mode=mode, rho=rho, Z=Z, lam1=lam1, tau=rho * tc, P=P))
        refs = [_collapse_descent_loop(dict(r), steps, 0.05) for r in runs]
        _descend_from_collapse(runs, steps, 0.05)
        for r, (logs, spread, P) in zip(runs, refs):
            assert r["logs"] == logs and r["spread"] == spread and np.array_equal(r["P"], P), (d, K, r["rho"])
        assert all(len(r["logs"]) > 10 for r in runs) or steps < 1000


def _em_loop(assign, Y, P, iterations):
    """The pruning check's EM loop before it stopped at repeated iterates."""
    for _ in range(iterations):
        Q = assign(P)
        P = (Q.T @ Y) / Q.sum(0)[:, None]
    return P


def test_em_iterate_is_the_full_loop_bit_for_bit():
    """ddcl.pruning.safety's R3 instances (the check's own draws): the last iterate equals the full loop's
    whether the run reaches a fixed point, a cycle of period 2, 3 or 4 (each occurs here) or neither, at
    every iteration count around where the repeat is found."""
    from theorems.ddcl_incrt._checks_pruning import em_iterate

    rng = np.random.default_rng(3)
    periods = set()
    for _ in range(30):
        N, ds, dh, K = int(rng.integers(20, 80)), int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(2, 5))
        Y = rng.standard_normal((N, ds + dh)) * np.exp(rng.uniform(-1, 1, ds + dh))
        tau = float(np.exp(rng.uniform(-1, 1)))
        P0 = Y[rng.choice(N, K, replace=False)]
        assign = dc.gibbs_assigner(Y, tau, K=K, d=ds + dh)
        seq, rep = [P0], None
        while len(seq) <= 800 and (rep is None or len(seq) <= rep[0] + 8):
            seq.append(_em_loop(assign, Y, seq[-1], 1))
            n = len(seq) - 1
            if rep is None:
                rep = next(((n, p) for p in range(1, 5) if n >= p and np.array_equal(seq[n], seq[n - p])), None)
        if rep is not None:
            periods.add(rep[1])
        for T in [0, 1, 2, len(seq) - 1] + ([] if rep is None else [rep[0] + j for j in range(-2, 8)]):
            if 0 <= T < len(seq):
                assert np.array_equal(em_iterate(assign, Y, P0, T), seq[T]), (T, rep)
    assert {1, 2, 3, 4} <= periods


@pytest.mark.parametrize("d", [1, 2, 3, 5, 8, 10])
def test_stacked_haar_draws_and_residual_operators_are_the_single_calls(d):
    """ddcl.growth.unique_minimal's random (K - 1)-sets: ``haar_orthogonal(d, rng, n)`` is n calls in a
    row on the same generator, and ``residual_operator`` of the (n, d, m) stack (m = 0 .. d - 1) the n
    single operators, bit for bit."""
    from numerics.strategies import haar_orthogonal
    from theorems.ddcl_incrt.incrt import residual_operator

    seed = 40 + d
    one, many = np.random.default_rng(seed), np.random.default_rng(seed)
    singles = [haar_orthogonal(d, one) for _ in range(6)]
    stack = haar_orthogonal(d, many, 6)
    assert stack.shape == (6, d, d) and all(np.array_equal(a, b) for a, b in zip(singles, stack))
    assert one.standard_normal() == many.standard_normal()  # the generators are left in the same state
    S = np.random.default_rng(d).standard_normal((d, d))
    S = S + S.T
    for m in range(d):
        got = residual_operator(S, stack[:, :, :m])
        assert got.shape == (6, d, d)
        for u, g in zip(stack, got):
            assert np.array_equal(g, residual_operator(S, u[:, :m]))


def test_stacked_residual_operator_names_bad_stacks():
    from theorems.ddcl_incrt.incrt import residual_operator

    S = np.eye(3)
    with pytest.raises(InputError, match="'U'"):
        residual_operator(S, np.ones((2, 3, 1)))  # columns not orthonormal
    with pytest.raises(InputError, match="'U'"):
        residual_operator(S, np.zeros((2, 4, 1)))  # wrong row count
    with pytest.raises(InputError, match="'U'"):
        residual_operator(S, np.full((2, 3, 1), np.nan))
