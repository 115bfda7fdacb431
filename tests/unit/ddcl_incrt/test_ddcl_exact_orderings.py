"""Certified ddcl checks decide orderings of eigenvalues exactly, never from rounded values.

* ``_checks_amplification.top_eigenvalue_order``: sign(lambda_1(C_new) - lambda_1(C)) exactly.  The former
  route read lambda_1 from a 30-digit midpoint and counted the eigenvalues of C_new above it: for
  C = [[4, 1], [1, 0]] (lambda_1 = 2 + sqrt 5) that midpoint lies *below* lambda_1, so an unchanged
  lambda_1 was counted as a strict increase.
"""

from __future__ import annotations

from fractions import Fraction as F

from theorems.ddcl_incrt import _checks_amplification as amp
from theorems.ddcl_incrt import _checks_separation as sep


def _block(C, D, B=None):
    d, e = len(C), len(D)
    out = [[F(0)] * (d + e) for _ in range(d + e)]
    for a in range(d):
        for b in range(d):
            out[a][b] = F(C[a][b])
    for a in range(e):
        for b in range(e):
            out[d + a][d + b] = F(D[a][b])
    if B is not None:
        for a in range(d):
            for b in range(e):
                out[a][d + b] = out[d + b][a] = F(B[a][b])
    return out


C4 = [[F(4), F(1)], [F(1), F(0)]]  # lambda_1 = 2 + sqrt 5, irrational


def test_midpoint_route_was_wrong_on_this_instance():
    from numerics.linalg import exact_spectrum

    lam1_mid = F(str(exact_spectrum(C4)[-1].enclosure.mid().str(30, radius=False)))
    Cn = _block(C4, [[0]])
    # the 30-digit midpoint lies below lambda_1: the old count saw a "strict increase"
    assert amp._count_above(Cn, lam1_mid) == 1
    assert amp._count_above(C4, lam1_mid) == 1


def test_unchanged_top_is_zero():
    assert amp.top_eigenvalue_order(C4, _block(C4, [[0]])) == 0
    assert amp.top_eigenvalue_order(C4, _block(C4, [[F(2)]])) == 0      # a new channel below lambda_1
    assert amp.top_eigenvalue_order(C4, C4) == 0


def test_strict_increase_and_decrease():
    assert amp.top_eigenvalue_order(C4, _block(C4, [[F(1)]], [[F(1, 10**20)], [0]])) == 1  # tiny coupling
    assert amp.top_eigenvalue_order(C4, _block(C4, [[F(5)]])) == 1      # a larger new channel
    assert amp.top_eigenvalue_order(_block(C4, [[F(5)]]), C4) == -1


def test_tiny_and_equal_scales():
    s = F(1, 10**400)
    Cs = [[x * s for x in r] for r in C4]
    assert amp.top_eigenvalue_order(Cs, _block(Cs, [[0]])) == 0
    assert amp.top_eigenvalue_order(Cs, _block(Cs, [[s]], [[s / 10**30], [0]])) == 1
    I2 = [[F(1), F(0)], [F(0), F(1)]]
    assert amp.top_eigenvalue_order(I2, I2) == 0  # one distinct eigenvalue in all


def test_strict_control_still_refuted_and_statement_certified():
    from verify import Verdict, get_profile

    q = get_profile("quick")
    assert amp.amplification(seed=0, profile=q, model="cat", variant="strict").level is Verdict.REFUTED
    assert amp.amplification(seed=0, profile=q, model="cat").level is Verdict.CERTIFIED


# -- _checks_growth.max_real_algebraic: the largest sympy eigenvalue, chosen rigorously -----------------
def test_max_real_algebraic_near_tie():
    import sympy as sp

    from theorems.ddcl_incrt._checks_growth import max_real_algebraic

    a, b = sp.sqrt(2), sp.sqrt(2) + sp.Rational(1, 10**40)
    assert float(a) == float(b)
    # the former route, max(key=float), keeps the first of two equal floats: the wrong one
    assert max([a, b], key=lambda e: float(e)) == a
    assert max_real_algebraic([a, b]) == b
    assert max_real_algebraic([b, a]) == b
    c = sp.sqrt(3) - sp.Rational(1, 10**60)
    assert max_real_algebraic([sp.sqrt(3), c, -sp.sqrt(5)]) == sp.sqrt(3)


def test_max_real_algebraic_equal_values_and_cubics():
    import sympy as sp

    from theorems.ddcl_incrt._checks_growth import max_real_algebraic

    # equal values written differently are proven equal (either is the maximum)
    assert sp.simplify(max_real_algebraic([sp.sqrt(8) / 2, sp.sqrt(2), sp.Integer(1)]) - sp.sqrt(2)) == 0
    # casus irreducibilis: three real roots written with complex cube roots
    M = sp.Matrix([[2, 1, 0], [1, 0, 1], [0, 1, -1]])
    eig = list(M.eigenvals().keys())
    top = max_real_algebraic(eig)
    assert abs(complex(sp.N(top, 30)).real - max(float(v) for v in sp.Matrix(M).evalf().eigenvals())) < 1e-12


def test_only_minimal_structure_still_refuted():
    from theorems.ddcl_incrt import _checks_growth as gro
    from verify import Verdict, get_profile

    q = get_profile("quick")
    assert gro.only_minimal_exact(seed=0, profile=q).level is Verdict.REFUTED
    assert gro.only_minimal_exact(seed=0, profile=q, variant="every_direction").level is Verdict.REFUTED


# -- ddcl.separation.critical_temperature, certified: the Hessian is differentiated on every instance -----
def _flipped_offdiagonal_hessian(C, K, tau, c):
    """The block formula with the covariance's off-diagonal coupling sign-flipped: for a 2 x 2 C the
    flipped C is similar to C (D C D, D = diag(1, -1)), so every eigenvalue, inertia and count is
    unchanged -- only the split directions are wrong.  Invisible to a check that compares the block
    formula's eigenvalues with its own prediction; the differentiated loss must catch it."""
    from theorems.ddcl_incrt.hessian import collapse_hessian

    d = len(C)
    Cf = [[C[a][b] if a == b else -C[a][b] for b in range(d)] for a in range(d)]
    return collapse_hessian(Cf, K, tau, c)


def test_certified_statement_differentiates_every_instance():
    from verify import Verdict, get_profile

    ev = sep.certified(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.CERTIFIED
    assert ev.details["forward_mode_hessians"] == ev.details["cases"]
    assert ev.details["sympy_hessians"] < ev.details["cases"]  # sympy alone covers only small cases


def test_certified_catches_an_inertia_preserving_hessian_bug(monkeypatch):
    from verify import Verdict, get_profile

    monkeypatch.setattr(sep, "collapse_hessian", _flipped_offdiagonal_hessian)
    ev = sep.certified(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.UNKNOWN
    assert "forward-mode Hessian" in ev.notes


def test_symengine_hessian_is_the_sympy_hessian():
    """The check's symbolic Hessian (symengine differentiation) equals sympy's, entry by entry, on the
    pinned cases, grids (+-a) with K = 2, 3 in both modes and a 2-D data set: the same loss
    differentiated by two engines."""
    from fractions import Fraction

    import pytest

    from numerics.errors import InputError
    from theorems.ddcl_incrt.hessian import symbolic_collapse_hessian, sympy_collapse_hessian

    F = Fraction
    for Z, K, mode, tau in (([[-1], [1]], 2, "full", F(5)), ([[-1], [1]], 2, "stopgrad", F(3)),
                            ([[F(-3, 2)], [F(3, 2)]], 3, "full", F(37, 4)),
                            ([[F(-3, 2)], [F(3, 2)]], 3, "stopgrad", F(9, 2)),
                            ([[0, 1], [2, -1], [1, 3]], 2, "full", F(7, 2)),
                            ([[0, 1], [2, -1], [1, 3]], 2, "stopgrad", F(7, 2))):
        H = symbolic_collapse_hessian(Z, K, tau, mode)
        assert H == sympy_collapse_hessian(Z, K, tau, mode), (Z, K, mode)
        assert all(type(x) is Fraction for r in H for x in r)
    with pytest.raises(InputError):
        symbolic_collapse_hessian([[-1], [1]], 2, F(5), "full", backend="maple")


def test_forward_hessian_equals_sympy_on_small_cases():
    from fractions import Fraction

    from theorems.ddcl_incrt.hessian import sympy_collapse_hessian

    for Z, K, mode, tau in (([[-1], [1]], 2, "full", Fraction(5)), ([[-1], [1]], 2, "stopgrad", Fraction(3)),
                            ([[0, 1], [2, -1], [1, 3]], 2, "full", Fraction(7, 2)),
                            ([[0, 1], [2, -1], [1, 3]], 2, "stopgrad", Fraction(7, 2))):
        Zf = [[Fraction(x) for x in z] for z in Z]
        assert sep.forward_collapse_hessian(Zf, K, tau, mode) == sympy_collapse_hessian(Zf, K, tau, mode)
