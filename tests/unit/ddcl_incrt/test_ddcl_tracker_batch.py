"""The stacked tracker (``incrt.tracker_step`` on (B, d) rows) and the shared tracker runs are the
single-vector loop they replaced, in both ways the step runs: the compiled kernel traced from
``incrt._coded_step`` (the default) and the numpy run of it (no LLVM, or VERIFY_COMPILED_KERNELS=0).

* ``tracker_step`` on stacked rows (one operator or one per row, per-row step sizes and gamma, both
  MCA variants) gives every row the numbers of its lone single-vector steps, bit for bit, over hundreds
  of iterations; on the numpy path the single-vector call is the earlier step below, bit for bit.
* The compiled step agrees with the numpy run of the same formula to a few ulps per step.
* ``oja_runs`` / ``coupled_runs`` / the MCA runs equal the earlier per-run loops bit for bit (final
  vectors, hitting times, sin angles), whatever the stack they run in; what they keep is read-only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorems.ddcl_incrt import _checks_tracker as trk
from theorems.ddcl_incrt import _checks_tracker_coupled as trc
from theorems.ddcl_incrt import incrt
from theorems.ddcl_incrt.incrt import tracker_step


@pytest.fixture(params=["compiled", "numpy"])
def step_path(request, monkeypatch):
    """Each test twice: with the compiled step (skipped without LLVM) and with the numpy run; the
    runs' per-process memos are cleared around it."""
    if request.param == "numpy":
        monkeypatch.setattr(incrt, "_step_kernel", lambda d, mca_factor: None)
    elif incrt._step_kernel(6, True) is None:
        pytest.skip("no compiled kernels here (symengine without LLVM, or VERIFY_COMPILED_KERNELS=0)")
    trk._OJA_RUNS.clear()
    trc._RUNS.clear()
    trk._mca_runs.cache_clear()
    yield request.param
    trk._OJA_RUNS.clear()
    trc._RUNS.clear()
    trk._mca_runs.cache_clear()


def _lone_step(path):
    """The single-vector step the stacks are compared with: on the numpy path the earlier step below,
    on the compiled path the kernel's own lone-row call."""
    if path == "numpy":
        return _reference_step
    return lambda A, up, um, eta_p, eta_m, gamma, *, mca_factor=True: tracker_step(
        A, up, um, eta_p, eta_m, gamma, mca_factor=mca_factor)


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


def _reference_oja(A, eta, steps, u0, *, tol=0.0, stop_at=0.0, step=_reference_step):
    """The earlier ``_checks_tracker.oja_run`` loop."""
    v1 = np.linalg.eigh(A)[1][:, -1]
    u = u0 / np.linalg.norm(u0)
    d = len(u)
    um = np.eye(d)[int(np.argmin(np.abs(u)))]
    hit = -1
    for t in range(steps):
        u, um = step(A, u, um, eta, 0.0, 1.0)
        s = math.sqrt(max(0.0, 1 - (u @ v1) ** 2))
        if hit < 0 and tol > 0 and s < tol:
            hit = t + 1
            if stop_at == 0.0:
                break
        if stop_at > 0 and s < stop_at:
            break
    return u, hit


def _reference_coupled(A, j, steps, step=_reference_step):
    """The earlier ``_checks_tracker_coupled.coupled_run`` loop."""
    v1 = np.linalg.eigh(A)[1][:, -1]
    up, um = trc.start(j, A.shape[0])
    g = trc.gamma_star(A)
    for _ in range(steps):
        up, um = step(A, up, um, trc.ETA, trc.ETA / 2, g)
        s = math.sqrt(max(0.0, 1 - float(up @ v1) ** 2))
        if s < 1e-9:
            break
    return s


def _sym(rng, d, scale):
    M = rng.standard_normal((d, d))
    return (M + M.T) * scale


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("mca_factor", [True, False])
def test_stacked_step_is_the_single_step_bit_for_bit(shared, mca_factor, step_path):
    lone = _lone_step(step_path)
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
                u, v = lone(As[b], u, v, eta_p[b], eta_m[b], gam[b], mca_factor=mca_factor)
            refs.append((u, v))
            # the single-vector call is the same step (python floats or numpy scalars alike)
            u1, v1 = U[b], V[b]
            for _ in range(300):
                u1, v1 = tracker_step(As[b], u1, v1, float(eta_p[b]), eta_m[b], float(gam[b]),
                                      mca_factor=mca_factor)
            assert np.array_equal(u1, u) and np.array_equal(v1, v)
        A = As[0] if shared else np.array(As)
        Us, Vs = U.copy(), V.copy()
        for _ in range(300):
            Us, Vs = tracker_step(A, Us, Vs, eta_p[:, None], eta_m[:, None], gam[:, None],
                                  mca_factor=mca_factor)
        for b in range(B):
            assert np.array_equal(Us[b], refs[b][0]) and np.array_equal(Vs[b], refs[b][1])


def test_oja_runs_are_the_single_loop_bit_for_bit(step_path):
    step = _lone_step(step_path)
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
            ru, rhit = _reference_oja(A, eta, 3000, u0, **kw, step=step)
            assert np.array_equal(u, ru) and hit == rhit
            assert not u.flags.writeable
        # run alone (a stack of one), and from the cache: the same numbers
        trk._OJA_RUNS.clear()
        for (A, eta, u0), (u, hit) in zip(cases, got):
            u1, hit1 = trk.oja_run(A, eta, 3000, u0, **kw)
            assert np.array_equal(u1, u) and hit1 == hit
            assert trk.oja_run(A, eta, 3000, u0, **kw)[0] is u1


def test_coupled_and_mca_runs_are_the_single_loops_bit_for_bit(step_path):
    step = _lone_step(step_path)
    rng = np.random.default_rng(5)
    cases = [(c * trc.A0, j) for c in (10.0, 49.0, 120.0) for j in range(3)]
    cases += [(_sym(rng, 6, 0.5), j) for j in range(3)] + [(_sym(rng, 5, 0.2), 0)]  # v1 not a unit vector e_1
    trc._RUNS.clear()
    got = trc.coupled_runs(cases, 3000)
    for (A, j), s in zip(cases, got):
        assert s == _reference_coupled(A, j, 3000, step)
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
                _, ref = step(trk.A_MCA, up, ref, 0.0, 1 / 160, 0.5, mca_factor=mca_factor)
            assert np.array_equal(um, ref) and not um.flags.writeable
            assert np.array_equal(trk._mca_runs(mca_factor, (s,))[0], ref)


@pytest.mark.parametrize("mca_factor", [True, False])
def test_the_compiled_step_is_the_numpy_step_to_a_few_ulps(mca_factor):
    """The kernel traced from ``_coded_step`` computes the same formula as its numpy run (and as the
    earlier step), in another order of the floating-point operations: one step differs by a few ulps of
    the unit vectors it returns, never more (d = 2..12, operators of norm 1e-2..1e3, one pair or a
    stack)."""
    if incrt._step_kernel(6, mca_factor) is None:
        pytest.skip("no compiled kernels here")
    rng = np.random.default_rng(17 + mca_factor)
    worst = 0.0
    for d in (2, 5, 6, 8, 12):
        for scale in (1e-2, 1.0, 1e3):
            B = 4
            A = np.array([_sym(rng, d, scale) for _ in range(B)])
            U = rng.standard_normal((B, d))
            U /= np.linalg.norm(U, axis=1, keepdims=True)
            V = rng.standard_normal((B, d))
            V /= np.linalg.norm(V, axis=1, keepdims=True)
            eta = (0.1 / np.linalg.norm(A, 2, axis=(1, 2)))[:, None]
            got = tracker_step(A, U, V, eta, eta / 2, 0.3, mca_factor=mca_factor)
            want = incrt._coded_step(A, U, V, eta, eta / 2, 0.3, mca_factor, np.sqrt)
            for b in range(B):
                e = float(eta[b, 0])
                ref = _reference_step(A[b], U[b], V[b], e, e / 2, 0.3, mca_factor=mca_factor)
                one = tracker_step(A[b], U[b], V[b], e, e / 2, 0.3, mca_factor=mca_factor)  # the lone fast path
                for g, w, r, o in zip(got, want, ref, one):
                    assert np.array_equal(o, g[b])  # a row of the stack is its lone call
                    worst = max(worst, float(np.abs(g[b] - w[b]).max()), float(np.abs(g[b] - r).max()))
    assert worst <= 64 * np.finfo(float).eps, worst
    assert all(incrt._step_kernel(d, mca_factor) is not None for d in (2, 5, 6, 8, 12))  # the kernel ran


def test_the_step_without_a_kernel_is_the_numpy_run(monkeypatch):
    """Inputs the kernel does not take (d above KERNEL_MAX_D, non-float64 vectors) run the numpy formula."""
    rng = np.random.default_rng(23)
    d = incrt.KERNEL_MAX_D + 1
    assert incrt._step_kernel(d, True) is None
    A = _sym(rng, d, 1.0)
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
    got = tracker_step(A, u, v, 0.01, 0.005, 0.5)
    want = _reference_step(A, u, v, 0.01, 0.005, 0.5)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
