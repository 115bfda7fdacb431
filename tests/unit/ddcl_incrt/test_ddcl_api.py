"""Unit tests of the DDCL-INCRT objects and public API (spec ddcl_incrt.md §2, §3)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.precision import Tri, tri_contains
from numerics.strategies import (StrategyArgumentError, bilinear_heads, exact_covariance_data, spd_matrices,
                                  traceless_spectra)
from theorems.ddcl_incrt import (DictionaryBlock, collapse_is_stable, critical_temperature, greedy_growth,
                                 growth_signal, residual_operator)
from theorems.ddcl_incrt.dictionary import (all_losses, covariance, exact_covariance_sample, gibbs,
                                            grad_detached, grad_live_Lq, live_weights)
from theorems.ddcl_incrt.hessian import collapse_hessian, exact_covariance
from theorems.ddcl_incrt.incrt import realise_commutator, tracker_step


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("data, msg", [
    ([[0.0, float("nan")], [1.0, 2.0]], "NaN"),
    ([], "non-empty"),
])
def test_critical_temperature_rejects_bad_data(data, msg):
    with pytest.raises(ValueError, match=msg):
        critical_temperature(data)


def test_unknown_mode_and_bad_tau():
    Z = [[0.0], [1.0]]
    with pytest.raises(ValueError, match="mode"):
        critical_temperature(Z, mode="hard")
    with pytest.raises(ValueError, match="tau"):
        collapse_is_stable(Z, 2, -1.0, "full")
    with pytest.raises(ValueError, match="K"):
        collapse_is_stable(Z, 0, 1.0, "full")
    with pytest.raises(ValueError, match="tau"):
        gibbs(Z, Z, 0.0)


def test_greedy_growth_rejects_bad_signal():
    with pytest.raises(ValueError, match="symmetric"):
        greedy_growth(np.array([[0.0, 1.0], [0.0, 0.0]]), 0.1)
    with pytest.raises(ValueError, match="threshold"):
        greedy_growth(np.eye(2), 0.0)
    with pytest.raises(ValueError, match="square"):
        greedy_growth(np.ones((2, 3)), 0.1)
    with pytest.raises(ValueError, match="NaN"):
        greedy_growth(np.array([[np.nan, 0], [0, 1.0]]), 0.1)


def test_block_rejects_bad_shapes():
    b = DictionaryBlock(d=3, K=2)
    with pytest.raises(ValueError, match="shape"):
        b(torch.zeros(4, 2, dtype=torch.float64))
    with pytest.raises(ValueError, match="NaN"):
        b(torch.full((4, 3), float("nan"), dtype=torch.float64))
    with pytest.raises(ValueError, match="n_batch"):
        DictionaryBlock(d=3, K=2, param="dual_linear")


# -- public API --------------------------------------------------------------------------------
def test_critical_temperature_enclosure_and_modes():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((300, 4)) * [3, 1, 0.5, 0.1]
    ct = critical_temperature(Z, "full")
    lam1 = np.linalg.eigvalsh(covariance(Z))[-1]
    assert ct.c == 4 and abs(ct.value - 4 * lam1) <= 1e-12 * ct.value
    # the float estimate lies within float64 rounding of the certified enclosure
    assert abs(float(ct.enclosure.mid()) - ct.value) <= float(ct.enclosure.rad()) + 1e-12 * ct.value
    assert critical_temperature(Z, "free_energy").c == 2


def test_collapse_is_stable_three_values_exact():
    Z = [[-1], [1]]  # C = 1
    assert collapse_is_stable(Z, 2, Fraction(5), "full").answer is Tri.TRUE
    assert collapse_is_stable(Z, 2, Fraction(3), "full").answer is Tri.FALSE
    assert collapse_is_stable(Z, 2, Fraction(3), "free_energy").answer is Tri.TRUE
    assert collapse_is_stable(Z, 2, Fraction(4), "full").answer is Tri.UNKNOWN
    assert collapse_is_stable(Z, 1, Fraction(1), "full").answer is Tri.TRUE


def test_greedy_growth_order_and_span():
    S = np.diag([1.0, 0.5, 0.5, -0.4, -1.6])
    r = greedy_growth(S, 0.3)
    assert r.count == 3 and r.births == pytest.approx((1.0, 0.5, 0.5))
    P = r.directions @ r.directions.T
    assert np.allclose(P, np.diag([1, 1, 1, 0, 0]), atol=1e-12)
    assert r.final_lambda_max <= 0.3


# -- objects --------------------------------------------------------------------------------------
def test_gibbs_rows_on_simplex_and_far_prototypes():
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((20, 3))
    P = np.vstack([rng.standard_normal((2, 3)), [1e4, 0, 0]])
    Q = gibbs(Z, P, 0.01)
    assert np.all(np.isfinite(Q)) and np.allclose(Q.sum(1), 1.0, atol=1e-15)
    W = live_weights(Z, P, 0.01)
    assert np.all(np.isfinite(W)) and np.allclose(W.sum(1), 1.0, atol=1e-12)


def test_block_matches_numpy_losses_and_gradients():
    rng = np.random.default_rng(2)
    Z = rng.standard_normal((30, 3))
    P0 = rng.standard_normal((4, 3))
    for mode in ("full", "stopgrad"):
        b = DictionaryBlock(d=3, K=4, tau=0.7, mode=mode, init=P0)
        X = torch.tensor(Z)
        L = {k: float(v.detach()) for k, v in b.losses(X).items()}
        ref = all_losses(Z, P0, 0.7)
        for k in ref:
            assert L[k] == pytest.approx(ref[k], rel=1e-12, abs=1e-12)
        b.dictionary_loss(X).backward()
        g = grad_live_Lq(Z, P0, 0.7) if mode == "full" else grad_detached(Z, P0, gibbs(Z, P0, 0.7))["L_q"]
        assert np.allclose(b.P.grad.numpy(), g, rtol=1e-10, atol=1e-12)


def test_dual_linear_collapse_and_learnable_tau():
    rng = np.random.default_rng(3)
    X = torch.tensor(rng.standard_normal((8, 2)))
    b = DictionaryBlock(d=2, K=3, param="dual_linear", n_batch=8, learn_tau=True, tau=2.0)
    P = b.prototypes(X)
    assert torch.allclose(P, X.mean(0).expand(3, 2))  # Psi = 1/N, b = 0: the collapsed state
    assert float(b.tau.detach()) == pytest.approx(2.0, rel=1e-12)


def test_exact_covariance_sampling_and_exact_covariance():
    rng = np.random.default_rng(4)
    C = np.array([[2.0, 0.3], [0.3, 0.5]])
    Z = exact_covariance_sample(C, 50, rng)
    assert np.allclose(covariance(Z), C, atol=1e-12)
    Ce = exact_covariance([[Fraction(1), Fraction(0)], [Fraction(-1), Fraction(2)]])
    assert Ce == [[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]]


def test_collapse_hessian_block_formula_spectrum():
    C = [[Fraction(4), Fraction(0)], [Fraction(0), Fraction(1)]]
    H = np.array(collapse_hessian(C, 3, Fraction(10), 4), dtype=float)
    ev = np.sort(np.linalg.eigvalsh(H))
    pred = sorted([2 / 3] * 2 + [(2 / 3) * (1 - 16 / 10)] * 2 + [(2 / 3) * (1 - 4 / 10)] * 2)
    assert np.allclose(ev, pred)


@settings(max_examples=30, deadline=None)
@given(traceless_spectra(2, 9))
@example(np.array([[-2.22044605e-16, -1.54255959e-32, -1.84918272e-32],
                   [-1.54255959e-32, -2.22044605e-16, -6.82453792e-33],
                   [-1.84918272e-32, -6.82453792e-33, -2.22044605e-16]]))  # was ValueError from max([]):
def test_realise_commutator(S):  # a diagonal of one sign at rounding size, traceless within tolerance
    G, Ma = realise_commutator(S, np.random.default_rng(0))
    assert np.linalg.eigvalsh(G)[0] > 0
    assert np.allclose(Ma, -Ma.T)
    assert np.abs(growth_signal(G, Ma) - S).max() <= 1e-9 * max(1.0, np.abs(S).max())


@settings(max_examples=30, deadline=None)
@given(spd_matrices(2, 6), st.data())
def test_residual_operator_is_indefinite(G, data):
    d = G.shape[0]
    heads = data.draw(bilinear_heads(d, 2))
    Ma = sum((M - M.T) / 2 for M in heads)
    S = growth_signal(G, Ma)
    U = np.linalg.qr(np.random.default_rng(0).standard_normal((d, d)))[0][:, :1]
    e = np.linalg.eigvalsh(residual_operator(S, U))
    tol = 1e-12 * max(1.0, np.linalg.norm(G, 2) * np.linalg.norm(Ma, 2))
    assert e[-1] >= -tol and e[0] <= tol


def test_strategies_validate_eagerly():
    with pytest.raises(StrategyArgumentError):
        spd_matrices(d_min=3, d_max=2)
    with pytest.raises(StrategyArgumentError):
        traceless_spectra(d_min=1)
    with pytest.raises(StrategyArgumentError):
        bilinear_heads(3, 1, kinds=("bogus",))


# -- pitfalls (spec §5.3, §5.6): regression cases of the author's tracker -------------------------
def test_coded_mca_misses_the_bottom_eigenvector():
    """§5.6: with the factor y the coded MCA step drives R(u_-) to 0, not to lambda_min = -1."""
    A = np.diag([1, 0.6, 0.3, 0.1, -0.1, -0.3, -0.6, -1.0])
    for mca_factor, target in ((True, 0.0), (False, -1.0)):
        rng = np.random.default_rng(0)
        up = np.eye(8)[0]
        um = rng.standard_normal(8)
        um -= um[0] * up
        um /= np.linalg.norm(um)
        for _ in range(10000):
            _, um = tracker_step(A, up, um, 0.0, 1 / 160, 0.5, mca_factor=mca_factor)
        assert um @ A @ um == pytest.approx(target, abs=1e-3)


@settings(max_examples=20, deadline=None)
@given(exact_covariance_data(n_min=20, n_max=80, d_max=5))
def test_exact_covariance_data_strategy(x):
    Z, C = x
    Zc = Z - Z.mean(0)
    assert np.allclose(Zc.T @ Zc / len(Z), C, atol=1e-9 * max(1.0, np.abs(C).max()))


def test_exact_covariance_data_validates():
    with pytest.raises(StrategyArgumentError):
        exact_covariance_data(n_min=3, d_max=6)
