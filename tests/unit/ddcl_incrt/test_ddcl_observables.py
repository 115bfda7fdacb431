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
