"""arXiv:2502.02270, "Exact Sequence Interpolation with Transformers" (Alcalde, Fantuzzi, Zuazua).

Spec: the toolkit's interpolation specification (claims ``interp.*``).
"""
