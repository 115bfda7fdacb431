"""Unit tests of the interpolation objects and public API (spec interpolation.md §2, §3, §4.0)."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.attention import AttentionMatrix
from numerics.strategies import (INVALID_KINDS, NESTED_CHAIN, StrategyArgumentError, edge_case_datasets,
                                 interpolation_datasets, invalid_datasets, token_lists)
from theorems.interpolation import ConstructionError, Dataset, DatasetError, build_interpolator, certify
from theorems.interpolation.blocks import FF, SA, Block, ExactState, count_parameters, identity_block, run_generic
from theorems.interpolation.construction import (distinguishing_points, moment_vector, paper_block_count,
                                                 parameter_formula, pow2_floor, sph, sph_neg)
from theorems.interpolation.torch_export import pad_batch

CHAIN = Dataset(*NESTED_CHAIN)


# -- dataset validation: every invalid kind, with a clear message -----------------------------------------
@pytest.mark.parametrize("inputs, outputs, match", [
    ([[(0, 0), (0, 0)]], [[(1, 1)]], r"A1 violated: input sequence 0 repeats the token \(0, 0\)"),
    ([[(0, 0), (1, 0)], [(1, 0), (0, 0)]], [[(1, 1)], [(2, 2)]], r"A2 violated: input sequences 0 and 1 are equal as sets"),
    ([[(0, 0), (1, 0)]], [[(1, 1), (1, 1)]], r"A3 violated: output sequence 0 repeats the token \(1, 1\)"),
    ([[(0, 0)]], [[(1, 1), (2, 2)]], r"A4 violated: output sequence 0 has m_0 = 2 targets"),
    ([[(0, 0)]], [[]], r"A4 violated: output sequence 0 is empty"),
    ([[(0, 0), (1, 0, 0)]], [[(1, 1)]], r"mixed token dimensions"),
    ([[(0,), (1,)]], [[(2,)]], r"d = 1 is refused"),
    ([[(0, float("nan"))]], [[(1, 1)]], r"not finite"),
    ([[(0, float("inf"))]], [[(1, 1)]], r"not finite"),
    ([], [], r"empty"),
    ([[(0, 0)]], [[(1, 1)], [(2, 2)]], r"1 input sequences but 2 output"),
    ([["ab"]], [[(1, 1)]], r"must be a vector"),
])
def test_dataset_rejects_each_violation(inputs, outputs, match):
    with pytest.raises(DatasetError, match=match):
        Dataset(inputs, outputs)
    assert issubclass(DatasetError, ValueError)


@pytest.mark.parametrize("kind", INVALID_KINDS)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_invalid_strategies_are_rejected(kind, data):
    raw = data.draw(invalid_datasets(kind))
    with pytest.raises(DatasetError):
        Dataset(*raw)


def test_strategies_validate_arguments_eagerly():
    with pytest.raises(StrategyArgumentError):
        interpolation_datasets(d_min=3, d_max=2)
    with pytest.raises(StrategyArgumentError):
        invalid_datasets("no such kind")
    with pytest.raises(StrategyArgumentError):
        token_lists(n_min=0)


def test_floats_are_exact_and_dataset_fields():
    D = Dataset([[(0.5, 0.25), (1, 0)]], [[(0.1, 2)]])
    assert D.inputs[0][0] == (Fr(1, 2), Fr(1, 4)) or tuple(map(str, D.inputs[0][0])) == ("1/2", "1/4")
    assert (D.N, D.M, D.d, D.n, D.num_tokens) == (1, 1, 2, 2, 2)
    assert Dataset.from_json(D.to_json()).to_json() == D.to_json()


# -- gadgets and helpers ---------------------------------------------------------------------------------
def test_sphere_maps_are_rational_unit_vectors():
    for t in ([Fr(1, 3)], [Fr(1, 2), Fr(-2, 5)]):
        s = sph(t, Fr)
        assert sum(v * v for v in s) == 1
    for u in (Fr(1, 10), Fr(1, 7)):
        s = sph_neg(u, 4, Fr)
        assert sum(v * v for v in s) == 1 and all(v < 0 for v in s)


def test_pow2_floor_and_moment_vector():
    assert pow2_floor(Fr(3, 10)) == Fr(1, 4)
    assert pow2_floor(8) == 8
    with pytest.raises(ValueError):
        pow2_floor(0)
    assert moment_vector(4, 3) == (1, 3, 9, 27)


def test_distinguishing_points_separate_and_bound():
    E = distinguishing_points(CHAIN.inputs)
    assert len(E) <= CHAIN.N - 1
    traces = {frozenset(set(x) & set(E)) for x in CHAIN.inputs}
    assert len(traces) == CHAIN.N


# -- construction ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("separation", ["bondy", "mean", "auto"])
def test_edge_cases_interpolate_exactly(separation):
    for raw in edge_case_datasets():
        D = Dataset(*raw)
        m = build_interpolator(D, separation=separation)
        assert m.interpolates()
        assert m.num_blocks <= paper_block_count(D.N, D.M, "hardmax")
        assert m.width <= 4
        assert m.num_parameters == m.parameter_formula()


@settings(max_examples=15, deadline=None)
@given(interpolation_datasets(d_max=4, N_max=4, n_max=5))
def test_fast_and_reference_evaluators_agree(raw):
    D = Dataset(*raw)
    m = build_interpolator(D)
    fast = m.evaluate_dataset(backend="fraction")
    for j, x in enumerate(D.inputs):
        assert run_generic(m.blocks, x, "fraction") == fast[j]
        assert set(fast[j]) == {tuple(Fr(str(v)) for v in y) for y in D.outputs[j]}


def test_flint_and_fraction_backends_agree():
    m = build_interpolator(CHAIN)
    a = m.evaluate_dataset(backend="flint")
    b = m.evaluate_dataset(backend="fraction")
    assert [[tuple(Fr(str(v)) for v in t) for t in s] for s in a] == b


def test_padding_reaches_paper_count_and_changes_nothing():
    m = build_interpolator(CHAIN)
    p = m.pad_to_paper_count(seed=3)
    assert p.num_blocks == 2 * CHAIN.M + 2 * CHAIN.N + 1
    assert p.num_parameters == m.num_parameters + 3 * (p.num_blocks - m.num_blocks)
    assert p.evaluate_dataset() == m.evaluate_dataset()
    assert identity_block().is_identity and identity_block().num_parameters(5) == 3


def test_counting_convention():
    d = 3
    ff = FF(1, ((1, 0, 0),) * 3, (0, 0, 0), ((1, 0, 0),) * 3)
    assert ff.num_parameters(d) == 1 + 3 * (2 * d + 1)
    assert SA(1, 0).num_parameters(d) == 2
    assert SA(0, 1, AttentionMatrix(alpha=1)).num_parameters(d) == 3
    assert SA(1, Fr(1, 8), AttentionMatrix(factors=(((1, 0, 0), (0, 1, 0)),))).num_parameters(d) == 2 + 2 * d
    assert count_parameters([Block(ff, SA(1, 0))], d) == 1 + 3 * (2 * d + 1) + 2
    import sympy as sp

    R, M, dd = sp.symbols("R M d")
    assert sp.expand(parameter_formula(R, M, dd, "hardmax") - parameter_formula(R, M, dd, "softmax")) \
        == sp.expand(-(2 * M * dd + M + 2 * dd + 4))


def test_bad_arguments():
    with pytest.raises(ValueError, match="'attention': must be"):
        build_interpolator(CHAIN, attention="linear")
    with pytest.raises(ValueError, match="'separation': must be"):
        build_interpolator(CHAIN, separation="magic")
    with pytest.raises(TypeError):
        build_interpolator([[(0, 0)]])
    m = build_interpolator(CHAIN)
    with pytest.raises(ValueError, match="dimension 2"):
        m([(0, 0, 0)])
    with pytest.raises(ValueError, match="'tau': is only meaningful"):
        m([(0, 0)], tau=1)
    with pytest.raises(ValueError, match="needs a temperature"):
        build_interpolator(CHAIN, "softmax")([(0, 0)])
    with pytest.raises(ValueError, match="softmax model"):
        certify(m)


def test_controls_fail_loudly():
    with pytest.raises(ConstructionError, match="stage P"):
        build_interpolator(CHAIN, _variant="skip_separation")
    with pytest.raises(ConstructionError, match="stage I"):
        build_interpolator(CHAIN, _variant="perturb_move")
    with pytest.raises(ConstructionError, match="equal as sets"):
        build_interpolator(Dataset([[(0, 0), (1, 0)], [(1, 0), (0, 0)]], [[(1, 1)], [(2, 2)]], _skip_A2=True))


# -- exact filter: ties and huge/small coordinates ---------------------------------------------------------
def test_exact_state_decides_ties_exactly():
    X = [[(Fr(1), Fr(0)), (Fr(0), Fr(1)), (Fr(1), Fr(1, 10 ** 30))]]
    st_ = ExactState(X, Fr)
    st_.apply_sa(SA(0, 1, AttentionMatrix(alpha=1)))
    ref = run_generic([Block(FF(1), SA(0, 1, AttentionMatrix(alpha=1)))], X[0], "fraction")
    assert st_.sequence(0) == ref


# -- softmax and torch ----------------------------------------------------------------------------------------
def test_softmax_certificate_and_exactness_below_tau_c():
    from theorems.interpolation.softmax import exact_at

    m = build_interpolator(CHAIN, "softmax")
    c = certify(m)
    assert c.certified and c.tau_c > 0
    assert exact_at(m, Fr(c.tau_c) / 10, 50)[0]
    assert not exact_at(m, 1000, 50)[0]


def test_torch_export_matches_exact_on_wide_margins():
    D = Dataset(*edge_case_datasets()[1])
    m = build_interpolator(D, separation="mean")
    net = m.to_torch()
    X, mask = pad_batch(D.inputs)
    Y = net(X, mask)
    for j, y in enumerate(D.outputs):
        T = torch.tensor([[float(v) for v in t] for t in y], dtype=torch.float64)
        assert torch.cdist(Y[j, :len(D.inputs[j])], T).min(dim=1).values.max() < 1e-6
    with pytest.raises(ValueError, match="float64"):
        net(X.float(), mask)
    with pytest.raises(ValueError, match="shape"):
        net(torch.zeros(3, 5, dtype=torch.float64))


# -- experiments (fast parts) ----------------------------------------------------------------------------------
def test_ridge_table_and_construction_figure(tmp_path):
    from theorems.interpolation.experiments import construction_figure, ridge_table

    rows = ridge_table()
    assert rows[1]["min_J"] == "10723/296602"
    assert "214/59" in rows[-1]["min_J/eps"]
    path = construction_figure(str(tmp_path))
    assert (tmp_path / "interp_construction_2d.png").exists() and path.endswith(".png")


def test_fig1_data_matches_the_published_threshold():
    from theorems.interpolation.training import fig1_data, loglog_slope

    data = fig1_data()
    assert 55 <= data.theta_star_norm2 <= 70  # the figure's red line 6.25e-3 at eps = 1e-4 gives ~62.5
    assert abs(loglog_slope([1e-1, 1e-3], [3.26e-2, 4.96e-4]) - 0.91) < 0.01


def test_fig1_plots_write_both_panels(tmp_path):
    from theorems.interpolation.experiments import _fig1_plots

    res = {"fig1a": {"losses": [1.0, 0.5, 0.1], "threshold": 0.2},
           "fig1b": {"eps": [1e-1, 1e-2], "minima": [1e-2, 1e-3]},
           "cold": {"explicit": {"rows": [{"eps": 1e-1, "J": 1e-2, "E": 1e-3}, {"eps": 1e-2, "J": 1e-3, "E": 0.0}]}}}
    paths = _fig1_plots(str(tmp_path / "figs"), res)
    assert [p.rsplit("/", 1)[1] for p in paths] == ["interp_fig1a.png", "interp_fig1b.png"]
    assert all((tmp_path / "figs" / p.rsplit("/", 1)[1]).stat().st_size > 0 for p in paths)
