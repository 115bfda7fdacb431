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


def _plane_projection(d: int, a: int, b: int, dt):
    import torch

    Pi = torch.zeros(d, d, dtype=dt)
    Pi[a, a] = Pi[b, b] = 1
    return Pi


def planted_teacher(r: int, *, d: int, blind: bool, symmetric_teacher: bool, dt):
    """The teacher of §4.4: X -> sum_{j in J} softmax(X B_j X^T) X Pi_j (plus, for the r = 0 control with
    ``symmetric_teacher``, the symmetric forms diag(1, -1) on planes 1-3)."""
    import torch

    Bs = [torch.tensor(B, dtype=dt) for B in planted_relations(r, d=d, blind=blind)]
    planes = [_plane_projection(d, *((12, 13) if blind and j == r - 1 else (2 * j, 2 * j + 1)), dt)
              for j in range(r)]
    forms = list(zip(Bs, planes))
    if symmetric_teacher:
        for j in range(3):
            S = torch.zeros(d, d, dtype=dt)
            S[2 * j, 2 * j], S[2 * j + 1, 2 * j + 1] = 1.0, -1.0
            forms.append((S, _plane_projection(d, 2 * j, 2 * j + 1, dt)))

    def teacher(X):
        Y = torch.zeros_like(X)
        for B, Pi in forms:
            Y = Y + torch.softmax(X @ B @ X.transpose(1, 2), dim=-1) @ X @ Pi
        return Y

    return teacher


@dataclass
class _Config:
    r: int
    seed: int
    steps: int
    theta: float
    batch: int
    n: int
    d: int
    dk: int
    K: int
    lr: float
    beta_dict: float
    blind: bool
    symmetric_teacher: bool
    max_heads: int
    dwell_checks: int
    prune_age: int
    prune_consecutive: int
    arm_fraction: float


class _PlantedRun:
    """State of one coupled run; each method is one named step of §2.6 (train, arm the temperature
    dictionaries, observe at a check, prune, grow, summarise)."""

    def __init__(self, cfg: _Config):
        import torch

        self.cfg = cfg
        torch.manual_seed(cfg.seed)
        self.dt = dt = torch.float64
        d = cfg.d
        self.g = torch.tensor(planted_sigma(d), dtype=dt)
        self.teacher = planted_teacher(cfg.r, d=d, blind=cfg.blind, symmetric_teacher=cfg.symmetric_teacher,
                                       dt=dt)
        self.sqdk = math.sqrt(cfg.dk)
        self.heads = [self._new_head(WO_zero=False)]
        self.P = torch.nn.Parameter(0.01 * torch.randn(cfg.K, d, dtype=dt))
        self.WR = torch.nn.Parameter(torch.eye(d, dtype=dt) * 0.0 + 0.01 * torch.randn(d, d, dtype=dt))
        self.bR = torch.nn.Parameter(torch.zeros(d, dtype=dt))
        self.opt = self._optimiser()
        self.tau = 1.0
        self.U = np.zeros((d, 0))
        self.log = RunLog()
        self.births_age = [0]
        self.below = [0]
        self.last_growth_check = -10**9
        self.temp_state: dict[str, Any] = {}
        self.arm_step = int(cfg.arm_fraction * cfg.steps)
        self.check = 0

    def _new_head(self, WQ=None, WK=None, WO_zero=True):
        import torch

        d, dk, dt = self.cfg.d, self.cfg.dk, self.dt
        return {
            "WQ": torch.nn.Parameter(WQ if WQ is not None else 1e-2 * torch.randn(d, dk, dtype=dt)),
            "WK": torch.nn.Parameter(WK if WK is not None else 1e-2 * torch.randn(d, dk, dtype=dt)),
            "WV": torch.nn.Parameter(torch.randn(d, dk, dtype=dt) / math.sqrt(d)),
            "WO": torch.nn.Parameter(torch.zeros(dk, d, dtype=dt) if WO_zero
                                     else torch.randn(dk, d, dtype=dt) / math.sqrt(dk)),
        }

    def _optimiser(self):
        import torch

        return torch.optim.Adam([self.P, self.WR, self.bR] + [p for h in self.heads for p in h.values()],
                                lr=self.cfg.lr)

    def forward(self, X):
        """Y = E + sum_h O^h, dictionary (free energy F at tau) on Y, readout of Y + Q(Y) P."""
        import torch

        E, d = X, self.cfg.d
        outs = []
        Y = E
        for h in self.heads:
            sc = (E @ h["WQ"]) @ (E @ h["WK"]).transpose(1, 2) / self.sqdk
            O = torch.softmax(sc, dim=-1) @ E @ h["WV"] @ h["WO"]
            outs.append(O)
            Y = Y + O
        flat = Y.reshape(-1, d)
        D = ((flat[:, None, :] - self.P[None]) ** 2).sum(-1)
        Q = torch.softmax(-D / self.tau, dim=1)
        Fe = -(self.tau * torch.logsumexp(-D / self.tau, dim=1)).mean()
        Zt = (Q @ self.P).reshape(Y.shape)
        return (Y + Zt) @ self.WR + self.bR, Fe, Y, outs

    def _temperature_step(self, outs) -> None:
        """One SGD step of the per-head dictionaries: L_q with live q drives P_h and s_h."""
        import torch

        ts = self.temp_state
        tl = 0
        for hi, O in enumerate(outs):
            if hi >= len(ts["P"]):
                break
            Oh = O.detach().reshape(-1, self.cfg.d)[:512]
            th = ts["tmin"] + torch.nn.functional.softplus(ts["s"][hi])
            Dh = ((Oh[:, None] - ts["P"][hi][None]) ** 2).sum(-1)
            tl = tl + (torch.softmax(-Dh / th, dim=1) * Dh).sum(1).mean()
        ts["opt"].zero_grad()
        tl.backward()
        ts["opt"].step()

    def _arm_temperatures(self, outs) -> None:
        """Per-head dictionaries (K = 4) near each head output's mean; tau_0 = 4 median_h
        lambda_1(Cov O^h)."""
        import torch

        d, dt = self.cfg.d, self.dt
        with torch.no_grad():
            lam1, Ps = [], []
            for O in outs:
                Oh = O.detach().reshape(-1, d)
                lam1.append(float(torch.linalg.eigvalsh(torch.cov(Oh.T, correction=0))[-1]))
                Ps.append(Oh.mean(0) + 1e-3 * math.sqrt(max(lam1[-1], 1e-12)) * torch.randn(4, d, dtype=dt))
            tau0 = 4 * float(np.median(lam1)) if max(lam1) > 0 else 1.0
            tmin = 1e-3 * tau0
            s0 = math.log(math.expm1(tau0 - tmin))
            Ps = [torch.nn.Parameter(p) for p in Ps]
            ss = [torch.nn.Parameter(torch.tensor(s0, dtype=dt)) for _ in Ps]
            self.temp_state = {"P": Ps, "s": ss, "tmin": tmin, "tau0": tau0, "lam1": lam1,
                               "opt": torch.optim.SGD([{"params": Ps, "lr": 0.05}, {"params": ss, "lr": 0.05}])}

    def train_step(self, step: int) -> None:
        """One optimiser step (task MSE + beta_dict F), the temperature step once armed, and every 5th
        step a growth check."""
        import torch

        cfg = self.cfg
        X = torch.randn(cfg.batch, cfg.n, cfg.d, dtype=self.dt) * self.g.sqrt()
        with torch.no_grad():
            T = self.teacher(X)
        out, Fe, Y, outs = self.forward(X)
        task = ((out - T) ** 2).sum(-1).mean()
        loss = task + cfg.beta_dict * Fe
        if self.temp_state:
            self._temperature_step(outs)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        if step == self.arm_step and len(self.heads) >= 1:
            self._arm_temperatures(outs)
        if step % 5 != 4:
            return
        self.check += 1
        with torch.no_grad():
            rec, w, V, gn = self._observe(step, X, Y, outs, task, Fe)
            self._prune(step, rec["head_GMa"], rec["head_energy"], gn)
            if self._may_grow(rec["s_G"]):
                self._grow(step, rec["s_G"], w, V)

    def _observe(self, step, X, Y, outs, task, Fe):
        """The check's log record (§2.6): the residual spectrum, s_G, F, F_rel, sep_min, gamma_max, per-head
        |G M_a^h|_F and output energies."""
        import torch

        K, d = self.cfg.K, self.cfg.d
        G = (X.transpose(1, 2) @ X).mean(0).numpy()
        Mas = [(M - M.T) / 2 for M in (((h["WQ"] @ h["WK"].T) / self.sqdk).numpy() for h in self.heads)]
        Macum = sum(Mas)
        S = (G @ Macum + (G @ Macum).T) / 2
        A = residual_operator(S, self.U if self.U.shape[1] else None)
        w, V = np.linalg.eigh((A + A.T) / 2)
        gn = float(np.linalg.norm(G, 2))
        Cy = np.cov(Y.detach().reshape(-1, d).numpy().T, bias=True)
        lam1y = float(np.linalg.eigvalsh(Cy)[-1])
        Pn = self.P.detach().numpy()
        Dp = np.sqrt(((Pn[:, None] - Pn[None]) ** 2).sum(-1))
        rec = {"step": step + 1, "H": len(self.heads), "recorded": self.U.shape[1], "s_G": float(w[-1]) / gn,
               "lambda_max": float(w[-1]), "lambda_min": float(w[0]), "task": float(task.detach()),
               "F": float(Fe.detach()), "F_rel": float(Fe.detach()) - float(np.trace(Cy)),
               "sep_min": float(Dp[np.triu_indices(K, 1)].min() / math.sqrt(np.trace(Cy))),
               "gamma_max": (2 / K) * (2 * lam1y / self.tau - 1),
               "head_GMa": [float(np.linalg.norm(G @ Ma)) for Ma in Mas],
               "head_energy": [float((O.detach() ** 2).sum(-1).mean()) for O in outs]}
        if self.temp_state:
            ts = self.temp_state
            rec["tau_h"] = [float(ts["tmin"] + torch.nn.functional.softplus(s)) for s in ts["s"]]
        self.log.checks.append(rec)
        return rec, w, V, gn

    def _prune(self, step, headnorms, energies, gn) -> None:
        """The code's rule: a head of age >= prune_age checks with |G M_a^h|_F < 0.01 theta |G|_2 on
        prune_consecutive consecutive checks is removed (never the last head; its U column stays)."""
        cfg = self.cfg
        for hi in range(len(self.heads) - 1, -1, -1):
            self.births_age[hi] += 1
            self.below[hi] = self.below[hi] + 1 if headnorms[hi] < 0.01 * cfg.theta * gn else 0
            if len(self.heads) > 1 and self.births_age[hi] >= cfg.prune_age \
                    and self.below[hi] >= cfg.prune_consecutive:
                self.log.prunings.append({"step": step + 1, "head": hi, "energy": energies[hi],
                                          "GMa_F": headnorms[hi]})
                del self.heads[hi], self.births_age[hi], self.below[hi]
                self.opt = self._optimiser()

    def _may_grow(self, s_hat: float) -> bool:
        cfg = self.cfg
        return (s_hat > cfg.theta and self.check - self.last_growth_check >= cfg.dwell_checks
                and len(self.heads) < cfg.max_heads and self.U.shape[1] < cfg.d)

    def _grow(self, step, s_hat, w, V) -> None:
        """Record the top residual direction u+; from the second record on, add a plane-initialised head
        (W_Q = sigma[u+, u-], W_K = sigma[u-, -u+], sigma = 0.1, W_O = 0) with fresh optimiser state."""
        import torch

        d, dk, dt = self.cfg.d, self.cfg.dk, self.dt
        up, um = V[:, -1], V[:, 0]
        self.U = np.column_stack([self.U, up])
        self.last_growth_check = self.check
        ev = {"step": step + 1, "s_G": s_hat, "lambda_max": float(w[-1]), "direction": up.tolist(),
              "added_head": self.U.shape[1] > 1}
        if self.U.shape[1] > 1:
            WQ = torch.zeros(d, dk, dtype=dt)
            WK = torch.zeros(d, dk, dtype=dt)
            sig = 0.1
            WQ[:, 0], WQ[:, 1] = sig * torch.tensor(up), sig * torch.tensor(um)
            WK[:, 0], WK[:, 1] = sig * torch.tensor(um), -sig * torch.tensor(up)
            h = self._new_head(WQ * math.sqrt(self.sqdk), WK * math.sqrt(self.sqdk))
            self.heads.append(h)
            self.births_age.append(0)
            self.below.append(0)
            self.opt.add_param_group({"params": list(h.values())})
        # which planted plane does the direction live in?
        mass = [float(up[2 * j] ** 2 + up[2 * j + 1] ** 2) for j in range(6)] + [float((up[12:] ** 2).sum())]
        ev["plane"] = int(np.argmax(mass)) + 1
        self.log.births.append(ev)

    def finish(self) -> RunLog:
        """The run's summary: recorded directions, head counts (both conventions), the prediction, births."""
        cfg, log, U = self.cfg, self.log, self.U
        last = log.checks[-1] if log.checks else {}
        log.summary = {"r": cfg.r, "seed": cfg.seed, "steps": cfg.steps, "theta": cfg.theta, "blind": cfg.blind,
                       "symmetric_teacher": cfg.symmetric_teacher, "recorded": int(U.shape[1]),
                       "heads": max(1, int(U.shape[1])), "heads_alive": len(self.heads),
                       "heads_code_convention": int(U.shape[1]) + 1,
                       "predicted": max(1, predicted_count(cfg.r, cfg.theta, blind=cfg.blind)),
                       "final_s_G": last.get("s_G"), "final_task": last.get("task"),
                       "birth_planes": [b["plane"] for b in log.births], "birth_s_G": [b["s_G"] for b in log.births],
                       "prunings": len(log.prunings)}
        if self.temp_state:
            log.summary["tau0"] = self.temp_state["tau0"]
            log.summary["lambda1_heads"] = self.temp_state["lam1"]
            log.summary["tau_final"] = last.get("tau_h")
        return log


def run_planted(r: int, *, seed: int = 0, steps: int = 30000, theta: float = 0.08, batch: int = 64,
                n: int = 32, d: int = 16, dk: int = 8, K: int = 8, lr: float = 3e-3, beta_dict: float = 0.1,
                blind: bool = False, symmetric_teacher: bool = False, max_heads: int = 16,
                dwell_checks: int = 20, prune_age: int = 100, prune_consecutive: int = 100,
                arm_fraction: float = 0.6) -> RunLog:
    """One coupled run on the planted task (float64, CPU).  Returns the log of §2.6 (subset)."""
    run = _PlantedRun(_Config(r, seed, steps, theta, batch, n, d, dk, K, lr, beta_dict, blind, symmetric_teacher,
                              max_heads, dwell_checks, prune_age, prune_consecutive, arm_fraction))
    for step in range(steps):
        run.train_step(step)
    return run.finish()
