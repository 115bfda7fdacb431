"""Figure data for the HTML report (issue 13): small series computed from the product code.

* :func:`stage_positions` -- the hardmax construction's token positions after each stage (spec §3.2-3.4:
  separation S, leader placement and collapse P, interpolation I), from the exact evaluator run block
  by block; the points are the union over all sequences (a set: tokens that coincide are drawn once).
* :func:`ridge_min_J_curve` -- min J_eps of the ridge reference model against eps with the bound
  eps |V_mn|^2 (spec §5.2), from :mod:`.training`'s closed forms.
"""

from __future__ import annotations

from typing import Any

from .exact_state import ExactState

__all__ = ["ridge_min_J_curve", "stage_positions"]

_STAGE_NAMES = {"S": "after separation S", "P": "after placement + collapse P",
                "I": "after interpolation I", "line": "after line map", "pad": "after padding"}


def _points(st: ExactState) -> list[tuple[float, float]]:
    pts = {(float(t[0]), float(t[1])) for s in st.sequences() for t in s}
    return sorted(pts)


def stage_positions(model: Any) -> list[tuple[str, list[tuple[float, float]]]]:
    """``[(label, points), ...]``: the inputs, then the distinct token positions at the end of every
    stage of ``model`` (d = 2 only: the points are drawn in the plane)."""
    if model.d != 2:
        raise ValueError(f"stage_positions draws d = 2 only, got d = {model.d}")
    st = ExactState([list(x) for x in model.dataset.inputs], model.Q)
    out = [("inputs", _points(st))]
    blocks = list(model.blocks)
    for i, b in enumerate(blocks):
        st.apply(b)
        last = i + 1 == len(blocks) or blocks[i + 1].stage != b.stage
        if last:
            n = sum(1 for c in blocks if c.stage == b.stage)
            out.append((f"{_STAGE_NAMES.get(b.stage, b.stage)} ({n} blocks)", _points(st)))
    return out


def ridge_min_J_curve(eps_values: list[Any]) -> tuple[list[float], list[float], float]:
    """``(eps, min J_eps, |V_mn|^2)`` on the ridge reference instance, exact closed forms as floats."""
    from .training import ridge_min_J, ridge_mn, ridge_reference

    X, Y = ridge_reference()
    n2 = sum(v * v for v in ridge_mn(X, Y))
    xs = [float(e) for e in eps_values]
    ys = [float(ridge_min_J(X, Y, e)) for e in eps_values]
    return xs, ys, float(n2)
