"""Claims of arXiv:2604.01880, DDCL-INCRT (spec: ddcl_incrt.md).

Each seed theorem maps to a claim through an explicit reading (spec §1.1); verdicts concern readings,
never the paper.  Only the abstract is available, so for each seed theorem the reading chosen is the
smallest concrete model in which the seed's sentence becomes a falsifiable statement, with every
quantity defined by the spec (§2.5) rather than invented here:

* Theorem 2 -> ``ddcl.separation.amplification`` (M-cat, CERTIFIED); the code's residual sum as
  ``..._additive`` (REFUTED, repaired as ``..._additive_uncorrelated``).  "Separation force" is the
  collapse instability, the only scale-free force defined; "adding a head" is appending its channel.
* Theorem 3 -> ``ddcl.temperature.sign_laws`` and ``ddcl.temperature.divergence`` (per-head learnable
  temperatures, L_q-driven; MEASURED), ``..._free_energy`` (F-driven, REFUTED).
* Theorem 4 -> ``ddcl.mlp_vs_dictionary`` (directional information of equal-rank bases) and
  ``ddcl.mlp_vs_dictionary.trained`` (MEASURED).
* Theorem 6 -> ``ddcl.pruning.safety`` (quantitative bounds), ``ddcl.pruning.force_kept`` ("kept or
  increased", REFUTED) and ``ddcl.pruning.force_kept_with_margin`` (CERTIFIED).
* Theorem 8 -> ``ddcl.lyapunov.free_energy`` (stopgrad, fixed tau) and ``ddcl.lyapunov.full_gradient``
  (REFUTED).
* Theorem 10 -> ``ddcl.growth.unique_minimal`` (greedy growth on a fixed operator: span unique) and
  ``ddcl.growth.only_minimal_structure`` (REFUTED).

Each claim's ``reading`` says why that reading is the most faithful one available.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_growth as _gro
from . import _checks_lyapunov as _lya
from . import _checks_pruning as _pru
from . import _checks_tracker as _trk
from . import _checks_tracker_coupled as _trkc
from . import _checks_lyapunov_unbounded as _lyu
from ._claims_common import PAPER, _text
# the foundations and seed Theorems 2-4 live in their own modules (the CLAIMS order below is unchanged)
from ._claims_dictionary import DECOMPOSITION, GRADIENTS, HULL_F, HULL_FULL
from ._claims_mlp import MLP, MLP_AS_STATED, MLP_TRAINED
from ._claims_separation import (AMPLIFICATION, AMPLIFICATION_ADD, AMPLIFICATION_ADD_OK, AMPLIFICATION_INCRT,
                                 AMPLIFICATION_INCRT_WEAK, CRITICAL, OBJECTIVE_ALONE, UNCONDITIONAL)
from ._claims_temperature import TEMP_AS_STATED, TEMP_DIVERGENCE, TEMP_F, TEMP_SIGNS


# -------------------------------------------------------------------------------------------------
# §3.7 pruning (seed Theorem 6)
# -------------------------------------------------------------------------------------------------
PRUNING = Claim(
    id="ddcl.pruning.safety",
    title="Seed Thm 6, R1-R4: pruning invariance (per head), perturbation bounds (shared), Weyl bound (signal)",
    source=Source(PAPER, "seed Theorem 6; abstract: pruning-safety guarantees", "§3.7"),
    provenance=("seed", "paper", "derived", "reading"),
    strength="repaired",
    quote=("It was proved that even when heads are removed, the prototypes of the remaining heads do "
           "not collapse, and rather the separation force is maintained or increases (Theorem 6)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L46",
    statement=_text("R1 per-head invariance; R2 0 <= lambda_j(C_full) - lambda_j(C_sub) <= eps + sqrt(lambda_1 eps) "
                    "(M-cat), <= eps + 2 sqrt(lambda_1 eps) (M-add); R3 distance drop <= 4 N eps_tr / min n_k; "
                    "R4 |Delta lambda_max(A_res)| <= |G M_a^h|_2 <= |G M_a^h|_F"),
    hypotheses=("PSD block covariances", "R3: F-stationary point with n_k > 0", "R4: orthonormal U"),
    reading=(
        "Seed Theorem 6 ('removing a head neither collapses the other prototypes nor weakens the "
        "separation force') is read as quantitative perturbation bounds: the most that can be "
        "guaranteed without the paper's conditions.  For per-head dictionaries nothing changes (R1); "
        "for a shared dictionary the force can drop, by at most the R2 bound."
    ),
    checks=(
        Check("bounds", _pru.bounds, description="R2 (M-cat, M-add), R4, R3 on float64 sweeps"),
        Check("per_head", _pru.per_head_invariance, description="R1: bitwise invariance of the other heads"),
    ),
    controls=(
        Control("no_sqrt", "the R2 bound without its sqrt term", Check("bounds", _pru.bounds, {"variant": "no_sqrt"}),
                targets=("R2_Mcat", "R2_Madd")),
        Control("madd_cat_bound", "M-add obeys the M-cat bound eps + sqrt(lambda_1 eps)",
                Check("bounds", _pru.bounds, {"variant": "madd_cat_bound"}),
                targets="R2_Madd"),
        Control("r4_half", "R4 with half of |P⊥ sym(G M_a^h) P⊥|_2", Check("bounds", _pru.bounds, {"variant": "r4_half"}),
                targets="R4"),
        Control("r4_witness_half", "R4 with half its bound, on the witness G = diag(2, 1) alone",
                Check("bounds", _pru.bounds, {"variant": "r4_witness_half"}),
                targets="R4_witness"),
        Control("r3_quarter", "R3 with N eps_tr / min n_k", Check("bounds", _pru.bounds, {"variant": "r3_quarter"}),
                targets="R3"),
        Control("shared_invariance", "R1 for a shared dictionary",
                Check("per_head", _pru.per_head_invariance, {"variant": "shared"}),
                targets="invariance"),
    ),
    expected=Verdict.CONSISTENT,
)

PRUNING_KEPT = Claim(
    id="ddcl.pruning.force_kept",
    title="Strengthened Thm 6 probe (a shared dictionary, not the seed's per-head prototypes): 'the force "
          "is kept or increased' (refuted)",
    source=Source(PAPER, "seed Theorem 6", "§3.7"),
    provenance=("seed", "derived"),
    strength="strengthened",
    quote=("It was proved that even when heads are removed, the prototypes of the remaining heads do "
           "not collapse, and rather the separation force is maintained or increases (Theorem 6)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L46",
    statement=_text("#{j : c lambda_j(C_sub) > tau} >= #{j : c lambda_j(C_full) > tau}"),
    hypotheses=("shared dictionary, M-cat",),
    reading=("Exact counterexample: C_full = [[1, 1/10], [1/10, 1/50]], K = 2, c = 4, tau = 201/50: "
             "before pruning c lambda_1/tau = 4 (51 + sqrt 2501)/100 / (201/50) > 1 (since sqrt 2501 > 49.5), "
             "after pruning c lambda_1/tau = 200/201 < 1: the dictionary separates before and collapses after."),
    checks=(Check("exact", _pru.force_kept, description="exact counts (Descartes), pinned case first"),),
    controls=(Control("unchanged", "pruning never changes the number of unstable directions",
                      Check("exact", _pru.force_kept, {"variant": "unchanged"}),
                      targets="count"),),
    expected=Verdict.REFUTED,
    condition=("the unstable margin c lambda_j/tau - 1 exceeds (c/tau)(eps_h + sqrt(lambda_1 eps_h)) "
               "(R2's bound): ddcl.pruning.force_kept_with_margin"),
)

PRUNING_MARGIN = Claim(
    id="ddcl.pruning.force_kept_with_margin",
    title="Pruning keeps every unstable mode whose margin exceeds R2's bound",
    source=Source(PAPER, "seed Theorem 6, repaired", "§3.7"),
    provenance=("derived",),
    strength="repaired",
    quote=("It was proved that even when heads are removed, the prototypes of the remaining heads do "
           "not collapse, and rather the separation force is maintained or increases (Theorem 6)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L46",
    statement=_text("c lambda_j(C_full)/tau - 1 > (c/tau)(eps + sqrt(lambda_1(C_sub) eps)) => "
                    "#{i : c lambda_i(C_sub) > tau} >= j"),
    hypotheses=("shared dictionary, M-cat",),
    reading="HOLDS-IF the margin exceeds the R2 bound; certified with arb enclosures and exact counts.",
    checks=(Check("certified", _pru.force_kept, {"with_margin": True}, description="arb margin test + exact counts"),),
    controls=(Control("bound_halved", "the same with half of R2's bound (refuted at C_full = [[1,2],[2,4]], tau = 6)",
                      Check("certified", _pru.force_kept, {"with_margin": True, "variant": "bound_halved"}),
                      targets="margin_count"),),
    expected=Verdict.CERTIFIED,
)


# -------------------------------------------------------------------------------------------------
# §3.8 Lyapunov (seed Theorem 8)
# -------------------------------------------------------------------------------------------------
LYAPUNOV = Claim(
    id="ddcl.lyapunov.free_energy",
    title="Seed Thm 8: F_rel is a piecewise Lyapunov function through stopgrad training, growth and pruning",
    source=Source(PAPER, "seed Theorem 8; companion DDCL: Lyapunov stability of the frozen-encoder system", "§3.8"),
    provenance=("seed", "companion", "derived", "reading"),
    strength="repaired",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_text("F_rel = F_tau(P; Y_H) - tr C_H: non-increasing on pieces (L1), continuous at growth (L2), "
                    "rises by <= eps_tr at a pruning (L3); <= d growth events (L4)"),
    hypotheses=("stopgrad / F-gradient prototypes, fixed tau, eta <= 1/2",
                "channels frozen between events; new coordinates initialised at the channel mean"),
    reading=(
        "Seed Theorem 8 ('a piecewise free-energy functional over training, growth and pruning gives "
        "global Lyapunov stability') is read on the smallest model in which it can be stated: the "
        "companion's frozen-encoder free energy, made continuous across growth by subtracting tr C_H. "
        "HOLDS-IF training descends F (stopgrad) at fixed tau."
    ),
    checks=(
        Check("pinned_stopgrad", _lya.pinned_two_point, {"mode": "stopgrad"},
              description="Z = {-1, 1}, tau = 3: F never increases"),
        Check("piecewise", _lya.piecewise, {"mode": "stopgrad"},
              description="the spec's growth/pruning schedule: L1, L2, L3, L5"),
    ),
    controls=(Control("full_gradient", "the same schedule under full-gradient training",
                      Check("piecewise", _lya.piecewise, {"mode": "full"}),
                      targets="descent"),
              Control("prune_free", "pruning never raises F_rel (L3 with 0 instead of eps_tr)",
                      Check("piecewise", _lya.piecewise, {"mode": "stopgrad", "variant": "prune_free"}),
                      targets="pruning_witness"),
              Control("jump_half", "growth raises F by tr Cov(o)/2 (L2 off by a factor 2)",
                      Check("piecewise", _lya.piecewise, {"mode": "stopgrad", "variant": "jump_half"}),
                      targets="growth_jump"),),
    expected=Verdict.CONSISTENT,
)

LYAPUNOV_FULL = Claim(
    id="ddcl.lyapunov.full_gradient",
    title="Strengthened Thm 8 probe (full-gradient training, a mode the seed does not name): the system "
          "converges (refuted: L_q descends but the trajectory has no finite limit)",
    source=Source(PAPER, "seed Theorem 8 read for full-gradient (live q) training; spec negative control "
                  "'unbounded trajectory'", "§3.8"),
    provenance=("seed", "derived"),
    strength="strengthened",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_text("full-gradient descent on L_q (live assignments) converges to a finite limit"),
    hypotheses=("full mode", "fixed tau"),
    reading=("Full-gradient training descends L_q, so L_q is itself a Lyapunov function of that flow; measuring "
             "F along it pairs a functional with a flow no source pairs.  What fails is convergence.  "
             "Counterexample (spec §3.8): Z = {-0.3, +0.3}, K = 2, tau = 1/2, p(0) = (0, 2), eta = 1/2: L_q never "
             "increases, p_1 -> 0, p_2 increases at every step (2.804, 3.066, 3.297 after 2e3, 2e4, 2e5 steps; "
             "p_2^2 ~ tau ln t) and dL_q/dp_2 (0, x) < 0 at every x passed, so there is no finite limit.  "
             "Stop-gradient training from the same start sends both prototypes to 0."),
    checks=(Check("unbounded", _lyu.unbounded, {},
                  description="the spec's unbounded-trajectory case (quick/ci 2e4 steps, thorough 2e5)"),),
    controls=(Control("p2_rise_0.1", "p_2 rises by at most 0.1 between steps 2e3 and 2e4 (it rises 0.262)",
                      Check("unbounded", _lyu.unbounded, {"max_rise": 0.1}), targets="p2_rise"),),
    expected=Verdict.REFUTED,
    condition="stopgrad / F-gradient prototypes at fixed tau (ddcl.lyapunov.free_energy)",
)


# -------------------------------------------------------------------------------------------------
# §3.9 - §3.11 growth
# -------------------------------------------------------------------------------------------------
SIGNAL = Claim(
    id="ddcl.growth.signal_structure",
    title="Growth signal S = sym(G M_a) = 1/2 [G, M_a]: traceless, indefinite residual, blind to isotropic planes",
    source=Source(PAPER, "growth criterion on the antisymmetric attention signal (seed, INCRT companion)", "§3.9"),
    provenance=("seed", "companion", "derived"),
    strength="derived",
    quote=("By analyzing the asymmetric part (antisymmetric part) of the attention signal, it finds "
           "the main direction (principal eigenvector) that the existing heads fail to cover, and "
           "creates a new head."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L26",
    statement=_text("S = 1/2 [G, M_a], tr S = 0, lambda_max(A_res) >= 0 >= lambda_min(A_res), S = 0 if G = gI, "
                    "|S|_2 <= |G|_2 |M_a|_2, #{lambda_j(S) > 0} <= min(rank M_a, d - 1)"),
    hypotheses=("G symmetric PSD", "M_a antisymmetric", "U orthonormal"),
    reading="R1 of spec §3.9, every item.",
    checks=(
        Check("symbolic", _gro.signal_symbolic, description="sympy identities, generic 3 x 3"),
        Check("float", _gro.signal_structure, description="hypothesis instances; the planted d = 16 design"),
    ),
    controls=(
        Control("symmetric_spectrum", "the spectrum of S is symmetric",
                Check("float", _gro.signal_structure, {"variant": "symmetric_spectrum"}),
                targets="spectrum symmetric"),
        Control("s0_implies_ma0", "S = 0 implies M_a = 0", Check("float", _gro.signal_structure, {"variant": "s0_implies_ma0"}),
                targets="S = 0 => M_a = 0"),
        Control("norm_quarter", "|S|_2 <= |G|_2 |M_a|_2 / 4",
                Check("float", _gro.signal_structure, {"variant": "norm_quarter"}),
                targets=("|S|_2 <= |G|_2 |M_a|_2 / 4", "norm_witness")),
    ),
    expected=Verdict.CONSISTENT,
)

SPECTRAL_ORDER = Claim(
    id="ddcl.growth.spectral_order",
    title="Fixed operator: heads are born in decreasing eigenvalue order; lambda_max never increases",
    source=Source(PAPER, "abstract: granularity hierarchy; seed: births follow the residual eigenvalues", "§3.10"),
    provenance=("paper", "seed", "derived", "reading"),
    strength="repaired",
    quote=("It was confirmed that heads are added in order of the magnitude of the eigenvalues "
           "(eigenvalue) of the residual information."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L53",
    statement=_text("range U in range U'  =>  lambda_max(P'SP') <= lambda_max(PSP); greedy births = lambda_1 >= lambda_2 >= ..."),
    hypotheses=("S fixed while heads are born", "nested recorded subspaces"),
    reading="R1 (fixed operator); a head's granularity is its birth eigenvalue.",
    checks=(Check("float", _gro.spectral_order, description="traceless spectra realised as commutators"),),
    controls=(Control("strict", "every recorded direction lowers lambda_max strictly",
                      Check("float", _gro.spectral_order, {"variant": "strict"}),
                      targets="strict_drop"),),
    expected=Verdict.CONSISTENT,
)

UNIQUE = Claim(
    id="ddcl.growth.unique_minimal",
    title="Seed Thm 10, R1: greedy growth is sufficient, minimal, and its span is unique (E_{>theta}(S))",
    source=Source(PAPER, "seed Theorem 10; abstract: unique and minimal under stated conditions", "§3.11"),
    provenance=("seed", "paper", "derived", "reading"),
    strength="repaired",
    quote=("This is a **unique and minimally sufficient (minimal sufficient)** structure, regardless "
           "of initialization randomness (Theorem 10)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L44",
    statement=_text("greedy growth stops after K = #{lambda_j(S) > theta} births, lambda_max(A_res) <= theta, "
                    "every sufficient U has >= K columns, span = E_{>theta}(S)"),
    hypotheses=("fixed S", "theta > 0", "exact greedy growth (top eigenvectors)"),
    reading=(
        "Seed Theorem 10 ('the final hierarchy is unique and minimal sufficient whatever the "
        "initialisation') is read on a fixed operator with the exact greedy rule: the abstract's 'under "
        "stated conditions' is taken to be that setting.  What is unique is the spanned subspace; the "
        "individual directions are unique (up to sign) only for simple eigenvalues."
    ),
    checks=(Check("float", _gro.unique_minimal, description="count, sufficiency, minimality, span under tie-breaking"),),
    controls=(Control("directions_unique", "the individual directions are unique (repeated eigenvalue)",
                      Check("float", _gro.unique_minimal, {"variant": "directions_unique"}),
                      targets="directions"),),
    expected=Verdict.CONSISTENT,
)

UNIQUE_R0 = Claim(
    id="ddcl.growth.only_minimal_structure",
    title="Strengthened Thm 10 probe (uniqueness over every sufficient U): the greedy structure is the "
          "only minimal sufficient one (refuted)",
    source=Source(PAPER, "seed Theorem 10 with uniqueness widened to every sufficient U (the seed's is "
                  "about the structure the method produces)", "§3.11"),
    provenance=("seed", "derived"),
    strength="strengthened",
    quote=("This is a **unique and minimally sufficient (minimal sufficient)** structure, regardless "
           "of initialization randomness (Theorem 10)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L44",
    statement=_text("every sufficient U with K columns spans E_{>theta}(S)"),
    hypotheses=("fixed S, theta > 0",),
    reading=("Exact counterexample: G = diag(3, 2, 1), M_a = 2(e1 e2^T - e2 e1^T), S = e1 e2^T + e2 e1^T, "
             "theta = 1/2 (K = 1): greedy u = (e1+e2)/sqrt2 leaves lambda_max = 0, the alternative "
             "u' = (sqrt3/2)(e1+e2)/sqrt2 + e3/2 leaves 1/4 <= theta."),
    checks=(Check("symbolic", _gro.only_minimal_exact, description="sympy, exact"),),
    controls=(Control("every_direction", "every unit direction is sufficient",
                      Check("symbolic", _gro.only_minimal_exact, {"variant": "every_direction"}),
                      targets="e3_sufficient"),),
    expected=Verdict.REFUTED,
    condition=("uniqueness of the spanned subspace E_{>theta}(S) for the greedy construction "
               "(ddcl.growth.unique_minimal)"),
)

# -------------------------------------------------------------------------------------------------
# §2.4, §5.3, §5.5, §5.6: the author's online tracker (regression cases of the spec's pitfalls)
# -------------------------------------------------------------------------------------------------
TRACKER_FIXED = Claim(
    id="ddcl.growth.tracker_fixed_step",
    title="The code's coupled fixed-step tracker (Oja with its coupling term, MCA-EXIN) converges at every "
          "operator scale (refuted)",
    source=Source(PAPER, "INCRT companion code's online tracker (coupled Oja / MCA-EXIN, gamma* = Delta_+/"
                  "(Delta_+ + Delta_-), eta_+ = 1/(10 d), eta_- = eta_+/2)", "§2.4, §5.3"),
    provenance=("companion", "derived"),
    strength="code",
    statement=_text("u_+ <- normalise(u_+ + eta_+ [(A u_+ - R(u_+) u_+) - (1 - gamma*)(u_+^T A u_-) u_-]) "
                    "(with the coded MCA step for u_-) converges to v_1 for A = c A0, every c > 0, every start"),
    hypotheses=("fixed step eta_+ = 1/(10 d) = 1/60", "random starts as the code re-seeds them"),
    reading=("The growth signal scales as s^2 with the token scale, so the tracker must work at every scale.  "
             "Run as the code writes it (incrt.tracker_step, coupling on), on A0 = diag(1, 0.5, 0.2, 0, -0.2, -1.5) "
             "(gamma* = 5/18).  Starts: start j draws u_+ ~ N(0, I) normalised, then u_- ~ N(0, I) projected off u_+ "
             "and normalised, from default_rng(j).  The coupling only lowers the effective Oja step on one "
             "direction, so [derived] every start converges below c_lo = 2/(eta (lambda_1 - lambda_d)) = 48 and "
             "every start stalls above c_hi = 2/(eta (lambda_1 - lambda_{d-1})) = 100; between, the outcome depends "
             "on where the coded MCA step leaves u_- (recorded, 2e4 steps, starts 0..39: 3 of 40 stall at c = 49, "
             "0 of 40 at c = 80).  Regression case c = 120, start 0: sin angle 0.824 after 2e4 steps."),
    checks=(Check("scales", _trkc.coupled_scales, {},
                  description="c in {0.5, 1, 10, 47, 80, 120, 49}, recorded starts (2 / 5 / 10 by profile)"),),
    controls=(Control("critical_scale_99", "below c_hi = 100 every start converges (start 4 stalls at c = 49)",
                      Check("scales", _trkc.coupled_scales, {"max_scale": 99.0}),
                      targets="convergence"),),
    expected=Verdict.REFUTED,
    condition=("c < 48 (any start); scale-free step eta = eta_0/|A|_2 with eta_0 < 1 "
               "(ddcl.growth.tracker_normalised_step)"),
)

TRACKER_COUPLED_THRESHOLDS = Claim(
    id="ddcl.growth.tracker_coupled_thresholds",
    title="The code's coupled tracker: every start converges below c_lo = 48, every start stalls above c_hi = 100",
    source=Source(PAPER, "INCRT companion code's coupled tracker; thresholds derived", "§2.4, §5.3"),
    provenance=("companion", "derived"),
    strength="derived",
    statement=_text("c < 2/(eta (lambda_1 - lambda_d)) => v_1 stable for every u_-; "
                    "c > 2/(eta (lambda_1 - lambda_{d-1})) => unstable for every u_-"),
    hypotheses=("A = c diag(1, 0.5, 0.2, 0, -0.2, -1.5)", "eta_+ = 1/60, eta_- = 1/120, gamma* = 5/18"),
    reading=("Linearised at u_+ = v_1 with u_- = w, the coupled Oja step is delta -> (I - eta (I - (1 - gamma*) w w^T) "
             "B) delta, B = lambda_1 - A on v_1-perp: a rank-one PSD decrease of B, whose eigenvalues lie in "
             "(0, lambda_1 - lambda_d] and by interlacing reach lambda_1 - lambda_{d-1}.  Checked at c = 47 (every "
             "recorded start converges to sin < 1e-6) and c = 120 (every start ends at sin > 1e-3), and at c = 80, between "
             "the thresholds where the uncoupled step stalls from every start, the recorded starts converge; starts "
             "default_rng(j), j < 2 / 5 / 10 by profile; 0 (or n) of n starts bounds the other outcome's "
             "probability below 3/n at 95 % (rule of three)."),
    checks=(Check("thresholds", _trkc.coupled_thresholds, {},
                  description="c = 47 and 80 all converge, c = 120 all stall"),),
    controls=(Control("stall_at_47", "every start stalls at c = 47",
                      Check("thresholds", _trkc.coupled_thresholds, {"variant": "stall_at_47"}),
                      targets="c=47"),
              Control("converge_at_120", "every start converges at c = 120",
                      Check("thresholds", _trkc.coupled_thresholds, {"variant": "converge_at_120"}),
                      targets="c=120"),),
    expected=Verdict.CONSISTENT,
)

TRACKER_UNCOUPLED = Claim(
    id="ddcl.growth.tracker_fixed_step_uncoupled",
    title="Uncoupled fixed-step Oja (a derived model of the code's tracker, coupling off) converges at every "
          "operator scale (refuted)",
    source=Source(PAPER, "derived model of the companion's Oja step without its coupling term (gamma = 1, "
                  "eta_- = 0)", "§5.3"),
    provenance=("derived",),
    strength="derived",
    statement=_text("u <- normalise(u + eta (A u - R(u) u)) with eta = 1/60 converges to v_1 for A = c A0, every c > 0"),
    hypotheses=("fixed step eta = 1/(10 d)", "start u(0) = (1, ..., 1)/sqrt(d)"),
    reading=("Not the code's tracker (see ddcl.growth.tracker_fixed_step): the Oja step alone, run through "
             "incrt.tracker_step with the coupling switched off.  Regression case A0 = diag(1, 0.5, 0.2, 0, -0.2, -1.5), "
             "eta = 1/60, start (1, ..., 1)/sqrt(6): the top eigenvector is locally stable iff eta (lambda_max - "
             "lambda_min) < 2, i.e. c < 48; at c = 49 the iteration stalls at sin angle 0.10."),
    checks=(Check("scales", _trk.oja_scales, {"step": "fixed"}, description="c in {0.5, ..., 100} and random operators"),),
    controls=(Control("critical_scale_50", "the fixed step converges for every c <= 50 (the true c* is 48)",
                      Check("scales", _trk.oja_scales, {"step": "fixed", "max_scale": 50}),
                      targets="convergence"),),
    expected=Verdict.REFUTED,
    condition=("eta (lambda_max(A) - lambda_min(A)) < 2; scale-free step eta = eta_0/|A|_2 with eta_0 < 1 "
               "(ddcl.growth.tracker_normalised_step)"),
)

TRACKER_NORM = Claim(
    id="ddcl.growth.tracker_normalised_step",
    title="Oja with eta = eta_0/|A|_2 (eta_0 = 1/2) converges at every scale",
    source=Source(PAPER, "repaired tracker step", "§5.3"),
    provenance=("derived", "reading"),
    strength="derived",
    statement=_text("eta = eta_0/|A|_2, eta_0 < 1  =>  Oja converges to v_1 (simple top eigenvalue) at every scale"),
    hypotheses=("lambda_1(A) simple", "start not orthogonal to v_1"),
    reading="The repair of §5.3; checked on the regression operator at 8 scales and random gapped operators.",
    checks=(Check("scales", _trk.oja_scales, {"step": "normalised"}, description="same operators as the refuted claim"),),
    controls=(Control("fixed_step", "the code's fixed step at the same scales",
                      Check("scales", _trk.oja_scales, {"step": "fixed"}),
                      targets="convergence"),),
    expected=Verdict.CONSISTENT,
)

TRACKER_MCA = Claim(
    id="ddcl.growth.tracker_mca",
    title="The coded MCA-EXIN step finds the bottom eigenvector of A_res (refuted)",
    source=Source(PAPER, "INCRT companion code's MCA-EXIN step", "§2.4, §5.6"),
    provenance=("companion", "derived"),
    strength="code",
    statement=_text("coded MCA step: R(u_-) -> lambda_min(A_res)"),
    hypotheses=("A_res indefinite (lambda_min <= 0 always, spec §3.9)",),
    reading=("The factor y = u^T A u reverses the step when y < 0; regression case A = diag(1, .6, .3, .1, "
             "-.1, -.3, -.6, -1), eta_- = 1/160, gamma* = 0.5, u_+ = e1: after 1e4 steps R(u_-) = 0.0000, "
             "|cos(u_-, e_8)| ~ 0.2.  Consequence: the gate lambda_min < phi_w is met trivially."),
    checks=(Check("mca", _trk.mca_bottom, {"mca_factor": True}, description="the coded step"),),
    controls=(Control("limit_minus_half", "the coded step converges to R(u_-) = -1/2",
                      Check("mca", _trk.mca_bottom, {"mca_factor": True, "target": -0.5}),
                      targets="limit"),),
    expected=Verdict.REFUTED,
    condition="drop the factor y from the MCA step (ddcl.growth.tracker_mca_repaired)",
)

TRACKER_MCA_OK = Claim(
    id="ddcl.growth.tracker_mca_repaired",
    title="The MCA step without the factor y reaches lambda_min and the bottom eigenvector",
    source=Source(PAPER, "repaired MCA step", "§5.6"),
    provenance=("derived",),
    strength="derived",
    statement=_text("MCA step without y: R(u_-) -> lambda_min, |cos(u_-, v_min)| -> 1"),
    hypotheses=("as the refuted claim",),
    reading="The repair of §5.6 on the same regression case.",
    checks=(Check("mca", _trk.mca_bottom, {"mca_factor": False}, description="the step without the factor y"),),
    controls=(Control("coded", "the coded step with y", Check("mca", _trk.mca_bottom, {"mca_factor": True}),
    targets="limit"),),
    expected=Verdict.CONSISTENT,
)

DWELL = Claim(
    id="ddcl.growth.dwell_time",
    title="The code's dwell time T_d covers the tracker's convergence at every scale (refuted)",
    source=Source(PAPER, "INCRT companion code: T_d = ceil(kappa ln(1/eps)/(eta Delta^2))", "§2.4, §5.5"),
    provenance=("companion", "derived"),
    strength="code",
    statement=_text("T_d >= steps for sin angle < eps, kappa = 2, eps = 0.05, at every scale"),
    hypotheses=("eta = 1/60 fixed",),
    reading=("T_d scales as c^-2 but a fixed-step Oja iteration needs ~c^-1 steps: on A = c A0, start "
             "u(0) = g/|g| with g = default_rng(0).standard_normal(6), steps needed counted with the uncoupled "
             "Oja step (eta = 1/60), T_d = 143796, 1438, 15 against 3890, 389, 39 steps needed for c = 0.1, 1, "
             "10: over-waits 37.0x at c = 0.1 and under-waits at c = 10.  (The spec's 3604 / 360 / 36, ~40x, "
             "come from another start; the uniform start (1, ..., 1)/sqrt(6) gives 3611 / 361 / 36, 39.8x.)"),
    checks=(Check("dwell", _trk.dwell, {"rule": "code"}, description="c in {0.1, 1, 10}"),),
    controls=(Control("within_10x", "T_d is within 10x of the steps needed (it over-waits 37.0x at c = 0.1)",
                      Check("dwell", _trk.dwell, {"rule": "code", "max_overwait": 10.0}),
                      targets="dwell"),),
    expected=Verdict.REFUTED,
    condition=("scale-consistent T = ceil(kappa ln(1/eps)/(eta_0 Delta/|A|_2)) with eta = eta_0/|A|_2 "
               "(ddcl.growth.dwell_time_normalised)"),
)

DWELL_OK = Claim(
    id="ddcl.growth.dwell_time_normalised",
    title="The scale-consistent dwell time covers the normalised tracker's convergence at every scale",
    source=Source(PAPER, "repaired dwell time", "§5.5"),
    provenance=("derived", "reading"),
    strength="derived",
    statement=_text("T = ceil(kappa ln(1/eps)/(eta_0 Delta/|A|_2)) >= steps needed, eta = eta_0/|A|_2"),
    hypotheses=("eta_0 = 1/2, kappa = 2, eps = 0.05",),
    reading=("Both T and the steps needed are invariant under A -> cA; measured on the regression operator. "
             "Checked from both sides: T covers the start g/|g|, g = default_rng(0).standard_normal(6), and on "
             "starts in span(v_1, v_2), whose steps "
             "needed are bracketed by ln(t_0/t_eps)/r with r in [ln(1 + eta Delta), -ln(1 - eta Delta)], T "
             "covers every start with tan angle <= t_eps (1 + eta Delta)^T; at the witness start (1, t_w, 0, 0, 0, 0) "
             "normalised, t_w = t_eps (1 + eta Delta)^(T - 1/2), just inside that radius, T is approached within phi = 1.20 (33 steps needed, T = 36), just outside it the "
             "steps needed (41) exceed T."),
    checks=(Check("dwell", _trk.dwell, {"rule": "normalised"},
                  description="c in {0.1, 1, 10}: start default_rng(0) normal, covered witness (tight within phi), edge start"),),
    controls=(Control("code_rule", "the code's T_d on the same runs", Check("dwell", _trk.dwell, {"rule": "code"}),
    targets="dwell"),
              Control("overwait_2x", "T leaves a 2x margin at every start it covers (T >= 2 x steps needed at "
                      "the covered witness)",
                      Check("dwell", _trk.dwell, {"rule": "normalised", "variant": "overwait_2x"}),
                      targets="witness_cover"),
              Control("covers_every_start", "T covers every start not orthogonal to v_1 (the start just "
                      "outside the derived cover radius)",
                      Check("dwell", _trk.dwell, {"rule": "normalised", "variant": "covers_every_start"}),
                      targets="edge_start"),),
    expected=Verdict.CONSISTENT,
)

CLAIMS = (DECOMPOSITION, GRADIENTS, HULL_FULL, HULL_F, CRITICAL, UNCONDITIONAL, AMPLIFICATION,
          AMPLIFICATION_ADD, AMPLIFICATION_ADD_OK, TEMP_SIGNS, TEMP_DIVERGENCE, TEMP_F, MLP, MLP_TRAINED,
          PRUNING, PRUNING_KEPT, PRUNING_MARGIN, LYAPUNOV, LYAPUNOV_FULL, SIGNAL, SPECTRAL_ORDER, UNIQUE,
          UNIQUE_R0, TRACKER_FIXED, TRACKER_COUPLED_THRESHOLDS, TRACKER_UNCOUPLED, TRACKER_NORM, TRACKER_MCA, TRACKER_MCA_OK, DWELL, DWELL_OK)


# -------------------------------------------------------------------------------------------------
# Faithful (as-stated) readings of the seed theorems (issue "Faithful readings", item 2)
# -------------------------------------------------------------------------------------------------
from . import _checks_faithful_growth as _faig  # noqa: E402

PRUNING_PER_HEAD = Claim(
    id="ddcl.pruning.per_head",
    title="Seed Thm 6 as stated (per-head dictionaries): removing a head leaves the remaining heads' "
          "prototypes and separation unchanged",
    source=Source(PAPER, "seed Theorem 6: 'the prototypes of the remaining heads'", "§3.7"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("It was proved that even when heads are removed, the prototypes of the remaining heads do "
           "not collapse, and rather the separation force is maintained or increases (Theorem 6)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L46",
    statement=_text("per-head dictionaries: after removing head h every other head's trained prototypes and "
                    "temperature are bitwise those of the full model (so its separation force is maintained)"),
    hypotheses=("each head has its own dictionary on its own channel (seed L46, L55: a head's prototypes)",
                "immediately after the removal (the encoder is not retrained)"),
    reading=("The seed's object is 'the prototypes of the remaining heads', i.e. per-head dictionaries "
             "(spec §3.5 model).  Removing a head cannot touch another head's data, prototypes, tau or "
             "collapse instability, so they 'do not collapse' and the force is 'maintained' (never "
             "'increases').  Checked bitwise in float64 on the trained model with each head removed in turn "
             "(CONSISTENT: float training).  The shared-dictionary readings are "
             "ddcl.pruning.force_kept (strengthened, REFUTED) and ..._with_margin (repaired); fine-tuning "
             "after pruning is not covered."),
    checks=(Check("per_head", _pru.per_head_invariance,
                  description="bitwise invariance of the other heads' prototypes and temperatures"),),
    controls=(Control("shared", "the same invariance for a shared dictionary on the concatenated channels",
                      Check("per_head", _pru.per_head_invariance, {"variant": "shared"}),
                      targets="invariance"),),
    expected=Verdict.CONSISTENT,
)

UNIQUE_ONLINE = Claim(
    id="ddcl.growth.unique_minimal_online",
    title="Seed Thm 10 as stated, with INCRT's online procedure: the same minimal sufficient, "
          "eigenvalue-ordered structure from every random initialisation (MEASURED)",
    source=Source(PAPER, "seed Theorem 10", "§3.11 (online variant)"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("This is a **unique and minimally sufficient (minimal sufficient)** structure, regardless of "
           "initialization randomness (Theorem 10)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L44",
    statement=_text("for every tracker initialisation: #heads = K = #{lambda_j(S) > theta}, "
                    "lambda_max(A_res) <= theta, every K - 1 of the heads leave lambda_max(A_res) > theta, "
                    "births in decreasing eigenvalue order, span within 0.3 rad of E_{>theta}(S)"),
    hypotheses=("fixed S (frozen attention signal), a 20 % eigenvalue gap at theta",
                "INCRT's online procedure: coupled normalised tracker, scale-consistent dwell time "
                "(experiments.online_grow)"),
    reading=("The structure is the one INCRT's own online growth produces (not exact greedy growth), and "
             "'regardless of initialization randomness' ranges over the trackers' random starts "
             "(R = 3/4/5 starts on 2/3/5 operators by profile).  Unique = same count, order and span up to "
             "the dwell-time accuracy (criterion 0.3 rad fixed in advance; observed <= 0.112 rad); minimal "
             "and sufficient are checked on each grown structure.  Criteria fixed before running; MEASURED "
             "(float64)."),
    checks=(Check("online", _faig.unique_minimal_online,
                  description="count, sufficiency, minimality, order, span over random initialisations"),),
    controls=(Control("one_fewer", "K - 1 heads already suffice",
                      Check("online", _faig.unique_minimal_online, {"variant": "one_fewer"}),
                      targets="minimality"),
              Control("increasing_order", "births come in increasing eigenvalue order",
                      Check("online", _faig.unique_minimal_online, {"variant": "increasing_order"}),
                      targets="order"),
              Control("span_exact", "the grown span equals E_>theta(S) within 1e-6 rad",
                      Check("online", _faig.unique_minimal_online, {"variant": "span_exact"}),
                      targets="span")),
    expected=Verdict.CONSISTENT,
)

LYAPUNOV_AS_STATED = Claim(
    id="ddcl.lyapunov.as_stated",
    title="Seed Thm 8 as stated, 'the system converges stably': undetermined (candidate readings disagree)",
    source=Source(PAPER, "seed Theorem 8", "§3.8"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_text("through training, growth and pruning the system converges, with a piecewise free energy "
                    "as Lyapunov function"),
    hypotheses=("the functional, the training mode and the encoder coupling are not given in the sources",),
    reading=("The sources name neither the training mode nor the functional beyond 'piecewise free energy'. "
             "Candidates: ddcl.lyapunov.free_energy (repaired: stop-gradient training at fixed tau, F_rel "
             "non-increasing on pieces, continuous at growth, <= eps_tr at prunings; CONSISTENT) and "
             "ddcl.lyapunov.full_gradient (strengthened: full-gradient training; REFUTED: L_q never increases "
             "but p_2 grows without bound).  The check runs both candidates' decisive checks (at the run's "
             "profile capped at ci) and returns UNKNOWN with their verdicts in details."),
    checks=(Check("candidates", _faig.lyapunov_as_stated,
                  description="the candidates' decisive checks (same functions and seed)"),),
    controls=(Control("determined", "the reading is determined: all candidate readings agree",
                      Check("candidates", _faig.lyapunov_as_stated, {"variant": "determined"}),
                      targets="candidates_agree"),),
    expected=Verdict.UNKNOWN,
)

CLAIMS = CLAIMS + (AMPLIFICATION_INCRT, AMPLIFICATION_INCRT_WEAK, PRUNING_PER_HEAD, OBJECTIVE_ALONE,
                   MLP_AS_STATED, UNIQUE_ONLINE, LYAPUNOV_AS_STATED, TEMP_AS_STATED)
