"""Mutations of the engine code (see tests/mutation/_model.py for the format)."""

from ._model import Mutation

MUTATIONS: list[Mutation] = [
]
