"""The interpolation claims' statements as code: forms, derivations, the explore-body bridge and the
observables added for them (exact squared Hausdorff distance, figure data)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy as sp

from numerics.errors import InputError
from numerics.strategies import NESTED_CHAIN
from theorems.interpolation import claims
from theorems.interpolation._stmt import observe_part, observe_parts, part
from theorems.interpolation.dataset import Dataset, hausdorff_sq
from verify import Verdict, check_derivation, is_formula


def _claim(cid):
    return next(c for c in claims.CLAIMS if c.id == cid)


def test_every_statement_but_the_undetermined_one_is_a_formula() -> None:
    text = [c.id for c in claims.CLAIMS if not is_formula(c.resolved_statement())]
    assert text == ["interp.tikhonov.as_stated"]  # UNKNOWN by design: its readings disagree


@pytest.mark.parametrize("cid", [c.id for c in claims.CLAIMS if c.resolved_derivation() is not None])
def test_derivations_hold(cid: str) -> None:
    c = _claim(cid)
    ev = check_derivation(c.resolved_derivation(), c.resolved_statement())
    assert ev.level in (Verdict.PROVED, Verdict.CONSISTENT), ev.details["steps"]


def test_params_derivation_concludes_its_part_and_a_broken_step_refutes() -> None:
    c = _claim("interp.hardmax.params")
    der = c.resolved_derivation()
    rows = check_derivation(der, c.resolved_statement()).details["steps"]
    assert rows[-1]["label"] == "concludes closed_form" and rows[-1]["status"] == "PROVED"
    wrong = 2 * der.steps[1].expr  # the collected closed form doubled
    broken = der.replace_step(1, expr=wrong)
    assert check_derivation(broken, c.resolved_statement()).level is Verdict.REFUTED


def test_hausdorff_sq_is_exact_and_symmetric() -> None:
    assert hausdorff_sq([(1, 2), (1, 2)], [(1, 2)]) == 0  # sets: multiplicities ignored
    assert hausdorff_sq([(0, 0)], [(F(1, 2), 0), (0, 0)]) == F(1, 4)  # a missed target counts
    assert hausdorff_sq([(F(1, 2), 0), (0, 0)], [(0, 0)]) == F(1, 4)
    with pytest.raises(InputError):
        hausdorff_sq([], [(0, 0)])


def test_observe_part_names_the_part_as_sub_check() -> None:
    st = _claim("interp.hardmax.blocks").resolved_statement()
    ok = observe_part(st, {"L_H": 5, "M": 2, "N": 1}, "block_bound")
    bad = observe_part(st, {"L_H": 9, "M": 2, "N": 1}, "block_bound", note="x")
    assert ok.level is Verdict.CERTIFIED
    assert bad.level is Verdict.REFUTED and bad.counterexample.data["sub_check"] == "block_bound"
    both = observe_parts(st, {"block_bound": {"L_H": 5, "M": 2, "N": 1},
                              "closed_form": {"R": 5, "M": 2, "N": 1}})  # R = 5 > N + 1
    assert both.level is Verdict.REFUTED and both.counterexample.data["sub_check"] == "closed_form"
    assert str(part(st, "block_bound").rhs) == "2*M + 2*N + 1"


def test_stage_positions_end_on_the_targets() -> None:
    from theorems.interpolation._figures import stage_positions
    from theorems.interpolation.construction import build_interpolator

    m = build_interpolator(Dataset(*NESTED_CHAIN), "hardmax", seed=0)
    stages = stage_positions(m)
    assert stages[0][0] == "inputs" and len(stages) == 4  # inputs, S, P, I
    targets = {(float(t[0]), float(t[1])) for y in m.dataset.outputs for t in y}
    assert set(stages[-1][1]) == targets


def test_for_all_positive_decides_the_ridge_bound_both_ways() -> None:
    from theorems.interpolation._checks_tikhonov import _for_all_positive

    e = sp.Symbol("epsilon", positive=True)
    mJ = 2 * e * (23 * e + 107) / (4 * e ** 2 + 32 * e + 59)
    assert _for_all_positive(sp.Le(mJ, e * sp.Rational(214, 59)), e)
    assert not _for_all_positive(sp.Le(mJ, e * sp.Rational(214, 590)), e)
    assert not _for_all_positive(sp.Gt(mJ, e * sp.Rational(214, 59)), e)
