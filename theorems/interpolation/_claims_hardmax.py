"""Claims on Theorem H (hardmax): exactness (§4.1), blocks (§4.2), parameters (§4.3) and length independence (§4.6).

Each claim lists its statement, hypotheses, the reading chosen, its checks and its negative controls.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_counts as _ct
from . import _checks_exact as _ex
from . import _statements_hardmax as _st
from ._claims_common import HYP, PAPER

HARDMAX_EXACT = Claim(
    id="interp.hardmax.exact",
    title="Theorem H (exactness): the hardmax construction maps every X^j exactly onto the target set Y^j",
    source=Source(PAPER, "Theorem 1.6 (seed numbering), exactness part", "§4.1, construction §3.2-3.4"),
    provenance=("seed", "paper", "reading"),
    strength="as-stated",
    quote="Such a Transformer satisfies $T_0(X_j) = Y_j$ for all $j$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L75",
    statement=_st.hardmax_exact_statement,
    hypotheses=HYP,
    reading=("Tie-averaging hardmax, set comparison (order and multiplicities ignored), the toolkit's own "
             "construction (separation, leader placement, collapse, hat moves); every post-condition "
             "asserted by running the emitted weights in exact rationals."),
    checks=(
        Check("exact", _ex.hardmax_exact,
              description="fmpq: post-conditions, final set equality, Fraction reference evaluator, invalid kinds rejected"),
        Check("exact_mean_separation", _ex.hardmax_exact, {"separation": "mean"},
              description="the same with the one-block mean separation (spec §3.2.10)"),
        Check("exact_rank2_collapse", _ex.hardmax_exact, {"collapse": "rank2"},
              description="the same with the rank-2 collapse A = e1e1^T + e2e2^T (kappa = 4d)"),
        Check("torch_float64", _ex.hardmax_torch, role="corroborating",
              description="whole torch export within a derived forward-error budget of the targets (unit "
                          "roundoff x operations x magnitudes x Lipschitz along the exact trajectory, safety "
                          "8 x 4, recorded) where the gadget margin >= 1e-3"),
        Check("torch_blockwise", _ex.torch_blockwise, role="corroborating",
              description="torch export block by block (factor scores, collapse, line map, snaps, random nets) "
                          "within a derived float64 budget"),
    ),
    controls=(
        Control("perturbed_move", "+1/1000 on one coordinate of one move's D",
                Check("exact", _ex.hardmax_exact, {"variant": "perturb_move"}),
                targets=("construction", "outputs")),
        Control("no_separation", "no Stage S on the nested chain (shared token 0 moves in every sequence)",
                Check("exact", _ex.hardmax_exact, {"variant": "skip_separation"}),
                targets=("construction", "outputs")),
        Control("no_collapse", "collapse S2 replaced by S0 on the nested chain (non-leaders stay in the box)",
                Check("exact", _ex.hardmax_exact, {"variant": "no_collapse"}),
                targets=("construction", "outputs")),
        Control("transposed_export", "the factors exported as (q, p): A^T in torch; off by far more than the budget",
                Check("torch_blockwise", _ex.torch_blockwise, {"variant": "transpose_factors"}),
                targets="block_error"),
        Control("perturbed_export", "the exported FF matrices W scaled by 1 + 1e-9: off the targets by more than the budget",
                Check("torch_float64", _ex.hardmax_torch, {"variant": "perturbed_export"}),
                targets="export_error"),
    ),
    expected=Verdict.CERTIFIED,
)

HARDMAX_BLOCKS = Claim(
    id="interp.hardmax.blocks",
    title="Theorem H (depth): L_H <= 2M + 2N + 1 blocks of width <= 4; identity padding reaches equality",
    source=Source(PAPER, "Theorem 1.6 (seed numbering), block count", "§4.2, §3.6"),
    provenance=("seed", "reading", "derived"),
    strength="as-stated",
    quote=r"Number of blocks $L = 2 \sum_{j=1}^N m_j + 2N + 1$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L73",
    statement=_st.block_statement,
    derivation=_st.block_derivation,
    hypotheses=HYP,
    reading=("The seed's '=' is met exactly: the construction has L_H = R + 2M with R <= N - 1, so "
             "L_H <= 2M + 2N + 1, and inserting identity blocks (which change no output) reaches "
             "L = 2M + 2N + 1 exactly."),
    checks=(
        Check("symbolic", _ct.block_formulas_symbolic, description="sympy: count identities and inequalities"),
        Check("instances", _ct.hardmax_blocks, description="exact counts, widths, padding at random positions"),
    ),
    controls=(
        Control("two_M", "L <= 2M: refuted whenever N >= 2 (then R >= 1)",
                Check("instances", _ct.hardmax_blocks, {"bound": "2M"}),
                targets="block_bound"),
        Control("nonzero_padding", "a 'padding' block with W != 0 changes the outputs",
                Check("instances", _ct.hardmax_blocks, {"pad": "nonzero_W"}),
                targets="padding"),
    ),
    expected=Verdict.CERTIFIED,
)

HARDMAX_PARAMS = Claim(
    id="interp.hardmax.params",
    title="Theorem H (size): P_H <= (N-1)(10d+7) + M(12d+12) + 2d + 1 + kappa <= (22d+19)M = O(dM)",
    source=Source(PAPER, "abstract: O(d sum_j m^j) parameters; Theorem 1.6 (seed)", "§4.3, §2.5, §3.6"),
    provenance=("paper", "derived", "reading"),
    strength="as-stated",
    quote=r"Number of parameters $P = O(d \sum_{j=1}^N m_j)$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L74",
    statement=_st.params_statement,
    derivation=_st.params_derivation,
    hypotheses=HYP,
    reading=("Counting convention of spec §2.5 (declared structure: FF 1 + d'(2d+1), SA 2 + [alpha] + 2rd). "
             "O(dM) means P <= C(d) M with C(d) = 22d + 19, free of the input lengths n_j."),
    checks=(
        Check("symbolic", _ct.params_symbolic, description="sympy: the closed-form bound for d >= 2, kappa in {1, 4d}"),
        Check("instances", _ct.hardmax_params, description="P equals the §3.6 formula; family N=1, m=n=k"),
        Check("instances_rank2", _ct.hardmax_params, {"collapse": "rank2"},
              description="the same with the rank-2 collapse (kappa = 4d)"),
        Check("instances_mean_separation", _ct.hardmax_params, {"separation": "auto"},
              description="P equals the formula with the one-block mean separation (8d+7); >= 1 instance uses it"),
        Check("sharpness", _ct.params_sharpness,
              description="two-sided: sympy lim P/((22d+19)M) = 1; witness chain N = 1..K has a constant gap"),
        Check("padded", _ct.padded_params,
              description="two-sided: built networks padded to 2M+2N+1 blocks have P_pad <= (22d+28)M; the "
                          "witness chain's padded slope is >= 9/10 of it (22d+22, recorded)"),
    ),
    controls=(
        Control("o_dN", "P = O(dN): on N = 1, m_1 = n_1 = k, P/(dN) grows without bound",
                Check("instances", _ct.hardmax_params, {"variant": "per_N"}),
                targets="per_N_growth"),
        Control("dense_V", "dense-V counting (d^2 per V): P/(dM) exceeds 22 + 19/d along d = 2..10",
                Check("instances", _ct.hardmax_params, {"variant": "dense_V"}),
                targets="dM_bound"),
        Control("mean_as_bondy", "the mean separation block costed as a Bondy round R(10d+7), not 8d+7",
                Check("instances_mean_separation", _ct.hardmax_params,
                      {"separation": "auto", "variant": "mean_as_bondy"}),
                      targets="formula"),
        Control("loose_constant", "(22d+20)M is as sharp as (22d+19)M: the witness gap grows with M",
                Check("sharpness", _ct.params_sharpness, {"constant_shift": 1}),
                targets=("limit", "gap")),
        Control("padding_free", "identity padding is free: (22d+19)M bounds the padded count (chain, M = 6, d = 2)",
                Check("padded", _ct.padded_params, {"constant": "unpadded"}),
                targets="upper_bound"),
        Control("padded_loose", "(32d+28)M approached by the witness: its padded slope is 66 < 9/10 * 92 at d = 2",
                Check("padded", _ct.padded_params, {"constant": "loose"}),
                targets="approach"),
    ),
    expected=Verdict.CERTIFIED,
)

LENGTH_INDEPENDENCE = Claim(
    id="interp.length_independence",
    title="Block and parameter counts do not change when the input sequences get longer",
    source=Source(PAPER, "abstract: bounds independent of the input lengths", "§4.6"),
    provenance=("paper", "seed", "reading"),
    strength="as-stated",
    quote=("The key finding is that the required Transformer size depends only on the **total output "
           r"length ($\sum m_j$)** and the embedding dimension $d$, and does not depend on the input "
           "sequence length ($n_j$)."),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L52",
    statement=_st.length_statement,
    hypotheses=HYP + ("fresh tokens absent from D; targets unchanged; leaders are the first m_j tokens",),
    reading="E(D) is reused for D+ (fresh tokens do not change traces on E); parameter values do depend on the data.",
    checks=(
        Check("instances", _ct.length_independence,
              description="exact (L, P) for k_j in [0, 20] fresh tokens and n_j scaled by 1, 2, 5, 10 (E reused)"),
        Check("length_profile", _ct.length_profile,
              description="built end to end (E recomputed) for n_j + k, k = 0..K, hardmax and softmax: sympy "
                          "interpolates the observed L, count_parameters and width in n = sum n_j; slope 0"),
    ),
    controls=(
        Control("naive_builder", "the construction with every input token a leader (m_j = n_j): L = R + 2 sum_j n_j",
                Check("instances", _ct.length_independence, {"builder": "naive"}),
                targets="counts_unchanged"),
        Control("naive_profile", "the m_j = n_j construction's counts claimed length-free: sympy finds L(n) = 2n",
                Check("length_profile", _ct.length_profile, {"builder": "naive"}),
                targets="length_slope"),
    ),
    expected=Verdict.CERTIFIED,
)
