"""Experiments of the focus-and-dilution spec (§5); the usage text is :data:`._cli.USAGE`."""

from __future__ import annotations

from ._cli import DEFAULT, EXPERIMENTS, USAGE, main
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

__doc__ = USAGE
