"""Experiments of the focus-and-dilution spec (§5): E1, the E2 delta sweep, the E3 ablation, E4 (attention
entropy and concentration curves on the E1 and E2 runs), the E5 Zipf surrogate and its sampled mode.
Prints tables and writes figures (matplotlib, Agg) to ``--out``.

    python -m theorems.focus_dilution.experiments [--profile quick|thorough] [--out figures]
                                                  [--only e1,e2,e3,e4,e5,e5s] [--e5-sampled]

quick: E1 to T = 3e4 (m = m_k = 8); E2 with delta in {0.01, 0.02} and the delta = 0 stall to 3000 plus the
lam = 0.7 escape; E3 with m = m_k = 4 to T = 1500; E4 on the E1 run and the E2 delta = 0.01 run; E5 (d = 32) to
T = 400.  thorough: the spec's horizons (E2 delta in {0, 0.005, 0.01, 0.02} to 3e4..8e3, E4 also on
delta = 0.005 and 0.02, E5 to 3000) and the sampled E5 mode.

E5s (the sampled mode, ``--only e5s`` or ``--e5-sampled``; part of the thorough default): the finite-context
model of :mod:`.markov_model` trained by full-batch gradient descent (lr 0.05, time t = lr * steps, one torch
thread) on N = 2000 fixed sequences of s = 128 tokens of the Zipf chain (d = 32, lam = 1/2, m = m_k = 8,
eps = 1e-3, seed 0), to T = 1000 (20000 steps, about a minute) in quick and T = 3000 (60000 steps, about three
minutes) in thorough, compared with the population flow to the same T, tolerances x5.  The loss is evaluated by
the exact count regrouping of spec §2.4 (the same value as markov_model.finite_context_loss, O(N d^2) a step).

The E1 and E2 trajectories are shared between E1/E2 and E4 (and the population E5 run between E5 and E5s)
through :func:`.flow.cached_flow`.
"""

from __future__ import annotations

from ._cli import DEFAULT, EXPERIMENTS, main
from ._drivers import e1, e2, e3, e5
from ._e4 import (
                  compare_sequence,
                  e4,
                  kl_rows,
                  merge_close,
                  pca_explained,
                  plateau_observables,
                  positional_entropy,
                  row_norm_report,
                  sign_flip_times,
                  turning_points,
)
from ._e5 import e5_observables, e5s, first_peak, sampled_loss, tolerance_rows, train_sampled
from ._runs import E1_PI, e1_trajectory, e2_trajectory, e5_trajectory

__all__ = ["DEFAULT", "EXPERIMENTS", "E1_PI", "compare_sequence", "e1", "e1_trajectory", "e2", "e2_trajectory", "e3",
           "e4", "e5", "e5_observables", "e5_trajectory", "e5s", "first_peak", "kl_rows", "main", "merge_close",
           "pca_explained", "plateau_observables", "positional_entropy", "row_norm_report", "sampled_loss",
           "sign_flip_times", "tolerance_rows", "train_sampled", "turning_points"]
