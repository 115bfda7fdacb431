"""Mutations of the ddcl code (see tests/mutation/_model.py for the format)."""

from ._model import Mutation

MUTATIONS: list[Mutation] = [
    Mutation(
        id="ddcl.dictionary.pairwise_half_dropped",
        path="theorems/ddcl_incrt/dictionary.py",
        old="return total / 2 if half else total",
        new="return total if half else total",
        kills=("ddcl.dictionary.decomposition",),
        why="the pairwise form of V loses its factor 1/2",
        family="formula",
    ),
]
