"""Unit tests of the E4 observables and the sampled E5 trainer of theorems.focus_dilution.experiments
(spec focus_dilution.md §5.4, §5.5).  No full experiment runs here."""

import math

import numpy as np
import pytest

from numerics.markov import MarkovChain, zipf
from theorems.focus_dilution import experiments as ex
from theorems.focus_dilution.flow import cached_flow, events
from theorems.focus_dilution.markov_model import context_counts, finite_context_loss
from theorems.focus_dilution.population import attention


def _rand_phi(d, seed):
    return np.random.default_rng(seed).standard_normal((d, d))


# -- KL(A_q || pi) and the positional entropy ---------------------------------------------------------------
def test_kl_rows_zero_at_phi_zero():
    pi = np.array([0.75, 0.19, 0.05, 0.01])
    A = attention(pi, np.zeros((4, 4)), 1.0)
    assert np.allclose(A, pi[None, :], atol=1e-15)
    assert np.max(np.abs(ex.kl_rows(A, pi))) <= 1e-15


def test_kl_rows_positive_and_matches_definition():
    pi = np.array([0.4, 0.3, 0.2, 0.1])
    A = attention(pi, _rand_phi(4, 0), 1.0)
    kl = ex.kl_rows(A, pi)
    assert kl.shape == (4,)
    assert np.all(kl > 1e-6)
    direct = [sum(A[q, k] * math.log(A[q, k] / pi[k]) for k in range(4)) for q in range(4)]
    assert np.allclose(kl, direct, rtol=1e-13, atol=0)
    # batched over leading dims, and D-bar = sum_q pi_q KL_q as in Trajectory.concentration
    Ab = np.stack([A, attention(pi, np.zeros((4, 4)), 1.0)])
    assert ex.kl_rows(Ab, pi).shape == (2, 4)
    assert ex.kl_rows(Ab, pi)[0] @ pi == pytest.approx(kl @ pi, rel=1e-14)


def test_kl_rows_zero_entries_and_bad_input():
    pi = np.array([0.5, 0.5])
    assert ex.kl_rows(np.array([[1.0, 0.0], [0.5, 0.5]]), pi) == pytest.approx([math.log(2), 0.0], abs=1e-15)
    with pytest.raises(ValueError, match="> 0"):
        ex.kl_rows(np.eye(2), np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match="must be"):
        ex.kl_rows(np.eye(3), pi)


def test_positional_entropy_is_the_entropy_over_positions():
    """A context of s positions holding token k n_k times: the entropy of the softmax over positions of
    Phi_{q x_i} equals log s - KL(A_q || n/s), A = row-softmax(Phi + log(n/s))."""
    counts = np.array([10, 6, 3, 1])
    s = int(counts.sum())
    tokens = np.repeat(np.arange(4), counts)
    phi = _rand_phi(4, 1)
    pihat = counts / s
    A = attention(pihat, phi, 1.0)
    H = ex.positional_entropy(A, pihat, s)
    for q in range(4):
        a = np.exp(phi[q, tokens])
        a /= a.sum()
        assert H[q] == pytest.approx(-np.sum(a * np.log(a)), rel=1e-13)
    assert ex.positional_entropy(attention(pihat, 0 * phi, 1.0), pihat, 256) == pytest.approx([math.log(256)] * 4)
    with pytest.raises(ValueError, match="s must be"):
        ex.positional_entropy(A, pihat, 0)


# -- PCA, turning points, sequences ---------------------------------------------------------------------------
def test_pca_explained_ratios():
    X = np.random.default_rng(2).standard_normal((5, 8))
    r = ex.pca_explained(X)
    assert r.shape == (5,)
    assert r.sum() == pytest.approx(1.0, abs=1e-14)
    assert np.all(np.diff(r) <= 0)
    assert r[-1] == pytest.approx(0.0, abs=1e-14)  # 5 centred rows span at most 4 dimensions
    assert ex.pca_explained(X, center=False).sum() == pytest.approx(1.0, abs=1e-14)
    rank_one = np.outer([1.0, 2.0, -0.5, 3.0], [0.3, -1.0, 2.0]) + 7.0  # rank one after centring
    assert ex.pca_explained(rank_one) == pytest.approx([1.0, 0.0, 0.0], abs=1e-12)
    assert np.all(ex.pca_explained(np.ones((4, 3))) == 0)
    batched = ex.pca_explained(np.stack([X, 2 * X]))
    assert batched.shape == (2, 5) and np.allclose(batched[0], batched[1])
    with pytest.raises(ValueError):
        ex.pca_explained(np.ones(3))


def test_turning_points_zigzag():
    t = np.arange(6.0)
    y = np.array([0.0, 1.0, 0.5, 2.0, 1.95, 1.9])
    tp = ex.turning_points(t, y, 0.2)
    assert [k for k, _, _ in tp] == ["start", "max", "min", "end"]
    assert [v for _, _, v in tp] == [0.0, 1.0, 0.5, 1.9]
    assert [tt for _, tt, _ in tp] == [0.0, 1.0, 2.0, 5.0]
    # a swing below the threshold is not a turning point
    assert [k for k, _, _ in ex.turning_points(t, y, 0.6)] == ["start", "end"]
    # log mode uses relative swings
    tp = ex.turning_points(t, np.array([1.0, 10.0, 9.5, 0.1, 0.12, 5.0]), math.log(1.5), log=True)
    assert [(k, v) for k, _, v in tp] == [("start", 1.0), ("max", 10.0), ("min", 0.1), ("end", 5.0)]
    with pytest.raises(ValueError):
        ex.turning_points(t, y, 0.0)
    with pytest.raises(ValueError):
        ex.turning_points(t, -y - 1, 0.1, log=True)
    with pytest.raises(ValueError):
        ex.turning_points(t[:3], y, 0.1)


def test_merge_and_compare_sequences():
    assert ex.merge_close([0.0, 0.001, 0.3, 0.302, 0.5], 0.005) == [0.0, 0.3, 0.5]
    c = ex.compare_sequence([0.0, 0.29, 1.0], [0.0, 0.3, 1.0])
    assert c["same_length"] and c["max_abs_deviation"] == pytest.approx(0.01)
    assert c["max_rel_deviation"] == pytest.approx(0.01 / 0.3)
    assert not ex.compare_sequence([0.0], [0.0, 1.0])["same_length"]


def test_first_peak():
    t = np.arange(8.0)
    y = np.array([0.0, 1.0, 0.5, 0.4, 0.8, 0.6, 0.7, 0.9])
    assert ex.first_peak(t, y, 0.0) == (1.0, 1.0)
    assert ex.first_peak(t, y, 2.0) == (4.0, 0.8)
    assert ex.first_peak(t, y, 6.5) is None
    assert ex.first_peak(t, y, None) is None


def test_row_norm_report_detects_shrink_at_flip():
    t = np.geomspace(1, 1000, 400)
    lt = np.log(t)
    # token 1: dips to 1e-2 at t = 100 (a flip) and regrows; token 2 flips without a norm minimum
    n1 = 0.01 + np.abs(lt - math.log(100.0))
    n2 = 0.5 + 0.01 * lt
    norms = np.stack([np.ones_like(t), n1, n2], axis=1)
    rep = ex.row_norm_report(t, norms, {1: [100.0], 2: [30.0]}, [1, 2])
    f1 = rep["rows"][1]["flips"][0]
    assert f1["shrinks"] and f1["t_min"] == pytest.approx(100.0, rel=0.02)
    assert f1["depth"] < 0.01 and f1["regrowth"] > 100
    assert rep["rows"][2]["flips"][0]["shrinks"] is False
    assert rep["flips"] == 2 and rep["flips_with_shrink"] == 1
    assert rep["cycles"] == {1: 1, 2: 0}


def test_sign_flips_agree_with_events():
    """The first rare flip of sign_flip_times is events()['first_flip'] (same construction)."""
    tr = cached_flow("lazy", (ex.E1_PI, "1/2"), T=120.0, eps=1e-3, seed=0, per_decade=100)
    flips = ex.sign_flip_times(tr)
    first = min(f for k in range(1, 4) for f in flips[k][:1])
    assert first == events(tr)["first_flip"]
    assert flips[0] == []


# -- the sampled E5 mode ----------------------------------------------------------------------------------------
def test_context_counts():
    X = np.array([[0, 1, 1, 2], [2, 2, 0, 1]])
    q, c, y = context_counts(X, 3)
    assert q.tolist() == [1, 0] and y.tolist() == [2, 1]
    assert c.tolist() == [[1, 2, 0], [1, 0, 2]]
    with pytest.raises(ValueError):
        context_counts(X, 2)
    with pytest.raises(ValueError):
        context_counts(X[:, :1], 3)


def test_sampled_loss_equals_finite_context_model():
    torch = pytest.importorskip("torch")
    ch = zipf(6)
    X = ch.sample(40, 12, np.random.default_rng(1))
    rng = np.random.default_rng(3)
    W = [rng.standard_normal(sh) for sh in [(6, 3), (3, 6), (3, 2), (3, 2)]]
    M, Phi = W[0] @ W[1], (W[0] @ W[2]) @ (W[0] @ W[3]).T
    ref = finite_context_loss(X, M, Phi, 0.7).mean().item()
    q, c, y = context_counts(X, 6)
    got = ex.sampled_loss([torch.tensor(w) for w in W], torch.as_tensor(q), torch.as_tensor(c),
                          torch.as_tensor(y), 0.7).item()
    assert got == pytest.approx(ref, rel=1e-13)


def test_train_sampled_decreases_the_loss():
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    ch = MarkovChain.lazy(["1/2", "1/4", "1/8", "1/8"], "1/2")
    tr = ex.train_sampled(ch, N=64, s=16, lr=0.5, T=10.0, m=3, mk=3, eps=0.3, seed=1)
    assert torch.get_num_threads() == threads
    tl = tr.meta["train_loss"]
    assert tr.meta["steps"] == 20 and tr.t[0] == 0.0 and tr.t[-1] == pytest.approx(10.0)
    assert np.allclose(tr.t / 0.5, np.round(tr.t / 0.5))
    assert len(tl) == len(tr.t) == tr.y.shape[0]
    assert tl[-1] < tl[0] - 1e-3
    assert np.all(np.diff(tl) <= 1e-12)  # small lr: monotone
    assert tr.A.shape == (len(tr.t), 4, 4) and np.all(np.isfinite(tr.loss))
    with pytest.raises(ValueError):
        ex.train_sampled(ch, N=4, s=4, lr=0.5, T=0.1)


def test_tolerance_rows():
    pop = {"onset_1e-2": 100.0, "onset_0.13": 102.0, "L_onset": 2.84, "A11_max": 1.0, "t_sigma2_W0": None}
    smp = {"onset_1e-2": 195.0, "onset_0.13": 250.0, "L_onset": 2.70, "A11_max": 0.95, "t_sigma2_W0": None}
    rows = {r["name"]: r for r in ex.tolerance_rows(pop, smp)}
    assert rows["onset_1e-2"]["ok"] and rows["onset_1e-2"]["tol"] == pytest.approx(100.0)
    assert not rows["onset_0.13"]["ok"]
    assert not rows["L_onset"]["ok"] and rows["A11_max"]["ok"]
    assert rows["t_sigma2_W0"]["ok"]


def test_main_rejects_unknown_experiment(capsys):
    with pytest.raises(SystemExit) as e:
        ex.main(["--only", "e9", "--out", "unused"])
    assert e.value.code == 2
    assert "unknown experiment" in capsys.readouterr().err
