"""arXiv:2502.02270, "Exact Sequence Interpolation with Transformers" (Alcalde, Fantuzzi, Zuazua).

Spec: the toolkit's interpolation specification (claims ``interp.*``); user guide: docs/interpolation.md.

Public API::

    from theorems.interpolation import Dataset, build_interpolator
    D = Dataset(inputs, outputs)                       # validates A1-A4 and d >= 2
    model = build_interpolator(D, attention="hardmax")  # or "softmax"
    model.num_blocks, model.num_parameters, model.width
    model(X)                      # exact rational tokens (hardmax)
    model(X, tau=1e-4, dps=60)    # softmax at temperature tau, mpmath at dps digits
    model.pad_to_paper_count()    # identity blocks up to 2M+2N+1 (hardmax) / 2M+3N (softmax)
    model.to_torch()              # float64 torch.nn.Module
"""

from .construction import ConstructionError, InterpolatingTransformer, build_interpolator
from .dataset import Dataset, DatasetError

__all__ = ["Dataset", "DatasetError", "build_interpolator", "InterpolatingTransformer",
           "ConstructionError", "certify"]


def certify(model):
    """The certified temperature of a softmax model (see :func:`.softmax.certify`)."""
    from .softmax import certify as _c

    return _c(model)
