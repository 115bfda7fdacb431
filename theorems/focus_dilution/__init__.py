"""arXiv:2605.01199, "Focus and Dilution: The Multi-stage Learning Process of Attention".

Spec: the toolkit's focus-and-dilution specification (claims ``focus.*``).
"""
