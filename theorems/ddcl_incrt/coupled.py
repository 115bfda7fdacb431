"""The coupled architecture and the planted-relations task (spec ddcl_incrt.md §2.6, §4.4).

Teacher (§4.4): d = 16, n = 32 tokens x_t ~ N(0, diag(g)) with (g_{2j-1}, g_{2j}) = (1 + a_j, 1 - a_j)
for planes j = 1..6, a = (0.8, 0.7, 0.6, 0.5, 0.4, 0.3), g_13..16 = 1.  Planted relations
B_j = beta (e_{2j-1} e_{2j}^T - e_{2j} e_{2j-1}^T) for j in J = {1..r}; A^j = softmax(X B_j X^T);
target Y* = sum_{j in J} A^j X Pi_j (Pi_j: projection onto plane j).  Population operator: G* = n Sigma,
M_a* = sum_J B_j; S* has exactly r positive eigenvalues n beta a_j, i.e. s_G = a_j/(1 + a_1).

Student (§2.6): identity embedding E = X; heads with d_k = d_v = 8 whose scores use M^h/sqrt(d_k);
Y = E + sum_h O^h; dictionary (K = 8, free-energy mode, tau = 1) on Y; out = Y + Q(Y) P; per-token
linear readout; loss = MSE + 0.1 F.  Growth: a check every 5 optimiser steps, G = batch mean of E^T E,
exact eigendecomposition of A_res, grow when s_G > theta (0.08) and >= 20 checks have passed since the
last growth (H <= 16); the initial head records u+ at the first crossing without adding a head.
New heads: init = plane (W_Q = sigma[u+, u-, 0..], W_K = sigma[u-, -u+, 0..], sigma = 0.1, W_O = 0).
Pruning (the code's rule): a head of age >= 100 checks whose |G M_a^h|_F < 0.01 theta |G|_2 on 100
consecutive checks is removed (its U column stays).  Per-head temperature dictionaries (§4.2 coupled
variant) are armed at 60 % of training on the detached head outputs O^h: K = 4, tau_h learnable
(tau_min + softplus), L_q-driven with live q, tau_0 = 4 median_h lambda_1(Cov O^h).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .incrt import residual_operator

PLANE_A = (0.8, 0.7, 0.6, 0.5, 0.4, 0.3)


def planted_sigma(d: int = 16) -> np.ndarray:
    g = np.ones(d)
    for j, a in enumerate(PLANE_A):
        g[2 * j], g[2 * j + 1] = 1 + a, 1 - a
    return g


def planted_relations(r: int, *, d: int = 16, beta: float = 1.0, blind: bool = False) -> list[np.ndarray]:
    """The r planted generators B_j (planes 1..r); ``blind`` moves the last one to coordinates 13, 14."""
    if not 0 <= r <= 6:
        raise ValueError(f"r must be in 0..6, got {r}")
    out = []
    for j in range(r):
        a, b = 2 * j, 2 * j + 1
        if blind and j == r - 1:
            a, b = 12, 13
        B = np.zeros((d, d))
        B[a, b], B[b, a] = beta, -beta
        out.append(B)
    return out


def predicted_count(r: int, theta: float, *, blind: bool = False) -> int:
    """Fixed-operator prediction: #{j in J : a_j/(1 + a_1) > theta} (a blind plane is invisible)."""
    J = range(r - 1 if blind else r)
    return sum(1 for j in J if PLANE_A[j] / (1 + PLANE_A[0]) > theta)


@dataclass
class RunLog:
    checks: list[dict[str, Any]] = field(default_factory=list)
    births: list[dict[str, Any]] = field(default_factory=list)
    prunings: list[dict[str, Any]] = field(default_factory=list)
    temperatures: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def run_planted(r: int, *, seed: int = 0, steps: int = 30000, theta: float = 0.08, batch: int = 64,
                n: int = 32, d: int = 16, dk: int = 8, K: int = 8, lr: float = 3e-3, beta_dict: float = 0.1,
                blind: bool = False, symmetric_teacher: bool = False, max_heads: int = 16,
                dwell_checks: int = 20, prune_age: int = 100, prune_consecutive: int = 100,
                arm_fraction: float = 0.6) -> RunLog:
    """One coupled run on the planted task (float64, CPU).  Returns the log of §2.6 (subset)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    dt = torch.float64
    g = torch.tensor(planted_sigma(d), dtype=dt)
    Bs = [torch.tensor(B, dtype=dt) for B in planted_relations(r, d=d, blind=blind)]
    planes = []
    for j in range(r):
        a, b = (2 * j, 2 * j + 1) if not (blind and j == r - 1) else (12, 13)
        Pi = torch.zeros(d, d, dtype=dt)
        Pi[a, a] = Pi[b, b] = 1
        planes.append(Pi)
    sym_forms = []
    if symmetric_teacher:  # r = 0 control: symmetric forms on planes 1-3
        for j in range(3):
            S = torch.zeros(d, d, dtype=dt)
            S[2 * j, 2 * j], S[2 * j + 1, 2 * j + 1] = 1.0, -1.0
            Pi = torch.zeros(d, d, dtype=dt)
            Pi[2 * j, 2 * j] = Pi[2 * j + 1, 2 * j + 1] = 1
            sym_forms.append((S, Pi))

    def teacher(X):
        Y = torch.zeros_like(X)
        for B, Pi in zip(Bs, planes):
            A = torch.softmax(X @ B @ X.transpose(1, 2), dim=-1)
            Y = Y + A @ X @ Pi
        for S, Pi in sym_forms:
            A = torch.softmax(X @ S @ X.transpose(1, 2), dim=-1)
            Y = Y + A @ X @ Pi
        return Y

    def new_head(WQ=None, WK=None, WO_zero=True):
        p = {
            "WQ": torch.nn.Parameter(WQ if WQ is not None else 1e-2 * torch.randn(d, dk, dtype=dt)),
            "WK": torch.nn.Parameter(WK if WK is not None else 1e-2 * torch.randn(d, dk, dtype=dt)),
            "WV": torch.nn.Parameter(torch.randn(d, dk, dtype=dt) / math.sqrt(d)),
            "WO": torch.nn.Parameter(torch.zeros(dk, d, dtype=dt) if WO_zero else torch.randn(dk, d, dtype=dt) / math.sqrt(dk)),
        }
        return p

    heads = [new_head(WO_zero=False)]
    P = torch.nn.Parameter(0.01 * torch.randn(K, d, dtype=dt))
    WR = torch.nn.Parameter(torch.eye(d, dtype=dt) * 0.0 + 0.01 * torch.randn(d, d, dtype=dt))
    bR = torch.nn.Parameter(torch.zeros(d, dtype=dt))
    opt = torch.optim.Adam([P, WR, bR] + list(heads[0].values()), lr=lr)
    tau = 1.0
    U = np.zeros((d, 0))
    log = RunLog()
    births_age = [0]
    below = [0]
    last_growth_check = -10**9
    sqdk = math.sqrt(dk)
    temp_state: dict[str, Any] = {}
    arm_step = int(arm_fraction * steps)

    def forward(X, with_outputs=False):
        E = X
        outs = []
        Y = E
        for h in heads:
            sc = (E @ h["WQ"]) @ (E @ h["WK"]).transpose(1, 2) / sqdk
            A = torch.softmax(sc, dim=-1)
            O = A @ E @ h["WV"] @ h["WO"]
            outs.append(O)
            Y = Y + O
        flat = Y.reshape(-1, d)
        D = ((flat[:, None, :] - P[None]) ** 2).sum(-1)
        Q = torch.softmax(-D / tau, dim=1)
        Fe = -(tau * torch.logsumexp(-D / tau, dim=1)).mean()
        Zt = (Q @ P).reshape(Y.shape)
        out = (Y + Zt) @ WR + bR
        return out, Fe, Y, outs

    check = 0
    for step in range(steps):
        X = torch.randn(batch, n, d, dtype=dt) * g.sqrt()
        with torch.no_grad():
            T = teacher(X)
        out, Fe, Y, outs = forward(X)
        task = ((out - T) ** 2).sum(-1).mean()
        loss = task + beta_dict * Fe
        if temp_state:
            tl = 0
            for hi, O in enumerate(outs):
                if hi >= len(temp_state["P"]):
                    break
                Oh = O.detach().reshape(-1, d)[:512]
                Ph = temp_state["P"][hi]
                th = temp_state["tmin"] + torch.nn.functional.softplus(temp_state["s"][hi])
                Dh = ((Oh[:, None] - Ph[None]) ** 2).sum(-1)
                Qh = torch.softmax(-Dh / th, dim=1)
                tl = tl + (Qh * Dh).sum(1).mean()  # L_q with live q drives P_h and s_h
            temp_state["opt"].zero_grad()
            tl.backward()
            temp_state["opt"].step()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == arm_step and len(heads) >= 1:
            with torch.no_grad():
                lam1 = []
                Ps = []
                for O in outs:
                    Oh = O.detach().reshape(-1, d)
                    C = torch.cov(Oh.T, correction=0)
                    lam1.append(float(torch.linalg.eigvalsh(C)[-1]))
                    Ps.append(Oh.mean(0) + 1e-3 * math.sqrt(max(lam1[-1], 1e-12)) * torch.randn(4, d, dtype=dt))
                tau0 = 4 * float(np.median(lam1)) if max(lam1) > 0 else 1.0
                tmin = 1e-3 * tau0
                s0 = math.log(math.expm1(tau0 - tmin))
                Ps = [torch.nn.Parameter(p) for p in Ps]
                ss = [torch.nn.Parameter(torch.tensor(s0, dtype=dt)) for _ in Ps]
                temp_state = {"P": Ps, "s": ss, "tmin": tmin, "tau0": tau0, "lam1": lam1,
                              "opt": torch.optim.SGD([{"params": Ps, "lr": 0.05}, {"params": ss, "lr": 0.05}])}
        if step % 5 != 4:
            continue
        check += 1
        with torch.no_grad():
            G = (X.transpose(1, 2) @ X).mean(0).numpy()
            Ms = [((h["WQ"] @ h["WK"].T) / sqdk).numpy() for h in heads]
            Mas = [(M - M.T) / 2 for M in Ms]
            Macum = sum(Mas)
            S = (G @ Macum + (G @ Macum).T) / 2
            A = residual_operator(S, U if U.shape[1] else None)
            w, V = np.linalg.eigh((A + A.T) / 2)
            gn = float(np.linalg.norm(G, 2))
            s_hat = float(w[-1]) / gn
            Yf = Y.detach().reshape(-1, d).numpy()
            Cy = np.cov(Yf.T, bias=True)
            lam1y = float(np.linalg.eigvalsh(Cy)[-1])
            Pn = P.detach().numpy()
            Dp = np.sqrt(((Pn[:, None] - Pn[None]) ** 2).sum(-1))
            sep_min = float(Dp[np.triu_indices(K, 1)].min() / math.sqrt(np.trace(Cy)))
            gamma = (2 / K) * (2 * lam1y / tau - 1)
            headnorms = [float(np.linalg.norm(G @ Ma)) for Ma in Mas]
            energies = [float((O.detach() ** 2).sum(-1).mean()) for O in outs]
            rec = {"step": step + 1, "H": len(heads), "recorded": U.shape[1], "s_G": s_hat,
                   "lambda_max": float(w[-1]), "lambda_min": float(w[0]), "task": float(task.detach()),
                   "F": float(Fe.detach()), "F_rel": float(Fe.detach()) - float(np.trace(Cy)), "sep_min": sep_min,
                   "gamma_max": gamma, "head_GMa": headnorms, "head_energy": energies}
            if temp_state:
                rec["tau_h"] = [float(temp_state["tmin"] + torch.nn.functional.softplus(s)) for s in temp_state["s"]]
            log.checks.append(rec)
            # pruning (the code's rule), never the last head
            for hi in range(len(heads) - 1, -1, -1):
                births_age[hi] += 1
                if headnorms[hi] < 0.01 * theta * gn:
                    below[hi] += 1
                else:
                    below[hi] = 0
                if len(heads) > 1 and births_age[hi] >= prune_age and below[hi] >= prune_consecutive:
                    log.prunings.append({"step": step + 1, "head": hi, "energy": energies[hi],
                                         "GMa_F": headnorms[hi]})
                    del heads[hi], births_age[hi], below[hi]
                    opt = torch.optim.Adam([P, WR, bR] + [p for h in heads for p in h.values()], lr=lr)
            if s_hat > theta and check - last_growth_check >= dwell_checks and len(heads) < max_heads \
                    and U.shape[1] < d:
                up, um = V[:, -1], V[:, 0]
                U = np.column_stack([U, up])
                last_growth_check = check
                ev = {"step": step + 1, "s_G": s_hat, "lambda_max": float(w[-1]), "direction": up.tolist(),
                      "added_head": U.shape[1] > 1}
                if U.shape[1] > 1:
                    WQ = torch.zeros(d, dk, dtype=dt)
                    WK = torch.zeros(d, dk, dtype=dt)
                    sig = 0.1
                    WQ[:, 0], WQ[:, 1] = sig * torch.tensor(up), sig * torch.tensor(um)
                    WK[:, 0], WK[:, 1] = sig * torch.tensor(um), -sig * torch.tensor(up)
                    h = new_head(WQ * math.sqrt(sqdk), WK * math.sqrt(sqdk))
                    heads.append(h)
                    births_age.append(0)
                    below.append(0)
                    opt.add_param_group({"params": list(h.values())})
                # which planted plane does the direction live in?
                mass = [float(up[2 * j] ** 2 + up[2 * j + 1] ** 2) for j in range(6)] + [float((up[12:] ** 2).sum())]
                ev["plane"] = int(np.argmax(mass)) + 1
                log.births.append(ev)
    last = log.checks[-1] if log.checks else {}
    log.summary = {"r": r, "seed": seed, "steps": steps, "theta": theta, "blind": blind,
                   "symmetric_teacher": symmetric_teacher, "recorded": int(U.shape[1]),
                   "heads": max(1, int(U.shape[1])), "heads_alive": len(heads),
                   "heads_code_convention": int(U.shape[1]) + 1, "predicted": max(1, predicted_count(r, theta, blind=blind)),
                   "final_s_G": last.get("s_G"), "final_task": last.get("task"),
                   "birth_planes": [b["plane"] for b in log.births], "birth_s_G": [b["s_G"] for b in log.births],
                   "prunings": len(log.prunings)}
    if temp_state:
        log.summary["tau0"] = temp_state["tau0"]
        log.summary["lambda1_heads"] = temp_state["lam1"]
        log.summary["tau_final"] = last.get("tau_h")
    return log
