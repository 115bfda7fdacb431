"""Bad-input fuzzing of the dictionary block (issue "Trust"): ``DictionaryBlock`` (constructor,
``forward``, ``losses``) and the float64 loss functions it mirrors (``gibbs``, ``free_energy``,
``all_losses``).

Every draw must give either finite outputs that satisfy the block's identities (rows of Q on the
simplex, L_q = L_OLS + V, 0 <= H <= log K, F against an independent mpmath log-sum-exp at 40 digits)
or a VerifyError (InputError / InputTypeError) naming the argument.  No TypeError, RuntimeError, NaN,
warning or hang.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
import math
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from numerics.precision import mp_context
from theorems.ddcl_incrt import DictionaryBlock
from theorems.ddcl_incrt.dictionary import all_losses, dictionary_losses, free_energy, gibbs

_special = st.sampled_from([0, -1, 1, 0.0, 5e-324, 1e-300, 1e300, 1.7e308, float("nan"), float("inf"),
                            10**400, Fraction(1, 3), True, None, "1.5", "x", 1j, [1], ()])
scalars = st.one_of(_special, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True))
numbers = st.one_of(st.floats(-10, 10), st.sampled_from([1e-300, 1e150, -1e200, 1e300]))
taus = st.one_of(st.floats(1e-3, 1e3), st.sampled_from([1e-300, 5e-324, 1e300, 1.7e308]), scalars)


@st.composite
def arrays(draw, n_max=4, d=None, entries=numbers):
    n = draw(st.integers(0, n_max))
    dd = draw(st.integers(0, 3)) if d is None else d
    rows = [[draw(entries) for _ in range(dd)] for _ in range(n)]
    if draw(st.integers(0, 5)) == 0 and rows:
        rows[-1] = rows[-1] + [1.0]  # ragged
    return rows


garbage = st.one_of(arrays(), arrays(entries=scalars), scalars, st.just([]), st.just([[]]))


def _check_error(e, args):
    assert isinstance(e, (InputError, InputTypeError))
    assert e.argument in args and repr(e.argument) in str(e), str(e)


def _reference_F(Z, P, t):
    ctx = mp_context(40)
    tot = ctx.mpf(0)
    for z in Z:
        ds = [sum((ctx.mpf(float(a)) - ctx.mpf(float(b))) ** 2 for a, b in zip(z, p)) for p in P]
        m = min(ds)  # shifted by the row minimum: exact where 1 - d/tau rounds to 1 at 40 digits (tau ~ 1e300)
        tot += m - ctx.mpf(t) * ctx.log(sum(ctx.exp(-(dk - m) / ctx.mpf(t)) for dk in ds))
    return tot / len(Z)


@settings(deadline=None, max_examples=fuzz_examples(80))
@given(Z=garbage, P=garbage, tau=taus)
@example(Z=[[1e200, 0.0]], P=[[0.0, 0.0]], tau=1.0)  # |z - p|^2 = 1e400 overflowed to NaN losses
@example(Z=[[0.0, 0.0], [1.0, 0.0]], P=[[0.0, 0.0], [2.0, 0.0]], tau=5e-324)  # tiny tau: NaN rows before
@example(Z=[[0.0, 0.0]], P=[[0.0, 0.0], [1.0, 1.0]], tau=1.7e308)  # F = -tau log 2 overflows
@example(Z=[["a", 0.0]], P=[[0.0, 0.0]], tau=1.0)  # strings: a bare ValueError before
@example(Z=[[0.0, 1.0]], P=[[0.0]], tau=1.0)  # dimension mismatch
@example(Z=[[0.0, 1.0]], P=[[0.0, 1.0]], tau="2")  # a string temperature was read as 2.0
@example(Z=[[10**400]], P=[[0.0]], tau=1.0)  # was OverflowError
def test_loss_functions_fuzz(Z, P, tau):
    args = {"Z", "P", "tau"}
    try:
        Q = gibbs(Z, P, tau)
        F = free_energy(Z, P, tau)
        L = all_losses(Z, P, tau)
    except VerifyError as e:
        _check_error(e, args)
        return
    assert np.all(np.isfinite(Q)) and np.allclose(Q.sum(1), 1.0, atol=1e-12) and np.all(Q >= 0)
    assert all(math.isfinite(v) for v in L.values()) and math.isfinite(F)
    K = np.asarray(P, dtype=float).reshape(len(P), -1).shape[0]
    assert -1e-12 <= L["H"] <= math.log(K) + 1e-12
    scale = max(1.0, L["L_q"])
    assert abs(L["L_q"] - L["L_OLS"] - L["V"]) <= 1e-9 * scale
    ref = _reference_F(np.asarray(Z, dtype=float).reshape(len(Z), -1), np.asarray(P, dtype=float).reshape(K, -1),
                       float(tau))
    assert abs(F - ref) <= 1e-9 * max(1.0, abs(ref)), (F, ref)


block_kwargs = st.fixed_dictionaries({}, optional={
    "tau": taus, "mode": st.sampled_from(["full", "stopgrad", "free_energy", "hard", None, 3]),
    "param": st.sampled_from(["free", "dual_linear", "x", None]),
    "learn_tau": st.sampled_from([True, False, "yes", None]),
    "tau_min": st.sampled_from([1e-3, 0.0, -1.0, float("nan"), 1e300, "a", None]),
    "tau_scale": st.sampled_from([1, 2, 3, 0, True, "1"]),
    "n_batch": st.sampled_from([1, 3, 0, -1, 2.5, None, "3"]),
    "init": st.sampled_from(["zeros", "nan", "wrong", "str", "huge"]),
    "dtype": st.sampled_from([None, torch.float64, torch.float32, torch.int64, "float"]),
})


def _init(kind, K, d):
    return {"zeros": np.zeros((K, d)), "nan": np.full((K, d), np.nan), "wrong": np.zeros((K + 1, d)),
            "str": "init", "huge": np.full((K, d), 1e300)}[kind]


@settings(deadline=None, max_examples=fuzz_examples(80))
@given(d=st.one_of(st.integers(1, 3), st.sampled_from([0, -1, 2.5, "2", None, True])),
       K=st.one_of(st.integers(1, 3), st.sampled_from([0, -2, 1.5, None])), kw=block_kwargs,
       Z=st.one_of(arrays(n_max=3, d=2), arrays(n_max=3, d=2, entries=scalars), garbage),
       as_tensor=st.sampled_from(["float64", "float32", "int64", "list"]))
@example(d=2, K=2, kw={"tau": 1.0}, Z=[[1e200, 0.0]], as_tensor="float64")  # NaN losses before
@example(d=2, K=2, kw={"tau": 5e-324}, Z=[[1.0, 0.0], [0.0, 1.0]], as_tensor="float64")
@example(d=2, K=2, kw={"init": "nan"}, Z=[[1.0, 0.0]], as_tensor="float64")  # NaN init was accepted
@example(d=2, K=2, kw={"param": "dual_linear", "n_batch": 1}, Z=[[1.0, 0.0]], as_tensor="float32")  # dtype clash
@example(d=2, K=2, kw={}, Z=[[1.0, 0.0]], as_tensor="list")  # was AttributeError: list has no ndim
@example(d=2.5, K=2, kw={}, Z=[[1.0, 0.0]], as_tensor="float64")  # 2.5 was read as 2
@example(d=2, K=2, kw={"learn_tau": True, "tau_min": "a"}, Z=[[1.0, 0.0]], as_tensor="float64")  # TypeError
@example(d=1, K=1, kw={"tau_min": None}, Z=[], as_tensor="float64")  # float(None) when learn_tau=False
def test_dictionary_block_fuzz(d, K, kw, Z, as_tensor):
    kw = dict(kw)
    if "init" in kw:
        ok = lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0  # noqa: E731
        kw["init"] = _init(kw["init"], K if ok(K) else 1, d if ok(d) else 1)
    ctor_args = {"d", "K", "tau", "mode", "param", "learn_tau", "tau_min", "tau_scale", "n_batch", "init",
                 "dtype"}
    try:
        block = DictionaryBlock(d=d, K=K, **kw)
    except VerifyError as e:
        _check_error(e, ctor_args)
        return
    if as_tensor == "list":
        X = Z
    else:
        try:
            X = torch.tensor(np.asarray(Z, dtype=float), dtype=getattr(torch, as_tensor))
        except (ValueError, TypeError, OverflowError, RuntimeError):
            return  # not a tensor-able array: the garbage is exercised through the list form
    try:
        out = block(X)
        L = block.losses(X)
    except VerifyError as e:
        _check_error(e, {"Z"})
        return
    assert bool(torch.isfinite(out).all())
    assert all(bool(torch.isfinite(v)) for v in L.values())
    Lq, Lo, V = (float(L[k].detach()) for k in ("L_q", "L_OLS", "V"))
    assert abs(Lq - Lo - V) <= 1e-4 * max(1.0, abs(Lq))  # float32 blocks: a float32 budget


def test_block_rejects_bad_sizes_with_named_errors():
    with pytest.raises(InputError, match="'d'"):
        DictionaryBlock(d=0, K=2)
    with pytest.raises(InputTypeError, match="'K'"):
        DictionaryBlock(d=2, K=2.0)
    with pytest.raises(InputError, match="'init'"):
        DictionaryBlock(d=2, K=2, init=np.full((2, 2), np.nan))
    with pytest.raises(InputTypeError, match="'Z'"):
        DictionaryBlock(d=2, K=2)([[0.0, 1.0]])


exact_entries = st.one_of(st.integers(-5, 5), st.fractions(min_value=-5, max_value=5, max_denominator=7))


@st.composite
def exact_block(draw):
    N, K, d = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 2))
    Z = [[draw(exact_entries) for _ in range(d)] for _ in range(N)]
    P = [[draw(exact_entries) for _ in range(d)] for _ in range(K)]
    Q = []
    for _ in range(N):
        w = [Fraction(draw(st.integers(0, 4))) for _ in range(K)]
        w[0] += 1
        Q.append([x / sum(w) for x in w])
    return Z, P, Q


@settings(deadline=None, max_examples=fuzz_examples(60))
@given(args=st.one_of(exact_block(), st.tuples(garbage, garbage, garbage)))
@example(args=([[0]], [[1]], [[None]]))  # was TypeError deep inside the loop
@example(args=([[0, 1]], [[1]], [[1]]))  # dimension mismatch
@example(args=("Z", [[1]], [[1]]))  # a string was iterated character by character
@example(args=([[0.0]], [[1.0]], [[float("nan")]]))  # NaN assignment gave NaN losses
@example(args=([[0.0, 0.0]], [[0, 0], [0, -(10**400)]], [[0, 0]]))  # was OverflowError (float - huge int)
@example(args=([[1e300]], [[-1e300], [0.0]], [[0.0, 1.0]]))  # 0 * inf gave NaN losses
def test_dictionary_losses_fuzz(args):
    Z, P, Q = args
    try:
        L = dictionary_losses(Z, P, Q)
    except VerifyError as e:
        _check_error(e, {"Z", "P", "Q"})
        return
    if all(isinstance(x, (int, Fraction)) for M in (Z, P, Q) for r in M for x in r) and all(
            sum(q) == 1 for q in Q):
        assert L.L_q == L.L_OLS + L.V and L.V >= 0  # exact identity on the simplex
