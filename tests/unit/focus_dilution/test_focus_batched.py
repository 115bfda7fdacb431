"""The batch-last sweep path (theorems.focus_dilution._batched) is the population closed forms, to 1e-12,
and the fixed-step torch RK4 it runs on (numerics.flows.rk4_torch)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import torch

from numerics.flows import integrate, rk4_torch
from numerics.markov import MarkovChain, anti_persistent
from theorems.focus_dilution._batched import BATCH_LAST, BatchedFlowField, BatchLast, rk4_sweep
from theorems.focus_dilution.flow import Shapes, full_rhs, init_params, pack, unpack
from numerics.arithmetic import TorchArithmetic
from theorems.focus_dilution.population import (FLOAT, grad_M_Phi, model_matrices, param_grads,
                                                population_loss)

SHAPES = [Shapes(4, 4, 4), Shapes(3, 5, 2)]  # the sweep's shapes, and a non-square case (d != m != m_k)


def _chains(d: int, n: int, seed: int) -> list[MarkovChain]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        w = [int(x) for x in np.sort(rng.integers(10, 1000, d))[::-1]]
        if i % 3 == 2:  # anti-persistent (F6, not lazy): needs pi_1 > 1/2
            out.append(anti_persistent([F(3, 5)] + [F(2 * x, 5 * sum(w[1:])) for x in w[1:]]))
        else:
            out.append(MarkovChain.lazy([F(x, sum(w)) for x in w], F(int(rng.integers(1, 19)), 20)))
    return out


def _batch(sh: Shapes, n: int, seed: int, eps: float = 0.7):
    """(chains, pi (B, d), P (B, d, d), Y (B, size)): parameters of order one, where the softmaxes bend."""
    chains = _chains(sh.d, n, seed)
    Y = np.stack([init_params(sh.d, sh.m, sh.mk, eps, seed + k) for k in range(n)])
    pi = torch.tensor(np.stack([c.pi for c in chains]))
    P = torch.tensor(np.stack([c.P for c in chains]))
    return chains, pi, P, Y


@pytest.mark.parametrize("sh", SHAPES, ids=str)
@pytest.mark.parametrize("variant", ["statement", "drop_phiT_term"])
def test_batch_last_param_grads_are_the_population_closed_forms(sh, variant):
    chains, pi, P, Y = _batch(sh, 7, 3)
    Wt = unpack(torch.tensor(Y), sh)
    g_last = param_grads(BatchLast.from_batch_first(pi), BatchLast.from_batch_first(P),
                         *(BatchLast.from_batch_first(w) for w in Wt), 1.3, BATCH_LAST, variant=variant)
    g_first = param_grads(pi, P, *Wt, 1.3, TorchArithmetic(), variant=variant)
    for gl, gf in zip(g_last, g_first):
        assert gl.shape == tuple(gf.shape)
        assert float((gl.batch_first() - gf).abs().max()) <= 1e-12
    for k, ch in enumerate(chains):  # and the numpy float64 backend, one chain at a time
        g_np = param_grads(ch.pi, ch.P, *unpack(Y[k], sh), 1.3, FLOAT, variant=variant)
        for gl, gn in zip(g_last, g_np):
            assert np.max(np.abs(gl.batch_first()[k].numpy() - gn)) <= 1e-12


@pytest.mark.parametrize("sh", SHAPES, ids=str)
def test_batch_last_loss_and_model_gradients(sh):
    chains, pi, P, Y = _batch(sh, 5, 11)
    M, Phi = model_matrices(*unpack(Y, sh))
    bl = BatchLast.from_batch_first
    L = population_loss(bl(pi), bl(P), bl(torch.tensor(M)), bl(torch.tensor(Phi)), 0.8, BATCH_LAST)
    GM, GPhi = grad_M_Phi(bl(pi), bl(P), bl(torch.tensor(M)), bl(torch.tensor(Phi)), 0.8, BATCH_LAST)
    for k, ch in enumerate(chains):
        assert abs(float(L.batch_first()[k]) - population_loss(ch.pi, ch.P, M[k], Phi[k], 0.8)) <= 1e-12
        GMk, GPhik = grad_M_Phi(ch.pi, ch.P, M[k], Phi[k], 0.8)
        assert np.max(np.abs(GM.batch_first()[k].numpy() - GMk)) <= 1e-12
        assert np.max(np.abs(GPhi.batch_first()[k].numpy() - GPhik)) <= 1e-12


@pytest.mark.parametrize("sh", SHAPES, ids=str)
def test_batched_field_is_full_rhs_per_chain(sh):
    chains, pi, P, Y = _batch(sh, 6, 5)
    field = BatchedFlowField(pi, P, sh)
    out = field(torch.tensor(Y).T.contiguous())
    assert out.shape == (sh.size, 6)
    for k, ch in enumerate(chains):
        assert np.max(np.abs(out[:, k].numpy() - full_rhs(ch, sh)(0.0, Y[k]))) <= 1e-12
    with pytest.raises(ValueError):
        field(torch.tensor(Y))  # batch-first state: refused


def test_rk4_sweep_is_rk4_torch_on_the_batch_first_field_and_follows_lsoda():
    sh = SHAPES[0]
    chains, pi, P, Y = _batch(sh, 4, 7, eps=0.3)
    grid = [0.0, 1.0, 2.5]
    ops = TorchArithmetic()

    def field_first(y: torch.Tensor) -> torch.Tensor:
        return -torch.tensor(pack(*(g.numpy() for g in param_grads(pi, P, *unpack(y, sh), 1.0, ops))))

    out = rk4_sweep(pi, P, torch.tensor(Y), sh, grid, dt=0.05)
    ref = rk4_torch(field_first, torch.tensor(Y), grid, dt=0.05)
    assert out.shape == (3, 4, sh.size)
    assert float((out - ref).abs().max()) <= 1e-12
    for k, ch in enumerate(chains):
        _, Ys = integrate(full_rhs(ch, sh), Y[k], np.array(grid), rtol=1e-11, atol=1e-13)
        assert np.max(np.abs(out[:, k].numpy() - Ys)) < 1e-8


def test_batch_last_refuses_what_it_does_not_mean():
    x = BatchLast(torch.zeros(3, 2, 5))
    with pytest.raises(IndexError):
        x[0]
    with pytest.raises(TypeError):
        x + torch.zeros(3, 2, 5)  # a raw tensor would broadcast against the wrong dimensions
    with pytest.raises(ValueError):
        BatchLast(torch.zeros(3, 5)) @ x


def test_rk4_torch_on_linear_decay():
    y0 = torch.tensor([[1.0, -2.0], [0.5, 3.0], [0.0, 1e-3]], dtype=torch.float64)
    rates = torch.tensor([1.0, 0.25], dtype=torch.float64)
    out = rk4_torch(lambda y: -rates * y, y0, [0.0, 0.5, 2.0], dt=0.01)
    t = torch.tensor([0.0, 0.5, 2.0], dtype=torch.float64)
    exact = y0[None] * torch.exp(-t[:, None, None] * rates)
    assert out.shape == (3, 3, 2)
    assert float((out - exact).abs().max()) < 1e-10
    with pytest.raises(ValueError):
        rk4_torch(lambda y: y, y0, [0.0, 1.0], dt=0.0)
    with pytest.raises(ValueError):
        rk4_torch(lambda y: y, y0, [0.5, 1.0], dt=0.1)
