"""arXiv:2605.01199, "Focus and Dilution: The Multi-stage Learning Process of Attention".

Spec: the toolkit's focus-and-dilution specification (claims ``focus.*``).  Public API:

* :class:`MarkovChain` (``MarkovChain(P)``, ``MarkovChain.lazy(pi, lam)``) and the chain families of
  :mod:`numerics.markov`;
* :func:`reference_quantities` -- log d, H(pi), H(Y|X), n2, mu0, s_c^2, K1, K2, the attention growth rate c
  and the redistribution vector rho, at ``dps`` digits;
* :func:`symmetry_breaking_rate` -- the top transverse eigenvalue lambda_perp(delta) at the perturbed
  degenerate point (Lyapunov-Schmidt, spec §4.14);
* :func:`run_flow` -- the population gradient flow; the returned :class:`Trajectory` gives the loss,
  attention, singular values, ``stages()`` (plateaus and drops) and :func:`events` (the ordered events);
* :func:`population_loss`, :func:`grad_M_Phi`, :func:`param_grads` -- the closed forms (any backend).
"""

from numerics.markov import MarkovChain

from .critical_points import degenerate_point, symmetry_breaking_rate
from .flow import Trajectory, events, run_flow, run_reduced, reduced_state, theta_c1
from .population import grad_M_Phi, param_grads, population_loss, reference_quantities

__all__ = [
    "MarkovChain",
    "reference_quantities",
    "symmetry_breaking_rate",
    "run_flow",
    "Trajectory",
    "events",
    "run_reduced",
    "reduced_state",
    "theta_c1",
    "degenerate_point",
    "population_loss",
    "grad_M_Phi",
    "param_grads",
]
