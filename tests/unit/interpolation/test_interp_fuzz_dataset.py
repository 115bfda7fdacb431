"""Bad-input fuzzing of ``Dataset(inputs, outputs)`` (issue "Trust").

Every draw gives either a valid dataset -- whose exact tokens equal the Fractions of the inputs, every
coordinate finite -- or a VerifyError (DatasetError / InputError / InputTypeError) naming the argument
at fault (``inputs``, ``outputs``, ``backend`` or the dataset as a whole).  Nothing else.
"""

from __future__ import annotations

from tests.fuzzing import fuzz_examples
from fractions import Fraction

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numerics.errors import InputError, InputTypeError, VerifyError
from theorems.interpolation import Dataset, DatasetError

ARGS = {"inputs", "outputs", "dataset", "backend"}

_special = st.sampled_from([0, -1, 1, 0.0, -0.0, 5e-324, 1e-300, 1e300, 1e308, -1e308, float("nan"),
                            float("inf"), -float("inf"), 10**400, Fraction(1, 3), Fraction(1, 10**400),
                            "1/2", "x", "", True, None, 1j, b"1", [1], (), {}])
scalars = st.one_of(_special, st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                    st.fractions(max_denominator=10**6))
small = st.integers(-3, 3)


@st.composite
def sequences(draw, entries):
    n, d = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    seq = [[draw(entries) for _ in range(d)] for _ in range(n)]
    kind = draw(st.sampled_from(["list", "tuple", "array", "ragged", "flat", "scalar"]))
    if kind == "tuple":
        return tuple(tuple(t) for t in seq)
    if kind == "array":
        try:
            return np.array(seq, dtype=float)
        except (OverflowError, ValueError, TypeError):
            return seq
    if kind == "ragged" and seq:
        return seq[:-1] + [seq[-1] + [draw(entries)]]
    if kind == "flat":
        return [t[0] if t else draw(entries) for t in seq]
    if kind == "scalar":
        return draw(entries)
    return seq


def parts(entries):
    return st.one_of(st.lists(sequences(entries), max_size=3), scalars, st.just([]), st.text(max_size=3),
                     st.just(np.zeros((2, 2, 2))), st.just(iter([[(0, 0)]])))


def _check(inputs, outputs, backend=None):
    try:
        D = Dataset(inputs, outputs, backend=backend)
    except VerifyError as e:
        assert isinstance(e, (InputError, InputTypeError, DatasetError)), type(e)
        assert e.argument in ARGS, (e.argument, str(e))
        if isinstance(e, DatasetError):  # message-only: it names the sequence part or the rule
            assert any(w in str(e) for w in ("input", "output", "dataset", "token", "d = 1", "A")), str(e)
        else:
            assert repr(e.argument) in str(e), str(e)
        return None
    for got, given_ in ((D.inputs, inputs), (D.outputs, outputs)):
        for s, g in zip(got, given_):
            for t, gt in zip(s, g):
                assert len(t) == D.d >= 2
                for v, gv in zip(t, gt):
                    fv = Fraction(int(v.p), int(v.q)) if hasattr(v, "p") else Fraction(v)
                    assert fv == Fraction(str(gv)) if isinstance(gv, str) else fv == Fraction(gv)
    return D


@settings(deadline=None, max_examples=fuzz_examples(150))
@given(inputs=parts(st.one_of(small, scalars)), outputs=parts(st.one_of(small, scalars)))
@example(inputs=5, outputs=5)  # was a bare TypeError (len of int)
@example(inputs=[[(0, 0), (1, 0)]], outputs=5)
@example(inputs=[[(0, 0), ("1/2", 0)]], outputs=[[(1, 1)]])
@example(inputs=[[(0, 0), (1e308, 0)]], outputs=[[(1, 1)]])
@example(inputs=[[(0, 0), (float("nan"), 0)]], outputs=[[(1, 1)]])
@example(inputs=[[(0, 0), ("x", 0)]], outputs=[[(1, 1)]])
@example(inputs=[[(0, 0), (None, 0)]], outputs=[[(1, 1)]])
@example(inputs=[[(0, 0), (1j, 0)]], outputs=[[(1, 1)]])
@example(inputs=iter([[(0, 0)]]), outputs=[[(1, 1)]])  # no len()
@example(inputs="ab", outputs="ab")
@example(inputs=[], outputs=[])
@example(inputs=[[]], outputs=[[]])
def test_dataset_fuzz(inputs, outputs):
    _check(inputs, outputs)


@settings(deadline=None, max_examples=fuzz_examples(30))
@given(backend=st.one_of(st.sampled_from(["flint", "fraction", "mpmath", "", 3, b"flint"]), st.text(max_size=4)))
def test_dataset_backend_fuzz(backend):
    _check([[(0, 0), (1, 0)]], [[(1, 1)]], backend=backend or None)
