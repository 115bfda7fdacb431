"""Claims of Stage IV (spec §4.13, §4.14): the degenerate lumped point theta_c^2 of F4, the stall at
delta = 0, and the Lyapunov-Schmidt symmetry breaking of F5 (also as the seed states it)."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_degenerate_point as _dp
from . import _statements_stage4 as _st
from . import _checks_headlines as _hl
from . import _checks_lyapunov_schmidt as _ls
from . import _checks_stall as _stall
from . import _checks_transverse as _tr

PAPER = "2605.01199"  # the paper of every focus claim (claims.PAPER)
SEED = "seeds/002_33c0cd80d27af751.txt.en.md"  # claims.SEED


DEGENERATE_POINT = Claim(
    id="focus.stage4.degenerate_point",
    title="F4 (symmetric rare tokens): the flow reaches theta_c2, a lumped-Bayes critical point (G_M = G_Phi = 0)",
    source=Source(PAPER, "Prop 3.8 (degenerate critical point) [secondary]; lumped form derived", "§4.13"),
    provenance=("paper", "seed", "secondary", "derived"),
    strength="derived",
    quote=("a degenerate critical point on the rank-1 manifold where the driving force for the "
           "perfectly symmetric low-frequency tokens vanishes"),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L40",
    statement=_st.degenerate_point_statement,
    derivation=_st.degenerate_point_derivation,
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

DEGENERATE_POINT_CERTIFIED = Claim(
    id="focus.stage4.degenerate_point_certified",
    title="theta_c2 exists: the lumped equations have a unique zero within 1e-20 of the computed point",
    source=Source(PAPER, "Prop 3.8 (degenerate critical point) [secondary]; lumped form derived", "§4.13"),
    provenance=("secondary", "derived"),
    strength="derived",
    statement=_st.lumped_existence_statement,
    derivation=_st.lumped_targets_derivation,
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
    statement=_st.stall_statement,
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
    statement=_st.stall_all_statement,
    hypotheses=("F4, delta = 0",),
    reading=("Counterexample pinned: pi = (0.6, 0.1 x 4), lam = 7/10: a rare-symmetry-breaking in-manifold mode "
             "has eigenvalue 0.0201 > 0 and the full flow leaves L_lump = 0.96323 (sigma2(W0) -> 1.8)."),
    checks=(
        Check("in_manifold_spectrum", _stall.stall_spectrum, {"variant": "all_lambda"},
              description="30-digit in-manifold spectrum at the pinned lam = 7/10 (soundness gate at 1/2 and 7/10)"),
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
    statement=_st.lyapunov_schmidt_statement,
    derivation=_st.lyapunov_schmidt_derivation,
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
                Check("escape", _ls.ls_escape, {"variant": "delta_minus2"}, seed_of="escape"),
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
    statement=_st.transverse_certified_statement,
    derivation=_st.transverse_block_derivation,
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
    statement=_st.transverse_mode_statement,
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
        Check("sigma_max", _tr.transverse_rate, {"claim": "focus.stage4.transverse_mode"},
              description="certified lambda_perp/delta on the Krawczyk-certified points, delta grid"),
        Check("ratios", _ls.ls_ratios, {"claim": "focus.stage4.transverse_mode"},
              description="30-digit lambda_perp/delta at delta in {1e-4..1e-3}"),
        Check("directions", _ls.ls_directions, {"claim": "focus.stage4.transverse_mode"},
              description="zero-sum directions c: lambda_perp(1e-3)/lambda_perp(5e-4) in [1.8, 2.2]"),
        Check("full_jacobian", _ls.ls_jacobian, {"claim": "focus.stage4.transverse_mode"},
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
                Check("escape", _hl.escape_as_stated, {"variant": "trapped"}, seed_of="escape"),
                targets="escape"),
    ),
    expected=Verdict.CONSISTENT,
)
