"""Unit tests of the machinery of the dynamic checks of theorems.focus_dilution (spec focus_dilution.md §4.5, §4.8,
§4.10-§4.12, §4.15): the sub-check routing of the controls, the closed-form targets the checks compare with,
and the cheap checks end to end.  The E1 reference runs are not exercised here (the claims run them)."""

from fractions import Fraction

import numpy as np
import pytest

from numerics.markov import MarkovChain, anti_persistent, metropolis, symmetric_rare
from theorems.focus_dilution import _flow_runs as runs
from theorems.focus_dilution import _checks_condensation as cond
from theorems.focus_dilution import _checks_focus_direction as fdir
from theorems.focus_dilution import _checks_redistribution as redis
from theorems.focus_dilution import _checks_anti_focus as anti
from theorems.focus_dilution._checks_model import E1_PI
from theorems.focus_dilution.flow import Shapes, Trajectory, init_params, pack, unpack
from verify import Gate, Tally, Verdict, get_profile, refuted

QUICK = get_profile("quick")


# -- the control routing -------------------------------------------------------------------------------------
def _gate(variant):
    return Gate(Tally(precision="test", backend="test"), variant, {"ctrl": ("a",)})


def test_gate_statement_asserts_every_sub_check():
    g = _gate("statement")
    g("a").le(0.0, 1.0, 0.0)
    g("b").le(2.0, 1.0, 0.0, counterexample=lambda: refuted("b fails"))
    ev = g.evidence()
    assert ev.level is Verdict.REFUTED and ev.counterexample.description == "b fails"


def test_gate_variant_counts_only_its_target():
    g = _gate("ctrl")
    g("a").le(0.0, 1.0, 0.0)
    g("b").le(2.0, 1.0, 0.0, counterexample=lambda: refuted("b fails"))   # unrelated failure: recorded only
    ev = g.evidence()
    assert ev.level is Verdict.CONSISTENT
    assert ev.details["recorded_only"] == {"b": "REFUTED"}
    assert ev.details["asserted_sub_checks"] == ["a"]


def test_gate_variant_refuted_by_its_target_only():
    g = _gate("ctrl")
    g("a").le(2.0, 1.0, 0.0, counterexample=lambda: refuted("a fails"))
    g("b").le(0.0, 1.0, 0.0)
    ev = g.evidence()
    assert ev.level is Verdict.REFUTED and ev.counterexample.description == "a fails"


def test_gate_rejects_unknown_variant_and_unrun_target():
    with pytest.raises(ValueError, match="unknown variant"):
        _gate("nope")
    g = _gate("ctrl")
    g("b").le(0.0, 1.0, 0.0)
    with pytest.raises(RuntimeError, match="never ran"):
        g.evidence()


def test_gate_child_reports_to_parent():
    g = _gate("ctrl")
    c = g.child()
    c("a").le(2.0, 1.0, 0.0, counterexample=lambda: refuted("a fails"))
    obs = c.observation()
    assert obs.level is Verdict.REFUTED
    g.tally.add(obs)
    assert g.evidence().level is Verdict.REFUTED       # 'a' counts as run through the child


# -- closed-form targets ------------------------------------------------------------------------------------
def test_f4_targets_of_statement_and_control():
    ch = symmetric_rare(*redis.F4_ARGS)
    R = runs._refs(ch)
    u = np.array([4 * ch.pi[1]] + [-ch.pi[0]] * 4)
    assert u @ R["rho"] == pytest.approx(redis.U_RHO_F4, abs=1e-14)
    assert u @ runs._attention_forcing(ch, R) / (2 * R["c"]) == pytest.approx(redis.U_F_2C_F4, abs=5e-6)
    # the control's target is far outside the statement's tolerance
    assert abs(redis.U_RHO_F4 - redis.U_F_2C_F4) > 100 * redis.RATIO_TOL


def test_perp_projects_out_pi():
    pi = np.array([0.75, 0.19, 0.05, 0.01])
    x = np.random.default_rng(0).standard_normal((3, 4))
    assert np.max(np.abs(runs._perp(x, pi) @ pi)) < 1e-15
    assert np.allclose(runs._perp(pi[None, :], pi), 0, atol=1e-15)


def test_theta_star_is_the_linear_root():
    root, k2root, k2lo, k2hi, problem = anti._k2_mixture_root()
    assert problem is None
    assert abs(k2root) < 1e-25 and k2lo < 0 < k2hi
    assert float(root) == pytest.approx(anti.THETA_STAR, abs=1e-10)
    # K2 is linear in P, so theta* = -K2(F6) / (K2(F1) - K2(F6))
    a = runs._refs(MarkovChain.lazy(E1_PI, "1/2"))["K2"]
    b = runs._refs(anti_persistent(E1_PI))["K2"]
    assert float(root) == pytest.approx(-b / (a - b), abs=1e-13)


def test_theta_star_mixture_mismatch_is_reported_not_raised(monkeypatch):
    """A product P(theta) that is not the affine mixture comes back as a problem (the check turns it into
    REFUTED evidence), never as an exception."""
    import numerics.markov as markov

    real = markov.lazy_anti_mixture

    def skewed(pi, lam, theta):
        th = Fraction(theta)
        return real(pi, lam, th * th if 0 < th < 1 else th)  # not affine in theta

    monkeypatch.setattr(markov, "lazy_anti_mixture", skewed)
    root, k2root, k2lo, k2hi, problem = anti._k2_mixture_root()
    assert root is None and problem is not None and "entry" in problem


def test_pinned_sign_law_chains():
    f2 = runs._refs(metropolis(*anti.ANTI_PINNED_F2))
    f3 = runs._refs(MarkovChain(anti.ANTI_PINNED_F3))
    assert f2["K2"] >= 1e-2 and f2["c"] >= anti.ANTI_C_MIN
    assert f3["K2"] <= -1e-2 and -f3["c"] >= anti.ANTI_C_MIN


def test_linear_deviation_vanishes_on_the_linear_flow():
    ch = MarkovChain.lazy(E1_PI, "1/2")
    R = runs._refs(ch)
    m = 3
    w, Q = cond._origin_jacobian(ch.pi, R["v"], m)
    sh = Shapes(4, m, 2)
    y0 = init_params(4, m, 2, 1e-3, 0)
    W0, W1, WQ, WK = unpack(y0, sh)
    x0 = np.concatenate([W0.ravel(), W1.ravel()])
    t = np.linspace(0, 10, 50)
    X = (np.exp(np.outer(t, w)) * (Q.T @ x0)[None, :]) @ Q.T
    Y = np.stack([pack(x[:12].reshape(4, m), x[12:].reshape(m, 4), WQ, WK) for x in X])
    te, dev = cond._linear_deviation(Trajectory(ch, sh, t, Y), w, Q, 8.0)
    assert te.max() <= 8.0 and te.min() > 0 and np.max(dev) < 1e-14 * np.max(np.abs(X))
    # a displacement of W0 alone (after t = 0) is measured exactly; W_Q, W_K do not enter
    Yp = Y.copy()
    Yp[1:, 0] += 1e-3
    Yp[1:, -1] += 1.0
    _, devp = cond._linear_deviation(Trajectory(ch, sh, t, Yp), w, Q, 8.0)
    assert np.allclose(devp, 1e-3, rtol=1e-9)
    # the top eigenvalue of J0 is mu0 (spec §4.4)
    assert w.max() == pytest.approx(R["mu0"], rel=1e-12)


# -- the cheap checks end to end -----------------------------------------------------------------------------
def test_redistribution_reduced_and_its_controls():
    ev = redis.redistribution_reduced(seed=0, profile=QUICK)
    assert ev.level is Verdict.CONSISTENT
    lo, hi = ev.details["ratio_range"]
    assert redis.U_RHO_F4 - redis.RATIO_TOL <= lo <= hi <= redis.U_RHO_F4 + redis.RATIO_TOL
    c1 = redis.redistribution_reduced(seed=0, profile=QUICK, variant="attention_only")
    assert c1.level is Verdict.REFUTED and "0.79463" in c1.counterexample.description
    assert c1.details["asserted_sub_checks"] == ["ratio"]
    c2 = redis.redistribution_reduced(seed=0, profile=QUICK, variant="sqrt_kappa")
    assert c2.level is Verdict.REFUTED and "rate of u.gamma" in c2.counterexample.description


def test_redistribution_full_and_its_control():
    ev = redis.redistribution_full(seed=0, profile=QUICK)
    assert ev.level is Verdict.CONSISTENT
    assert ev.details["rows"]["seed0"]["max_dev"] < 1e-3
    c = redis.redistribution_full(seed=0, profile=QUICK, variant="attention_only")
    assert c.level is Verdict.REFUTED and "P_perp gamma/kappa" in c.counterexample.description


def test_focus_symbolic_and_its_control():
    assert fdir.focus_symbolic(seed=0, profile=QUICK).level is Verdict.PROVED
    c = fdir.focus_symbolic(seed=0, profile=QUICK, variant="threshold_1_over_d")
    assert c.level is Verdict.REFUTED and "1/3" in c.counterexample.description


def test_universal_focus_control_is_refuted_on_f6_and_f7():
    c = anti.anti_focus(seed=0, profile=QUICK, variant="universal_focus")
    assert c.level is Verdict.REFUTED
    cases = c.counterexample.data["cases"]
    assert any(x.startswith("F6/") for x in cases) and any(x.startswith("F7/") for x in cases)
    assert not any(x.startswith(("theta=0.6/", "theta=1/", "theta=0.44/")) for x in cases)
    assert c.details["asserted_sub_checks"] == ["attention_sign"]
