"""Strategies for the DDCL-INCRT claims (arXiv:2604.01880): data, prototypes, assignments.

The ddcl issue extends this module (spd covariances, heads, traceless spectra, ...).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from ._core import (
    StrategyArgumentError,
    check_int,
    check_number,
    rational_vectors,
    shared_strategy,
    simplex_rows,
)

__all__ = ["dictionary_instances"]


@shared_strategy
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


# -------------------------------------------------------------------------------------------------
# Covariances, heads and traceless spectra (spec ddcl_incrt.md §2.7).  Float64 numpy arrays, drawn
# through a seed so that hypothesis shrinks the structural choices and the seed.
# -------------------------------------------------------------------------------------------------
import numpy as _np

__all__ += ["spd_matrices", "traceless_spectra", "bilinear_heads", "haar_orthogonal"]

_SPD_KINDS = ("generic", "repeated", "rank_deficient", "isotropic")


def haar_orthogonal(d: int, rng: _np.random.Generator, count: int | None = None) -> _np.ndarray:
    """Haar-distributed orthogonal d x d matrix (QR of a Gaussian with the signs of diag R fixed).
    ``count``: a (count, d, d) stack, the very matrices of ``count`` calls in a row on ``rng`` (the same
    draws; numpy's stacked QR factors each matrix as the single call does)."""
    check_int("d", d, 1)
    if count is None:
        Q, R = _np.linalg.qr(rng.standard_normal((d, d)))
        return Q * _np.sign(_np.diag(R))
    check_int("count", count, 0)
    Q, R = _np.linalg.qr(rng.standard_normal((count, d, d)))
    return Q * _np.sign(_np.diagonal(R, axis1=-2, axis2=-1))[..., None, :]


@shared_strategy
def spd_matrices(d_min: int = 1, d_max: int = 6, *, kinds: tuple[str, ...] = _SPD_KINDS,
                 log10_range: tuple[float, float] = (-2.0, 2.0)) -> st.SearchStrategy[_np.ndarray]:
    """Symmetric PSD matrices ``O diag(lambda) O^T`` (O Haar, lambda log-uniform in 10^log10_range).

    Kinds: ``generic``; ``repeated`` (eigenvalues from a multiset of <= 3 values); ``rank_deficient``
    (some zero eigenvalues); ``isotropic`` (``g I``).
    """
    check_int("d_min", d_min, 1)
    check_int("d_max", d_max, 1)
    if d_min > d_max:
        raise StrategyArgumentError(f"d_min={d_min} > d_max={d_max}")
    if not kinds or set(kinds) - set(_SPD_KINDS):
        raise StrategyArgumentError(f"kinds must be a non-empty subset of {_SPD_KINDS}")
    lo, hi = log10_range
    check_number("log10_range[0]", lo)
    check_number("log10_range[1]", hi)
    if lo > hi:
        raise StrategyArgumentError("log10_range must be increasing")

    @st.composite
    def _draw(draw: Any) -> _np.ndarray:
        d = draw(st.integers(d_min, d_max))
        kind = draw(st.sampled_from(kinds))
        rng = _np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        lam = 10.0 ** rng.uniform(lo, hi, d)
        if kind == "repeated":
            vals = 10.0 ** rng.uniform(lo, hi, 3)
            lam = vals[rng.integers(0, 3, d)]
        elif kind == "rank_deficient":
            lam[rng.random(d) < 0.5] = 0.0
        elif kind == "isotropic":
            lam = _np.full(d, lam[0])
        O = haar_orthogonal(d, rng)
        C = O @ _np.diag(lam) @ O.T
        return (C + C.T) / 2

    return _draw()


@shared_strategy
def traceless_spectra(d_min: int = 2, d_max: int = 12, *, repeats: bool = True
                      ) -> st.SearchStrategy[_np.ndarray]:
    """Symmetric traceless ``S = O diag(lambda) O^T`` with eigenvalues shifted to sum zero (repeated
    values when ``repeats``) and O Haar."""
    check_int("d_min", d_min, 2)
    check_int("d_max", d_max, 2)
    if d_min > d_max:
        raise StrategyArgumentError(f"d_min={d_min} > d_max={d_max}")

    @st.composite
    def _draw(draw: Any) -> _np.ndarray:
        d = draw(st.integers(d_min, d_max))
        rng = _np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        if repeats and draw(st.booleans()):
            vals = rng.standard_normal(3)
            lam = vals[rng.integers(0, 3, d)]
        else:
            lam = rng.standard_normal(d)
        lam = lam - lam.mean()
        if not _np.any(lam):
            lam[0], lam[-1] = 1.0, -1.0
        O = haar_orthogonal(d, rng)
        S = O @ _np.diag(lam) @ O.T
        return (S + S.T) / 2

    return _draw()


@shared_strategy
def bilinear_heads(d: int, H: int, *, kinds: tuple[str, ...] = ("gaussian", "plane", "zero", "symmetric")
                   ) -> st.SearchStrategy[list[_np.ndarray]]:
    """H bilinear forms M^h (d x d): Gaussian ``W_Q W_K^T`` with d_k in [1, d]; plane generators
    ``sigma (a b^T - b a^T)``; zero heads; symmetric heads (M_a = 0)."""
    check_int("d", d, 1)
    check_int("H", H, 1)
    allowed = {"gaussian", "plane", "zero", "symmetric"}
    if not kinds or set(kinds) - allowed:
        raise StrategyArgumentError(f"kinds must be a non-empty subset of {sorted(allowed)}")

    @st.composite
    def _draw(draw: Any) -> list[_np.ndarray]:
        out = []
        for _ in range(H):
            kind = draw(st.sampled_from(kinds))
            rng = _np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
            if kind == "gaussian":
                dk = int(rng.integers(1, d + 1))
                out.append(rng.standard_normal((d, dk)) @ rng.standard_normal((d, dk)).T / d)
            elif kind == "plane":
                a, b = rng.standard_normal(d), rng.standard_normal(d)
                out.append(float(rng.uniform(0.1, 2)) * (_np.outer(a, b) - _np.outer(b, a)))
            elif kind == "zero":
                out.append(_np.zeros((d, d)))
            else:
                A = rng.standard_normal((d, d))
                out.append(A + A.T)
        return out

    return _draw()


__all__ += ["exact_covariance_data"]


@shared_strategy
def exact_covariance_data(n_min: int = 20, n_max: int = 200, d_min: int = 1, d_max: int = 6
                          ) -> st.SearchStrategy[tuple[_np.ndarray, _np.ndarray]]:
    """``(Z, C)``: N x d data whose empirical covariance (1/N) is C up to rounding (spec §2.1): Xi
    Gaussian, centred, whitened by (Xi^T Xi / N)^(-1/2), times C^(1/2); C from :func:`spd_matrices`."""
    check_int("n_min", n_min, 2)
    check_int("n_max", n_max, 2)
    check_int("d_min", d_min, 1)
    check_int("d_max", d_max, 1)
    if n_min > n_max or d_min > d_max:
        raise StrategyArgumentError("need n_min <= n_max and d_min <= d_max")
    if n_min <= d_max:
        raise StrategyArgumentError(f"exact-covariance sampling needs N > d: n_min={n_min} <= d_max={d_max}")

    @st.composite
    def _draw(draw: Any) -> tuple[_np.ndarray, _np.ndarray]:
        C = draw(spd_matrices(d_min, d_max))
        d = C.shape[0]
        N = draw(st.integers(n_min, n_max))
        rng = _np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        X = rng.standard_normal((N, d))
        X -= X.mean(0)
        w, V = _np.linalg.eigh(X.T @ X / N)
        X = X @ (V @ _np.diag(w ** -0.5) @ V.T)
        w, V = _np.linalg.eigh(C)
        return X @ (V @ _np.diag(_np.sqrt(_np.clip(w, 0, None))) @ V.T), C

    return _draw()
