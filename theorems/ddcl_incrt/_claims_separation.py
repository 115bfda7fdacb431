"""Claims on the collapse instability (spec §3.3-3.4): the critical temperature tau_c = c lambda_1, the
unconditional reading (refuted), seed Theorem 2's amplification readings (M-cat, M-add, INCRT's own head)
and the undetermined as-stated headline 'collapse is prevented without explicit regularisation'."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_amplification as _amp
from . import _checks_faithful as _fai
from . import _checks_separation as _sep
from . import _checks_separation_dynamics as _sdyn
from . import _statements_separation as _st
from ._claims_common import PAPER

# -------------------------------------------------------------------------------------------------
# §3.3 critical temperature
# -------------------------------------------------------------------------------------------------
CRITICAL = Claim(
    id="ddcl.separation.critical_temperature",
    title="Collapse is linearly unstable iff tau < tau_c = c lambda_1(C) (c = 4 full, 2 stopgrad/F)",
    source=Source(PAPER, "abstract: 'prototypes separate through the objective alone'; seed: collapse "
                  "is prevented without explicit regularisation", "§3.3"),
    provenance=("paper", "seed", "derived", "reading"),
    strength="repaired",
    quote=("This prevents prototype collapse (collapse) even without explicit regularization [or: "
           "'normalization']."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L20",
    statement=_st.critical_temperature,
    derivation=_st.critical_temperature_derivation,
    hypotheses=("K >= 2", "tau != c lambda_j (equality is degenerate, reported as such)",
                "C the empirical covariance with 1/N; thresholds in tau_eff"),
    reading=(
        "R1 (conditional): 'prototypes separate on their own' = 'collapse is unstable under the "
        "training dynamics'.  The collapsed state is stationary for every tau, its Hessian has "
        "eigenvalues 2/K (x d) and h_j = (2/K)(1 - c lambda_j/tau) (x (K-1)), so it is unstable iff "
        "tau < c lambda_1 and the first split is along v_1; above tau_c collapse is a strict local "
        "minimum.  This is the most faithful falsifiable reading: the abstract's separation claim "
        "concerns the objective's own dynamics, and the Hessian at collapse is where it is decided."
    ),
    checks=(
        Check("symbolic", _sep.symbolic, description="sympy Hessian for Z = {-a, a}, K = 2, both modes"),
        Check("certified", _sep.certified,
              description="the statement on the loss's exact Hessian (forward mode on every case, sympy on "
                          "small ones, both = block formula): negative count, relative/translation Rayleigh "
                          "quotients, the product's tau_c; tau = c lambda_1 (1 +- 1e-30)"),
        Check("torch_hessian", _sdyn.torch_hessian, role="corroborating",
              description="autograd Hessian = block formula; the statement's negative count on it"),
        Check("simulation", _sdyn.simulation, role="corroborating",
              description="gradient descent: fitted growth rate log(1 - eta h_1) within 1 %"),
    ),
    controls=(
        Control("wrong_constant", "tau_c = 2 lambda_1 for full training (refuted at tau = 3, Z = {-1, 1})",
                Check("certified", _sep.certified, {"variant": "c_wrong", "part": "hessian"}),
                targets="negative_count"),
        Control("wrong_constant_product", "the product's c = 2 decisions (collapse_is_stable, "
                "critical_temperature) stand for full training",
                Check("certified", _sep.certified, {"variant": "c_wrong", "part": "product"}),
                targets=("product_stable", "product_tc", "threshold")),
        Control("wrong_constant_symbolic", "c = 2 for full training, symbolically",
                Check("symbolic", _sep.symbolic, {"variant": "c_wrong"}),
                targets="eigenvalues"),
        Control("always_stable", "collapse is never unstable",
                Check("certified", _sep.certified, {"variant": "always_stable"}),
                targets="negative_count"),
    ),
    expected=Verdict.CERTIFIED,
)

UNCONDITIONAL = Claim(
    id="ddcl.separation.unconditional",
    title="R0, strengthened (every tau, objective L_q or F; the seed names neither): collapse is unstable "
          "for every tau (refuted)",
    source=Source(PAPER, "abstract: 'prototypes separate through the objective alone', read without "
                  "a temperature condition", "§3.3"),
    provenance=("paper", "reading"),
    strength="strengthened",
    quote=("This prevents prototype collapse (collapse) even without explicit regularization [or: "
           "'normalization']."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L20",
    statement=_st.unconditional,
    hypotheses=("K >= 2",),
    reading=("R0, the unconditional reading.  Minimal counterexample: Z = {-1, +1}, K = 2, full mode, "
             "tau = 5: the exact Hessian at collapse is [[3/5, 2/5], [2/5, 3/5]] with eigenvalues "
             "{1, 1/5} > 0, and from +-1e-3 gradient descent returns to collapse."),
    checks=(
        Check("certified", _sep.certified, {"variant": "unconditional"},
              description="exact inertia on the pinned and random instances"),
        Check("simulation", _sdyn.simulation, {"variant": "unconditional"},
              description="gradient descent from +-1e-3 at tau = 5"),
    ),
    controls=(
        Control("always_stable", "the opposite universal statement (collapse never unstable)",
                Check("certified", _sep.certified, {"variant": "always_stable"}),
                targets="negative_count"),
    ),
    expected=Verdict.REFUTED,
    condition=("tau < c * lambda_1(C), c = 4 (full) or 2 (stopgrad / free energy): "
               "ddcl.separation.critical_temperature (CERTIFIED)"),
)

# -------------------------------------------------------------------------------------------------
# §3.4 amplification (seed Theorem 2)
# -------------------------------------------------------------------------------------------------
AMPLIFICATION = Claim(
    id="ddcl.separation.amplification",
    title="Seed Thm 2 (M-cat): adding a head's channel never lowers the collapse instability",
    source=Source(PAPER, "seed Theorem 2; abstract: 'a new head increases separation'", "§3.4"),
    provenance=("seed", "paper", "derived", "reading"),
    strength="repaired",
    quote=("It was proved that growth by INCRT amplifies DDCL's prototype separation force (Theorem "
           "2)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L41",
    statement=_st.amplification,
    derivation=_st.amplification_derivation,
    hypotheses=("same K, tau and mode before and after growth", "M-cat: y_new = [y; o]"),
    reading=(
        "Seed Theorem 2 reads 'growth amplifies the separation force'.  The separation force is "
        "measured by the collapse instability (n_u, gamma_max, Phi, tau_c) of the dictionary input "
        "covariance, the only scale-free force the spec defines; the new head appends its output o "
        "(concatenation, M-cat), the seed's wording.  Then Cauchy interlacing gives monotonicity for "
        "any head; strictness needs B^T v_1 != 0, so the top residual direction matters only for "
        "strictness.  Checked exactly as #{j : lambda_j(C_new) > t} >= #{j : lambda_j(C) > t} for "
        "every t = tau/c sampled."
    ),
    checks=(
        Check("exact", _amp.amplification, {"model": "cat"}, description="exact counts on rational instances"),
        Check("float", _amp.amplification_float, role="corroborating",
              description="interlacing, gamma_max, Phi, strictness (float64)"),
        Check("dynamics", _amp.amplification_rates, role="corroborating",
              description="fitted collapse growth rates on Y and [Y, O] (1 % criterion)"),
    ),
    controls=(
        Control("strict_always", "the increase is always strict (refuted by an uncorrelated channel)",
                Check("exact", _amp.amplification, {"model": "cat", "variant": "strict"}),
                targets="strict_increase"),
        Control("rate_lambda_2pct", "the collapse growth rate is that of a 2 % larger lambda_1",
                Check("dynamics", _amp.amplification_rates, {"variant": "lambda_2pct"}),
                targets="rate_fit"),
        Control("rate_not_raised", "appending a correlated channel never raises the growth rate",
                Check("dynamics", _amp.amplification_rates, {"variant": "rate_not_raised"}),
                targets="rate_raised"),
        Control("phi_all_copies", "Phi is the collapse Hessian's unstable rates summed over all K - 1 copies "
                "of each relative mode (refuted: Phi counts each mode once)",
                Check("float", _amp.amplification_float, {"variant": "phi_all_copies"}),
                targets="Phi"),
    ),
    expected=Verdict.CERTIFIED,
)

AMPLIFICATION_ADD = Claim(
    id="ddcl.separation.amplification_additive",
    title="Strengthened Thm 2 probe: M-add with an arbitrary (non-INCRT) head output never lowers the "
          "instability (refuted)",
    source=Source(PAPER, "seed Theorem 2 with the code's combination y + o and an arbitrary head output "
                  "(not one INCRT grows)", "§3.4"),
    provenance=("seed", "companion", "derived"),
    strength="strengthened",
    quote=("It was proved that growth by INCRT amplifies DDCL's prototype separation force (Theorem "
           "2)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L41",
    statement=_st.amplification_additive,
    hypotheses=("M-add: y_new = y + o",),
    reading=("R2 without its condition.  Counterexample: the points (+-2, +-1) (C = diag(4, 1)) and "
             "o = -1/2 (e1^T y) e1, so y_new = (+-1, +-1), C_new = I; K = 3, c = 4, tau = 8: gamma_max "
             "drops from 2/3 to -1/3, the dictionary separates before growth and collapses after."),
    checks=(Check("exact", _amp.amplification, {"model": "add"}, description="exact counts, pinned case first"),),
    controls=(Control("reversed", "growth never raises the instability (M-add)",
                      Check("exact", _amp.amplification, {"model": "add", "variant": "reversed"}),
                      targets="count"),),
    expected=Verdict.REFUTED,
    condition="Cov(y, o) = 0 (B = 0): then C_new - C = D >= 0 and Weyl applies "
              "(ddcl.separation.amplification_additive_uncorrelated)",
)

AMPLIFICATION_ADD_OK = Claim(
    id="ddcl.separation.amplification_additive_uncorrelated",
    title="M-add with an uncorrelated head output: the instability never decreases",
    source=Source(PAPER, "seed Theorem 2, repaired M-add reading", "§3.4"),
    provenance=("derived",),
    strength="repaired",
    quote=("It was proved that growth by INCRT amplifies DDCL's prototype separation force (Theorem "
           "2)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L41",
    statement=_st.amplification_additive_uncorrelated,
    hypotheses=("M-add", "Cov(y, o) = 0 exactly"),
    reading="R2 with its condition: Weyl's inequality on C_new = C + D, D >= 0.",
    checks=(Check("exact", _amp.amplification, {"model": "add_uncorrelated"},
                  description="exact counts; o decorrelated from y exactly"),),
    controls=(Control("correlated", "the same statement with correlated outputs",
                      Check("exact", _amp.amplification, {"model": "add"}),
                      targets="count"),),
    expected=Verdict.CERTIFIED,
)

AMPLIFICATION_INCRT = Claim(
    id="ddcl.separation.amplification_incrt",
    title="Seed Thm 2 as stated, with INCRT's own head (top residual eigenvector): every birth amplifies "
          "the separation force (refuted: kept, not amplified)",
    source=Source(PAPER, "seed Theorem 2 and §2.3 items 1-2 (the head INCRT grows)", "§2.4, §3.4"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("It was proved that growth by INCRT amplifies DDCL's prototype separation force (Theorem "
           "2)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L41",
    statement=_st.amplification_incrt,
    hypotheses=("C = G the dictionary input's covariance (zero-mean tokens)", "the new head's channel "
                "u^T y is appended (M-cat: 'expanding the space', seed L32)",
                "same K, tau and mode before and after the birth"),
    reading=(
        "The objects are the ones INCRT's own rule produces (seed L25-26, L32): growth fires iff "
        "lambda_max(A_res) > theta, the head is the top eigenvector u of A_res (incrt.growth_signal, "
        "incrt.greedy_growth(max_heads=1)), its channel u^T y widens the dictionary input; 'amplified' is "
        "read as a strict increase of the collapse instability (n_u, gamma_max, Phi: spec §2.5).  Exact "
        "counterexample: C = G = diag(10, 6/5, 4/5), M_a = e2 e3^T - e3 e2^T (S has eigenvalues "
        "+-1/5, 0; growth fires at theta = 1/10 along u = (e2 + e3)/sqrt 2), K = 2, c = 4, tau = 20: "
        "C_new has nonzero spectrum {10, 3/2 + sqrt(33/100), 3/2 - sqrt(33/100)} = {10, 2.0745, 0.9255}, "
        "so lambda_1 = 10, n_u = 1, gamma_max = 1, Phi = 1 before and after: kept, not amplified.  The "
        "head's direction carries variance u^T C u = 1 < tau/c = 5 and misses v_1.  On random rational "
        "instances the birth raises lambda_1 generically, so the refutation is of the unconditional "
        "'every birth amplifies'; the verdict concerns this reading (only the abstract is available: the "
        "paper's theorem may carry a condition the abstract omits)."
    ),
    checks=(Check("exact", _fai.incrt_amplification, {"variant": "strict"},
                  description="exact pencil/Descartes counts on the pinned case (product's birth matched to "
                              "(e2 + e3)/sqrt 2 within 100x the eigh budget)"),),
    controls=(Control("never_raised", "an INCRT birth never raises the force (refuted: C = diag(2, 1), "
                      "u = (e1 + e2)/sqrt 2 raises lambda_1)",
                      Check("exact", _fai.incrt_amplification, {"variant": "never_raised"}),
                      targets="amplification"),),
    expected=Verdict.REFUTED,
    condition=("non-strict: an INCRT birth never lowers the force (ddcl.separation.amplification_incrt_weak); "
               "strict exactly when the birth raises lambda_1(C_new) above lambda_1(C) or adds a mode above "
               "tau/c (generic: every random instance sampled)"),
)

AMPLIFICATION_INCRT_WEAK = Claim(
    id="ddcl.separation.amplification_incrt_weak",
    title="Seed Thm 2 repaired: a head INCRT grows never lowers the collapse instability",
    source=Source(PAPER, "seed Theorem 2, 'amplifies' weakened to 'never lowers'", "§2.4, §3.4"),
    provenance=("seed", "derived", "reading"),
    strength="repaired",
    quote=("It was proved that growth by INCRT amplifies DDCL's prototype separation force (Theorem "
           "2)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L41",
    statement=_st.amplification_incrt_weak,
    hypotheses=("as ddcl.separation.amplification_incrt",),
    reading=("The strict reading fails (ddcl.separation.amplification_incrt); 'never lowered' holds for "
             "INCRT's heads by Cauchy interlacing.  Checked exactly on the pinned cases and on random rational "
             "tokens with integer M_a, using the float direction greedy_growth returns read as the dyadic "
             "rational it is; the product's birth (count, eigenvector residual, top eigenvalue) and "
             "hessian.unstable_count/gamma_max are compared with exact computations (float64: CONSISTENT)."),
    checks=(Check("exact", _fai.incrt_amplification, {"variant": "weak"},
                  description="exact counts and lambda_1 order (Descartes) for INCRT births"),),
    controls=(Control("strict", "every INCRT birth strictly raises the force (the as-stated reading)",
                      Check("exact", _fai.incrt_amplification, {"variant": "strict"}),
                      targets="amplification"),),
    expected=Verdict.CONSISTENT,
)

OBJECTIVE_ALONE = Claim(
    id="ddcl.separation.objective_alone",
    title="Seed §2.1 as stated, 'collapse is prevented without explicit regularisation': undetermined "
          "(candidate readings disagree)",
    source=Source(PAPER, "seed §2.1; abstract: 'prototypes separate through the objective alone'", "§3.3"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("This prevents prototype collapse (collapse) even without explicit regularization [or: "
           "'normalization']."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L20",
    statement=_st.objective_alone,
    hypotheses=("the seed names neither the objective's sign convention nor a temperature regime",),
    reading=("The sources do not pin the reading down: whether a temperature condition is part of the "
             "statement is not said.  Candidates: ddcl.separation.critical_temperature (repaired: unstable iff "
             "tau < c lambda_1; CERTIFIED) and ddcl.separation.unconditional (strengthened: for every tau; "
             "REFUTED at Z = {-1, 1}, K = 2, full, tau = 5).  The check runs both candidates' decisive checks "
             "(at the run's profile capped at ci: their thorough sweeps are their own claims') "
             "and returns UNKNOWN with their verdicts in details; it would return their common verdict if "
             "they agreed."),
    checks=(Check("candidates", _fai.undetermined, {"which": "objective_alone"},
                  description="the candidates' decisive checks (same functions and arguments)"),),
    controls=(Control("determined", "the reading is determined: all candidate readings agree",
                      Check("candidates", _fai.undetermined, {"which": "objective_alone",
                                                               "variant": "determined"},
                            seed_of="candidates"),
                      targets="candidates_agree"),),
    expected=Verdict.UNKNOWN,
)
