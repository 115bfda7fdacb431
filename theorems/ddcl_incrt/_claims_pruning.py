"""Claims of seed Theorem 6 (pruning safety) of arXiv:2604.01880 (spec §3.7)."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_pruning as _pru
from . import _statements_pruning as _sp

PAPER = "2604.01880"



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
    statement=_sp.safety_statement,
    derivation=_sp.safety_derivation,
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
    statement=_sp.force_kept_statement,
    hypotheses=("shared dictionary, M-cat",),
    reading=("Exact counterexample: C_full = [[1, 1/10], [1/10, 1/50]], K = 2, c = 4, tau = 201/50: "
             "before pruning c lambda_1/tau = 4 (51 + sqrt 2501)/100 / (201/50) > 1 (since sqrt 2501 > 49.5), "
             "after pruning c lambda_1/tau = 200/201 < 1: the dictionary separates before and collapses after."),
    checks=(Check("exact", _pru.force_kept, description="exact counts (Descartes), pinned case first"),),
    controls=(Control("unchanged", "pruning leaves lambda_1 of the dictionary input unchanged (so the "
                      "force cannot drop)", Check("exact", _pru.force_kept, {"variant": "unchanged"}),
                      targets="lambda_1"),),
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
    statement=_sp.margin_statement,
    hypotheses=("shared dictionary, M-cat",),
    reading="HOLDS-IF the margin exceeds the R2 bound; certified with arb enclosures and exact counts.",
    checks=(Check("certified", _pru.force_kept, {"with_margin": True}, description="arb margin test + exact counts"),),
    controls=(Control("bound_halved", "the same with half of R2's bound (refuted at C_full = [[1,2],[2,4]], tau = 6)",
                      Check("certified", _pru.force_kept, {"with_margin": True, "variant": "bound_halved"}),
                      targets="margin_count"),),
    expected=Verdict.CERTIFIED,
)

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
    statement=_sp.per_head_statement,
    hypotheses=("each head has its own dictionary on its own channel (seed L46, L55: a head's prototypes)",
                "immediately after the removal (the encoder is not retrained)"),
    reading=("The seed's object is 'the prototypes of the remaining heads', i.e. per-head dictionaries "
             "(spec §3.5 model).  Removing a head cannot touch another head's data, prototypes, tau or "
             "collapse instability, so they 'do not collapse' and the force is 'maintained' (never "
             "'increases').  Checked bitwise in float64 on the product's per-head model (learnable "
             "temperatures, simulate_heads) with each head pruned in turn "
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
