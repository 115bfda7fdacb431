"""Strategies: placeholder, filled by the paper issue."""

__all__: list[str] = []
