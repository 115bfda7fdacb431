"""Mutations of the focus code (see tests/mutation/_model.py for the format)."""

from ._model import Mutation

MUTATIONS: list[Mutation] = [
]
