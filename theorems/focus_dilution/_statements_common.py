"""What the statement modules and the checks of focus_dilution share: one observation of a statement part
inside an ``explore`` body (where the body returns its observation instead of recording it), and the
combination of a body's per-part observations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verify import Observation, Verdict, combine


def part_observation(statement: Any, values: Mapping[str, Any], part: str, *, tol: float | None = None,
                     **data: Any) -> Observation:
    """The statement part ``part`` evaluated on one instance's observables, as an unrecorded
    :class:`~verify.Observation` (what ``tally.statement`` records); a refutation names the part as its
    sub-check and carries ``data``."""
    from verify import observe

    return observe.statement(statement, values, part=part, tol=tol, **data)


def first_refuted(observations: Sequence[Observation]) -> Observation:
    """The first refutation among ``observations``, else one observation at their combined (weakest)
    level with the smallest margin."""
    for o in observations:
        if o.level is Verdict.REFUTED:
            return o
    margins = [o.margin for o in observations if o.margin is not None]
    return Observation(combine([o.level for o in observations]), margin=min(margins) if margins else None)
