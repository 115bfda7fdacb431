"""Claims about the spectra at the origin and at theta_c^1 (arXiv:2605.01199, spec §4.4, §4.6, §4.7, §4.9):
the origin spectrum, the saddle's location and eigenstructure, and the sign of the growth rate c."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_origin as _orig
from . import _checks_saddle as _sad
from . import _checks_saddle_certified as _cert
from . import _statements_spectra as _st
from ._claims_common import PAPER

ORIGIN_SPECTRUM = Claim(
    id="focus.stage1.origin_spectrum",
    title="At theta = 0: G_M = -pi (pi - 1/d)^T (rank one), flow eigenvalues +-mu0 (x m each), mu0 = |pi| |v|",
    source=Source(PAPER, "Lemma 3.1 / Thm 3.2 (stage-wise linearization at the origin) [secondary]", "§4.4"),
    provenance=("seed", "derived", "secondary"),
    strength="derived",
    quote=("Under small initialization, the trajectory is governed by the linearization near the "
           "origin."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L24",
    statement=_st.origin_spectrum,
    derivation=_st.origin_spectrum_derivation,
    hypotheses=("pi not uniform (uniform pi: G0 = 0, N/A)", "every P with stationary pi"),
    reading="The 'linearization at the origin' of Lemma 3.1 / Thm 3.2 is the flow Jacobian J0.",
    checks=(
        Check("exact", _orig.origin_exact,
              description="exact Hessian of L at 0 (forward mode through the loss, rationals) = "
                          "-J0(G0 = pi v^T) entrywise, attention rows 0; charpoly = x^k (x^2 - mu0^2)^m; mu0 "
                          "eigenvectors (pi_hat e_b^T, e_b v_hat^T); S_pi x S_P, d <= 4, m = m_k = 2"),
        Check("anchor", _orig.origin_anchor,
              description="E1, m = 3, m_k = 2: exact spectrum {-mu0 (x3), 0 (x30), +mu0 (x3)}, "
                          "mu0 = 0.459501 (6 digits) and 0.4595012948839209 (1e-14)"),
        Check("symbolic", _orig.origin_symbolic,
              description="sympy: G_M(0) = -pi v^T for symbolic pi and P (d = 3)"),
        Check("hessian_float", _orig.origin_hessian_float, role="corroborating",
              description="torch autograd Hessian at 0 equals the exact Hessian of L"),
    ),
    controls=(
        Control("mu_v", "mu0' = |v| (without |pi|)", Check("exact", _orig.origin_exact, {"variant": "mu_v"}),
                targets="eigenvalue"),
        Control("G_v_pi", "G0' = v pi^T (W0 would condense along v)",
                Check("exact", _orig.origin_exact, {"variant": "G_v_pi"}),
                targets="jacobian"),
        Control("mult_one", "+-mu0 with multiplicity 1",
                Check("exact", _orig.origin_exact, {"variant": "mult_one"}), targets="charpoly"),
    ),
    expected=Verdict.CERTIFIED,
)

SADDLE_LOCATION = Claim(
    id="focus.stage2.saddle_location",
    title="theta_c1: W0 = s_c pi_hat a1^T, W1 = s_c a1 l_hat^T, W_Q = W_K = 0 is critical with L = H(pi)",
    source=Source(PAPER, "Thms 3.3-3.5: the second critical point [secondary]; location derived", "§4.6"),
    provenance=("secondary", "derived"),
    strength="derived",
    quote=r"The trajectory reaches the second critical point $\theta_c^1$, which is a saddle point.",
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L30",
    statement=_st.saddle_location,
    derivation=_st.saddle_location_derivation,
    hypotheses=("pi not uniform",),
    reading=("The critical set at H(pi) is {pi^T W0 W1 = l^T + t 1^T}; the flow selects theta_c1 "
             "(W0 moves along pi in Stage I and balancedness fixes the scale)."),
    checks=(
        Check("symbolic", _sad.saddle_symbolic, description="sympy, d = 3, symbolic pi and lam (F1)"),
        Check("mp", _sad.saddle_mp, role="corroborating",
              description="mpmath 35 digits on S_pi x S_P: |grad L| <= 1e-25, L = H(pi), G_Phi formula"),
    ),
    controls=(
        Control("pi_minus_uniform", "the 'pi - 1/d point' at its loss-minimising scale is not critical",
                Check("mp", _sad.saddle_mp, {"variant": "pi_minus_uniform"}),
                targets="critical"),
        Control("pi_minus_uniform_symbolic", "W1 along v: G_M != 0 symbolically",
                Check("symbolic", _sad.saddle_symbolic, {"variant": "pi_minus_uniform"}),
                targets="critical"),
    ),
    expected=Verdict.PROVED,
)

SADDLE_EIGEN = Claim(
    id="focus.stage2.saddle_eigenstructure",
    title="At theta_c1: outer block has d - 1 stable modes and zeros; attention block +-c (x m_k); no coupling",
    source=Source(PAPER, "Thm 3.3-3.4 (saddle with a unique unstable attention mode) [seed/secondary]", "§4.7"),
    provenance=("seed", "secondary", "derived"),
    strength="strengthened",
    quote=("The $(W_0, W_1)$ subsystem contracts (or is neutrally stable), and the attention subsystem"
           " has a unique [or: 'its own'/'intrinsic'; '고유한' also means 'eigen-'] unstable mode."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L30",
    statement=_st.saddle_eigenstructure,
    derivation=_st.saddle_eigenstructure_derivation,
    hypotheses=("pi not uniform", "K2 != 0 for a strict saddle"),
    reading="A4: the attention block is indefinite (+-c), not PSD; it carries the only unstable mode.",
    checks=(
        Check("symbolic", _sad.eigen_symbolic,
              description="sympy, exact Hessian of L on the critical family, F1 d = 3 with symbolic pi, "
                          "lam (m = m_k = 1): grad 0, cross block 0, attention [[0, c], [c, 0]], outer = "
                          "K^T S K of rank d - 1"),
        Check("exact", _sad.eigen_exact,
              description="the same exact structure on F1 (m = m_k = 2), F2, F6, F7 (m, m_k in {1, 2})"),
        Check("certified", _cert.eigen_certified,
              description="arb Hessian of L at theta_c1 (m = m_k = 2): cross 0, attention = c pattern, "
                          "certified spectrum (+|c| x m_k the only positive), d - 1 negative outer, Cholesky "
                          "of -J_outer + 1e-30 I"),
        Check("float", _sad.eigen_float, role="corroborating",
              description="torch Hessian (m = 3, m_k = 2): top = |c|, +-c x m_k, d - 1 negative outer and "
                          "zeros, E1 anchors"),
    ),
    controls=(
        Control("psd_attention", "the attention block is PSD (refuted by the certified -|c| x m_k)",
                Check("certified", _cert.eigen_certified, {"variant": "psd_attention"}),
                targets="psd_attention"),
        Control("outer_unstable", "an unstable direction inside (W0, W1) (eigenvalue >= 1e-30; refuted by "
                                  "the arb Cholesky)",
                Check("certified", _cert.eigen_certified, {"variant": "outer_unstable"}),
                targets="outer_stability"),
        Control("lambda_squared", "c = (s_c^2/n2) K1 lam^2 Cov for F1 (the Hessian's +c excludes it)",
                Check("certified", _cert.eigen_certified, {"variant": "lambda_squared"}),
                targets=("attention_c", "spectrum", "attention_spectrum")),
    ),
    expected=Verdict.CERTIFIED,
)

GROWTH_SIGN = Claim(
    id="focus.stage2.growth_rate_sign",
    title="For F1, c = lam |l| Var Cov / |pi|^5 > 0, linear in lam; in general sign(c) = sign(K2)",
    source=Source(PAPER, "growth of the attention parameters (Stage II) [paper]; sign law derived", "§4.9"),
    provenance=("paper", "derived"),
    strength="derived",
    statement=_st.growth_rate_sign,
    derivation=_st.growth_rate_sign_derivation,
    hypotheses=("pi not uniform",),
    reading="For c < 0 the growth rate is |c| and the sign is carried by kappa (see focus.ext.anti_focus).",
    checks=(
        Check("symbolic", _sad.growth_symbolic, description="sympy: K2 = lam Cov, K1 = Var/n2 (d = 3, 4)"),
        Check("certified", _sad.growth_certified, description="arb: c > 0 and c/lam constant on S_pi x F1"),
        Check("eigenvector_sign", _sad.growth_eigenvector_sign, role="corroborating",
              description="float: the unstable eigenvector's attention sign equals sign(K2) on F2/F3/F6/F7"),
    ),
    controls=(
        Control("lambda_squared", "c proportional to lam^2",
                Check("certified", _sad.growth_certified, {"variant": "lambda_squared"}),
                targets="lambda_scaling"),
        Control("opposite_sign", "sign(c) = -sign(K2)",
                Check("eigenvector_sign", _sad.growth_eigenvector_sign, {"variant": "opposite_sign"}),
                targets="mode_sign"),
    ),
    expected=Verdict.CERTIFIED,
)
