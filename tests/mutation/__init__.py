"""The mutation harness: proof that the checks can fail.

Each catalogue module (``catalogue_<area>.py``) lists :class:`Mutation` objects: small, plausible bugs
in a theory formula, a construction, a check or an engine rule, with the claims or tests that must
catch each.  ``python -m tests.mutation`` applies them one at a time to scratch copies of the tree, runs
what must kill them, and prints the kill rate and every survivor.  Not part of the default suite.
"""

from ._model import Mutation

__all__ = ["Mutation", "all_mutations"]


def all_mutations() -> list[Mutation]:
    """Every mutation of every catalogue module, ids unique."""
    from . import catalogue_ddcl, catalogue_engine, catalogue_focus, catalogue_interp, catalogue_models

    out: list[Mutation] = []
    for mod in (catalogue_engine, catalogue_interp, catalogue_focus, catalogue_ddcl, catalogue_models):
        out.extend(mod.MUTATIONS)
    ids = [m.id for m in out]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate mutation ids: {sorted(dup)}")
    return out
