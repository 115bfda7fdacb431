"""Claims of arXiv:2604.01880, DDCL-INCRT (spec: ddcl_incrt.md).

Each seed theorem maps to a claim through an explicit reading (spec §1.1); verdicts concern readings,
never the paper.  Only the abstract is available, so for each seed theorem the reading chosen is the
smallest concrete model in which the seed's sentence becomes a falsifiable statement, with every
quantity defined by the spec (§2.5) rather than invented here:

* Theorem 2 -> ``ddcl.separation.amplification`` (M-cat, CERTIFIED); the code's residual sum as
  ``..._additive`` (REFUTED, repaired as ``..._additive_uncorrelated``).  "Separation force" is the
  collapse instability, the only scale-free force defined; "adding a head" is appending its channel.
* Theorem 3 -> ``ddcl.temperature.sign_laws`` and ``ddcl.temperature.divergence`` (per-head learnable
  temperatures, L_q-driven; MEASURED), ``..._free_energy`` (F-driven, REFUTED).
* Theorem 4 -> ``ddcl.mlp_vs_dictionary`` (directional information of equal-rank bases) and
  ``ddcl.mlp_vs_dictionary.trained`` (MEASURED).
* Theorem 6 -> ``ddcl.pruning.safety`` (quantitative bounds), ``ddcl.pruning.force_kept`` ("kept or
  increased", REFUTED) and ``ddcl.pruning.force_kept_with_margin`` (CERTIFIED).
* Theorem 8 -> ``ddcl.lyapunov.free_energy`` (stopgrad, fixed tau) and ``ddcl.lyapunov.full_gradient``
  (REFUTED).
* Theorem 10 -> ``ddcl.growth.unique_minimal`` (greedy growth on a fixed operator: span unique) and
  ``ddcl.growth.only_minimal_structure`` (REFUTED).

Each claim's ``reading`` says why that reading is the most faithful one available.
"""

from __future__ import annotations

from verify import Claim

# every claim lives in a module named by what it holds; this module keeps the public names and the
# CLAIMS order (which the pytest plugin collects: a claims.py that imports verify and holds Claims)
from ._claims_common import PAPER  # noqa: F401 - re-exported for older imports
from ._claims_dictionary import DECOMPOSITION, GRADIENTS, HULL_F, HULL_FULL
from ._claims_growth import SIGNAL, SPECTRAL_ORDER, UNIQUE, UNIQUE_ONLINE, UNIQUE_R0
from ._claims_lyapunov import LYAPUNOV, LYAPUNOV_AS_STATED, LYAPUNOV_FULL
from ._claims_mlp import MLP, MLP_AS_STATED, MLP_TRAINED
from ._claims_pruning import PRUNING, PRUNING_KEPT, PRUNING_MARGIN, PRUNING_PER_HEAD
from ._claims_separation import (AMPLIFICATION, AMPLIFICATION_ADD, AMPLIFICATION_ADD_OK, AMPLIFICATION_INCRT,
                                 AMPLIFICATION_INCRT_WEAK, CRITICAL, OBJECTIVE_ALONE, UNCONDITIONAL)
from ._claims_temperature import TEMP_AS_STATED, TEMP_DIVERGENCE, TEMP_F, TEMP_SIGNS
from ._claims_tracker import (DWELL, DWELL_OK, TRACKER_COUPLED_THRESHOLDS, TRACKER_FIXED, TRACKER_MCA,
                              TRACKER_MCA_OK, TRACKER_NORM, TRACKER_UNCOUPLED)

CLAIMS: tuple[Claim, ...] = (DECOMPOSITION, GRADIENTS, HULL_FULL, HULL_F, CRITICAL, UNCONDITIONAL, AMPLIFICATION,
          AMPLIFICATION_ADD, AMPLIFICATION_ADD_OK, TEMP_SIGNS, TEMP_DIVERGENCE, TEMP_F, MLP, MLP_TRAINED,
          PRUNING, PRUNING_KEPT, PRUNING_MARGIN, LYAPUNOV, LYAPUNOV_FULL, SIGNAL, SPECTRAL_ORDER, UNIQUE,
          UNIQUE_R0, TRACKER_FIXED, TRACKER_COUPLED_THRESHOLDS, TRACKER_UNCOUPLED, TRACKER_NORM, TRACKER_MCA,
          TRACKER_MCA_OK, DWELL, DWELL_OK,
          # faithful (as-stated) readings of the seed theorems
          AMPLIFICATION_INCRT, AMPLIFICATION_INCRT_WEAK, PRUNING_PER_HEAD, OBJECTIVE_ALONE, MLP_AS_STATED,
          UNIQUE_ONLINE, LYAPUNOV_AS_STATED, TEMP_AS_STATED)
