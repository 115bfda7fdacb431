"""Claims of arXiv:2605.01199, Focus and Dilution (spec: focus_dilution.md).

All claims are about the reconstructed one-layer model of spec §2 (reading A1: no value matrix,
residual, LayerNorm, positions or biases; the query attends over all s positions, itself included).
Each claim states what the quick profile covers in its checks' docstrings.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_model as _mod
from . import _checks_spectra as _spec
from . import _checks_anti_focus as _anti
from . import _checks_condensation as _cond
from . import _checks_degenerate_point as _dp
from . import _checks_dilution as _dil
from . import _checks_focus_direction as _fd
from . import _checks_lyapunov_schmidt as _ls
from . import _checks_plateaus as _plat
from . import _checks_redistribution as _redis
from . import _checks_stall as _stall
from . import _checks_transverse as _tr
from . import _checks_headlines as _hl
from . import _checks_focus_as_stated as _fas

PAPER = "2605.01199"


def _text(s: str):
    return lambda: s


POPULATION_LIMIT = Claim(
    id="focus.model.population_limit",
    title="The finite-context loss converges to the closed-form population loss as s -> oo",
    source=Source(PAPER, "population gradient-flow limit (N, s -> oo) of the seed", "§4.1"),
    provenance=("derived", "seed", "reading"),
    strength="derived",
    quote=("This study applies the population gradient-flow limit (population gradient-flow limit), "
           "with a large sample size $N$ and a long context $s$, in order to derive deterministic "
           "dynamics."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L9",
    statement=_text("L_s(theta) -> L(theta) = -sum pi_q P_qy log softmax(A_q M)_y with "
                    "A = row-softmax(Phi/tau + 1 log pi^T), gap O(1/s) with a stationary start; with a "
                    "uniform start the bias shrinks roughly like 1/s"),
    hypotheses=("P irreducible and aperiodic, pi_k > 0", "(M, Phi) fixed"),
    reading="A1 (the query's own position is attended; an O(1/s) effect) and A6 (stationary start).",
    checks=(
        Check("regrouping", _mod.regrouping,
              description="exact regrouping z = A_hat_q M vs the position-by-position torch model"),
        Check("monte_carlo", _mod.monte_carlo,
              description="E1 pi, lam = 0.6, s in {64, 256} (quick), n = 1e4: |mean - L| <= 4 SE + 1/s"),
        Check("uniform_start", _mod.uniform_start,
              description="(c) uniform start: fitted decay exponent of the bias in [1/2, 5/2], s in {8, 16, 32, 64}"),
    ),
    controls=(
        Control("position_blind", "A = row-softmax(Phi) without log pi misses the Monte Carlo mean",
                Check("monte_carlo", _mod.monte_carlo, {"variant": "position_blind"}),
                targets="mean"),
        Control("no_decay", "with a uniform start the bias does not shrink with s",
                Check("uniform_start", _mod.uniform_start, {"variant": "no_decay"}),
                targets="exponent"),
    ),
    expected=Verdict.CONSISTENT,
)

GRADIENTS = Claim(
    id="focus.model.gradients",
    title="Closed-form gradients G_M = A^T D, G_Phi = A o (X - rowsum(A o X)) / tau and the chain rule",
    source=Source(PAPER, "closed-form population gradients (toolkit derivation)", "§4.2"),
    provenance=("derived",),
    strength="derived",
    statement=_text("G_M = A^T diag(pi)(Pred - P), G_Phi = (1/tau) A o (X - rowsum(A o X) 1^T), "
                    "X = D M^T; dL/dW0 = G_M W1^T + G_Phi W0 W_K W_Q^T + G_Phi^T W0 W_Q W_K^T, ..."),
    hypotheses=("any theta, any tau > 0",),
    reading="none needed",
    checks=(
        Check("symbolic", _mod.symbolic_gradients,
              description="sympy: G_M, G_Phi for symbolic pi, lam, tau, M, Phi (d = 2); the chain rule"),
        Check("autograd", _mod.autograd_agreement, role="corroborating",
              description="torch autograd vs closed form on S_pi x S_P, origin and theta_c1"),
        Check("finite_differences", _mod.finite_differences, role="corroborating",
              description="central differences h = 1e-6, relative error <= 1e-7"),
    ),
    controls=(
        Control("drop_phiT_term", "drop G_Phi^T W0 W_Q W_K^T from dL/dW0: finite differences disagree",
                Check("finite_differences", _mod.finite_differences, {"variant": "drop_phiT_term"}),
                targets="fd"),
        Control("drop_phiT_term_symbolic", "the same bug fails the symbolic chain rule",
                Check("symbolic", _mod.symbolic_gradients, {"variant": "drop_phiT_term"}),
                targets="chain_rule"),
        Control("column_sums", "1^T G_M = 0 (columns instead of rows; sympy)",
                Check("symbolic", _mod.symbolic_gradients, {"variant": "column_sums"}),
                targets="sums"),
    ),
    expected=Verdict.PROVED,
)

CONSERVATION = Claim(
    id="focus.model.conservation",
    title="D = W0^T W0 - W1 W1^T - W_Q W_Q^T - W_K W_K^T, E = W_Q^T W_Q - W_K^T W_K and W1 1 are conserved",
    source=Source(PAPER, "balancedness behind the rank-one condensation (toolkit derivation)", "§4.3"),
    provenance=("derived",),
    strength="derived",
    statement=_text("d/dt D = d/dt E = d/dt (W1 1) = 0 under theta' = -grad L"),
    hypotheses=("exact gradient flow; any pi, P, tau",),
    reading="A1: a value matrix or a residual would change the invariants.",
    checks=(
        Check("pointwise", _mod.pointwise_conservation,
              description="exact polarisation derivative along -grad L at random theta (S_pi x S_P)"),
        Check("integrated", _mod.integrated_conservation,
              description="LSODA from eps = 0.3 and 1e-3 (quick: T = 300): drift <= 1e-6 (1 + |theta|^2)"),
        Check("reduced", _mod.reduced_conservation,
              description="the reduced-ODE invariants of §2.8"),
        Check("oracle", _mod.reduced_oracle, role="corroborating",
              description="LSODA vs a 30-digit mpmath RK4 oracle on the reduced ODE (t <= 5)"),
    ),
    controls=(
        Control("E_plus", "E+ = W_Q^T W_Q + W_K^T W_K is not conserved",
                Check("integrated", _mod.integrated_conservation, {"variant": "E_plus"}),
                targets="E"),
        Control("D_plus_W1", "D with + W1 W1^T is not conserved",
                Check("pointwise", _mod.pointwise_conservation, {"variant": "D_plus_W1"}),
                targets="D"),
        Control("bug_gradient", "the bug-injected gradient of §4.2 breaks D",
                Check("pointwise", _mod.pointwise_conservation, {"variant": "drop_phiT_term"}),
                targets="D"),
    ),
    expected=Verdict.CONSISTENT,
)

ORIGIN_SPECTRUM = Claim(
    id="focus.stage1.origin_spectrum",
    title="At theta = 0: G_M = -pi (pi - 1/d)^T (rank one), flow eigenvalues +-mu0 (x m each), mu0 = |pi| |v|",
    source=Source(PAPER, "Lemma 3.1 / Thm 3.2 (stage-wise linearization at the origin) [secondary]", "§4.4"),
    provenance=("seed", "derived", "secondary"),
    strength="derived",
    quote=("Under small initialization, the trajectory is governed by the linearization near the "
           "origin."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L24",
    statement=_text("G_M(0) = -pi v^T, G_Phi(0) = 0, spec(J0) = {+mu0 (x m), -mu0 (x m), 0 (x 2dm + 2mm_k - 2m)}, "
                    "mu0 = |pi| |v|, unstable space {(pi_hat a^T, a v_hat^T)}"),
    hypotheses=("pi not uniform (uniform pi: G0 = 0, N/A)", "every P with stationary pi"),
    reading="The 'linearization at the origin' of Lemma 3.1 / Thm 3.2 is the flow Jacobian J0.",
    checks=(
        Check("exact", _spec.origin_exact,
              description="exact Hessian of L at 0 (forward mode through the loss, rationals) = "
                          "-J0(G0 = pi v^T) entrywise, attention rows 0; charpoly = x^k (x^2 - mu0^2)^m; mu0 "
                          "eigenvectors (pi_hat e_b^T, e_b v_hat^T); S_pi x S_P, d <= 4, m = m_k = 2"),
        Check("anchor", _spec.origin_anchor,
              description="E1, m = 3, m_k = 2: exact spectrum {-mu0 (x3), 0 (x30), +mu0 (x3)}, "
                          "mu0 = 0.459501 (6 digits) and 0.4595012948839209 (1e-14)"),
        Check("symbolic", _spec.origin_symbolic,
              description="sympy: G_M(0) = -pi v^T for symbolic pi and P (d = 3)"),
        Check("hessian_float", _spec.origin_hessian_float, role="corroborating",
              description="torch autograd Hessian at 0 equals the exact Hessian of L"),
    ),
    controls=(
        Control("mu_v", "mu0' = |v| (without |pi|)", Check("exact", _spec.origin_exact, {"variant": "mu_v"}),
        targets="charpoly"),
        Control("G_v_pi", "G0' = v pi^T (W0 would condense along v)",
                Check("exact", _spec.origin_exact, {"variant": "G_v_pi"}),
                targets="jacobian"),
        Control("mult_one", "+-mu0 with multiplicity 1", Check("exact", _spec.origin_exact, {"variant": "mult_one"}),
        targets="charpoly"),
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
    statement=_text("grad L(theta_c1) = 0, L(theta_c1) = H(pi), G_M = 0, "
                    "(G_Phi)_qk = -(1/tau) pi_q pi_k (pi_k/n2 - 1) r_q, s_c^2 = |l|/|pi|"),
    hypotheses=("pi not uniform",),
    reading=("The critical set at H(pi) is {pi^T W0 W1 = l^T + t 1^T}; the flow selects theta_c1 "
             "(W0 moves along pi in Stage I and balancedness fixes the scale)."),
    checks=(
        Check("symbolic", _spec.saddle_symbolic, description="sympy, d = 3, symbolic pi and lam (F1)"),
        Check("mp", _spec.saddle_mp, role="corroborating",
              description="mpmath 35 digits on S_pi x S_P: |grad L| <= 1e-25, L = H(pi), G_Phi formula"),
    ),
    controls=(
        Control("pi_minus_uniform", "the 'pi - 1/d point' at its loss-minimising scale is not critical",
                Check("mp", _spec.saddle_mp, {"variant": "pi_minus_uniform"}),
                targets="critical"),
        Control("pi_minus_uniform_symbolic", "W1 along v: G_M != 0 symbolically",
                Check("symbolic", _spec.saddle_symbolic, {"variant": "pi_minus_uniform"}),
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
    statement=_text("J(theta_c1) = J_outer (+) J_att, J_outer = -K^T (diag pi - pi pi^T) K with exactly d - 1 "
                    "negative eigenvalues, J_att eigenvalues +-c (x m_k), c = -gamma^T G_Phi gamma = "
                    "(s_c^2/n2) K1 K2"),
    hypotheses=("pi not uniform", "K2 != 0 for a strict saddle"),
    reading="A4: the attention block is indefinite (+-c), not PSD; it carries the only unstable mode.",
    checks=(
        Check("symbolic", _spec.eigen_symbolic,
              description="sympy, exact Hessian of L on the critical family, F1 d = 3 with symbolic pi, "
                          "lam (m = m_k = 1): grad 0, cross block 0, attention [[0, c], [c, 0]], outer = "
                          "K^T S K of rank d - 1"),
        Check("exact", _spec.eigen_exact,
              description="the same exact structure on F1 (m = m_k = 2), F2, F6, F7 (m, m_k in {1, 2})"),
        Check("certified", _spec.eigen_certified,
              description="arb Hessian of L at theta_c1 (m = m_k = 2): cross 0, attention = c pattern, "
                          "certified spectrum (+|c| x m_k the only positive), d - 1 negative outer, Cholesky "
                          "of -J_outer + 1e-30 I"),
        Check("float", _spec.eigen_float, role="corroborating",
              description="torch Hessian (m = 3, m_k = 2): top = |c|, +-c x m_k, d - 1 negative outer and "
                          "zeros, E1 anchors"),
    ),
    controls=(
        Control("psd_attention", "the attention block is PSD (refuted by the certified -|c| x m_k)",
                Check("certified", _spec.eigen_certified, {"variant": "psd_attention"}),
                targets="psd_attention"),
        Control("outer_unstable", "an unstable direction inside (W0, W1) (eigenvalue >= 1e-30; refuted by "
                                  "the arb Cholesky)",
                Check("certified", _spec.eigen_certified, {"variant": "outer_unstable"}),
                targets="outer_stability"),
        Control("lambda_squared", "c = (s_c^2/n2) K1 lam^2 Cov for F1 (the Hessian's +c excludes it)",
                Check("certified", _spec.eigen_certified, {"variant": "lambda_squared"}),
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
    statement=_text("F1: K2 = lam Cov_pi(pi., log pi.), K1 = Var_pi(pi.)/n2, c > 0 for lam in (0, 1); "
                    "sign(c) = sign(K2) and the unstable mode has sign(dW_Q . dW_K) = sign(K2)"),
    hypotheses=("pi not uniform",),
    reading="For c < 0 the growth rate is |c| and the sign is carried by kappa (see focus.ext.anti_focus).",
    checks=(
        Check("symbolic", _spec.growth_symbolic, description="sympy: K2 = lam Cov, K1 = Var/n2 (d = 3, 4)"),
        Check("certified", _spec.growth_certified, description="arb: c > 0 and c/lam constant on S_pi x F1"),
        Check("eigenvector_sign", _spec.growth_eigenvector_sign, role="corroborating",
              description="float: the unstable eigenvector's attention sign equals sign(K2) on F2/F3/F6/F7"),
    ),
    controls=(
        Control("lambda_squared", "c proportional to lam^2",
                Check("certified", _spec.growth_certified, {"variant": "lambda_squared"}),
                targets="lambda_scaling"),
        Control("opposite_sign", "sign(c) = -sign(K2)",
                Check("eigenvector_sign", _spec.growth_eigenvector_sign, {"variant": "opposite_sign"}),
                targets="mode_sign"),
    ),
    expected=Verdict.CERTIFIED,
)

CONDENSATION = Claim(
    id="focus.stage1.condensation",
    title="Stage I (strengthened bundle): W0 -> pi, W1 -> pi - 1/d at rate mu0, rank one; attention weights "
          "A - 1 pi^T = O(eps^2)",
    source=Source(PAPER, "abstract stage (i); Thm 3.2 [secondary]; seed", "§4.5"),
    provenance=("paper", "seed", "secondary", "derived"),
    strength="strengthened",
    quote=(r"Specifically, $W_0$ is aligned with $\pi$, and $W_1$ is aligned with $\pi - "
           r"\frac{1}{d}\mathbf{1}$."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L25",
    statement=_text("sigma1(W0) grows at mu0 = |pi||v| along (pi_hat a^T, a v_hat^T); sigma2(W0) = O(eps); "
                    "A - 1 pi^T = O(eps^2); |theta - theta_lin| ~ eps^3 e^{3 mu0 t}; at the H(pi) plateau W1 is "
                    "along l (not v)"),
    hypotheses=("non-uniform pi", "generic Gaussian initialisation, eps = 1e-3"),
    reading="A2: W1 is along v only in the linear window; at theta_c1 it is along the centred log-frequencies l.",
    checks=(
        Check("simulation", _cond.condensation,
              description="E1 reference run plus eps = 1e-4 runs to t = 40 (quick: seed 0; ci/thorough: seeds 0-2); "
                          "(e) on the whole windows at both eps"),
    ),
    controls=(
        Control("uniform_direction", "W0 condenses along the uniform vector 1 (cos = 0.6449 for E1)",
                Check("simulation", _cond.condensation, {"variant": "uniform_direction"}),
                targets="W0_direction"),
        Control("W1_along_v", "W1 is along v at the plateau",
                Check("simulation", _cond.condensation, {"variant": "W1_along_v"}),
                targets="W1_plateau"),
        Control("first_order_deviation", "the deviation from the linear flow is ~ eps e^{mu0 t}",
                Check("simulation", _cond.condensation, {"variant": "first_order_deviation"}),
                targets="cubic_deviation"),
        Control("rate_2pct", "sigma1 grows at rate 1.02 mu0 (a 2 % error; outside the derived ~0.9 % budget)",
                Check("simulation", _cond.condensation, {"variant": "rate_2pct"}),
                targets="rate"),
        Control("mu_v_spectrum", "the top eigenvalue of J0 is |v| (mu0 without |pi|)",
                Check("simulation", _cond.condensation, {"variant": "mu_v_spectrum"}),
                targets="mu0_spectrum"),
        Control("rank_two", "W0 is rank two before T_I (sigma2(W0) >= 0.1; refuted by the rank-one sub-check)",
                Check("simulation", _cond.condensation, {"variant": "rank_two"}),
                targets="rank_one"),
        Control("attention_moves", "the attention moves at first order by T_I (max|A - 1 pi^T| >= eps)",
                Check("simulation", _cond.condensation, {"variant": "attention_moves"}),
                targets="frozen"),
        Control("frozen_first_order", "the frozen-attention deviation is O(eps) (ratio between eps = 1e-3 and "
                "1e-4 in [3, 30]; observed 102)",
                Check("simulation", _cond.condensation, {"variant": "frozen_first_order"}),
                targets="frozen_eps2"),
        Control("quartic_bound", "|theta - theta_lin| <= eps^4 e^{4 mu0 t} (a fourth-order deviation)",
                Check("simulation", _cond.condensation, {"variant": "quartic_bound"}),
                targets="linear_bound"),
    ),
    expected=Verdict.CONSISTENT,
)

FOCUS_DIRECTION = Claim(
    id="focus.stage2.focus_direction",
    title="Stage II: Phi ~ kappa gamma gamma^T ∝ pi pi^T, kappa ~ e^{2ct}; key k gains attention iff pi_k > |pi|^2",
    source=Source(PAPER, "abstract stage (ii): frequency-driven focus; Thm 3.5 [secondary]", "§4.8"),
    provenance=("paper", "secondary", "derived"),
    strength="strengthened",
    quote=("This induces a high-frequency bias, causing the attention mechanism to focus on the most "
           "frequent token [or: 'tokens'] in the stationary distribution."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L31",
    statement=_text("Delta A_qk = (kappa/tau) s_c^2 pi_q pi_k (pi_k - n2)/n2, kappa ∝ e^{2ct}, Phi/|Phi| -> pi_hat pi_hat^T"),
    hypotheses=("c > 0 (for c < 0 see focus.ext.anti_focus)", "the flow near theta_c1"),
    reading="A7: the frequent query focuses fully; rare queries tilt toward token 1 only at first order.",
    checks=(
        Check("simulation", _fd.focus_direction,
              description="flows from theta_c1 (pinned E1, pi = (0.5, 0.3, 0.1, 0.1), tie (0.4, 0.4, 0.1, 0.1); "
                          "hypothesis S_pi x F1, quick 3 draws) and the E1 reference run"),
        Check("symbolic", _fd.focus_symbolic,
              description="sympy: Delta A is the exact kappa-derivative of A at theta_c1 (d = 3; ci: d = 3, 4)"),
    ),
    controls=(
        Control("neg_pi", "Phi along -pi pi^T", Check("simulation", _fd.focus_direction, {"variant": "neg_pi"}),
        targets="e1_alignment"),
        Control("ones", "Phi along 1 1^T", Check("simulation", _fd.focus_direction, {"variant": "ones"}),
        targets="e1_alignment"),
        Control("threshold_1_over_d", "a key gains iff pi_k > 1/d (fails at pi = (0.5, 0.3, 0.1, 0.1))",
                Check("simulation", _fd.focus_direction, {"variant": "threshold_1_over_d"}),
                targets="gain_sign"),
        Control("rate_c", "kappa grows at rate c instead of 2c",
                Check("simulation", _fd.focus_direction, {"variant": "rate_c"}),
                targets=("saddle_rate", "e1_rate")),
        Control("threshold_1_over_d_symbolic", "dA/dkappa with 1/d in place of n2 (sympy)",
                Check("symbolic", _fd.focus_symbolic, {"variant": "threshold_1_over_d"}),
                targets="derivative"),
    ),
    expected=Verdict.CONSISTENT,
)

REDISTRIBUTION = Claim(
    id="focus.stage3.mass_redistribution",
    title="Stage III: P_pi^perp gamma = kappa rho + o(kappa) (u.gamma ∝ e^{2ct}); rare components flip sign",
    source=Source(PAPER, "abstract stage (iii); Prop 3.7 [secondary]", "§4.10"),
    provenance=("paper", "secondary", "derived"),
    strength="strengthened",
    quote=("The embeddings of the high-frequency token [or: 'tokens'] and of the remaining tokens "
           "begin to move in directions opposite to each other."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L36",
    statement=_text("P_pi^perp gamma(t) = kappa(t) rho + o(kappa), rho = (|pi|/(2 s_c)) P_pi^perp "
                    "[pi o r/K2 + 2 pi o pi/(n2 K1)]; F1: rho_1 > 0 > rho_d"),
    hypotheses=("K2 != 0", "F4 for the u-form"),
    reading=("A3: the secondary summary's e^{ct} is right only if 'c' denotes the rate of kappa; with c the "
             "per-factor eigenvalue the combination grows like kappa ∝ e^{2ct}.  Tested as u.gamma ∝ kappa."),
    checks=(
        Check("reduced", _redis.redistribution_reduced,
              description="F4 reduced ODE: u.gamma/kappa = u.rho to 5.6e-4 on kappa in [1e-6, 1e-3]; "
                          "gamma anchors 1.5101 -> 1.8647, 0.2517 -> -0.4056"),
        Check("full_flow", _redis.redistribution_full,
              description="full flow from theta_c1, E1: P_perp gamma/kappa = rho to 1e-3 on kappa in [1e-7, 1e-3]"),
        Check("rho_mp", _redis.rho_mp, description="mpmath: rho from the kappa-derivative = closed form"),
        Check("signs", _redis.rho_signs_certified, role="corroborating",
              description="arb: rho_1 > 0 > rho_d on S_pi x F1"),
        Check("flips", _redis.e1_flips, description="E1 run: rare components flip rarest first"),
    ),
    controls=(
        Control("attention_only", "the attention-only forcing predicts u.gamma/kappa -> 0.79463",
                Check("reduced", _redis.redistribution_reduced, {"variant": "attention_only"}),
                targets="ratio"),
        Control("attention_only_full", "the attention-only forcing predicts P_perp gamma/kappa -> P_perp f/(2c)",
                Check("full_flow", _redis.redistribution_full, {"variant": "attention_only"}),
                targets="rho"),
        Control("sqrt_kappa", "u.gamma ∝ sqrt(kappa) (rate c)",
                Check("reduced", _redis.redistribution_reduced, {"variant": "sqrt_kappa"}),
                targets="rate"),
        Control("kappa_rate_c", "kappa grows at rate c (not 2c) in the reduced F4 run",
                Check("reduced", _redis.redistribution_reduced, {"variant": "kappa_rate_c"}),
                targets="kappa_rate"),
    ),
    expected=Verdict.CONSISTENT,
)

DILUTION = Claim(
    id="focus.stage3.dilution",
    title="The focus is progressively diluted: F rises above pi1 then falls; rare queries drop below pi1",
    source=Source(PAPER, "abstract stage (iii): mass redistribution dilutes the focus", "§4.11"),
    provenance=("paper", "secondary", "derived"),
    strength="strengthened",
    quote=("This growing separation in the embedding space progressively weakens the high-frequency "
           "focus, causing the attention weights to spread (dilute) across the tokens as a whole [or: "
           "'across all tokens']."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L36",
    statement=_text("F = sum_q pi_q A_q1 falls >= 3% below its first peak before sigma2(W0) = 0.1; every rare q "
                    "has max A_q1 > pi1 and later A_q1 < pi1; in E1 D-bar rises, drops >= 20%, rises"),
    hypotheses=("c > 0", "rare components of gamma flip sign (focus.stage3.mass_redistribution)"),
    reading="Dilution is measured by F and A_q1; D-bar is non-monotone only in multi-cycle runs.",
    checks=(
        Check("simulation", _dil.dilution,
              description="E1 runs at lam = 1/2, 9/10 (quick: seed 0; ci/thorough: seeds 0-2) with the seed-0 "
                          "anchors; F4 reduced with its anchors"),
    ),
    controls=(
        Control("permanent_focus", "focus is permanent (F non-decreasing)",
                Check("simulation", _dil.dilution, {"variant": "permanent_focus"}),
                targets=("fall", "f4_fall")),
        Control("monotone_Dbar", "D-bar is monotone in E1",
                Check("simulation", _dil.dilution, {"variant": "monotone_Dbar"}),
                targets="dbar"),
        Control("same_peak", "the F peak is the same at lam = 1/2 and 9/10 (0.9123; refuted by the anchor budget)",
                Check("simulation", _dil.dilution, {"variant": "same_peak"}),
                targets="anchors"),
    ),
    expected=Verdict.CONSISTENT,
)

PLATEAUS = Claim(
    id="focus.plateaus",
    title="Loss plateaus log d -> H(pi) -> intermediate values -> H(Y|X), events in the stated order",
    source=Source(PAPER, "multi-stage learning; plateaus at successive critical points [paper/seed]", "§4.12, §5.1"),
    provenance=("paper", "seed", "derived", "reading"),
    strength="strengthened",
    quote=("Experiments on synthetic Markov data confirm the four predicted stages (initial "
           "condensation, attention growth (focus), attention dilution, and the emergence of new "
           "directions)."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L45",
    statement=_text("plateau values strictly decrease from log d through H(pi) (within 2e-3 at eps = 1e-3) to "
                    "H(Y|X) (within 1e-5); final rank(W0) = d - 1; R1 < onset < {flip, focus, peak} < new "
                    "direction < third direction"),
    hypotheses=("c << mu0 for a resolvable H(pi) plateau", "m >= d - 1"),
    reading="A8: ordered reference plateaus and >= 1 dilution episode, not an exact count.",
    checks=(
        Check("plateaus", _plat.plateaus,
              description="E1 runs at lam = 1/2, 9/10 to T = 3e4 and eps = 1e-4 runs to 150 (quick: seed 0; "
                          "ci/thorough: seeds 0-2); value and seed-0 time anchors"),
        Check("events", _plat.event_order,
              description="event order and seed-0 anchors (2 x (grid step + printed half-unit); and +-20%)"),
    ),
    controls=(
        Control("no_intermediate", "log d -> H(Y|X) with no intermediate plateau (refuted by the H(pi) plateau)",
                Check("plateaus", _plat.plateaus, {"variant": "no_intermediate"}),
                targets="no_H_plateau"),
        Control("focus_threshold_0.85", "the focus event read at A_11 >= 0.85 (t = 88.6) is at the anchor 94",
                Check("events", _plat.event_order, {"variant": "focus_threshold_0.85"}),
                targets="anchor_budget"),
        Control("value_shifted", "the plateau values are the seed-0 anchors + 1e-4 (inside the spec's +-2e-3 "
                "band; refuted by the derived value budget)",
                Check("plateaus", _plat.plateaus, {"variant": "value_shifted"}),
                targets="value_budget"),
    ),
    expected=Verdict.CONSISTENT,
)

ANTI_FOCUS = Claim(
    id="focus.ext.anti_focus",
    title="EXTENSION (toolkit, not the paper): for K2 < 0 attention tilts AWAY from the frequent token",
    source=Source(PAPER, "toolkit extension of Thms 3.3-3.5 to chains with K2 < 0", "§4.15"),
    provenance=("extension", "derived"),
    strength="derived",
    statement=_text("sign(kappa after take-off) = sign(K2) = sign(c); A_11 - pi1 has the same sign"),
    hypotheses=("|K2| bounded away from 0", "non-uniform pi"),
    reading="The reconstruction of §2 applied to chains outside the paper's self-transition family.",
    checks=(
        Check("simulation", _anti.anti_focus,
              description="full flows on F6, P(theta) for theta in {0.2, 0.34, 0.44, 0.6, 1}, F7 (quick: seed 0; "
                          "ci/thorough: seeds 0-2) with the F6/F7 anchors; theta* by mpmath findroot; "
                          "hypothesis F2/F3 chains from theta_c1"),
    ),
    controls=(
        Control("universal_focus", "A_11 rises for every P (refuted on F6, theta < theta* and F7)",
                Check("simulation", _anti.anti_focus, {"variant": "universal_focus"}),
                targets="attention_sign"),
    ),
    expected=Verdict.CONSISTENT,
)

DEGENERATE_POINT = Claim(
    id="focus.stage4.degenerate_point",
    title="F4 (symmetric rare tokens): the flow reaches theta_c2, a lumped-Bayes critical point (G_M = G_Phi = 0)",
    source=Source(PAPER, "Prop 3.8 (degenerate critical point) [secondary]; lumped form derived", "§4.13"),
    provenance=("paper", "seed", "secondary", "derived"),
    strength="derived",
    quote=("a degenerate critical point on the rank-1 manifold where the driving force for the "
           "perfectly symmetric low-frequency tokens vanishes"),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L40",
    statement=_text("the symmetric reduced flow from theta_c1 converges to theta_c2 with L = L_lump and "
                    "G_M = G_Phi = 0 exactly; lumped equations h1 b = T1, h' b = T'"),
    hypotheses=("F4 exactly (delta = 0)",),
    reading="A10; the lumped point exists for every lam; its stability is the separate regime claim.",
    checks=(
        Check("lumped_mp", _dp.lumped_point,
              description="reduced flow + 30-digit Newton: |G| <= 1e-25, L = L_lump to 1e-25, anchors"),
        Check("regime_classification", _dp.regime_classification,
              description="S_sym + pinned: in-manifold spectrum classification confirmed by the reduced flow"),
        Check("symmetry_lemma", _dp.symmetry_lemma,
              description="sympy, d in {3, 4}, symbolic pi1, lam, g1, g_l, kappa, b: G_M = G_Phi = 0 on the "
                          "lumped family"),
    ),
    controls=(
        Control("stall_at_H", "the limit is a stall at H(pi)",
                Check("lumped_mp", _dp.lumped_point, {"variant": "stall_at_H"}),
                targets="loss_value"),
        Control("GM_nonzero", "G_M != 0 at the limit",
                Check("lumped_mp", _dp.lumped_point, {"variant": "GM_nonzero"}),
                targets="G_M"),
        Control("beta_not_lumped", "G_M = G_Phi = 0 at the lumped targets without beta constant on rare tokens",
                Check("symmetry_lemma", _dp.symmetry_lemma, {"variant": "beta_not_lumped"}),
                targets="symmetry"),
    ),
    expected=Verdict.CONSISTENT,
)

PI1_F4, LAM_F4 = "3/5", "1/2"


def _lumped_statement():
    import sympy as sp

    from .critical_points import lumped_system

    eqs, _, _ = lumped_system(PI1_F4, LAM_F4, 5)
    return sp.And(*[sp.Eq(e, 0) for e in eqs])


DEGENERATE_POINT_CERTIFIED = Claim(
    id="focus.stage4.degenerate_point_certified",
    title="theta_c2 exists: the lumped equations have a unique zero within 1e-20 of the computed point",
    source=Source(PAPER, "Prop 3.8 (degenerate critical point) [secondary]; lumped form derived", "§4.13"),
    provenance=("secondary", "derived"),
    strength="derived",
    statement=_lumped_statement,
    hypotheses=("F4: pi = (3/5, 1/10 x 4), d = 5", "kappa fixed at the value the symmetric flow reaches",
                "gauges 1^T beta = 0 and |gamma|^2 - |beta|^2 = 2 kappa"),
    reading=("Certified existence (Krawczyk test in arb) of a solution of the lumped equations "
             "h1 b = T1, h' b = T' with the second gauge, in a ball of radius 1e-20 about the 30-digit "
             "Newton point; with focus.stage4.degenerate_point (G_M = G_Phi = 0 there to 1e-25) this "
             "locates theta_c2 rigorously."),
    uses=("focus.stage4.degenerate_point",),
    checks=(
        Check("krawczyk", _dp.lumped_existence,
              description="Krawczyk operator in 256-bit arb over the box of radius 1e-20 (lam = 1/2)"),
    ),
    controls=(
        Control("shifted_target", "the same equations with T1 + 1/100: no zero in the box",
                Check("krawczyk", _dp.lumped_existence, {"variant": "shifted_target"}),
                targets="existence"),
    ),
    expected=Verdict.CERTIFIED,
)

STALL = Claim(
    id="focus.stage4.stall",
    title="At delta = 0 training stalls at theta_c2 -- in the stable regime (pi = (0.6, 0.1 x 4), lam <= 0.6)",
    source=Source(PAPER, "abstract stage (iv) / Prop 3.8: with symmetric rare tokens training stalls", "§4.13"),
    provenance=("paper", "seed", "derived"),
    strength="repaired",
    quote=("The system becomes trapped at a degenerate critical point on the rank-1 manifold where the"
           " driving force for the perfectly symmetric low-frequency tokens vanishes"),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L40",
    statement=_text("top in-manifold eigenvalue at theta_c2 <= 1e-20 for lam in {1/2, 11/20, 3/5}; the full flow "
                    "keeps sigma2(W0) <= 10 eps and L = L_lump to 1e-9 on [300, T]"),
    hypotheses=("F4, delta = 0", "theta_c2 stable within the rank-one manifold (REGIME, see the map in the details)"),
    reading="A10: the paper's exact hypotheses are unknown; the toolkit reports the regime boundary.",
    checks=(
        Check("in_manifold_spectrum", _stall.stall_spectrum, description="30-digit reduced Hessian at theta_c2"),
        Check("full_flow", _stall.stall_flow,
              description="full flow m = m_k = 8 at lam = 1/2 (quick: T = 3000; thorough: 3e4)"),
    ),
    controls=(
        Control("escape_at_0.7", "no escape at delta = 0 also at lam = 0.7 (the flow escapes)",
                Check("full_flow", _stall.stall_flow, {"variant": "lam_0.7"}),
                targets=("sigma2", "loss_dev")),
        Control("unstable_at_half", "theta_c2 is unstable at lam = 1/2",
                Check("in_manifold_spectrum", _stall.stall_spectrum, {"variant": "unstable_at_half"}),
                targets="in_manifold_top"),
        Control("hessian_sign", "the in-manifold Hessian equals the flow Jacobian (+J; refuted by the autograd "
                "cross-check)", Check("in_manifold_spectrum", _stall.stall_spectrum, {"variant": "hessian_sign"}),
                targets="hessian_cross_check"),
    ),
    expected=Verdict.CONSISTENT,
)

STALL_ALL = Claim(
    id="focus.stage4.stall_all_lambda",
    title="Stage IV as stated (every lam; F4, symmetric rare tokens): trapped at theta_c2 at delta = 0 -- "
          "REFUTED at lam = 0.7",
    source=Source(PAPER, "abstract stage (iv) read without a regime restriction", "§4.13, §5.2"),
    provenance=("paper", "seed", "derived"),
    strength="as-stated",
    quote=("The system becomes trapped at a degenerate critical point on the rank-1 manifold where the"
           " driving force for the perfectly symmetric low-frequency tokens vanishes"),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L40",
    statement=_text("for F4 and every lam in [0, 1), theta_c2 is stable within the rank-one manifold and the "
                    "flow stalls at delta = 0"),
    hypotheses=("F4, delta = 0",),
    reading=("Counterexample pinned: pi = (0.6, 0.1 x 4), lam = 7/10: a rare-symmetry-breaking in-manifold mode "
             "has eigenvalue 0.0201 > 0 and the full flow leaves L_lump = 0.96323 (sigma2(W0) -> 1.8)."),
    checks=(
        Check("in_manifold_spectrum", _stall.stall_spectrum, {"variant": "all_lambda"},
              description="30-digit in-manifold spectrum at lam in {1/2, 7/10}"),
        Check("full_flow", _stall.stall_flow, {"variant": "lam_0.7"},
              description="full flow at lam = 7/10, delta = 0 (T = 800)"),
    ),
    controls=(
        Control("unstable_at_half", "the lumped point is unstable at lam = 1/2 (false)",
                Check("in_manifold_spectrum", _stall.stall_spectrum, {"variant": "unstable_at_half"}),
                targets="in_manifold_top"),
    ),
    expected=Verdict.REFUTED,
    condition=("The stall holds where theta_c2 is stable within the rank-one manifold: for pi = (0.6, 0.1 x 4) "
               "at lam in {0.5, 0.55, 0.6} (boundary between 0.6 and 0.65); checked by focus.stage4.stall."),
)

LYAPUNOV_SCHMIDT = Claim(
    id="focus.stage4.lyapunov_schmidt",
    title="Small asymmetry delta lifts theta_c2: transverse eigenvalue kappa_T delta + O(delta^2), escape ~ 1/delta",
    source=Source(PAPER, "Thm 3.9 (Lyapunov-Schmidt reduction) [secondary/seed]", "§4.14"),
    provenance=("paper", "seed", "secondary", "derived"),
    strength="repaired",
    quote=(r"This creates a fast transverse unstable mode of order $\Theta(\delta)$, causing the "
           "trajectory to escape from the rank-1 manifold and unlocking a new embedding direction."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L41",
    statement=_text("lambda_perp(delta) = sigma_max(G_M(theta2_delta)) = kappa_T delta + O(delta^2); in-manifold "
                    "eigenvalues stay 0; t_esc ∝ 1/delta"),
    hypotheses=("the stable regime of focus.stage4.stall", "small delta", "c != 0"),
    reading="A5: delta is a zero-sum perturbation of the rare masses, c = (1, -1, 1/2, -1/2).",
    checks=(
        Check("ratios", _ls.ls_ratios, description="30-digit lambda_perp/delta at delta in {1e-4..1e-3}"),
        Check("directions", _ls.ls_directions,
              description="S_c: lambda_perp(1e-3)/lambda_perp(5e-4) in [1.8, 2.2] over zero-sum directions c"),
        Check("full_jacobian", _ls.ls_jacobian,
              description="full float Jacobian (m = 2, m_k = 1): top eigenvalue = sigma_max(G_M), transverse"),
        Check("escape", _ls.ls_escape,
              description="t_esc vs delta, log-log slope in [-1.15, -0.85] (quick: from theta2_delta, m = 2)"),
    ),
    controls=(
        Control("delta_squared", "lambda_perp ∝ delta^2",
                Check("ratios", _ls.ls_ratios, {"variant": "delta_squared"}),
                targets="convergence"),
        Control("delta_zero", "lambda_perp ∝ delta^0", Check("ratios", _ls.ls_ratios, {"variant": "delta_zero"}),
        targets="convergence"),
        Control("directions_delta_squared", "lambda_perp ∝ delta^2 along every direction c",
                Check("directions", _ls.ls_directions, {"variant": "delta_squared"}),
                targets="ratio_window"),
        Control("escape_delta_minus2", "t_esc ∝ delta^-2",
                Check("escape", _ls.ls_escape, {"variant": "delta_minus2"}),
                targets="escape_slope"),
        Control("tangential_top", "the top unstable mode is tangential",
                Check("full_jacobian", _ls.ls_jacobian, {"variant": "tangential_top"}),
                targets="tangential"),
    ),
    expected=Verdict.CONSISTENT,
)

TRANSVERSE_CERTIFIED = Claim(
    id="focus.stage4.transverse_rate_certified",
    title="theta2_delta exists (Krawczyk) and lambda_perp/delta = sigma_max(G_M)/delta is certified on the delta grid",
    source=Source(PAPER, "Thm 3.9 (Lyapunov-Schmidt) [secondary/seed]; certified form derived", "§4.14"),
    provenance=("secondary", "derived"),
    strength="derived",
    statement=_text("for delta in {1e-4, 2e-4, 5e-4, 1e-3}: the reduced critical equations with 1^T beta = 0, "
                    "|gamma|^2 - |beta|^2 = 2 kappa and kappa pinned have exactly one zero theta2_delta within "
                    "1e-20 of the Newton point, with G_Phi = 0, G_M beta = 0, G_M^T gamma = 0 there; "
                    "sigma_max(G_M(theta2_delta))/delta varies by < 1% over the grid"),
    hypotheses=("F5: pi = (3/5, 1/10 + delta c), c = (1, -1, 1/2, -1/2), lam = 1/2",
                "kappa pinned at the value the reduced flow reaches (it selects the member of the critical "
                "family the flow converges to, spec §4.13)"),
    reading=("The reduced loss factors through h_q = A_q gamma and beta, and is invariant under "
             "(h, beta) -> (a h, beta/a); at fixed kappa the critical set is therefore a curve, cut to a point by "
             "the second gauge. The square factored system (s_q = beta.(Pred_q - P_q) = 0, d - 2 components of "
             "v = sum_q pi_q h_q (Pred_q - P_q), two gauges) is certified by Krawczyk, and two exact identities "
             "recover the dropped components. sigma_max(G_M) is enclosed by Weyl's inequality around the exact "
             "midpoint spectrum. The asymptotic law (kappa_T delta + O(delta^2)) stays CONSISTENT in "
             "focus.stage4.lyapunov_schmidt; this claim certifies its finite-grid content."),
    uses=("focus.stage4.lyapunov_schmidt",),
    checks=(
        Check("krawczyk", _tr.transverse_existence,
              description="Krawczyk in 256-bit arb, box radius 1e-20, at each delta (quick: 5e-4, 1e-3)"),
        Check("sigma_max", _tr.transverse_rate,
              description="certified lambda_perp/delta on the grid: spread <= 1%, anchors to 1e-5"),
        Check("zero_modes", _tr.zero_modes, role="corroborating",
              description="30-digit reduced Hessian at delta in {0, 1e-3}: 4 zero modes (3 gauges + hidden scaling)"),
    ),
    controls=(
        Control("delta_squared", "lambda_perp ∝ delta^2 on the grid",
                Check("sigma_max", _tr.transverse_rate, {"variant": "delta_squared"}),
                targets="spread"),
        Control("delta_zero", "lambda_perp ∝ delta^0 on the grid",
                Check("sigma_max", _tr.transverse_rate, {"variant": "delta_zero"}),
                targets="spread"),
        Control("gauge_shifted", "a zero with |gamma|^2 - |beta|^2 = 2 kappa + 1/100 in the same box",
                Check("krawczyk", _tr.transverse_existence, {"variant": "gauge_shifted"}),
                targets="existence"),
        Control("three_zero_modes", "the reduced Hessian has only the three zero modes of the spec §2.8 gauges",
                Check("zero_modes", _tr.zero_modes, {"variant": "three_zero_modes"}, role="corroborating"),
                targets="zero_modes"),
    ),
    expected=Verdict.CERTIFIED,
)

# -- as-stated headlines of the seed's four stages (002 L24-L41); the strengthened bundles above keep the
# -- derived formulas.  Checks in _checks_headlines.py.
SEED = "seeds/002_33c0cd80d27af751.txt.en.md"

CONDENSATION_AS_STATED = Claim(
    id="focus.stage1.condensation_as_stated",
    title="Stage I as stated: W0, W1 condense into rank one, W0 along pi, W1 along pi - 1/d; W_Q, W_K stay O(eps)",
    source=Source(PAPER, "seed stage 1 (initial condensation)", "§4.5"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=(r"The embedding ($W_0$) and projection ($W_1$) matrices rapidly condense into a rank-1 structure "
           r"driven by the stationary distribution $\pi$ of the data. Specifically, $W_0$ is aligned with "
           r"$\pi$, and $W_1$ is aligned with $\pi - \frac{1}{d}\mathbf{1}$."),
    quote_source=f"{SEED} L25",
    statement=_text("from a small Gaussian start (eps): on the linear window sigma1(W0) in [50 eps, 0.3], "
                    "cos(u1(W0), pi) >= 0.99 and cos(v1(W1), pi - 1/d) >= 0.99; sigma2(W0) <= 10 eps up to T_I; "
                    "max |W_Q|, |W_K| up to T_I <= 3 x their start and scales like eps (L26: 'effectively "
                    "frozen (order O(eps))')"),
    hypotheses=("F1 chains with non-uniform pi (E1 and two other laws, d = 4, 5)", "small initialisation: "
                "Gaussian of scale eps in {1e-3, 1e-4}, m = m_k = 8"),
    reading=("L24 ('governed by the linearization near the origin') fixes the time qualifier: the alignments are "
             "read on the linear window, before the H(pi) plateau (at the plateau W1 is along the centred "
             "log-frequencies instead, focus.stage1.condensation's W1_along_v control). L26's O(eps) is read on "
             "the parameters W_Q, W_K (not on the attention weights, which move at O(eps^2): the strengthened "
             "bundle). The thresholds are the reading's, each >= 3x from its false alternative's value."),
    checks=(
        Check("simulation", _hl.condensation_as_stated,
              description="full flows to t = 80 at eps = 1e-3, 1e-4 on three F1 chains (quick: seed 0; "
                          "ci/thorough: seeds 0-2); cached"),
    ),
    controls=(
        Control("W0_uniform", "W0 aligns with the uniform vector 1 (cos 0.63 in E1)",
                Check("simulation", _hl.condensation_as_stated, {"variant": "W0_uniform"}),
                targets="W0_direction"),
        Control("W1_along_pi", "W1 aligns with pi, not its centred pi - 1/d (cos 0.71 in E1)",
                Check("simulation", _hl.condensation_as_stated, {"variant": "W1_along_pi"}),
                targets="W1_direction"),
        Control("attention_order_one", "W_Q, W_K reach order one (>= 0.1) by T_I",
                Check("simulation", _hl.condensation_as_stated, {"variant": "attention_order_one"}),
                targets="attention_bound"),
        Control("attention_eps2", "|W_Q|, |W_K| scale like eps^2 (ratio 1e-3 / 1e-4 in [30, 300]; observed 10)",
                Check("simulation", _hl.condensation_as_stated, {"variant": "attention_eps2"}),
                targets="attention_scaling"),
    ),
    expected=Verdict.CONSISTENT,
)

SADDLE_AS_STATED = Claim(
    id="focus.stage2.saddle_as_stated",
    title="Stage II as stated: theta_c1 is a saddle; (W0, W1) contracts or is neutral; one unstable mode, in "
          "the attention block",
    source=Source(PAPER, "seed stage 2 (focus): the saddle theta_c1", "§4.7"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=(r"The trajectory reaches the second critical point $\theta_c^1$, which is a saddle point. The "
           r"$(W_0, W_1)$ subsystem contracts (or is neutrally stable), and the attention subsystem has a "
           r"unique [or: 'its own'/'intrinsic'; '고유한' also means 'eigen-'] unstable mode."),
    quote_source=f"{SEED} L30",
    statement=_text("J = -Hessian(L)(theta_c1), F1, lam in (0, 1), m = 2, m_k = 1: grad L = 0; -J_outer + 1e-30 I "
                    "is positive definite; J has exactly one certified positive eigenvalue, >= 1 certified "
                    "negative, every other eigenvalue within 2e-60 of 0; the positive one is the attention "
                    "block's"),
    hypotheses=("F1 chains P = lam I + (1 - lam) 1 pi^T (the family of the paper's theory [secondary]), "
                "lam in (0, 1): at lam = 0 (i.i.d. tokens) K2 = 0 and there is no unstable mode",
                "pi not uniform", "m_k = 1 for a literal 'unique' (for m_k > 1 the unstable space is the "
                "m_k-dimensional orbit of W_Q, W_K -> (W_Q R, W_K R))"),
    reading=("'Reaches' is the flow's part, checked by focus.plateaus (the H(pi) plateau) and "
             "focus.stage2.saddle_location (theta_c1 is critical); here theta_c1's criticality is re-certified "
             "and the saddle structure is certified from the product's Hessian of L in arb. 'Neutrally "
             "stable' admits the gauge zeros; 'no outer eigenvalue reaches 1e-30' is the certified form of "
             "'contracts or is neutral'."),
    uses=("focus.stage2.saddle_location", "focus.plateaus"),
    checks=(
        Check("certified", _hl.saddle_as_stated,
              description="arb 256 bits on hypothesis F1 chains (d <= 4) + E1 at lam = 1/2, 9/10 and "
                          "(2/5, 7/20, 3/20, 1/10) at lam = 1/20"),
    ),
    controls=(
        Control("two_unstable", "J has two or more unstable modes (refuted by the certified count)",
                Check("certified", _hl.saddle_as_stated, {"variant": "two_unstable"}),
                targets="unstable_count"),
        Control("outer_unstable", "the (W0, W1) subsystem has an eigenvalue >= 1e-30 (refuted by arb Cholesky)",
                Check("certified", _hl.saddle_as_stated, {"variant": "outer_unstable"}),
                targets="outer_stability"),
    ),
    expected=Verdict.CERTIFIED,
)

FOCUS_AS_STATED = Claim(
    id="focus.stage2.focus_as_stated",
    title="Stage II as stated: W_Q, W_K grow exponentially along the unstable eigendirection of theta_c1 and "
          "the attention focuses on the most frequent token",
    source=Source(PAPER, "seed stage 2 (focus): exponential growth and high-frequency bias", "§4.7, §4.8"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=(r"The attention parameters ($W_Q, W_K$) grow exponentially along the unstable eigendirection. This "
           r"induces a high-frequency bias, causing the attention mechanism to focus on the most frequent token "
           r"[or: 'tokens'] in the stationary distribution."),
    quote_source=f"{SEED} L31",
    statement=_text("From theta_c1 (m = 2, m_k = 1): |(W_Q, W_K)|^2 grows at rate 2 lam_u > 0, lam_u the unstable "
                    "eigenvalue of -Hessian(L)(theta_c1); (W_Q, W_K)/|.| -> its eigenvector; A_qk > pi_k for every "
                    "query q and every most frequent key k; on the E1 flow A_11 and F = sum_q pi_q A_q1 stay "
                    "above pi_1 from T_I to the focus event (A_11 >= 0.9)"),
    hypotheses=(("F1 chains P = lam I + (1 - lam) 1 pi^T with K2 > 0 (lam > 0), pi not uniform; c >= 0.01 "
                 "for a bounded run"),
                ("m_k = 1 so that 'the unstable eigendirection' is unique (focus.stage2.saddle_as_stated)"),
                "E1 at lam = 1/2 (ci/thorough: also 9/10), eps = 1e-3"),
    reading=("'Grow exponentially along the unstable eigendirection': the fitted rate of |(W_Q, W_K)|^2 from "
             "theta_c1 is > 0 and equals twice the Hessian's unstable eigenvalue (the rate of |.| is the "
             "eigenvalue), and the direction of (W_Q, W_K) converges to its eigenvector. 'Focus on the most "
             "frequent token' (the argmax of pi; with a tie, every most frequent token, the translator's "
             "'tokens'): attention on that key rises above its start pi_1 (A = 1 pi^T at theta_c1) -- for every "
             "query near theta_c1, and through the whole stage (to A_11 >= 0.9) for the most frequent query and "
             "for the pi-average F. The seed does not say which queries focus; the reading 'every query stays "
             "above pi_1 up to the focus event' is false (E1, lam = 1/2: A_41 < pi_1 from t = 92.8, the focus "
             "event is at 94.1) and is this claim's control every_query_stage, not its statement. The "
             "closed form of Delta A and the threshold pi_k > |pi|^2 are focus.stage2.focus_direction's."),
    uses=("focus.stage2.saddle_as_stated",),
    checks=(
        Check("simulation", _fas.focus_as_stated,
              description="flows from theta_c1 (pinned E1, (0.5, 0.3, 0.1, 0.1), tie (0.4, 0.4, 0.1, 0.1); "
                          "hypothesis F1, quick 3, ci 10, thorough 30) against the product's arb Hessian, and "
                          "the cached E1 run(s) with the product's focus event"),
    ),
    controls=(
        Control("decays", "|(W_Q, W_K)|^2 decays at rate 2 lam_u instead of growing",
                Check("simulation", _fas.focus_as_stated, {"variant": "decays"}),
                targets="growth"),
        Control("stable_eigvec", "(W_Q, W_K) aligns with the attention block's stable eigenvector",
                Check("simulation", _fas.focus_as_stated, {"variant": "stable_eigvec"}),
                targets="direction"),
        Control("least_frequent", "every query gains attention on the least frequent token",
                Check("simulation", _fas.focus_as_stated, {"variant": "least_frequent"}),
                targets="saddle_focus"),
        Control("every_query_stage", "every query's A_q1 stays above pi_1 up to the focus event (E1: A_41 "
                "falls below it at t = 92.8)",
                Check("simulation", _fas.focus_as_stated, {"variant": "every_query_stage"}),
                targets="stage_focus"),
    ),
    expected=Verdict.CONSISTENT,
)

OPPOSITE_QUOTE = (r"The embeddings of the high-frequency token [or: 'tokens'] and of the remaining tokens begin "
                  r"to move in directions opposite to each other.")
OPPOSITE_READING = ("'Embeddings move' is read as the first-order motion of the token embeddings gamma_q alpha1 "
                    "off the plateau direction: P_pi^perp gamma = kappa rho + o(kappa) (checked against the "
                    "full flow by focus.stage3.mass_redistribution); 'opposite' as opposite signs of rho_q. "
                    "The translator leaves 'token' singular or plural: ")

OPPOSITE_AS_STATED = Claim(
    id="focus.stage3.opposite_motion_as_stated",
    title="Stage III as stated (plural reading): the high-frequency tokens and the rest move in opposite "
          "directions (a frequency prefix of rho > 0, the rest < 0)",
    source=Source(PAPER, "seed stage 3 (mass redistribution)", "§4.10"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=OPPOSITE_QUOTE,
    quote_source=f"{SEED} L36",
    statement=_text("F1, lam in (0, 1), pi not uniform, tokens sorted by frequency: there is k in 1..d-1 with "
                    "rho_q > 0 for the k most frequent tokens and rho_q < 0 for the others"),
    hypotheses=("F1 chains, lam in (0, 1) (rho is lam-free there)", "pi not uniform"),
    reading=OPPOSITE_READING + ("this claim reads the plural 'tokens' (a high-frequency set, which may be one "
                                "token). The singular reading, token 1 against all others, is "
                                "focus.stage3.opposite_motion_singular and fails; the seed's wording is "
                                "ambiguous between the two."),
    uses=("focus.stage3.mass_redistribution",),
    checks=(
        Check("certified", _hl.opposite_motion, {"variant": "plural"},
              description="arb signs of rho on hypothesis F1 chains (d <= 6; quick 20, ci 80, thorough 300) "
                          "and four pinned chains"),
        Check("crosscheck", _hl.opposite_motion_crosscheck, role="corroborating",
              description="closed-form rho signs = signs of the 40-digit kappa-derivative on the pinned chains"),
    ),
    controls=(
        Control("monotone", "rho decreases along the frequency order (E1: rho_2 = -0.787 < rho_3 = -0.308)",
                Check("certified", _hl.opposite_motion, {"variant": "monotone"}),
                targets="monotone"),
        Control("threshold_n2", "the moving-up set is {q: pi_q > |pi|^2} (pinned pi = (0.334, 0.244, 0.202, "
                "0.123, 0.097): pi_2 > |pi|^2 but rho_2 < 0)",
                Check("certified", _hl.opposite_motion, {"variant": "threshold_n2"}),
                targets="threshold_n2"),
    ),
    expected=Verdict.CERTIFIED,
)

OPPOSITE_SINGULAR = Claim(
    id="focus.stage3.opposite_motion_singular",
    title="Stage III, singular reading: token 1 moves opposite to every other token -- REFUTED at "
          "pi = (2/5, 7/20, 3/20, 1/10)",
    source=Source(PAPER, "seed stage 3 (mass redistribution), singular 'token'", "§4.10"),
    provenance=("seed", "reading"),
    strength="strengthened",
    quote=OPPOSITE_QUOTE,
    quote_source=f"{SEED} L36",
    statement=_text("F1, lam in (0, 1), pi not uniform: rho_1 > 0 > rho_q for every q >= 2"),
    hypotheses=("F1 chains, lam in (0, 1)", "pi not uniform"),
    reading=OPPOSITE_READING + ("this claim takes the singular 'token': the one most frequent token against all "
                                "others. It is stronger than the plural reading (it fixes k = 1), so its "
                                "failure marks where the stronger reading stops, not a failure of the seed."),
    uses=("focus.stage3.opposite_motion_as_stated",),
    checks=(
        Check("certified", _hl.opposite_motion, {"variant": "singular"},
              description="arb signs of rho; pinned counterexample pi = (2/5, 7/20, 3/20, 1/10), lam = 1/2: "
                          "rho = (0.856, +0.00623, -1.446, -1.278)"),
    ),
    controls=(
        Control("monotone", "rho decreases along the frequency order",
                Check("certified", _hl.opposite_motion, {"variant": "monotone"}),
                targets="monotone"),
    ),
    expected=Verdict.REFUTED,
    condition=("The plural reading holds: a frequency prefix {1..k} moves opposite to the rest "
               "(focus.stage3.opposite_motion_as_stated, CERTIFIED); k = 1 fails when a second token is "
               "frequent enough, e.g. pi_2 = 0.35 next to pi_1 = 0.4."),
)

DILUTION_AS_STATED = Claim(
    id="focus.stage3.dilution_as_stated",
    title="Stage III as stated: after the focus peak the focus mass F = sum_q pi_q A_q1 falls before the new "
          "direction appears",
    source=Source(PAPER, "seed stage 3 (dilution)", "§4.11"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("This growing separation in the embedding space progressively weakens the high-frequency focus, "
           "causing the attention weights to spread (dilute) across the tokens as a whole [or: 'across all "
           "tokens']."),
    quote_source=f"{SEED} L36",
    statement=_text("E1 flow: F falls to <= F(focus peak) - 1e-3 after the focus peak and before sigma2(W0) >= 0.1"),
    hypotheses=("E1: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam = 1/2 (ci/thorough: also 9/10), eps = 1e-3",),
    reading=("'Weakens the high-frequency focus' is read on F, the attention mass on the most frequent token "
             "averaged over queries: it falls after its first peak, during the rank-one stage (before the "
             "new direction). The entropy reading of 'spread across the tokens as a whole' (D-bar falling) "
             "is not asserted: it holds in E1 but not on the F4 reduced flow (see focus.stage3.dilution). The "
             "1e-3 fall is 1000x the integration error of F."),
    uses=("focus.stage3.opposite_motion_as_stated",),
    checks=(
        Check("simulation", _hl.cycle_as_stated, {"variant": "dilution"},
              description="the cached E1 reference run(s) (e1_run, T = 3e4) and the product's events"),
    ),
    controls=(
        Control("permanent_focus", "F never falls 1e-3 below its peak before the new direction",
                Check("simulation", _hl.cycle_as_stated, {"variant": "permanent_focus"}),
                targets="dilution"),
        Control("dilution_late", "F falls only after the new direction appears",
                Check("simulation", _hl.cycle_as_stated, {"variant": "dilution_late"}),
                targets="dilution"),
    ),
    expected=Verdict.CONSISTENT,
)

CYCLE_AS_STATED = Claim(
    id="focus.cycle.four_stages",
    title="The four stages occur in order (condensation, focus, dilution, new direction) and start the next "
          "cycle",
    source=Source(PAPER, "seed: the focus-dilution cycle and its four stages", "§4.12, §5.1"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("Experiments on synthetic Markov data confirm the four predicted stages (initial condensation, "
           "attention growth (focus), attention dilution, and the emergence of new directions)."),
    quote_source=f"{SEED} L45",
    statement=_text("E1 flow: R1 < attention onset < focus (A_11 >= 0.9) <= focus peak < dilution (F <= peak - "
                    "1e-3) < new direction (sigma2(W0) >= 0.1) < next attention direction (sigma2(W_Q W_K^T) >= "
                    "0.1), every event occurring"),
    hypotheses=("E1: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam = 1/2 (ci/thorough: also 9/10), eps = 1e-3, "
                "m = m_k = 8",),
    reading=("L20 ('a recurring focus-dilution cycle ... four distinct stages') and L43 ('This starts the next "
             "focus-dilution cycle') add the recurrence, read as a second attention direction growing after the "
             "new embedding direction. Event thresholds are the spec §5.1 detectors (flow.events); plateau "
             "values and times are the derived content of focus.plateaus."),
    uses=("focus.plateaus",),
    checks=(
        Check("simulation", _hl.cycle_as_stated,
              description="the cached E1 reference run(s) (e1_run, T = 3e4) and the product's events"),
    ),
    controls=(
        Control("new_direction_first", "the new embedding direction appears before the focus",
                Check("simulation", _hl.cycle_as_stated, {"variant": "new_direction_first"}),
                targets="order"),
        Control("no_recurrence", "no second attention direction grows (the cycle does not restart)",
                Check("simulation", _hl.cycle_as_stated, {"variant": "no_recurrence"}),
                targets="recurrence"),
    ),
    expected=Verdict.CONSISTENT,
)

TRANSVERSE_AS_STATED = Claim(
    id="focus.stage4.transverse_mode",
    title="Stage IV as stated: a small rare-token asymmetry delta creates a transverse unstable mode of order "
          "Theta(delta) and the flow escapes the rank-1 manifold into a new direction",
    source=Source(PAPER, "seed stage 4 (symmetry breaking)", "§4.14"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=(r"The degeneracy is removed by introducing a small asymmetry ($\delta$) among the low-frequency "
           r"tokens. This creates a fast transverse unstable mode of order $\Theta(\delta)$, causing the "
           r"trajectory to escape from the rank-1 manifold and unlocking a new embedding direction."),
    quote_source=f"{SEED} L41",
    statement=_text("F5 (rare masses 1/10 + delta c, c zero-sum): at the critical point theta2_delta the top "
                    "eigenvalue lambda_perp of the flow's Jacobian is transverse to the rank-1 manifold, "
                    "lambda_perp/delta is certified within 1% over delta in [1e-4, 1e-3] and converges "
                    "(kappa_T = 0.0766), lambda_perp(delta)/lambda_perp(delta/2) in [1.8, 2.2] for every "
                    "zero-sum direction c tried; the flow leaves the manifold (sigma2(W0) > 0.1) for delta > 0, not at delta = 0"),
    hypotheses=("the situation of L40: trapped at the degenerate point theta_c2 of F4 (pi = (3/5, 1/10 x 4), "
                "lam = 1/2, where theta_c2 is stable within the rank-1 manifold; see focus.stage4.stall)",
                "the asymmetry perturbs the rare tokens' frequencies (A5): pi_rare = 1/10 + delta c, c zero-sum"),
    reading=("'Of order Theta(delta)' is read as lambda_perp/delta bounded away from 0 and infinity as delta -> 0 "
             "(certified on the finite grid; the limit itself is CONSISTENT, from the convergence of "
             "lambda_perp/delta); 'transverse' as an eigenvector off the rank-1 manifold; 'escape ... new "
             "direction' as sigma2(W0) reaching 0.1. The seed does not say how the asymmetry enters; a "
             "perturbation of P with pi fixed is not checked. The checks are those of "
             "focus.stage4.lyapunov_schmidt and focus.stage4.transverse_rate_certified, asserted here for the "
             "seed's sentence (the derived expansion kappa_T delta + O(delta^2) and the 1/delta escape-time law stay "
             "there; the seed states no escape-time law)."),
    uses=("focus.stage4.stall", "focus.stage4.transverse_rate_certified"),
    checks=(
        Check("sigma_max", _tr.transverse_rate,
              description="certified lambda_perp/delta on the Krawczyk-certified points, delta grid"),
        Check("ratios", _ls.ls_ratios, description="30-digit lambda_perp/delta at delta in {1e-4..1e-3}"),
        Check("directions", _ls.ls_directions,
              description="zero-sum directions c: lambda_perp(1e-3)/lambda_perp(5e-4) in [1.8, 2.2]"),
        Check("full_jacobian", _ls.ls_jacobian,
              description="full float Jacobian (m = 2, m_k = 1): top eigenvalue = sigma_max(G_M), transverse"),
        Check("escape", _hl.escape_as_stated,
              description="from theta2_delta + a seeded 1e-3 perturbation: sigma2(W0) > 0.1 within 20 e-folds for "
                          "every delta (quick 0.01, 0.02; ci/thorough 0.0025..0.02); at delta = 0 it stays < 0.1"),
    ),
    controls=(
        Control("delta_squared", "lambda_perp ∝ delta^2 on the grid (certified refutation)",
                Check("sigma_max", _tr.transverse_rate, {"variant": "delta_squared"}),
                targets="spread"),
        Control("delta_zero", "lambda_perp ∝ delta^0 (no Theta(delta) law)",
                Check("ratios", _ls.ls_ratios, {"variant": "delta_zero"}),
                targets="convergence"),
        Control("tangential_top", "the top unstable mode is tangential (inside the rank-1 manifold)",
                Check("full_jacobian", _ls.ls_jacobian, {"variant": "tangential_top"}),
                targets="tangential"),
        Control("trapped", "the flow stays trapped in the rank-1 manifold for delta > 0 (sigma2(W0) < 0.1)",
                Check("escape", _hl.escape_as_stated, {"variant": "trapped"}),
                targets="escape"),
    ),
    expected=Verdict.CONSISTENT,
)

CLAIMS: tuple = (POPULATION_LIMIT, GRADIENTS, CONSERVATION, ORIGIN_SPECTRUM, CONDENSATION, SADDLE_LOCATION,
                 SADDLE_EIGEN, FOCUS_DIRECTION, GROWTH_SIGN, REDISTRIBUTION, DILUTION, PLATEAUS, DEGENERATE_POINT,
                 DEGENERATE_POINT_CERTIFIED, STALL, STALL_ALL, LYAPUNOV_SCHMIDT, TRANSVERSE_CERTIFIED, ANTI_FOCUS,
                 CONDENSATION_AS_STATED, SADDLE_AS_STATED, FOCUS_AS_STATED, OPPOSITE_AS_STATED, OPPOSITE_SINGULAR,
                 DILUTION_AS_STATED, CYCLE_AS_STATED, TRANSVERSE_AS_STATED)
