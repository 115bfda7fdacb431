"""Claims of arXiv:2502.02270, "Exact Sequence Interpolation with Transformers" (spec: interpolation.md).

The Claim objects live in ``_claims_<group>.py`` (softmax, hardmax, lemmas, training, faithful) and
their statements in ``_statements_<group>.py``; this module keeps the public names and ``CLAIMS``
(which the pytest plugin collects: a ``claims.py`` that imports ``verify`` and holds toolkit Claims).
"""

from __future__ import annotations

from verify import Claim

from ._claims_common import HYP, PAPER
from ._claims_faithful import HARDMAX_THEOREM, RESNET_ORDER, SOFTMAX_THEOREM, TIKHONOV_AS_STATED
from ._claims_hardmax import HARDMAX_BLOCKS, HARDMAX_EXACT, HARDMAX_PARAMS, LENGTH_INDEPENDENCE
from ._claims_lemmas import ASSUMPTIONS_NECESSARY, BOX_TO_CORNER, RANK_ONE_COLLAPSE, SPHERE_FIXED
from ._claims_softmax import SOFTMAX_BLOCKS, SOFTMAX_EXACT, SOFTMAX_TO_HARDMAX
from ._claims_training import RESNET, TIKHONOV_LINEAR, TIKHONOV_UPPER

__all__ = ["CLAIMS", "HYP", "PAPER"]

CLAIMS: tuple[Claim, ...] = (HARDMAX_EXACT, HARDMAX_BLOCKS, HARDMAX_PARAMS, SOFTMAX_EXACT, SOFTMAX_BLOCKS,
          LENGTH_INDEPENDENCE, RANK_ONE_COLLAPSE, BOX_TO_CORNER, SPHERE_FIXED, SOFTMAX_TO_HARDMAX,
          ASSUMPTIONS_NECESSARY, TIKHONOV_UPPER, TIKHONOV_LINEAR, RESNET,
          HARDMAX_THEOREM, SOFTMAX_THEOREM, TIKHONOV_AS_STATED, RESNET_ORDER)
