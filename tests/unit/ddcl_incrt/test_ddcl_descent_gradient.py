"""dictionary.descent_gradient (the simulation loops' validated-once gradient, issue 14): the very floats
of grad_live_Lq / grad_detached at gibbs on every shape the checks use and beyond, and the same errors."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.errors import InputError
from theorems.ddcl_incrt import dictionary as dc


@pytest.mark.parametrize("n", list(range(1, 41)) + [47, 56, 64, 100, 127, 128])
def test_rowsum_is_numpys_last_axis_sum_bit_for_bit(n):
    rng = np.random.default_rng(n)
    A = rng.standard_normal((300, n)) * np.exp(rng.uniform(-30, 30, (300, n)))
    assert np.array_equal(dc._rowsum(np.ascontiguousarray(A.T)), A.sum(-1))


@pytest.mark.parametrize("d", [1, 2, 3, 4, 7, 8, 9, 16, 17, 40, 128, 129])
def test_sqdist_matrix_is_the_broadcast_formula_bit_for_bit(d):
    """sqdist_matrix sums the coordinates in numpy's order for a last axis of length d: the very floats
    (and dtype, shape, C order) of ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1), for floats of every
    scale, integers and Fractions."""
    from fractions import Fraction

    rng = np.random.default_rng(d)
    for N, K in ((1, 1), (5, 2), (300, 6), (40, 9)):
        Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-30, 30, (N, d)))
        P = rng.standard_normal((K, d)) * np.exp(rng.uniform(-30, 30, (K, d)))
        ref = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
        got = dc.sqdist_matrix(Z, P)
        assert np.array_equal(got, ref) and got.dtype == ref.dtype and got.flags.c_contiguous, (N, K)
    Zi, Pi = rng.integers(-9, 9, (7, d)), rng.integers(-9, 9, (3, d))
    assert np.array_equal(dc.sqdist_matrix(Zi, Pi), ((Zi[:, None, :] - Pi[None, :, :]) ** 2).sum(-1))
    Zf = np.array([[Fraction(int(x), 7) for x in r] for r in Zi], dtype=object)
    assert (dc.sqdist_matrix(Zf, Pi) == ((Zf[:, None, :] - Pi[None, :, :]) ** 2).sum(-1)).all()


def _ref_gibbs(Z, P, t):
    """The (N, K)-layout formulas of gibbs / free_energy / live_weights before the (K, N) layout."""
    D0 = ((Z[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    with np.errstate(over="ignore", under="ignore"):
        Q = np.exp(-(D0 - D0.min(1, keepdims=True)) / t)
    Q /= Q.sum(1, keepdims=True)
    m = D0.min(1)
    with np.errstate(over="ignore", invalid="ignore"):
        F = float(np.mean(m - t * np.log(np.exp(-(D0 - m[:, None]) / t).sum(1))))
    ell = (Q * D0).sum(1, keepdims=True)
    return Q, F, Q * (1.0 - (D0 - ell) / t), Q * (1.0 + (D0 - ell) / t)


@pytest.mark.parametrize("d,K", [(1, 1), (1, 2), (2, 3), (3, 7), (4, 8), (7, 9), (8, 17), (9, 4), (17, 2),
                                 (129, 3), (2, 130)])
def test_gibbs_free_energy_live_weights_are_the_NK_formulas_bit_for_bit(d, K):
    """gibbs, free_energy and live_weights (either sign) computed in the (K, N) layout give the very
    floats of the (N, K) formulas, from soft to hard temperatures (q underflowing to 0) and for
    prototypes far away; above 128 coordinates or prototypes the (N, K) formulas run themselves."""
    rng = np.random.default_rng(100 * d + K)
    N = int(rng.integers(2, 300))
    Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-2, 2, d))
    for s in (1e-3, 1.0, 30.0):
        P = Z[rng.integers(0, N, K)] + s * rng.standard_normal((K, d))
        for tau in (1e-4, 0.3, 5.0, 1e4):
            Q, F, Wm, Wp = _ref_gibbs(Z, P, tau)
            assert np.array_equal(dc.gibbs(Z, P, tau), Q), (s, tau)
            assert dc.free_energy(Z, P, tau) == F, (s, tau)
            assert np.array_equal(dc.live_weights(Z, P, tau), Wm), (s, tau)
            assert np.array_equal(dc.live_weights(Z, P, tau, sign=1), Wp), (s, tau)
            assert dc.gibbs(Z, P, tau).flags.c_contiguous and dc.live_weights(Z, P, tau).flags.c_contiguous


def test_gibbs_and_free_energy_name_overflowing_distances():
    Z, P = np.array([[1e200, 0.0], [0.0, 1.0]]), np.zeros((2, 2))
    for f in (dc.gibbs, dc.free_energy, dc.live_weights):
        with pytest.raises(InputError, match="'Z'"):
            f(Z, P, 1.0)


@pytest.mark.parametrize("d,K", [(1, 2), (1, 3), (2, 2), (2, 4), (2, 8), (3, 5), (8, 2), (8, 4), (8, 8),
                                 (9, 9), (17, 3)])
def test_descent_gradient_equals_the_public_gradients_bit_for_bit(d, K):
    rng = np.random.default_rng(10 * d + K)
    N = int(rng.integers(50, 400))
    Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d))
    for mode in ("full", "stopgrad", "free_energy"):
        for tau in (0.05, 0.7, 9.0):
            grad = dc.descent_gradient(Z, tau, mode, K=K, d=d)
            for s in (1e-9, 1e-3, 1.0, 30.0):
                P = Z.mean(0) + s * rng.standard_normal((K, d))
                ref = (dc.grad_live_Lq(Z, P, tau) if mode == "full"
                       else dc.grad_detached(Z, P, dc.gibbs(Z, P, tau))["L_q"])
                assert np.array_equal(grad(P), ref), (mode, tau, s)


def test_descent_trajectory_equals_the_step_by_step_loop():
    # the simulation's old loop written out: public gradient at every step
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((200, 2))
    P0 = Z.mean(0) + 1e-6 * rng.standard_normal((4, 2))
    for mode in ("full", "stopgrad"):
        P = P0.copy()
        for _ in range(300):
            g = dc.grad_live_Lq(Z, P, 0.4) if mode == "full" else dc.grad_detached(Z, P, dc.gibbs(Z, P, 0.4))["L_q"]
            P = P - 0.05 * g
        grad, Q = dc.descent_gradient(Z, 0.4, mode, K=4, d=2), P0.copy()
        for _ in range(300):
            Q = Q - 0.05 * grad(Q)
        assert np.array_equal(P, Q)


def test_descent_gradient_names_bad_inputs():
    Z = np.random.default_rng(1).standard_normal((20, 2))
    grad = dc.descent_gradient(Z, 1.0, "full", K=3, d=2)
    with pytest.raises(InputError, match="'P'"):
        grad(np.array([[0.0, np.nan], [0.0, 0.0], [1.0, 1.0]]))
    with pytest.raises(InputError, match="'P'"):
        grad(np.zeros((3, 3)))
    with pytest.raises(InputError, match="'Z'"):
        grad(np.array([[1e200, 0.0], [0.0, 0.0], [1.0, 1.0]]))
    with pytest.raises(InputError, match="'P'"):
        dc.descent_gradient(Z, 1.0, "full", K=3, d=3)
    with pytest.raises(InputError, match="'tau'"):
        dc.descent_gradient(Z, 0.0, "full", K=3, d=2)
    with pytest.raises(InputError, match="'mode'"):
        dc.descent_gradient(Z, 1.0, "live", K=3, d=2)


@pytest.mark.parametrize("d,K", [(1, 2), (2, 4), (3, 3), (5, 8), (8, 9)])
def test_gibbs_assigner_equals_gibbs_bit_for_bit(d, K):
    rng = np.random.default_rng(d + 100 * K)
    Y = rng.standard_normal((int(rng.integers(20, 80)), d)) * np.exp(rng.uniform(-1, 1, d))
    for tau in (0.02, 0.4, 3.0):
        assign = dc.gibbs_assigner(Y, tau, K=K, d=d)
        P = Y[rng.choice(len(Y), K, replace=K > len(Y))]
        for _ in range(30):  # the EM fixed-point loop of the pruning check, both ways
            Q = dc.gibbs(Y, P, tau)
            A = assign(P)
            assert np.array_equal(A, Q) and A.flags.c_contiguous
            P = (Q.T @ Y) / Q.sum(0)[:, None]
    with pytest.raises(InputError, match="'P'"):
        dc.gibbs_assigner(Y, 1.0, K=K, d=d)(np.full((K, d), np.inf))
    with pytest.raises(InputError, match="'P'"):
        dc.gibbs_assigner(Y, 1.0, K=K, d=d + 1)

