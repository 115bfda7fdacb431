"""arXiv:2604.01880, "DDCL-INCRT: A Self-Organising Transformer with Hierarchical Prototype Structure".

Spec: the toolkit's DDCL-INCRT specification (claims ``ddcl.*``).  Only the paper's abstract was
available; every claim states the reading under which it is checked.

Public API
----------
* :func:`critical_temperature` ``(data, mode="full" | "free_energy")``: tau_c = c lambda_1(C) with a
  certified arb enclosure (c = 4 full, 2 free energy / stopgrad);
* :func:`collapse_is_stable` ``(data, K, tau, mode)``: three-valued certified answer
  (:class:`numerics.precision.Tri`) with its evidence;
* :func:`greedy_growth` ``(signal, threshold)``: the grown directions in order (exact greedy INCRT);
* :class:`DictionaryBlock`: the dictionary block as a torch ``nn.Module`` (imported lazily).
"""

from __future__ import annotations

from typing import Any

from .hessian import CriticalTemperature, Stability, collapse_is_stable, critical_temperature
from .incrt import GrowthResult, greedy_growth, growth_signal, residual_operator

__all__ = [
    "critical_temperature",
    "CriticalTemperature",
    "collapse_is_stable",
    "Stability",
    "greedy_growth",
    "GrowthResult",
    "growth_signal",
    "residual_operator",
    "DictionaryBlock",
]


def __getattr__(name: str) -> Any:  # torch is imported only when the module is asked for
    if name == "DictionaryBlock":
        from .dictionary_torch import DictionaryBlock

        return DictionaryBlock
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
