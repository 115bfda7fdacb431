"""Statements (and checked derivations) of the growth claims, as sympy forms (spec §3.9 - §3.11).

Lazy builders: each claim's ``statement=`` / ``derivation=`` is one of these functions.  The AllOf
labels are the sub-check names the checks record and the controls target.  The checks evaluate these
statements on observables computed by the product code (``incrt.growth_signal``, ``residual_operator``,
``greedy_growth``, ``experiments.online_grow``); the formulas live here only.
"""

from __future__ import annotations

from typing import Any

from verify import AllOf, Derivation, ForAll, Step

__all__ = [
    "signal_statement", "signal_derivation", "spectral_order_statement", "spectral_order_derivation",
    "unique_statement", "only_minimal_statement", "unique_online_statement",
]


def _sym(names: str, **assumptions: Any) -> Any:
    import sympy as sp

    return sp.symbols(names, **assumptions)


def signal_statement() -> Any:
    """Spec §3.9 R1: S = sym(G M_a) = 1/2 [G, M_a] (entrywise), tr S = 0, lambda_max(A_res) >= 0 >=
    lambda_min(A_res), S = 0 for G = g I, S(4G) = 4 S (A_res(sE) = s^2 A_res), |S|_2 <= |G|_2 |M_a|_2 and,
    for PSD G, the sharper |S|_2 <= |G|_2 |M_a|_2 / 2 ([G, M] = [G - (|G|_2/2) I, M]),
    #{lambda_j(S) > 0} <= min(rank M_a, d - 1)."""
    import sympy as sp

    S, GM, MG, trS, S_iso, S4 = _sym("S GM_a M_aG tr_S S_iso S_scaled", real=True)
    lmax, lmin = _sym("lambda_max_res lambda_min_res", real=True)
    nS, nG, nM = _sym("norm_S norm_G norm_M_a", nonnegative=True)
    npos, rank, d = _sym("n_pos rank_M_a d", integer=True, nonnegative=True)
    G, Ma = sp.Symbol("G"), sp.Symbol("M_a")
    return ForAll((G, Ma), "G symmetric PSD, M_a antisymmetric (d x d), U with orthonormal columns",
                  AllOf(commutator=sp.Eq(S, (GM - MG) / 2),
                        traceless=sp.Eq(trS, 0),
                        residual_indefinite=sp.And(sp.Ge(lmax, 0), sp.Le(lmin, 0)),
                        isotropic_blind=sp.Eq(S_iso, 0),
                        scaling=sp.Eq(S4, 4 * S),
                        norm_bound=sp.Le(nS, nG * nM),
                        norm_bound_sharp=sp.Le(nS, nG * nM / 2),
                        positive_count=sp.And(sp.Le(npos, rank), sp.Le(npos, d - 1))))


def signal_derivation() -> Derivation:
    """S = sym(G M_a) = 1/2 [G, M_a]: with M_a^T = -M_a and G^T = G, (G M_a)^T = M_a^T G^T = -M_a G.
    Checked on every entry of a generic symmetric 3 x 3 G and antisymmetric M_a at once, through the
    generic weighted sum sum_ij w_ij X_ij (it vanishes identically iff every entry does)."""
    import sympy as sp

    g = sp.symbols("g11 g12 g13 g22 g23 g33", real=True)
    m = sp.symbols("m12 m13 m23", real=True)
    w = sp.symbols("w1:10", real=True)
    G = sp.Matrix([[g[0], g[1], g[2]], [g[1], g[3], g[4]], [g[2], g[4], g[5]]])
    M = sp.Matrix([[0, m[0], m[1]], [-m[0], 0, m[2]], [-m[1], -m[2], 0]])
    X = G * M
    W = sp.Matrix(3, 3, w)

    def weighted(A: Any) -> Any:
        return sum(W[i, j] * A[i, j] for i in range(3) for j in range(3))

    S, GM, MG, trS = _sym("S GM_a M_aG tr_S", real=True)
    subs = {S: weighted((X + X.T) / 2), GM: weighted(X), MG: weighted(M * G)}
    return Derivation(
        Step("definition: S = sym(G M_a) = (G M_a + (G M_a)^T)/2 (entries weighted by generic w_ij)", S),
        Step("(G M_a)^T = M_a^T G^T = -M_a G (M_a antisymmetric, G symmetric)", (GM - MG) / 2, subs=subs,
             why="every entry of a generic symmetric 3 x 3 G and antisymmetric M_a"),
        Step("tr S = tr(G M_a) = tr(M_a G): the commutator is traceless",
             sp.Eq((X + X.T).trace() / 2, (M * G).trace(), evaluate=False),
             why="tr(X^T) = tr X and tr(G M_a) = tr(M_a G); with tr(M_a G) = -tr(G M_a) both vanish"),
        concludes="commutator")


def spectral_order_statement() -> Any:
    """Spec §3.10 R1 on a fixed S: recording directions never raises lambda_max(A_res) (nested U); the
    exact greedy births are lambda_1(S) >= lambda_2(S) >= ..., and after m births spec(A_res) =
    {lambda_{m+1}, ..., lambda_d} u {0}^m."""
    import sympy as sp

    lnext, lprev = _sym("lambda_max_next lambda_max_prev", real=True)
    b, lam = _sym("b_j lambda_j", real=True)
    mu, nu = _sym("mu_i nu_i", real=True)
    S = sp.Symbol("S")
    return ForAll(S, "traceless symmetric S = 1/2 [G, M_a] (G > 0), nested orthonormal U in U'",
                  AllOf(nested_chain=sp.Le(lnext, lprev),
                        births=sp.Eq(b, lam),
                        residual_spectrum=sp.Eq(mu, nu)),
                  where=None)


def spectral_order_derivation() -> Derivation:
    """The j-th greedy birth is lambda_j(S): the recorded direction is the top eigenvector v of the
    current A_res, whose Rayleigh quotient is its eigenvalue.  Checked on the generic traceless
    2 x 2 signal S = [[p, q], [q, -p]] (q > 0): v = (q, lambda - p), lambda = sqrt(p^2 + q^2)."""
    import sympy as sp

    p = sp.Symbol("p", real=True)
    q = sp.Symbol("q", positive=True)
    lam_ = sp.sqrt(p**2 + q**2)
    v = sp.Matrix([q, lam_ - p])
    Sm = sp.Matrix([[p, q], [q, -p]])
    b, lam = _sym("b_j lambda_j", real=True)
    rayleigh = (v.T * Sm * v)[0] / (v.T * v)[0]
    return Derivation(
        Step("birth: the Rayleigh quotient R(v) = v^T A v / v^T v of the recorded direction", b),
        Step("v is the top eigenvector of A (A v = lambda v), so R(v) = lambda_max(A)", lam,
             subs={b: rayleigh, lam: lam_}, why="generic traceless 2 x 2 S = [[p, q], [q, -p]]"),
        Step("after recording v: A_res = S - lambda v v^T / |v|^2 has the eigenvalues {0, -lambda}",
             sp.Eq((Sm - lam_ * v * v.T / (v.T * v)[0]).trace(), -lam_, evaluate=False),
             why="trace of the deflated operator"),
        concludes="births")


def unique_statement() -> Any:
    """Spec §3.11 R1 (seed Theorem 10 on a fixed operator, exact greedy growth): the count is
    K = #{lambda_j(S) > theta}, the grown U is sufficient (lambda_max(A_res) <= theta), minimal (every
    U with K - 1 columns, and every greedy U minus one direction, leaves lambda_max(A_res) > theta), and
    its span is the spectral subspace E_{>theta}(S) whatever the tie-breaking: |U U^T - Pi| = 0."""
    import sympy as sp

    n, K = _sym("n_heads K", integer=True, nonnegative=True)
    lfin, th, lfew = _sym("lambda_max_res theta lambda_max_fewer", real=True)
    dist = sp.Symbol("span_distance", nonnegative=True)
    S = sp.Symbol("S")
    return ForAll(S, "traceless symmetric S, theta > 0 off the spectrum of S",
                  AllOf(count=sp.Eq(n, K),
                        sufficiency=sp.Le(lfin, th),
                        minimality=sp.Gt(lfew, th),
                        span=sp.Eq(dist, 0)))


def only_minimal_statement() -> Any:
    """R0 of seed Theorem 10 (strengthened): every sufficient one-direction structure (lambda_max(A_res)
    <= theta) is the greedy one: |<u', u>|^2 = 1."""
    import sympy as sp

    lm, th = _sym("lambda_max_alt theta", real=True)
    c2 = sp.Symbol("cos2_alt_greedy", nonnegative=True)
    u = sp.Symbol("u'")
    return ForAll(u, "unit directions u' with S, theta fixed (K = 1)",
                  AllOf(unique=sp.Implies(sp.Le(lm, th), sp.Eq(c2, 1))))


def unique_online_statement() -> Any:
    """Seed Theorem 10 as stated with INCRT's online procedure: for every tracker initialisation the
    grown structure has K = #{lambda_j(S) > theta} heads, is sufficient and minimal, its births come
    in decreasing eigenvalue order (birth j nearest lambda_j: index i_j = j), and its span lies within
    0.3 rad (fixed in advance) of E_{>theta}(S)."""
    import sympy as sp

    n, K, ij, j = _sym("n_heads K i_j j", integer=True, nonnegative=True)
    lfin, th, lfew = _sym("lambda_max_res theta lambda_max_fewer", real=True)
    ang = sp.Symbol("span_angle", nonnegative=True)
    r = sp.Symbol("r")
    return ForAll(r, "random initialisations r of the trackers, on fixed S with a 20 % gap at theta",
                  AllOf(grown_count=sp.Eq(n, K),
                        sufficiency=sp.Le(lfin, th),
                        minimality=sp.Gt(lfew, th),
                        order=sp.Eq(ij, j),
                        span=sp.Le(ang, sp.Rational(3, 10))))
