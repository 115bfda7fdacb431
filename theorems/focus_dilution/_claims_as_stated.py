"""As-stated headlines of the seed's four stages (arXiv:2605.01199, seed 002 L24-L45); the strengthened
bundles keep the derived formulas.  Checks in _checks_headlines.py and _checks_focus_as_stated.py."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_as_stated_flows as _flows
from . import _checks_focus_as_stated as _fas
from . import _checks_headlines as _hl
from . import _statements_as_stated as _sas
from ._claims_common import PAPER, SEED

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
    statement=_sas.condensation,
    hypotheses=("F1 chains with non-uniform pi (E1 and two other laws, d = 4, 5)", "small initialisation: "
                "Gaussian of scale eps in {1e-3, 1e-4}, m = m_k = 8"),
    reading=("L24 ('governed by the linearization near the origin') fixes the time qualifier: the alignments are "
             "read on the linear window, before the H(pi) plateau (at the plateau W1 is along the centred "
             "log-frequencies instead, focus.stage1.condensation's W1_along_v control). L26's O(eps) is read on "
             "the parameters W_Q, W_K (not on the attention weights, which move at O(eps^2): the strengthened "
             "bundle). The thresholds are the reading's, each >= 3x from its false alternative's value."),
    checks=(
        Check("simulation", _flows.condensation_as_stated,
              description="full flows to t = 80 at eps = 1e-3, 1e-4 on three F1 chains (quick: seed 0; "
                          "ci/thorough: seeds 0-2); cached"),
    ),
    controls=(
        Control("W0_uniform", "W0 aligns with the uniform vector 1 (cos 0.63 in E1)",
                Check("simulation", _flows.condensation_as_stated, {"variant": "W0_uniform"}),
                targets="W0_direction"),
        Control("W1_along_pi", "W1 aligns with pi, not its centred pi - 1/d (cos 0.71 in E1)",
                Check("simulation", _flows.condensation_as_stated, {"variant": "W1_along_pi"}),
                targets="W1_direction"),
        Control("attention_order_one", "W_Q, W_K reach order one (>= 0.1) by T_I",
                Check("simulation", _flows.condensation_as_stated, {"variant": "attention_order_one"}),
                targets="attention_bound"),
        Control("attention_eps2", "|W_Q|, |W_K| scale like eps^2 (ratio 1e-3 / 1e-4 in [30, 300]; observed 10)",
                Check("simulation", _flows.condensation_as_stated, {"variant": "attention_eps2"}),
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
    statement=_sas.saddle,
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
    statement=_sas.focus,
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
    statement=_sas.opposite_motion_plural,
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
    statement=_sas.opposite_motion_singular,
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
    statement=_sas.dilution,
    hypotheses=("E1: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam = 1/2 (ci/thorough: also 9/10), eps = 1e-3",),
    reading=("'Weakens the high-frequency focus' is read on F, the attention mass on the most frequent token "
             "averaged over queries: it falls after its first peak, during the rank-one stage (before the "
             "new direction). The entropy reading of 'spread across the tokens as a whole' (D-bar falling) "
             "is not asserted: it holds in E1 but not on the F4 reduced flow (see focus.stage3.dilution). The "
             "1e-3 fall is 1000x the integration error of F."),
    uses=("focus.stage3.opposite_motion_as_stated",),
    checks=(
        Check("simulation", _flows.cycle_as_stated, {"variant": "dilution"},
              description="the cached E1 reference run(s) (e1_run, T = 3e4) and the product's events"),
    ),
    controls=(
        Control("permanent_focus", "F never falls 1e-3 below its peak before the new direction",
                Check("simulation", _flows.cycle_as_stated, {"variant": "permanent_focus"}),
                targets="dilution"),
        Control("dilution_late", "F falls only after the new direction appears",
                Check("simulation", _flows.cycle_as_stated, {"variant": "dilution_late"}),
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
    statement=_sas.cycle,
    hypotheses=("E1: pi = (0.75, 0.19, 0.05, 0.01), F1 at lam = 1/2 (ci/thorough: also 9/10), eps = 1e-3, "
                "m = m_k = 8",),
    reading=("L20 ('a recurring focus-dilution cycle ... four distinct stages') and L43 ('This starts the next "
             "focus-dilution cycle') add the recurrence, read as a second attention direction growing after the "
             "new embedding direction. Event thresholds are the spec §5.1 detectors (flow.events); plateau "
             "values and times are the derived content of focus.plateaus."),
    uses=("focus.plateaus",),
    checks=(
        Check("simulation", _flows.cycle_as_stated,
              description="the cached E1 reference run(s) (e1_run, T = 3e4) and the product's events"),
    ),
    controls=(
        Control("new_direction_first", "the new embedding direction appears before the focus",
                Check("simulation", _flows.cycle_as_stated, {"variant": "new_direction_first"}),
                targets="order"),
        Control("no_recurrence", "no second attention direction grows (the cycle does not restart)",
                Check("simulation", _flows.cycle_as_stated, {"variant": "no_recurrence"}),
                targets="recurrence"),
    ),
    expected=Verdict.CONSISTENT,
)
