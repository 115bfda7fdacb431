"""Public hypothesis strategies of the toolkit (explicit re-exports of the private modules).

Every strategy validates its arguments eagerly and raises :class:`StrategyArgumentError`.

* ``_core``       shared: rationals, vectors, simplex rows, attention rows.
* ``_sequences``  interpolation datasets (valid and invalid), arXiv:2502.02270.
* ``_markov``     Markov chains of the focus-and-dilution spec, arXiv:2605.01199.
* ``_spd``        covariances, data sets, heads and traceless spectra, arXiv:2604.01880.
"""

from ._core import (
    StrategyArgumentError,
    attention_rows,
    rational_vectors,
    rationals,
    simplex_rows,
)
from ._markov import *  # noqa: F401,F403  (each module lists its public names in __all__)
from ._sequences import *  # noqa: F401,F403
from ._spd import *  # noqa: F401,F403
from . import _markov, _sequences, _spd

__all__ = [
    "StrategyArgumentError",
    "attention_rows",
    "rational_vectors",
    "rationals",
    "simplex_rows",
    *_sequences.__all__,
    *_markov.__all__,
    *_spd.__all__,
]
