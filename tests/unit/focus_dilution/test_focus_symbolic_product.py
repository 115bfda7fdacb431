"""The PROVED eigenstructure of focus.stage2.saddle_eigenstructure proves the PRODUCT's c
(population.reference_formulas evaluated on sympy expressions), not an inline copy of the formula."""

from __future__ import annotations

from theorems.focus_dilution import _checks_saddle as spec
from verify import Verdict, get_profile


def test_eigen_symbolic_proves_the_products_c():
    ev = spec.eigen_symbolic(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.PROVED, (ev.counterexample, ev.notes)


def test_product_identity_refutes_a_wrong_c(monkeypatch):
    real = spec.reference_formulas

    def scaled(*args, **kw):
        out = dict(real(*args, **kw))
        out["c"] = out["c"] * 101 / 100
        return out

    monkeypatch.setattr(spec, "reference_formulas", scaled)
    ev = spec.eigen_symbolic(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.REFUTED
    assert "product's c" in ev.counterexample.description
