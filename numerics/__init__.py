"""Reusable mathematics shared by the papers' claims; knows nothing of papers or reports.

Modules: ``exact`` (rationals), ``precision`` (mpmath contexts, arb balls, three-valued comparisons),
``arithmetic`` (the arithmetic interface kernels are written against), ``compiled`` (float64 kernels
traced from that generic code and compiled by symengine's LLVM backend), ``attention`` (hardmax and
softmax kernels), ``linalg`` (certified spectra), ``strategies`` (public hypothesis strategies).
"""
