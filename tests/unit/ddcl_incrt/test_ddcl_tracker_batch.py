"""The stacked tracker (``incrt.tracker_step`` on (B, d) rows) and the shared tracker runs are the
single-vector loop they replaced.

* ``tracker_step`` on stacked rows (one operator or one per row, per-row step sizes and gamma, both
  MCA variants) gives every row the numbers of the earlier single-vector step below, bit for bit, over
  hundreds of iterations; the single-vector call is that step itself.
* ``oja_runs`` / ``coupled_runs`` / the MCA runs equal the earlier per-run loops bit for bit (final
  vectors, hitting times, sin angles), whatever the stack they run in; what they keep is read-only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorems.ddcl_incrt import _checks_tracker as trk
from theorems.ddcl_incrt import _checks_tracker_coupled as trc
from theorems.ddcl_incrt.incrt import tracker_step


def _reference_step(A, up, um, eta_p, eta_m, gamma, *, mca_factor=True):
    """The earlier single-vector ``incrt.tracker_step``."""
    R = up @ A @ up
    c = up @ A @ um
    up = up + eta_p * ((A @ up - R * up) - (1 - gamma) * c * um)
    up = up / np.linalg.norm(up)
    y = um @ A @ um
    nu = um @ um
    f = y / nu if mca_factor else 1.0
    um = um - eta_m * f * (A @ um - (y / nu) * um) + eta_m * gamma * (1 - gamma) * (up @ A @ um) * up
    um = um / np.linalg.norm(um)
    um = um - (um @ up) * up
    um = um / np.linalg.norm(um)
    return up, um


def _reference_oja(A, eta, steps, u0, *, tol=0.0, stop_at=0.0):
    """The earlier ``_checks_tracker.oja_run`` loop."""
    v1 = np.linalg.eigh(A)[1][:, -1]
    u = u0 / np.linalg.norm(u0)
    d = len(u)
    um = np.eye(d)[int(np.argmin(np.abs(u)))]
    hit = -1
    for t in range(steps):
        u, um = _reference_step(A, u, um, eta, 0.0, 1.0)
        s = math.sqrt(max(0.0, 1 - (u @ v1) ** 2))
        if hit < 0 and tol > 0 and s < tol:
            hit = t + 1
            if stop_at == 0.0:
                break
        if stop_at > 0 and s < stop_at:
            break
    return u, hit


def _reference_coupled(A, j, steps):
    """The earlier ``_checks_tracker_coupled.coupled_run`` loop."""
    v1 = np.linalg.eigh(A)[1][:, -1]
    up, um = trc.start(j, A.shape[0])
    g = trc.gamma_star(A)
    for _ in range(steps):
        up, um = _reference_step(A, up, um, trc.ETA, trc.ETA / 2, g)
        s = math.sqrt(max(0.0, 1 - float(up @ v1) ** 2))
        if s < 1e-9:
            break
    return s


def _sym(rng, d, scale):
    M = rng.standard_normal((d, d))
    return (M + M.T) * scale


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("mca_factor", [True, False])
def test_stacked_step_is_the_single_step_bit_for_bit(shared, mca_factor):
    rng = np.random.default_rng(11 + 2 * shared + mca_factor)
    for d, B in ((3, 1), (6, 2), (6, 7), (8, 5)):
        As = [_sym(rng, d, float(np.exp(rng.uniform(-2, 4)))) for _ in range(B)]
        if shared:
            As = [As[0]] * B
        U = rng.standard_normal((B, d))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        V = rng.standard_normal((B, d))
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        eta_p, eta_m, gam = rng.uniform(0, 0.05, B), rng.uniform(0, 0.05, B), rng.uniform(0, 1, B)
        refs = []
        for b in range(B):
            u, v = U[b], V[b]
            for _ in range(300):
                u, v = _reference_step(As[b], u, v, eta_p[b], eta_m[b], gam[b], mca_factor=mca_factor)
            refs.append((u, v))
            # the single-vector call is the same step
            u1, v1 = U[b], V[b]
            for _ in range(300):
                u1, v1 = tracker_step(As[b], u1, v1, eta_p[b], eta_m[b], gam[b], mca_factor=mca_factor)
            assert np.array_equal(u1, u) and np.array_equal(v1, v)
        A = As[0] if shared else np.array(As)
        Us, Vs = U.copy(), V.copy()
        for _ in range(300):
            Us, Vs = tracker_step(A, Us, Vs, eta_p[:, None], eta_m[:, None], gam[:, None],
                                  mca_factor=mca_factor)
        for b in range(B):
            assert np.array_equal(Us[b], refs[b][0]) and np.array_equal(Vs[b], refs[b][1])


def test_oja_runs_are_the_single_loop_bit_for_bit():
    rng = np.random.default_rng(3)
    cases = [(c * trk.A_OJA, 1 / 60, np.ones(6) / math.sqrt(6)) for c in (0.5, 10, 49)]
    for _ in range(4):
        d = int(rng.integers(3, 7))
        A = _sym(rng, d, 1.0)
        cases.append((A, 0.5 / np.linalg.norm(A, 2), rng.standard_normal(d)))
    trk._OJA_RUNS.clear()
    for kw in ({"stop_at": 1e-9}, {"tol": 0.05}):
        got = trk.oja_runs(cases, 3000, **kw)
        for (A, eta, u0), (u, hit) in zip(cases, got):
            ru, rhit = _reference_oja(A, eta, 3000, u0, **kw)
            assert np.array_equal(u, ru) and hit == rhit
            assert not u.flags.writeable
        # run alone (a stack of one), and from the cache: the same numbers
        trk._OJA_RUNS.clear()
        for (A, eta, u0), (u, hit) in zip(cases, got):
            u1, hit1 = trk.oja_run(A, eta, 3000, u0, **kw)
            assert np.array_equal(u1, u) and hit1 == hit
            assert trk.oja_run(A, eta, 3000, u0, **kw)[0] is u1


def test_coupled_and_mca_runs_are_the_single_loops_bit_for_bit():
    rng = np.random.default_rng(5)
    cases = [(c * trc.A0, j) for c in (10.0, 49.0, 120.0) for j in range(3)]
    cases += [(_sym(rng, 6, 0.5), j) for j in range(3)] + [(_sym(rng, 5, 0.2), 0)]  # v1 not a unit vector e_1
    trc._RUNS.clear()
    got = trc.coupled_runs(cases, 3000)
    for (A, j), s in zip(cases, got):
        assert s == _reference_coupled(A, j, 3000)
    trc._RUNS.clear()
    assert [trc.coupled_run(A, j, 3000) for A, j in cases] == got
    for mca_factor in (True, False):
        runs = trk._mca_runs(mca_factor, (0, 1, 2))
        for s, um in zip((0, 1, 2), runs):
            up = np.eye(8)[0]
            ref = np.random.default_rng(s).standard_normal(8)
            ref -= ref[0] * up
            ref /= np.linalg.norm(ref)
            for _ in range(10000):
                _, ref = _reference_step(trk.A_MCA, up, ref, 0.0, 1 / 160, 0.5, mca_factor=mca_factor)
            assert np.array_equal(um, ref) and not um.flags.writeable
            assert np.array_equal(trk._mca_runs(mca_factor, (s,))[0], ref)
