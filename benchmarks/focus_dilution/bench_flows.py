"""Benchmarks of the focus-and-dilution numerics (issue 4, "Performance"), all measured in one process.

    OPENBLAS_NUM_THREADS=1 python -m benchmarks.focus_dilution.bench_flows [--chains 256] [--scipy-sample 16]

Run with OPENBLAS_NUM_THREADS=1: the matrices are tiny and spinning BLAS threads inflate CPU time by up to
20x on a loaded 2-core machine (E1: 3 s CPU with one thread, 9-64 s with two).

1. The full four-stage d = 4 flow (E1, m = m_k = 8, T = 3e4, LSODA rtol 1e-9): CPU time (target < 10 s),
   and on T = 3000 the batched finite-difference Jacobian against LSODA's own (baseline) Jacobian, and
   the field compiled from the population gradients (numerics.compiled) against their numpy run.
2. A sweep of random F1 chains (d = 4, m = m_k = 4, eps = 1e-3, T = 100): batched torch RK4 (dt = 0.5,
   one tensor program for all chains, the closed forms on batch-last arrays, theorems.focus_dilution._batched)
   against scipy LSODA (rtol 1e-8, atol 1e-11) one by one (a sample, cost per trajectory), with the max
   deviation of the final states as the accuracy check (target: >= 10x cheaper per trajectory than LSODA
   on the numpy field, the first round's baseline; LSODA on the compiled field is timed alongside).  The same
   RK4 on batch-first (B, 4, 4) tensors (TorchArithmetic) is timed alongside: there torch's bmm of 4 x 4 matrices
   runs a scalar loop, and the sweep costs about twice as much.
3. Certified saddle enclosures per chain (the arb Hessian of L at theta_c1 by second-order forward mode, d = 4,
   m = m_k = 2, and its certified spectrum) against the float torch Hessian per chain.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np

DT = 0.5  # RK4 step of the batched sweep (final-state error vs LSODA reported)


def _cpu(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def bench_full_flow() -> list[tuple[str, float, float]]:
    from numerics.flows import geometric_grid, integrate
    from numerics.markov import MarkovChain
    from theorems.focus_dilution.flow import Shapes, _bound_field, full_rhs, init_params, run_flow

    ch = MarkovChain.lazy(["0.75", "0.19", "0.05", "0.01"], "1/2")
    tr, t_full = _cpu(lambda: run_flow(ch, T=3e4))
    st = tr.stages()
    print(f"E1 full flow to 3e4: {t_full:.2f} s CPU, {len(st.plateaus)} plateaus, final L = {tr.loss[-1]:.7f}")
    sh = Shapes(4, 8, 8)
    y0 = init_params(4, 8, 8, 1e-3, 0)
    grid = geometric_grid(0.1, 3000.0, 100)
    _, t_jac = _cpu(lambda: run_flow(ch, T=3000.0, per_decade=100))
    _, t_nojac = _cpu(lambda: integrate(full_rhs(ch, sh), y0, grid, method="LSODA", rtol=1e-9, atol=1e-12))
    # the field compiled from the population gradients (numerics.compiled) against their numpy run
    numpy_field = _bound_field(ch, sh, 1.0, "statement", compiled=False)
    _bound_field(ch, sh, 1.0, "statement")  # compiled once per process: not part of the timing
    _, t_numpy = _cpu(lambda: integrate(lambda t, y: numpy_field(y), y0, grid, method="LSODA", rtol=1e-9,
                                        atol=1e-12))
    _, t_comp = _cpu(lambda: integrate(full_rhs(ch, sh), y0, grid, method="LSODA", rtol=1e-9, atol=1e-12))
    print(f"E1 T = 3000 LSODA: numpy field {t_numpy:.2f} s, compiled field {t_comp:.2f} s CPU "
          f"({t_numpy / t_comp:.1f}x)")
    return [("E1 full flow T = 3e4 (batched FD Jacobian)", t_full, float("nan")),
            ("E1 T = 3000, LSODA own Jacobian (baseline)", t_nojac, 1.0),
            ("E1 T = 3000, batched FD Jacobian", t_jac, t_nojac / t_jac),
            ("E1 T = 3000, LSODA own Jacobian, numpy field (baseline)", t_numpy, 1.0),
            ("E1 T = 3000, LSODA own Jacobian, compiled field", t_comp, t_numpy / t_comp)]


def bench_sweep(n_chains: int, n_scipy: int) -> list[tuple[str, float, float]]:
    import torch
    from scipy.integrate import solve_ivp  # noqa: F401  (imported here so that no timing includes the import)

    from numerics.flows import integrate, rk4_torch
    from numerics.markov import MarkovChain
    from theorems.focus_dilution._batched import rk4_sweep
    from theorems.focus_dilution.flow import Shapes, _bound_field, init_params, unpack
    from numerics.arithmetic import TorchArithmetic
    from theorems.focus_dilution.population import param_grads

    rng = np.random.default_rng(0)
    d, m, mk, T = 4, 4, 4, 100.0
    sh = Shapes(d, m, mk)
    chains = []
    for _ in range(n_chains):
        w = np.sort(rng.integers(10, 1000, d))[::-1]
        lam = Fraction(int(rng.integers(1, 19)), 20)
        chains.append(MarkovChain.lazy([Fraction(int(x), int(w.sum())) for x in w], lam))
    Y0 = np.stack([init_params(d, m, mk, 1e-3, k) for k in range(n_chains)])
    pi = torch.tensor(np.stack([c.pi for c in chains]))
    P = torch.tensor(np.stack([c.P for c in chains]))
    ops = TorchArithmetic()
    grid = [0.0, 25.0, 50.0, 75.0, T]
    torch.set_num_threads(1)

    def batched() -> torch.Tensor:
        # param_grads on batch-last arrays (theorems.focus_dilution._batched): the sweep's fast path
        return rk4_sweep(pi, P, torch.tensor(Y0), sh, grid, DT)

    def field_batch_first(y: torch.Tensor) -> torch.Tensor:
        g = param_grads(pi, P, *unpack(y, sh), 1.0, ops)
        return -torch.cat([w.reshape(w.shape[0], -1) for w in g], dim=1)

    def batched_first() -> torch.Tensor:
        # the same RK4 on batch-first (B, 4, 4) tensors through TorchArithmetic (torch's small-matrix bmm)
        with torch.inference_mode():  # closed-form gradients: no autograd graph is needed
            return rk4_torch(field_batch_first, torch.tensor(Y0), grid, dt=DT)

    out, t_batch = _cpu(batched)
    out_first, t_first = _cpu(batched_first)
    final_b = out[-1].numpy()
    layout_diff = float((out - out_first).abs().max())
    errs = []

    def scipy_all(compiled: bool):
        for k in range(n_scipy):
            field = _bound_field(chains[k], sh, 1.0, "statement", compiled=compiled)
            _, Y = integrate(lambda t, y: field(y), Y0[k], np.array(grid), method="LSODA", rtol=1e-8, atol=1e-11)
            errs.append(float(np.max(np.abs(Y[-1] - final_b[k]))))

    # the baseline is the first round's: LSODA on the numpy field; LSODA on the compiled field alongside
    _, t_scipy = _cpu(lambda: scipy_all(False))
    _bound_field(chains[0], sh, 1.0, "statement")  # compile outside the timing
    _, t_scipy_c = _cpu(lambda: scipy_all(True))
    per_b, per_f = t_batch / n_chains, t_first / n_chains
    per_s, per_c = t_scipy / n_scipy, t_scipy_c / n_scipy
    print(f"sweep: {n_chains} chains batched RK4 {t_batch:.2f} s CPU ({per_b * 1e3:.2f} ms/trajectory; "
          f"batch-first layout {t_first:.2f} s, {per_f * 1e3:.2f} ms/trajectory, max |difference| "
          f"{layout_diff:.1e}); scipy LSODA {n_scipy} chains {t_scipy:.2f} s "
          f"({per_s * 1e3:.1f} ms/trajectory; compiled field {per_c * 1e3:.1f} ms); max |final state "
          f"difference| = {max(errs):.2e}")
    return [("sweep: scipy LSODA per trajectory (baseline)", per_s, 1.0),
            ("sweep: scipy LSODA per trajectory, compiled field", per_c, per_s / per_c),
            ("sweep: batched torch RK4, batch-first layout", per_f, per_s / per_f),
            ("sweep: batched torch RK4 per trajectory", per_b, per_s / per_b)]


def bench_certified(n: int) -> list[tuple[str, float, float]]:
    from numerics.markov import MarkovChain
    from numerics.precision import arb_precision
    from theorems.focus_dilution.critical_points import full_jacobian_float
    from theorems.focus_dilution.flow import Shapes, theta_c1, unpack
    from numerics.linalg import symmetric_ball_spectrum
    from theorems.focus_dilution._hessians import ARB_BITS, saddle_hessian_arb

    rng = np.random.default_rng(1)
    chains = []
    for _ in range(n):
        w = np.sort(rng.integers(10, 1000, 4))[::-1]
        chains.append(MarkovChain.lazy([Fraction(int(x), int(w.sum())) for x in w], Fraction(1, 2)))

    def cert():  # what focus.stage2.saddle_eigenstructure certifies: the arb Hessian of L and its spectrum
        for ch in chains:
            with arb_precision(ARB_BITS):
                _, _, H, _ = saddle_hessian_arb(ch, 2, 2)
                symmetric_ball_spectrum([[-x for x in row] for row in H], bits=ARB_BITS)

    def flt():
        for ch in chains:
            full_jacobian_float(ch, unpack(theta_c1(ch, 2, 2), Shapes(4, 2, 2)))

    _, t_c = _cpu(cert)
    _, t_f = _cpu(flt)
    return [("saddle: float torch Hessian per chain (baseline)", t_f / n, 1.0),
            ("saddle: certified arb enclosures per chain", t_c / n, (t_f / n) / (t_c / n))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--chains", type=int, default=256)
    ap.add_argument("--scipy-sample", type=int, default=16)
    ap.add_argument("--certified", type=int, default=20)
    args = ap.parse_args(argv)
    rows = bench_full_flow() + bench_sweep(args.chains, args.scipy_sample) + bench_certified(args.certified)
    print(f"\n{'benchmark':<52} {'CPU s':>10} {'speed-up vs baseline':>22}")
    for name, t, r in rows:
        print(f"{name:<52} {t:>10.4f} {'' if r != r else f'{r:.1f}x':>22}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
