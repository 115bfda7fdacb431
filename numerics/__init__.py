"""Reusable mathematics shared by the papers' claims; knows nothing of papers or reports.

Modules: ``exact`` (rationals), ``precision`` (mpmath contexts, arb balls, three-valued comparisons),
``arithmetic`` (the arithmetic interface kernels are written against), ``attention`` (hardmax and
softmax kernels), ``linalg`` (certified spectra), ``strategies`` (public hypothesis strategies).
"""
