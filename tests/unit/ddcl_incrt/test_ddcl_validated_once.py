"""dictionary.as_data's fast path for float64 arrays and the validate-once chain gibbs -> live_weights ->
grad_live_Lq (performance refactors: same values, same errors, the caller's arrays never aliased)."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.errors import InputError
from theorems.ddcl_incrt import dictionary as dc


def test_as_data_copies_float_arrays_and_names_bad_entries():
    Z = np.array([[1.0, 2.0], [3.0, 4.0]])
    A = dc.as_data(Z, "Z")
    assert np.array_equal(A, Z) and A is not Z and not np.shares_memory(A, Z)
    A[0, 0] = 7.0
    assert Z[0, 0] == 1.0
    with pytest.raises(InputError, match="'Z'.*NaN"):
        dc.as_data(np.array([[1.0, np.nan]]), "Z")
    with pytest.raises(InputError, match="non-empty"):
        dc.as_data(np.zeros((0, 2)), "Z")


def test_live_weights_equal_their_definition_from_gibbs():
    rng = np.random.default_rng(3)
    Z, P, tau = rng.standard_normal((30, 3)), rng.standard_normal((4, 3)), 0.7
    Q = dc.gibbs(Z, P, tau)
    D = ((Z[:, None, :] - P[None]) ** 2).sum(-1)
    ell = (Q * D).sum(1, keepdims=True)
    for sign in (-1, 1):
        W = dc.live_weights(Z, P, tau, sign=sign)
        assert np.allclose(W, Q * (1 + sign * (D - ell) / tau), rtol=1e-13, atol=1e-15)
        G = dc.grad_live_Lq(Z, P, tau, sign=sign)
        assert np.allclose(G, (2 / 30) * (W.sum(0)[:, None] * P - W.T @ Z), rtol=1e-13, atol=1e-15)
    with pytest.raises(InputError, match="'P'"):
        dc.grad_live_Lq(Z, rng.standard_normal((4, 2)), tau)
    with pytest.raises(InputError, match="'tau'"):
        dc.grad_live_Lq(Z, P, -1.0)


def test_descend_equals_the_step_by_step_gradients_and_names_a_diverging_P():
    rng = np.random.default_rng(5)
    Z, P0 = rng.standard_normal((40, 3)), 1e-3 * rng.standard_normal((3, 3))
    for mode in ("full", "stopgrad"):
        P = P0.copy()
        for _ in range(25):
            g = (dc.grad_live_Lq(Z, P, 0.8) if mode == "full"
                 else dc.grad_detached(Z, P, dc.gibbs(Z, P, 0.8))["L_q"])
            P = P - 0.05 * g
        assert np.array_equal(dc.descend(Z, P0, 0.8, mode, 25, 0.05), P)
    with pytest.raises(InputError, match="'P'"):
        dc.descend(Z, P0, 0.8, "full", 3, float("inf"))
