"""The experiments E1, E2 (delta sweep), E3 (ablation) and E5 (Zipf surrogate) of spec §5: tables and
figures.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.flows import first_time
from numerics.markov import MarkovChain, lazy_anti_mixture, metropolis, symmetric_rare, zipf

from ..._figures import pyplot, save
from ..flow import events, run_flow
from ..population import lumped_loss, reference_quantities
from ._e5 import _print_e5_observables, e5_observables
from ._runs import E1_PI, E5_D, e1_trajectory, e2_trajectory, e5_trajectory


# -- the experiments ----------------------------------------------------------------------------------------
def e1(out: str, profile: str) -> dict[str, Any]:
    ch = MarkovChain.lazy(E1_PI, "1/2")
    q = reference_quantities(ch, dps=30)
    t0 = time.process_time()
    tr = e1_trajectory()
    cpu = time.process_time() - t0
    st = tr.stages()
    ev = events(tr)
    print(f"\n== E1: pi = {E1_PI}, lam = 1/2, m = m_k = 8, eps = 1e-3, seed 0 (CPU {cpu:.1f} s)")
    print(f"log d = {float(q.logd):.6f}  H(pi) = {float(q.H):.6f}  H(Y|X) = {float(q.HYX):.6f}  "
          f"mu0 = {float(q.mu0):.6f}  c = {float(q.c):.6f}")
    print(f"{'plateau':>8} {'t':>10} {'L':>10}  reference")
    for k, p in enumerate(st.plateaus):
        ref = {0: f"log d {float(q.logd):.5f}", 1: f"H(pi) {float(q.H):.5f} (gap {p.value - float(q.H):.2e})"}.get(
            k, f"H(Y|X) {float(q.HYX):.5f} (gap {p.value - float(q.HYX):.2e})" if k == len(st.plateaus) - 1 else "")
        print(f"{k:>8} {p.t_value:>10.1f} {p.value:>10.5f}  {ref}")
    print("events:", ", ".join(f"{k} {v:.1f}" if v is not None else f"{k} -" for k, v in ev.items()))
    plt = pyplot()
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    ax[0].semilogx(tr.t[1:], tr.loss[1:], label="L(t)")
    for val, name in ((q.logd, "log d"), (q.H, "H(pi)"), (q.HYX, "H(Y|X)")):
        ax[0].axhline(float(val), ls="--", lw=0.8, color="gray")
        ax[0].text(tr.t[1], float(val), name, va="bottom", fontsize=8)
    ax[0].set_title("E1 loss and predicted plateaus")
    ax[1].semilogx(tr.t[1:], tr.A[1:, 0, 0], label="A_11")
    ax[1].semilogx(tr.t[1:], tr.focus_mass[1:], label="F")
    ax[1].semilogx(tr.t[1:], tr.concentration[1:], label="D-bar")
    for qq in range(1, 4):
        ax[1].semilogx(tr.t[1:], tr.A[1:, qq, 0], lw=0.8, label=f"A_{qq + 1}1")
    ax[1].legend(fontsize=7)
    ax[1].set_title("attention concentration")
    for i in range(4):
        ax[2].loglog(tr.t[1:], tr.sv_W0[1:, i], label=f"sigma_{i + 1}(W0)")
    ax[2].loglog(tr.t[1:], tr.sv_QK[1:, 0], "k--", label="sigma_1(W_Q W_K^T)")
    ax[2].legend(fontsize=7)
    ax[2].set_title("singular values")
    save(fig, out, "focus_e1.png")
    return {"plateaus": st.plateau_values, "events": ev, "cpu": cpu}


def e2(out: str, profile: str) -> dict[str, Any]:
    deltas = [0.01, 0.02] if profile == "quick" else [0.005, 0.01, 0.02]
    print("\n== E2: d = 5, pi = (0.6, 0.1 x 4), c = (1, -1, 1/2, -1/2), lam = 1/2 (seed 0)")
    rows = []
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for delta in deltas:
        tr = e2_trajectory(delta)
        te = first_time(tr.t, tr.sv_W0[:, 1] > 0.1)
        rows.append((delta, te, float(tr.loss[-1])))
        ax[0].loglog(tr.t[1:], tr.sv_W0[1:, 1], label=f"delta = {delta}")
        ax[1].semilogx(tr.t[1:], tr.loss[1:], label=f"delta = {delta}")
    T0 = 3000.0 if profile == "quick" else 3e4
    for lam, T in ((Fraction(1, 2), T0), (Fraction(7, 10), 1000.0)):
        tr = run_flow(symmetric_rare(5, Fraction(3, 5), lam), T=T, per_decade=100)
        te = first_time(tr.t, tr.sv_W0[:, 1] > 0.1)
        print(f"delta = 0, lam = {lam}: t_esc = {te}, sigma2(W0) max after 300 = "
              f"{tr.sv_W0[tr.t >= 300, 1].max():.4g}, L_lump = {lumped_loss(0.6, float(lam), 5):.10f}, "
              f"L(T) = {tr.loss[-1]:.10f}")
        ax[0].loglog(tr.t[1:], tr.sv_W0[1:, 1], "--", label=f"delta = 0, lam = {lam}")
    print(f"{'delta':>7} {'t_esc':>10} {'delta t_esc':>12} {'L(T)':>10}")
    for d_, te, L in rows:
        print(f"{d_:>7} {te if te is None else round(te, 1):>10} {'' if te is None else round(d_ * te, 2):>12} {L:>10.5f}")
    ok = [(d_, te) for d_, te, _ in rows if te is not None]
    slope = None
    if len(ok) >= 2:
        slope = float(np.polyfit(np.log([x for x, _ in ok]), np.log([y - 300 for _, y in ok]), 1)[0])
        print(f"log-log slope of (t_esc - 300) against delta: {slope:.3f} (Lyapunov-Schmidt: -1)")
    ax[0].axhline(0.1, color="gray", lw=0.8)
    ax[0].legend(fontsize=7)
    ax[0].set_title("E2: sigma_2(W0), escape from theta_c2")
    ax[1].legend(fontsize=7)
    ax[1].set_title("E2: loss")
    save(fig, out, "focus_e2.png")
    return {"rows": rows, "slope": slope}


def e3(out: str, profile: str) -> dict[str, Any]:
    T = 1500.0 if profile == "quick" else 8000.0
    m = 4 if profile == "quick" else 8
    chains = [(f"F1 lam={lam}", MarkovChain.lazy(E1_PI, lam)) for lam in ("3/10", "1/2", "9/10")]
    chains += [(f"P(theta={th})", lazy_anti_mixture(E1_PI, "1/2", th)) for th in ("0", "1/5", "3/5", "1")]
    F = Fraction
    Q = [[0, F(3, 10), F(2, 10), F(1, 10)], [F(3, 10), 0, F(3, 10), F(1, 10)], [F(2, 10), F(3, 10), 0, F(3, 10)],
         [F(1, 10), F(1, 10), F(3, 10), 0]]
    chains.append(("F2 metropolis", metropolis(E1_PI, Q)))
    print(f"\n== E3: ablation over P with pi = {E1_PI} (m = m_k = {m}, T = {T:g})")
    print(f"{'chain':>16} {'K2':>9} {'c':>9} {'R1':>7} {'onset':>7} {'focus':>7} {'new dir':>8} {'sign kappa':>10}")
    rows = []
    for name, ch in chains:
        q = reference_quantities(ch, dps=20)
        tr = run_flow(ch, T=T, m=m, mk=m, per_decade=100)
        ev = events(tr)
        W0 = tr.params[0]
        i = int(np.argmax(tr.sv_QK[:, 0] > 1e-2))
        a1 = np.linalg.svd(W0[i])[2][0]
        kap = float(a1 @ (tr.params[2][i] @ tr.params[3][i].T) @ a1)
        fmt = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
        print(f"{name:>16} {float(q.K2):>9.5f} {float(q.c):>9.5f} {fmt(ev['R1']):>7} {fmt(ev['onset']):>7} "
              f"{fmt(ev['focus']):>7} {fmt(ev['new_direction']):>8} {np.sign(kap):>10.0f}")
        rows.append({"chain": name, "K2": float(q.K2), "c": float(q.c), **ev, "sign_kappa": float(np.sign(kap))})
    return {"rows": rows}


def e5(out: str, profile: str) -> dict[str, Any]:
    ch = zipf(E5_D)
    q = reference_quantities(ch, dps=20)
    T = 400.0 if profile == "quick" else 3000.0
    t0 = time.process_time()
    tr = e5_trajectory(T)
    cpu = time.process_time() - t0
    print(f"\n== E5: Zipf surrogate d = {E5_D}, lam = 1/2, T = {T:g} (CPU {cpu:.1f} s)")
    print(f"mu0 = {float(q.mu0):.6f}  c = {float(q.c):.6f}  H(pi) = {float(q.H):.6f}  H(Y|X) = {float(q.HYX):.6f}")
    o = e5_observables(tr)
    _print_e5_observables(o)
    plt = pyplot()
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    ax[0].semilogx(tr.t[1:], tr.loss[1:])
    ax[0].axhline(float(q.H), ls="--", color="gray")
    ax[0].axhline(float(q.HYX), ls=":", color="gray")
    ax[0].set_title(f"E5 Zipf d = {E5_D}: loss (H(pi) dashed, H(Y|X) dotted)")
    for rank in (1, 2, 9, 17, 32):
        ax[1].semilogx(tr.t[1:], tr.A[1:, rank - 1, 0], label=f"A_q1, q = {rank}")
    ax[1].axhline(float(ch.pi[0]), color="gray", lw=0.8)
    ax[1].legend(fontsize=7)
    ax[1].set_title("attention on the most frequent token")
    save(fig, out, "focus_e5.png")
    return {"cpu": cpu, **o}
