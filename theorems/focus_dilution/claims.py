"""Claims of arXiv:2605.01199, Focus and Dilution (spec: focus_dilution.md).

All claims are about the reconstructed one-layer model of spec §2 (reading A1: no value matrix,
residual, LayerNorm, positions or biases; the query attends over all s positions, itself included).
Each claim states what the quick profile covers in its checks' docstrings.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_model as _mod
from . import _checks_spectra as _spec
from . import _checks_headlines as _hl
from . import _checks_focus_as_stated as _fas
from ._claims_dynamics import (ANTI_FOCUS, CONDENSATION, DILUTION, FOCUS_DIRECTION, PLATEAUS,
                               REDISTRIBUTION)
from ._claims_stage4 import (DEGENERATE_POINT, DEGENERATE_POINT_CERTIFIED, LYAPUNOV_SCHMIDT, STALL,
                             STALL_ALL, TRANSVERSE_AS_STATED, TRANSVERSE_CERTIFIED)

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

CLAIMS: tuple = (POPULATION_LIMIT, GRADIENTS, CONSERVATION, ORIGIN_SPECTRUM, CONDENSATION, SADDLE_LOCATION,
                 SADDLE_EIGEN, FOCUS_DIRECTION, GROWTH_SIGN, REDISTRIBUTION, DILUTION, PLATEAUS, DEGENERATE_POINT,
                 DEGENERATE_POINT_CERTIFIED, STALL, STALL_ALL, LYAPUNOV_SCHMIDT, TRANSVERSE_CERTIFIED, ANTI_FOCUS,
                 CONDENSATION_AS_STATED, SADDLE_AS_STATED, FOCUS_AS_STATED, OPPOSITE_AS_STATED, OPPOSITE_SINGULAR,
                 DILUTION_AS_STATED, CYCLE_AS_STATED, TRANSVERSE_AS_STATED)
