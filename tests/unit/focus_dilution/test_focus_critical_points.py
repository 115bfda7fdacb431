"""The factored critical equations of the reduced loss and the certified theta^2_delta (spec §2.8, §4.14)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from numerics.markov import MarkovChain, perturbed_rare
from numerics.precision import Tri
from theorems.focus_dilution.critical_points import (certify_reduced_point, factored_parts, perturbed_point)
from theorems.focus_dilution.population import FLOAT, grad_M_Phi, predictions

C_DIR = (F(1), F(-1), F(1, 2), F(-1, 2))


def _random_point(seed: int):
    rng = np.random.default_rng(seed)
    ch = MarkovChain.lazy(["0.5", "0.2", "0.15", "0.1", "0.05"], "3/10")
    return ch, rng.standard_normal(5), rng.standard_normal(5), float(rng.uniform(0.2, 2.0))


@pytest.mark.parametrize("seed", range(5))
def test_factored_identities_hold_everywhere(seed):
    """1^T v = 0 and beta^T v = sum_q pi_q h_q s_q at arbitrary (gamma, beta, kappa)."""
    ch, g, b, k = _random_point(seed)
    h, s, v = factored_parts(ch.pi, ch.P, g, b, k, FLOAT)
    assert abs(v.sum()) <= 1e-14
    assert abs(b @ v - np.sum(ch.pi * h * s)) <= 1e-13


@pytest.mark.parametrize("seed", range(5))
def test_factored_parts_reproduce_the_closed_form_gradient(seed):
    """G_M^T gamma = v, G_M beta = A^T (pi o s), (G_Phi)_qk = pi_q A_qk (gamma_k - h_q) s_q (spec §2.5)."""
    ch, g, b, k = _random_point(seed)
    h, s, v = factored_parts(ch.pi, ch.P, g, b, k, FLOAT)
    GM, GPhi = grad_M_Phi(ch.pi, ch.P, np.outer(g, b), k * np.outer(g, g))
    A, _ = predictions(ch.pi, np.outer(g, b), k * np.outer(g, g), 1.0)
    np.testing.assert_allclose(GM.T @ g, v, atol=1e-14)
    np.testing.assert_allclose(GM @ b, A.T @ (ch.pi * s), atol=1e-14)
    np.testing.assert_allclose(GPhi, ch.pi[:, None] * A * (g[None, :] - h[:, None]) * s[:, None], atol=1e-14)


def test_theta2_delta_is_certified_and_a_shifted_gauge_is_excluded():
    delta = F(1, 1000)
    ch = perturbed_rare(5, F(3, 5), F(1, 2), C_DIR, delta)
    pt = perturbed_point(5, F(3, 5), F(1, 2), C_DIR, delta, dps=30)
    cp = certify_reduced_point(ch, pt)
    assert cp.decision is Tri.TRUE
    assert cp.existence.contraction < 1e-10
    lp = cp.sigma_max / float(delta)
    assert lp.lower() > 0.07661 and lp.upper() < 0.07662  # spec §4.14 anchor 0.07661 at delta = 1e-3
    assert cp.gradient_bound < 1e-15
    assert certify_reduced_point(ch, pt, gauge_shift=F(1, 100)).decision is Tri.FALSE


def test_certification_needs_exact_data():
    delta = F(1, 1000)
    pt = perturbed_point(5, F(3, 5), F(1, 2), C_DIR, delta, dps=20)
    float_chain = perturbed_rare(5, 0.6, 0.5, [1.0, -1.0, 0.5, -0.5], 0.001)
    with pytest.raises(ValueError, match="rational entries"):
        certify_reduced_point(float_chain, pt)


def test_lumped_targets_anchor_f4():
    """Spec §3: for F4 (pi1 = 3/5, d = 5, lam = 1/2), T1 = log 16 and T' = log(12/7)."""
    import sympy as sp

    from theorems.focus_dilution.population import lumped_targets

    T1, Tp = lumped_targets(sp.Rational(3, 5), sp.Rational(1, 2), 5, log=sp.log)
    assert sp.simplify(T1 - sp.log(16)) == 0 and sp.simplify(Tp - sp.log(sp.Rational(12, 7))) == 0
