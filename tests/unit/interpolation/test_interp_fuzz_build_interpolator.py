"""Bad-input fuzzing of ``build_interpolator`` and of the built model's call (issue "Trust").

Datasets with extreme coordinates (1e308, 1e-300, 10^400, 1/10^400) must build and interpolate
*exactly*: the outputs of the reference evaluator ``run_generic`` in exact rationals (independent of
the fast float-filtered evaluator the builder uses) equal the targets as sets.  Garbage arguments raise
a VerifyError naming the argument.  Nothing else (no OverflowError from a float shadow).
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.interpolation import Dataset, DatasetError, build_interpolator
from theorems.interpolation.blocks import run_generic

EXTREME = [0, 1, -1, 2, Fraction(1, 3), 1e308, -1e308, 1e-300, 5e-324, 10**400, Fraction(1, 10**400), 1e300]
coords = st.one_of(st.integers(-3, 3), st.sampled_from(EXTREME))
tokens = st.tuples(coords, coords)


@st.composite
def datasets(draw):
    N = draw(st.integers(1, 3))
    inputs, outputs, seen = [], [], set()
    for _ in range(N):
        x = draw(st.lists(tokens, min_size=1, max_size=3, unique_by=lambda t: tuple(Fraction(v) for v in t)))
        key = frozenset(tuple(Fraction(v) for v in t) for t in x)
        if key in seen:
            continue
        seen.add(key)
        m = draw(st.integers(1, len(x)))
        y = draw(st.lists(tokens, min_size=m, max_size=m, unique_by=lambda t: tuple(Fraction(v) for v in t)))
        inputs.append(x)
        outputs.append(y)
    return Dataset(inputs, outputs)


def _fr(v):
    return Fraction(int(v.p), int(v.q)) if hasattr(v, "p") else Fraction(v)


def _interpolates_exactly(model, D):
    for x, y in zip(D.inputs, D.outputs):
        out = run_generic(model.blocks, [tuple(_fr(v) for v in t) for t in x], "exact")
        assert {tuple(_fr(v) for v in t) for t in out} == {tuple(_fr(v) for v in t) for t in y}


@settings(deadline=None, max_examples=fuzz_examples(12))
@given(D=datasets(), attention=st.sampled_from(["hardmax", "softmax"]),
       separation=st.sampled_from(["bondy", "mean", "auto"]))
@example(D=Dataset([[(0, 0), (1e308, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]), attention="hardmax",
         separation="bondy")  # was OverflowError from the float shadow of an exact token
@example(D=Dataset([[(0, 0), (1e308, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]), attention="softmax",
         separation="bondy")
@example(D=Dataset([[(0, 0), (-1e308, 0)], [(0, 0), (0, 1)]], [[(1e308, 1)], [(2, 2)]]), attention="hardmax",
         separation="mean")
@example(D=Dataset([[(0, 0), (1e-300, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]), attention="softmax",
         separation="bondy")
@example(D=Dataset([[(0, 0), (10**400, 0)], [(0, 0), (0, 1)]], [[(1, 1)], [(2, 2)]]), attention="hardmax",
         separation="bondy")
@example(D=Dataset([[(1e308, 0)], [(-1e308, 0)]], [[(1, 1)], [(2, 2)]]), attention="hardmax",
         separation="mean")  # was ValueError: projections 1e308 apart overflowed the float filter to inf
def test_build_interpolator_extreme_datasets(D, attention, separation):
    try:
        model = build_interpolator(D, attention=attention, separation=separation)
    except VerifyError as e:  # a ConstructionError would be a reported limitation, never a crash
        assert getattr(e, "argument", None) or "stage" in str(e), str(e)
        return
    _interpolates_exactly(model, D)


CHAIN = Dataset([[(0, 0), (1, 0)], [(0, 0), (0, 1)]], [[(5, 5)], [(-1, 2), (3, 3)]])
junk = st.sampled_from([None, 0, -1, 1.5, "", "x", "HARDMAX", b"hardmax", ["hardmax"], float("nan"), True])


@settings(deadline=None, max_examples=fuzz_examples(40))
@given(dataset=st.one_of(st.just(CHAIN), junk, st.just([[(0, 0)]])),
       attention=st.one_of(st.sampled_from(["hardmax", "softmax"]), junk),
       separation=st.one_of(st.sampled_from(["bondy", "mean"]), junk),
       seed=st.one_of(st.integers(0, 5), junk), collapse=st.one_of(st.just("identity"), junk),
       backend=st.one_of(st.sampled_from([None, "flint", "fraction"]), junk))
@example(dataset=5, attention="hardmax", separation="bondy", seed=0, collapse="identity", backend=None)
@example(dataset=CHAIN, attention=["hardmax"], separation="bondy", seed=0, collapse="identity", backend=None)
@example(dataset=CHAIN, attention="hardmax", separation="bondy", seed=None, collapse="identity", backend=None)
@example(dataset=CHAIN, attention="hardmax", separation="bondy", seed=0, collapse="identity", backend="x")
def test_build_interpolator_argument_fuzz(dataset, attention, separation, seed, collapse, backend):
    try:
        model = build_interpolator(dataset, attention, separation=separation, seed=seed, collapse=collapse,
                                   backend=backend or None)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in {"dataset", "attention", "separation", "seed", "collapse", "backend"}, str(e)
        assert repr(e.argument) in str(e) or isinstance(e, DatasetError), str(e)
        return
    _interpolates_exactly(model, dataset)


HARD = build_interpolator(CHAIN)
SOFT = build_interpolator(CHAIN, attention="softmax")
xs = st.one_of(st.just([(0, 0), (1, 0)]), st.just([]), st.just([(0, 0, 0)]), st.just([("a", 0)]),
               st.just([(float("nan"), 0)]), st.just("ab"), st.just(5), st.just([(1e308, 0)]),
               st.just(np.zeros((2, 2))), st.just([[0]]))
taus = st.one_of(st.none(), st.sampled_from([1e-3, Fraction(1, 10**30), 0, -1, 0.0, float("nan"), float("inf"),
                                             "0.1", True, [1]]))
dpss = st.one_of(st.none(), st.sampled_from([30, 0, -5, 2.5, "60", True, 10**9]))


@settings(deadline=None, max_examples=fuzz_examples(50))
@given(X=xs, tau=taus, dps=dpss, soft=st.booleans())
@example(X=[(0, 0), (1, 0)], tau=1e-3, dps=0, soft=True)  # dps = 0 was accepted silently
@example(X=[(0, 0), (1, 0)], tau=0, dps=30, soft=True)
@example(X=[(0, 0), (1, 0)], tau=float("nan"), dps=30, soft=True)
def test_model_call_fuzz(X, tau, dps, soft):
    model = SOFT if soft else HARD
    try:
        out = model(X, tau=tau, dps=dps)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError))
        assert e.argument in {"X", "tau", "dps"} and repr(e.argument) in str(e), str(e)
        return
    assert len(out) == len(X)
    for t in out:
        for v in t:
            assert np.isfinite(float(v))
    if soft and [tuple(t) for t in X] == [(0, 0), (1, 0)]:  # an input of the dataset: its target
        assert all(abs(float(v) - 5) < 1e-9 for t in out for v in t)


def test_dps_zero_is_refused():
    with pytest.raises(InputError, match="'dps'"):
        SOFT([(0, 0), (1, 0)], tau=1e-3, dps=0)
