"""Unit tests: the closed forms agree across backends; reference anchors of spec §3; flows and stages."""

from fractions import Fraction as F

import numpy as np
import pytest

from numerics.flows import detect_stages, geometric_grid
from numerics.markov import MarkovChain, anti_persistent, symmetric_rare, two_state_anti_focus
from numerics.arithmetic import MPArithmetic, TorchArithmetic
from theorems.focus_dilution import reference_quantities
from theorems.focus_dilution.flow import Shapes, init_params, run_reduced, reduced_state, unpack
from theorems.focus_dilution.markov_model import finite_context_logits, regrouped_logits
from theorems.focus_dilution.population import grad_M_Phi, lumped_loss, model_matrices, population_loss

E1 = ("0.75", "0.19", "0.05", "0.01")


@pytest.mark.parametrize("chain, anchors", [
    (MarkovChain.lazy(E1, "1/2"), {"c": 0.07978470143150808, "K2": 0.1037162180198264, "mu0": 0.4595012948839209}),
    (MarkovChain.lazy(E1, "9/10"), {"c": 0.1436124625767145, "HYX": 0.1802876018147227}),
    (symmetric_rare(5, F(3, 5), F(1, 2)), {"c": 0.1021543659630558, "K1": 0.15, "HYX": 0.9223415905558879}),
    (anti_persistent(E1), {"K2": -0.06539116093604748, "c": -0.050302781485389}),
    (two_state_anti_focus(), {"c": -0.001864165844168557, "H": 0.6108643020548935}),
])
def test_reference_anchors(chain, anchors):
    q = reference_quantities(chain, dps=40)
    for k, v in anchors.items():
        assert abs(float(getattr(q, k)) - v) < 1e-13, k


def test_lumped_loss_anchor():
    assert abs(lumped_loss(0.6, 0.5, 5) - 1.0991049193928263605) < 1e-14


def test_backends_agree():
    ch = MarkovChain.lazy(E1, "3/5")
    rng = np.random.default_rng(0)
    M, Phi = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    L = population_loss(ch.pi, ch.P, M, Phi)
    GM, GP = grad_M_Phi(ch.pi, ch.P, M, Phi)
    import torch

    t = lambda x: torch.tensor(x, dtype=torch.float64)  # noqa: E731
    Lt = population_loss(t(ch.pi), t(ch.P), t(M), t(Phi), 1.0, TorchArithmetic())
    assert abs(float(Lt) - L) < 1e-13
    ar = MPArithmetic(30)
    ctx = ar.ctx
    o = lambda x: np.array([[ctx.mpf(float(v)) for v in r] for r in np.atleast_2d(x)], dtype=object)  # noqa: E731
    Lm = population_loss(o(ch.pi)[0], o(ch.P), o(M), o(Phi), ctx.mpf(1), ar)
    GMm, _ = grad_M_Phi(o(ch.pi)[0], o(ch.P), o(M), o(Phi), ctx.mpf(1), ar)
    assert abs(float(Lm) - L) < 1e-13
    assert np.max(np.abs(GMm.astype(float) - GM)) < 1e-13
    assert np.max(np.abs(GM.sum(axis=1))) < 1e-14 and np.max(np.abs(GP.sum(axis=1))) < 1e-14


def test_batched_loss_matches_loop():
    ch = MarkovChain.lazy(E1, "1/2")
    sh = Shapes(4, 3, 2)
    Y = np.stack([init_params(4, 3, 2, 0.5, s) for s in range(5)])
    M, Phi = model_matrices(*unpack(Y, sh))
    Lb = population_loss(ch.pi, ch.P, M, Phi)
    for i in range(5):
        assert abs(Lb[i] - population_loss(ch.pi, ch.P, M[i], Phi[i])) < 1e-14


def test_regrouping_identity():
    ch = MarkovChain.lazy(E1, "1/2")
    rng = np.random.default_rng(1)
    M, Phi = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    X = ch.sample(50, 20, rng)[:, :-1]
    assert np.max(np.abs(finite_context_logits(X, M, Phi).numpy() - regrouped_logits(X, M, Phi))) < 1e-13


def test_stage_detector_on_synthetic_curve():
    t = geometric_grid(0.1, 1000.0, 200)[1:]  # drop t = 0
    L = 1.0 + 0.5 / (1 + np.exp(-(np.log(t) - np.log(10)) * 6)) * -1 + 0.3 / (1 + np.exp(-(np.log(t) - np.log(300)) * 6)) * -1
    st = detect_stages(t, L)
    assert len(st.drops) == 2 and len(st.plateaus) == 3
    assert abs(st.plateaus[1].value - 0.5) < 0.01
    with pytest.raises(ValueError):
        detect_stages(t[:3], L[:3])


def test_reduced_flow_reaches_lumped_point():
    ch = symmetric_rare(5, F(3, 5), F(1, 2))
    t, Z = run_reduced(ch, reduced_state(ch), 400.0, per_decade=20)
    g = Z[-1, :5]
    assert abs(g[0] - 1.86470) < 1e-4 and abs(g[1] + 0.40558) < 1e-4


def test_kernels_run_in_exact_and_symbolic_arithmetic():
    """At the origin the exact arithmetic gives G_M = -pi v^T (exp only at 0); the loss needs log d, which
    exact rationals refuse (TypeError) and sympy keeps symbolic."""
    import sympy as sp
    from fractions import Fraction

    from numerics.arithmetic import ExactArithmetic, SympyArithmetic

    ch = MarkovChain.lazy(["1/2", "1/3", "1/6"], "1/2")
    pi = np.array(ch.pi_exact, dtype=object)
    P = np.array(ch.P_exact, dtype=object)
    Z = np.array([[Fraction(0)] * 3 for _ in range(3)], dtype=object)
    GM, GPhi = grad_M_Phi(pi, P, Z, Z, Fraction(1), ExactArithmetic("fraction"))
    assert [[GM[i, k] for k in range(3)] for i in range(3)] == [
        [-pi[i] * (pi[k] - Fraction(1, 3)) for k in range(3)] for i in range(3)]
    assert all(x == 0 for x in GPhi.flat)
    with pytest.raises(TypeError):
        population_loss(pi, P, Z, Z, Fraction(1), ExactArithmetic("fraction"))
    L = population_loss(pi, P, Z, Z, 1, SympyArithmetic())
    assert sp.simplify(L - sp.log(3)) == 0
