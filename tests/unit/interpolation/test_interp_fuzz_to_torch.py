"""Bad-input fuzzing of ``model.to_torch(tau=...)`` and of the exported module's ``forward``
(issue "Trust").

A valid call returns a finite float64 tensor of the input's shape; on the dataset's own inputs (whose
gadget margins float64 resolves) it agrees with the exact targets.  Bad input raises a VerifyError
naming the argument (``tau``, ``X``, ``mask``, ``kernel``): never NaN (``tau = 0`` returned NaN,
``tau = -1`` garbage), never a raw torch error (an empty batch raised IndexError).
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.interpolation import Dataset, build_interpolator

CHAIN = Dataset([[(0, 0), (1, 0)], [(0, 0), (0, 1)]], [[(5, 5)], [(-1, 2), (3, 3)]])
HARD = build_interpolator(CHAIN)
SOFT = build_interpolator(CHAIN, attention="softmax")
ARGS = {"tau", "X", "mask", "kernel"}

bad_taus = st.sampled_from([0, 0.0, -0.0, -1, -1e-300, float("nan"), float("inf"), -float("inf"), "0.1",
                            None, True, [1e-3], 1j, 5e-324, 1e-300, 1e300, 10**400, Fraction(1, 10**400),
                            np.float64(1e-3)])
taus = st.one_of(bad_taus, st.floats(allow_nan=True, allow_infinity=True))


def _named(e):
    assert isinstance(e, (InputError, InputTypeError)), type(e)
    assert e.argument in ARGS and repr(e.argument) in str(e), str(e)


def _valid(out, X):
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float64
    assert tuple(out.shape) == tuple(X.shape)
    assert bool(torch.isfinite(out).all()), out


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(tau=taus, soft=st.booleans())
@example(tau=0, soft=True)  # was NaN
@example(tau=-1, soft=True)  # was garbage
@example(tau=1e-300, soft=True)  # S / tau overflowed to inf - inf = NaN before the shift by the row max
@example(tau=5e-324, soft=True)
@example(tau="1/2", soft=True)  # float("1/2") was a raw ValueError
def test_to_torch_tau_fuzz(tau, soft):
    model = SOFT if soft else HARD
    try:
        net = model.to_torch(tau=tau)
        X = torch.tensor([[0.0, 0.0], [1.0, 0.0]], dtype=torch.float64)
        out = net(X)
    except VerifyError as e:
        _named(e)
        return
    _valid(out, X)
    if soft:  # an input of the dataset, at a temperature below tau_c = 5.33e-2 (certified)
        if float(Fraction(tau) if isinstance(tau, str) else tau) <= 1e-3:
            assert torch.allclose(out, torch.full_like(out, 5.0), atol=1e-6), (tau, out)


shapes = st.sampled_from([(2, 2), (0, 2), (0, 0, 2), (1, 0, 2), (3, 0, 2), (2, 3), (1, 2, 2), (2, 2, 2),
                          (2,), (), (1, 1, 1, 2)])
fills = st.sampled_from([0.0, 1.0, float("nan"), float("inf"), 1e300, -1e300, 1e-300])
dtypes = st.sampled_from([torch.float64, torch.float32, torch.int64, torch.bool])


@st.composite
def masks(draw, shape):
    kind = draw(st.sampled_from(["none", "ones", "first", "empty_row", "wrong_shape", "float", "list"]))
    lead = shape[:-1] if len(shape) == 3 else ((1,) + shape[:-1] if len(shape) == 2 else (1, 1))
    if kind == "none":
        return None
    if kind == "ones":
        return torch.ones(lead, dtype=torch.bool)
    if kind == "first":
        m = torch.zeros(lead, dtype=torch.bool)
        if m.numel():
            m[..., 0] = True
        return m
    if kind == "empty_row":
        return torch.zeros(lead, dtype=torch.bool)
    if kind == "wrong_shape":
        return torch.ones((7, 7), dtype=torch.bool)
    if kind == "float":
        return torch.ones(lead, dtype=torch.float64)
    return [[True]]


@settings(deadline=None, max_examples=fuzz_examples(80))
@given(data=st.data(), shape=shapes, fill=fills, dtype=dtypes, soft=st.booleans(),
       tau=st.one_of(st.none(), st.sampled_from([1e-3, 0.5, 0, -1, float("nan")])),
       kernel=st.sampled_from([None, "softmax", "hardmax", "linear", 3]))
@example(data=None, shape=(0, 2), fill=0.0, dtype=torch.float64, soft=False, tau=None, kernel=None)  # IndexError
@example(data=None, shape=(1, 0, 2), fill=0.0, dtype=torch.float64, soft=False, tau=None, kernel=None)
@example(data=None, shape=(0, 2), fill=0.0, dtype=torch.float64, soft=True, tau=0.5, kernel=None)
@example(data=None, shape=(2, 2), fill=1e300, dtype=torch.float64, soft=True, tau=1e-3, kernel=None)  # overflow
@example(data=None, shape=(2, 2), fill=float("nan"), dtype=torch.float64, soft=False, tau=None, kernel=None)
def test_forward_fuzz(data, shape, fill, dtype, soft, tau, kernel):
    net = (SOFT if soft else HARD).to_torch(tau=0.01 if soft else None)
    X = torch.full(shape, fill, dtype=torch.float64).to(dtype) if dtype is not torch.float64 \
        else torch.full(shape, fill, dtype=torch.float64)
    mask = data.draw(masks(shape)) if data is not None else None
    try:
        out = net(X, mask, tau=tau, kernel=kernel)
    except VerifyError as e:
        _named(e)
        return
    _valid(out, X)


def test_forward_on_dataset_matches_targets():
    net = HARD.to_torch()
    for x, y in zip(CHAIN.inputs, CHAIN.outputs):
        X = torch.tensor([[float(Fraction(int(v.p), int(v.q)) if hasattr(v, "p") else v) for v in t] for t in x],
                         dtype=torch.float64)
        out = net(X)
        want = torch.tensor([[float(Fraction(int(v.p), int(v.q))) for v in t] for t in y], dtype=torch.float64)
        dist = torch.cdist(out, want)  # Hausdorff distance between the output tokens and the targets
        assert float(max(dist.min(dim=1).values.max(), dist.min(dim=0).values.max())) < 1e-6


def test_weights_beyond_float64_are_named():
    big = build_interpolator(Dataset([[(0, 0)]], [[(0, 4.49423283715579e307)]]))  # was OverflowError
    with pytest.raises(InputError, match="'model'.*float64 range"):
        big.to_torch()


def test_empty_batch_and_bad_tau_are_named():
    net = HARD.to_torch()
    with pytest.raises(InputError, match="'X'"):
        net(torch.zeros(0, 2, dtype=torch.float64))
    with pytest.raises(InputError, match="'tau'"):
        SOFT.to_torch(tau=0)
    with pytest.raises(InputError, match="'tau'"):
        SOFT.to_torch(tau=-1)
