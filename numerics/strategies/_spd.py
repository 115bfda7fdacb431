"""Strategies for the DDCL-INCRT claims (arXiv:2604.01880): data, prototypes, assignments.

The ddcl issue extends this module (spd covariances, heads, traceless spectra, ...).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from ._core import check_int, rational_vectors, simplex_rows

__all__ = ["dictionary_instances"]


def dictionary_instances(*, n_max: int = 6, k_max: int = 5, d_max: int = 4, bound: int = 10,
                         max_denominator: int = 8
                         ) -> st.SearchStrategy[tuple[list[tuple[Fraction, ...]], list[tuple[Fraction, ...]], list[list[Fraction]]]]:
    """Exact ``(Z, P, Q)``: N <= n_max rational samples in Q^d, K <= k_max prototypes, simplex rows Q.

    Prototypes are sometimes drawn from the samples themselves and sometimes collapsed (all equal),
    so the edge cases V = 0 and one-hot rows come up.
    """
    check_int("n_max", n_max, 1)
    check_int("k_max", k_max, 1)
    check_int("d_max", d_max, 1)
    check_int("bound", bound, 1)
    check_int("max_denominator", max_denominator, 1)

    @st.composite
    def _draw(draw: Any) -> tuple[list[Any], list[Any], list[Any]]:
        n = draw(st.integers(1, n_max))
        k = draw(st.integers(1, k_max))
        d = draw(st.integers(1, d_max))
        vec = rational_vectors(d, min_value=-bound, max_value=bound, max_denominator=max_denominator)
        Z = draw(st.lists(vec, min_size=n, max_size=n))
        mode = draw(st.sampled_from(["free", "collapsed", "from_data"]))
        if mode == "collapsed":
            P = [draw(vec)] * k
        elif mode == "from_data":
            P = [Z[draw(st.integers(0, n - 1))] for _ in range(k)]
        else:
            P = draw(st.lists(vec, min_size=k, max_size=k))
        Q = draw(simplex_rows(n, k, exact=True))
        return Z, P, Q

    return _draw()
