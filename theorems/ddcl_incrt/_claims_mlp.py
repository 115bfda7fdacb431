"""Claims on directional information (spec §3.6, seed Theorem 4): an adaptive rank-m basis against a
fixed random one, in expectation (R1), after training (R2, MEASURED) and as stated (undetermined)."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_faithful as _fai
from . import _checks_mlp as _mlp
from . import _statements_mlp as _st
from ._claims_common import PAPER

# -------------------------------------------------------------------------------------------------
# §3.6 MLP vs dictionary (seed Theorem 4)
# -------------------------------------------------------------------------------------------------
MLP = Claim(
    id="ddcl.mlp_vs_dictionary",
    title="Seed Thm 4, R1: a random rank-m basis keeps m/d of the variance on average; the best keeps Ky Fan >= m/d",
    source=Source(PAPER, "seed Theorem 4: the adaptive dictionary loses less directional information "
                  "than a fixed random MLP", "§3.6"),
    provenance=("seed", "derived", "reading"),
    strength="repaired",
    quote=("Whereas the standard MLP block loses directional information randomly, DDCL-INCRT uses an "
           "adaptive basis to strictly [or: 'rigorously'] reduce the loss of directional information "
           "(Theorem 4)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L43",
    statement=_st.mlp_vs_dictionary,
    derivation=_st.mlp_vs_dictionary_derivation,
    hypotheses=("0 < m < d", "W with i.i.d. Gaussian entries (rotation invariant)", "C of centred data"),
    reading=(
        "Seed Theorem 4 compares bases of equal rank m by their directional information "
        "DI(B; C) = tr(B^T C B)/tr C, the fraction of the attention output's variance a linear "
        "rank-m map keeps: a fixed random MLP keeps m/d in expectation, an adaptive basis can keep the "
        "Ky Fan maximum.  'Strictly less loss' holds iff C is anisotropic; no single-draw guarantee "
        "exists.  This is the only falsifiable reading available without the paper's nonlinear "
        "setting; for m >= d it is vacuous."
    ),
    checks=(Check("expectation", _mlp.expectation,
                  description="the statement: exact Ky Fan on rational spectra, Monte Carlo mean, Ky Fan witness (d = 2 integral: the derivation)"),),
    controls=(Control("isotropic_strict", "the Ky Fan gap is strict for every C (refuted by C = I)",
                      Check("expectation", _mlp.expectation, {"variant": "isotropic_strict"}),
                      targets="ky_fan"),
              Control("random_as_best", "a random rank-m basis keeps the Ky Fan value on average",
                      Check("expectation", _mlp.expectation, {"variant": "random_as_best"}),
                      targets="mc_mean"),
              Control("best_is_m_over_d", "no rank-m basis keeps more than m/d",
                      Check("expectation", _mlp.expectation, {"variant": "best_is_m_over_d"}),
                      targets="ky_fan_witness"),),
    expected=Verdict.CONSISTENT,
)

MLP_TRAINED = Claim(
    id="ddcl.mlp_vs_dictionary.trained",
    title="Seed Thm 4, R2 (MEASURED): a trained non-collapsed dictionary beats m/d; a collapsed one keeps 0",
    source=Source(PAPER, "seed Theorem 4, trained-dictionary reading", "§3.6"),
    provenance=("seed", "reading"),
    strength="repaired",
    quote=("Whereas the standard MLP block loses directional information randomly, DDCL-INCRT uses an "
           "adaptive basis to strictly [or: 'rigorously'] reduce the loss of directional information "
           "(Theorem 4)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L43",
    statement=_st.trained,
    hypotheses=("d = 8, spectrum (4, 2, 1, 0.5, 0.25, 0.1, 0.1, 0.1) rotated, K = 4, eta = 0.05",),
    reading=("R2 HOLDS-IF the dictionary is not collapsed (tau below tau_c of the retained directions); "
             "pass criteria fixed in advance (>= 9 of 10 seeds; quick: 2 of 2)."),
    checks=(Check("training", _mlp.trained, description="both modes, seeds, collapse control at 1.2 tau_c"),),
    controls=(Control("collapsed_keeps", "a collapsed dictionary keeps >= (K-1)/d",
                      Check("training", _mlp.trained, {"variant": "collapsed_keeps"}),
                      targets="collapsed_DI"),),
    expected=Verdict.CONSISTENT,
)

MLP_AS_STATED = Claim(
    id="ddcl.mlp_vs_dictionary.as_stated",
    title="Seed Thm 4 as stated, 'strictly reduce the loss of directional information': undetermined "
          "(candidate readings disagree)",
    source=Source(PAPER, "seed Theorem 4", "§3.6"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("Whereas the standard MLP block loses directional information randomly, DDCL-INCRT uses an "
           "adaptive basis to strictly [or: 'rigorously'] reduce the loss of directional information "
           "(Theorem 4)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L43",
    statement=_st.mlp_as_stated,
    hypotheses=("'directional information' and the conditions (anisotropy, MLP rank) are not defined in "
                "the sources",),
    reading=("'Directional information' is not defined in the sources (DI = tr(B^T C B)/tr C is the "
             "toolkit's), nor are the conditions, and the translation leaves 'strictly' vs 'rigorously' "
             "open.  Candidates: ddcl.mlp_vs_dictionary (repaired R1: E_W DI = m/d, Ky Fan >= m/d, strict iff "
             "anisotropic; CONSISTENT) and the literal 'strictly, for every C' (REFUTED by C = I, where every "
             "rank-m basis keeps m/d: the control isotropic_strict of R1).  UNKNOWN with both verdicts in "
             "details (candidates run at the run's profile capped at ci)."),
    checks=(Check("candidates", _fai.undetermined, {"which": "mlp"},
                  description="the candidates' decisive checks (same functions and arguments)"),),
    controls=(Control("determined", "the reading is determined: all candidate readings agree",
                      Check("candidates", _fai.undetermined, {"which": "mlp", "variant": "determined"},
                            seed_of="candidates"),
                      targets="candidates_agree"),),
    expected=Verdict.UNKNOWN,
)
