"""Claims of arXiv:2605.01199, Focus and Dilution (spec: focus_dilution.md).

All claims are about the reconstructed one-layer model of spec §2 (reading A1: no value matrix,
residual, LayerNorm, positions or biases; the query attends over all s positions, itself included).
Each claim states what the quick profile covers in its checks' docstrings.

The Claim objects live in ``_claims_<group>.py`` (model, spectra, dynamics, stage4, as_stated) and their
statements in ``_statements_<group>.py``; this module keeps the public names and ``CLAIMS`` (which the
pytest plugin collects: a ``claims.py`` that imports ``verify`` and holds toolkit Claims).
"""

from __future__ import annotations

from verify import Claim

from ._claims_as_stated import (CONDENSATION_AS_STATED, CYCLE_AS_STATED, DILUTION_AS_STATED, FOCUS_AS_STATED,
                                OPPOSITE_AS_STATED, OPPOSITE_SINGULAR, SADDLE_AS_STATED)
from ._claims_common import PAPER, SEED
from ._claims_dynamics import (ANTI_FOCUS, CONDENSATION, DILUTION, FOCUS_DIRECTION, PLATEAUS,
                               REDISTRIBUTION)
from ._claims_model import CONSERVATION, GRADIENTS, POPULATION_LIMIT
from ._claims_spectra import GROWTH_SIGN, ORIGIN_SPECTRUM, SADDLE_EIGEN, SADDLE_LOCATION
from ._claims_stage4 import (DEGENERATE_POINT, DEGENERATE_POINT_CERTIFIED, LYAPUNOV_SCHMIDT, STALL,
                             STALL_ALL, TRANSVERSE_AS_STATED, TRANSVERSE_CERTIFIED)

__all__ = ["CLAIMS", "PAPER", "SEED"]

CLAIMS: tuple[Claim, ...] = (
    POPULATION_LIMIT, GRADIENTS, CONSERVATION, ORIGIN_SPECTRUM, CONDENSATION, SADDLE_LOCATION,
    SADDLE_EIGEN, FOCUS_DIRECTION, GROWTH_SIGN, REDISTRIBUTION, DILUTION, PLATEAUS, DEGENERATE_POINT,
    DEGENERATE_POINT_CERTIFIED, STALL, STALL_ALL, LYAPUNOV_SCHMIDT, TRANSVERSE_CERTIFIED, ANTI_FOCUS,
    CONDENSATION_AS_STATED, SADDLE_AS_STATED, FOCUS_AS_STATED, OPPOSITE_AS_STATED, OPPOSITE_SINGULAR,
    DILUTION_AS_STATED, CYCLE_AS_STATED, TRANSVERSE_AS_STATED)
