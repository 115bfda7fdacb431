"""The product functions the ddcl statements' observables come from, on exact instances.

``pairwise_variance(P, q)`` (its default, halved form) is the sample variance V_i of ``sample_terms``:
the decomposition check evaluates the statement ``V_i = S_i / 2`` on the unhalved sum, so the product's
default form is pinned here.
"""

from __future__ import annotations

from fractions import Fraction as F

from theorems.ddcl_incrt.dictionary import pairwise_variance, sample_terms


def test_pairwise_variance_default_is_the_sample_variance():
    P = [(F(0), F(0)), (F(1), F(0)), (F(0), F(1))]
    for q in ([F(1, 2), F(1, 4), F(1, 4)], [F(1), F(0), F(0)], [F(1, 3)] * 3):
        v = sample_terms((F(2), F(-1)), P, q)[2]
        assert pairwise_variance(P, q) == v
        assert pairwise_variance(P, q, half=False) == 2 * v


def test_torch_statement_broadcasts_constants_and_batches():
    """A statement evaluated on torch tensors of different shapes (a scalar constant, a per-sample
    column, a per-prototype row) broadcasts elementwise, as the gradients check relies on."""
    import sympy as sp
    import torch

    from numerics.arithmetic import TorchArithmetic
    from verify import Tally, Verdict

    ar = TorchArithmetic(torch.float64)
    s = ar.fsum([ar.convert(1), torch.ones(2, 1, dtype=torch.float64), torch.ones(1, 3, dtype=torch.float64)])
    assert s.shape == (2, 3) and bool((s == 3).all())
    x, y = sp.symbols("x y", real=True)
    T = lambda a: torch.tensor(a, dtype=torch.float64)
    tally = Tally(precision="float64", backend="torch")
    assert tally.statement(sp.Eq(x, 2 * y + 1), {"x": T([[3.0, 5.0]]), "y": T([[1.0, 2.0]])},
                           tol=1e-12).level is Verdict.CONSISTENT
    assert tally.statement(sp.Eq(x, 2 * y + 1), {"x": T([[3.0], [3.0]]), "y": T([[1.0, 2.0]])},
                           tol=1e-12).level is Verdict.REFUTED


def test_relative_and_translation_modes_are_exact_eigenvectors_at_collapse():
    """On grid data (C diagonal) the relative mode (e_j, -e_j, 0, ...) and the translation mode are exact
    eigenvectors of the differentiated Hessian, with Rayleigh quotients (2/K)(1 - 4 lambda_j/tau) and 2/K."""
    from theorems.ddcl_incrt._checks_separation import (
        _grid,
        _mode_vectors,
        _rayleigh,
        forward_collapse_hessian,
    )

    Z, K, tau = _grid([F(1), F(1, 2)]), 3, F(3)
    H = forward_collapse_hessian(Z, K, tau, "full")
    for j, lam in enumerate((F(1), F(1, 4))):
        rel, tr = _mode_vectors(K, 2, j)
        assert _rayleigh(H, rel) == (F(2, K) * (1 - 4 * lam / tau), True)
        assert _rayleigh(H, tr) == (F(2, K), True)


def test_statement_parts_per_mode():
    from theorems.ddcl_incrt._checks_separation import _part
    from verify import statement_of

    crit, r0 = statement_of("ddcl.separation.critical_temperature"), statement_of("ddcl.separation.unconditional")
    assert _part(crit, "negative_count", "full") == "negative_count"
    assert _part(crit, "negative_count", "stopgrad") == "negative_count_F"
    assert _part(r0, "negative_count", "stopgrad") == "negative_count"


def test_tau_derivatives_by_forward_mode_match_the_closed_forms():
    """dL_q/dtau = Var_q(d)/tau^2 and dF/dtau = -H from Dual-number differentiation in arb balls."""
    import flint

    from numerics.precision import arb_precision
    from theorems.ddcl_incrt._checks_temperature import _tau_derivatives_ad
    from theorems.ddcl_incrt.dictionary import gibbs_row, sample_tau_derivatives

    with arb_precision(256):
        d = [flint.arb(0), flint.arb(1), flint.arb(3)]
        t = flint.arb(2)
        dLq, dF, q = _tau_derivatives_ad(d, t)
        ref_Lq, ref_F = sample_tau_derivatives(gibbs_row(d, t, lambda v: v.exp()), d, t, lambda v: v.log())
        assert abs(dLq - ref_Lq) < flint.arb(10) ** -60 and abs(dF - ref_F) < flint.arb(10) ** -60
        assert abs(sum(q) - 1) < flint.arb(10) ** -60


def test_per_sample_observables_have_broadcastable_shapes():
    import numpy as np

    from theorems.ddcl_incrt._checks_gradients import _per_sample_observables
    from theorems.ddcl_incrt.dictionary import gibbs, sqdist_matrix

    rng = np.random.default_rng(0)
    Z, P, tau = rng.standard_normal((5, 2)), rng.standard_normal((3, 2)), 0.7
    obs = _per_sample_observables(Z, P, tau, gibbs(Z, P, tau), sqdist_matrix(Z, P), "statement")
    assert tuple(obs["live grad L_q"]["g"].shape) == (5, 3, 2)
    assert tuple(obs["dL_q/dtau"][r"\partial_{\tau}L_{q}"].shape) == (5,)
    # the per-sample live gradients average to the product's N-sample gradient
    from theorems.ddcl_incrt.dictionary import grad_live_Lq

    assert np.allclose(obs["live grad L_q"]["g"].mean(0).numpy(), grad_live_Lq(Z, P, tau), rtol=1e-12, atol=1e-14)


def test_vectorised_jacobians_are_the_row_by_row_passes_bit_for_bit(monkeypatch):
    """The per-sample derivatives by one vmapped backward pass equal, bit for bit, those of one backward
    pass per sample (torch's default), on the check's kinds of instances: random N, K, d, tau over six
    orders of magnitude and a far prototype whose q underflows; every variant."""
    import numpy as np
    import torch
    import torch.autograd.functional as taf

    from theorems.ddcl_incrt._checks_gradients import _per_sample_observables
    from theorems.ddcl_incrt.dictionary import gibbs, sqdist_matrix

    rng = np.random.default_rng(3)
    row_by_row = taf.jacobian
    for case in range(14):
        N, K, d = int(rng.integers(2, 40)), int(rng.integers(1, 7)), int(rng.integers(1, 6))
        Z = rng.standard_normal((N, d)) * np.exp(rng.uniform(-1, 1, d))
        P = Z[rng.integers(0, N, K)] + 0.5 * rng.standard_normal((K, d))
        if case % 7 == 3:
            P[0] += 1e3
        tau = float(np.exp(rng.uniform(-3, 3)))
        args = (Z, P, tau, gibbs(Z, P, tau), sqdist_matrix(Z, P))
        for variant in ("statement", "detached", "tau_sign"):
            fast = _per_sample_observables(*args, variant)
            monkeypatch.setattr(taf, "jacobian", lambda f, x, vectorize=False, **kw: row_by_row(f, x, **kw))
            slow = _per_sample_observables(*args, variant)
            monkeypatch.setattr(taf, "jacobian", row_by_row)
            for part, vals in slow.items():
                for k, v in vals.items():
                    if isinstance(v, torch.Tensor):
                        assert torch.equal(fast[part][k], v), (case, variant, part, k)
