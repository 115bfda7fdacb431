"""Claims of arXiv:2502.02270, "Exact Sequence Interpolation with Transformers" (spec: interpolation.md).

Each claim lists its statement, hypotheses, the reading chosen, its checks and its negative controls.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_certificate as _cw
from . import _checks_counts as _ct
from . import _checks_exact as _ex
from . import _checks_faithful as _ff
from . import _checks_lemmas as _lm
from . import _checks_necessary as _nc
from . import _checks_softmax as _sm
from . import _checks_softmax_sharp as _sh
from . import _checks_tikhonov as _tk

PAPER = "2502.02270"


def _softmax_statement():
    import sympy as sp

    from .softmax_limit import deviation_bound

    n, c = sp.symbols("n c", positive=True, integer=True)
    D, gap, tau = sp.symbols("D Delta tau", positive=True)
    dev = sp.Symbol(r"\left|\sum_l \pi_l x_l - \bar{x}_C\right|", nonnegative=True)
    return sp.Le(dev, deviation_bound(n, c, D, gap, tau, exp=sp.exp))


def _softmax_derivation():
    import sympy as sp

    W, w3, x1, x2, x3, t, gap = sp.symbols("W w_3 x_1 x_2 x_3 t Delta", positive=True)
    Z = 2 * W + w3
    lhs = (W * x1 + W * x2 + w3 * x3) / Z - (x1 + x2) / 2
    rhs = w3 / Z * (x3 - (x1 + x2) / 2)
    lim_expr = sp.exp(gap * t) * (x3 - (x1 + x2) / 2) * sp.exp(-gap * t) / (2 + sp.exp(-gap * t))
    return (
        ("weights on the maximiser set C are equal (pi_l = W/Z for l in C); n = 3, C = {1, 2}:",
         sp.Eq(sp.Symbol("out - x̄_C"), lhs)),
        ("subtracting sum_l pi_l xbar_C (the weights sum to 1) leaves only keys outside C:",
         sp.Eq(sp.Symbol("(out - x̄_C) - Σ_{l∉C} π_l (x_l - x̄_C)"),
               sp.simplify(lhs - rhs), evaluate=False)),
        ("each pi_l, l not in C, is at most exp(-Delta/tau)/c, and |x_l - xbar_C| <= D:",
         sp.Le(sp.Symbol("|out - x̄_C|"), sp.Symbol("(n-c)/c") * sp.Symbol("D") * sp.exp(-gap * t))),
        ("sharp rate (t = 1/tau -> oo): exp(Delta t)(out - xbar_C) ->",
         sp.Eq(sp.Limit(sp.simplify(lim_expr), t, sp.oo), sp.limit(sp.simplify(lim_expr), t, sp.oo))),
    )


SOFTMAX_TO_HARDMAX = Claim(
    id="interp.softmax_to_hardmax",
    title="Softmax attention converges to tie-averaging hardmax at rate exp(-gap/tau)",
    source=Source(PAPER, "softmax-to-hardmax limit behind Theorem S (1.8 in the seed)", "§4.10"),
    provenance=("derived", "reading"),
    strength="derived",
    quote=r"hardmax (hardmax) (the softmax limit as the temperature $\tau \to 0$)",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L15",
    statement=_softmax_statement,
    derivation=_softmax_derivation,
    hypotheses=(
        "one attention row: scores s_1..s_n (rational), values x_1..x_n in Q^d",
        "C = argmax set, c = |C| < n, gap Delta = max s - max_{l not in C} s_l > 0, tau > 0",
    ),
    reading=(
        "The deviation of the softmax average from the mean of ALL maximisers (ties averaged) is at "
        "most ((n-c)/c) D exp(-Delta/tau) for every tau > 0; hence softmax -> tie-averaging hardmax "
        "as tau -> 0, at the sharp rate exp(-Delta/tau)."
    ),
    checks=(
        Check("symbolic", _sm.symbolic_identity_and_limit,
              description="sympy: identity for n <= 4, every c; sharp limit on small rows"),
        Check("certified_bound", _sm.certified_bound,
              description="arb balls, adaptive precision, tau in [1e-3, 10]; hypothesis rows with ties"),
        Check("mp_bound", _sm.mp_bound, role="corroborating",
              description="mpmath at the profile's dps for tau down to 1e-6"),
        Check("torch_agreement", _sm.torch_agreement, role="corroborating",
              description="torch.softmax (float64) against the mpmath kernel"),
        Check("witness_sharpness", _sh.witness_sharpness,
              description="two-sided: witness rows approach the bound (sympy limit 1; arb enclosure per tau)"),
    ),
    controls=(
        Control("doubled_exponent",
                "the same bound with exp(-2 Delta/tau): refuted e.g. at n = 2, x = (0, 1), scores (Delta, 0)",
                Check("certified_bound", _sm.certified_bound, {"exponent_factor": 2}),
                targets="bound"),
        Control("first_maximiser",
                "ties go to the first maximiser instead of averaging: refuted by any tie of distinct values",
                Check("certified_bound", _sm.certified_bound, {"limit_point": "first"}),
                targets="bound"),
        Control("doubled_exponent_limit",
                "the sharp limit with exp(2 Delta/tau) scaling: sympy finds a different (infinite) limit",
                Check("symbolic", _sm.symbolic_identity_and_limit, {"exponent_factor": 2}),
                targets="sharp_limit"),
        Control("half_rate_sharp",
                "the slower rate exp(-Delta/(2 tau)) claimed sharp: on the witness rows deviation/bound -> 0",
                Check("witness_sharpness", _sh.witness_sharpness, {"exponent_factor": "1/2"}),
                targets=("sharp_limit", "two_sided")),
    ),
    expected=Verdict.CERTIFIED,
)


HYP = ("A1 tokens inside each X^j pairwise distinct", "A2 the X^j pairwise distinct as sets",
       "A3 targets inside each Y^j pairwise distinct", "A4 1 <= m_j <= n_j", "d >= 2, finite rational tokens")


def _hardmax_exact_statement():
    import sympy as sp

    j = sp.Symbol("j", integer=True, positive=True)
    return sp.Eq(sp.Function("set")(sp.Function("T_0")(sp.Symbol("X^j"))), sp.Function("set")(sp.Symbol("Y^j")))


HARDMAX_EXACT = Claim(
    id="interp.hardmax.exact",
    title="Theorem H (exactness): the hardmax construction maps every X^j exactly onto the target set Y^j",
    source=Source(PAPER, "Theorem 1.6 (seed numbering), exactness part", "§4.1, construction §3.2-3.4"),
    provenance=("seed", "paper", "reading"),
    strength="as-stated",
    quote="Such a Transformer satisfies $T_0(X_j) = Y_j$ for all $j$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L75",
    statement=_hardmax_exact_statement,
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


def _block_statement():
    import sympy as sp

    M, N, L = sp.symbols("M N L_H", positive=True, integer=True)
    return sp.Le(L, 2 * M + 2 * N + 1)


HARDMAX_BLOCKS = Claim(
    id="interp.hardmax.blocks",
    title="Theorem H (depth): L_H <= 2M + 2N + 1 blocks of width <= 4; identity padding reaches equality",
    source=Source(PAPER, "Theorem 1.6 (seed numbering), block count", "§4.2, §3.6"),
    provenance=("seed", "reading", "derived"),
    strength="as-stated",
    quote=r"Number of blocks $L = 2 \sum_{j=1}^N m_j + 2N + 1$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L73",
    statement=_block_statement,
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


def _params_statement():
    import sympy as sp

    from .construction import parameter_formula

    N, M, d, kappa, P = sp.symbols("N M d kappa P_H", positive=True, integer=True)
    return sp.Le(P, parameter_formula(N - 1, M, d, "hardmax", kappa))


HARDMAX_PARAMS = Claim(
    id="interp.hardmax.params",
    title="Theorem H (size): P_H <= (N-1)(10d+7) + M(12d+12) + 2d + 1 + kappa <= (22d+19)M = O(dM)",
    source=Source(PAPER, "abstract: O(d sum_j m^j) parameters; Theorem 1.6 (seed)", "§4.3, §2.5, §3.6"),
    provenance=("paper", "derived", "reading"),
    strength="as-stated",
    quote=r"Number of parameters $P = O(d \sum_{j=1}^N m_j)$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L74",
    statement=_params_statement,
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


def _softmax_exact_statement():
    return ("exists tau* > 0 and ONE set of weights theta with set(T_{theta,tau}(X^j)) = set(Y^j) "
            "for all j and all 0 < tau < tau*; certified lower bound tau_c <= tau*")


SOFTMAX_EXACT = Claim(
    id="interp.softmax.exact",
    title="Theorem S (exactness): one fixed set of softmax weights interpolates exactly for every tau < tau*",
    source=Source(PAPER, "Theorem 1.8 (seed numbering), exactness part", "§4.4, §3.5"),
    provenance=("seed", "paper", "reading", "derived"),
    strength="strengthened",
    quote=(r"there exists a temperature $\tau^* > 0$ such that, for all $0 < \tau < \tau^*$, there "
           "exists a softmax Transformer"),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L79",
    statement=_softmax_exact_statement,
    hypotheses=HYP + ("tie-free S1 rows (ensured by the builder)",),
    reading=("Fixed weights for every tau (the builder takes no tau). tau_c is a rigorous lower bound "
             "of tau*, computed by a recursion on the distance to the exact hardmax trajectory and "
             "certified in arb; below it the line map puts every token within gamma of its slot "
             "coordinate and the snap moves send it exactly to its target."),
    checks=(
        Check("certificate", _ex.softmax_certificate, description="arb: certified tau_c > 0 per instance"),
        Check("grid", _ex.softmax_grid, role="corroborating",
              description="mpmath dps 50 and 100: exact on the grid 10^(k/2) <= tau_c, tau*_grid recorded"),
        Check("certificate_witness", _cw.certificate_witness, role="corroborating",
              description="witness networks where the recursion is tight: exact at tau_c, not at 2 tau_c"),
    ),
    controls=(
        Control("tau_infinity", "tau* = infinity: at tau = 10^3 max|sc| near-uniform attention merges the leaders",
                Check("grid", _ex.softmax_grid, {"variant": "tau_infinity"}),
                targets="variant_exactness"),
        Control("hardmax_network", "the hardmax network (hat moves, no line map) evaluated with softmax at tau*_grid",
                Check("grid", _ex.softmax_grid, {"variant": "hardmax_network"}),
                targets="variant_exactness"),
        Control("residual_line_map", "the line map with eta = 1 instead of 0, at tau*_grid",
                Check("grid", _ex.softmax_grid, {"variant": "line_map_residual"}),
                targets="variant_exactness"),
        Control("merged_targets", "a snap move re-aimed at another target of its sequence: outputs on targets, a target missed",
                Check("grid", _ex.softmax_grid, {"variant": "merged_targets"}),
                targets="variant_exactness"),
        Control("tiny_offset", "a snap target moved by 1e-20 still counts as exact (precision 50 must see it)",
                Check("grid", _ex.softmax_grid, {"variant": "tiny_offset"}),
                targets="variant_exactness"),
        Control("gamma_doubled", "the line map declared to accept 2 gamma: tau_c exceeds the witness's true tau*",
                Check("certificate_witness", _cw.certificate_witness, {"variant": "gamma_doubled"}),
                targets="soundness"),
    ),
    expected=Verdict.CERTIFIED,
)


def _softmax_blocks_statement():
    import sympy as sp

    M, N, L = sp.symbols("M N L_S", positive=True, integer=True)
    return sp.Le(L, 2 * M + 3 * N)


SOFTMAX_BLOCKS = Claim(
    id="interp.softmax.blocks",
    title="Theorem S (depth/size): L_S <= 2M + 3N, width <= 4, P_S <= (24d+20)M, padded <= (24d+29)M; padding changes nothing",
    source=Source(PAPER, "Theorem 1.8 (seed numbering), block count", "§4.5, §3.6"),
    provenance=("seed", "reading", "derived"),
    strength="as-stated",
    quote=r"Number of blocks $L = 2 \sum_{j=1}^N m_j + 3N$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L82",
    statement=_softmax_blocks_statement,
    hypotheses=HYP,
    reading="Upper bound, equality after identity padding (identical mpmath outputs at every tau).",
    checks=(
        Check("symbolic", _ct.block_formulas_symbolic, description="sympy: R + 2M + 1 <= 2M + N <= 2M + 3N"),
        Check("instances", _ct.softmax_blocks, description="exact counts; padding compared in mpmath at two tau"),
        Check("sharpness", _ct.params_sharpness, {"attention": "softmax"},
              description="two-sided: sympy lim P_S/((24d+20)M) = 1; witness chain N = 1..K has a constant gap"),
        Check("padded", _ct.padded_params, {"attention": "softmax"},
              description="two-sided: built networks padded to 2M+3N blocks have P_pad <= (24d+29)M; the "
                          "witness chain's padded slope is >= 9/10 of it (24d+26, recorded)"),
    ),
    controls=(
        Control("two_M", "L <= 2M: refuted on every instance (L_S >= 2M + 1)",
                Check("instances", _ct.softmax_blocks, {"bound": "2M"}),
                targets="block_bound"),
        Control("loose_constant", "(24d+21)M is as sharp as (24d+20)M: the witness gap grows with M",
                Check("sharpness", _ct.params_sharpness, {"attention": "softmax", "constant_shift": 1}),
                targets=("limit", "gap")),
        Control("padding_free", "identity padding is free: (24d+20)M bounds the padded count (chain, M = 3, d = 2)",
                Check("padded", _ct.padded_params, {"attention": "softmax", "constant": "unpadded"}),
                targets="upper_bound"),
        Control("padded_loose", "(34d+29)M approached by the witness: its padded slope is 74 < 9/10 * 97 at d = 2",
                Check("padded", _ct.padded_params, {"attention": "softmax", "constant": "loose"}),
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
    statement="L(D+) = L(D) and P(D+) = P(D) for D+ = D with fresh tokens appended to each X^j",
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

RANK_ONE_COLLAPSE = Claim(
    id="interp.lemma.rank_one_collapse",
    title="Lemma 4.1 (reading): rank-one hardmax attention sends each token to an extreme or the mean",
    source=Source(PAPER, "Lemma 4.1 (figure 4a label)", "§4.7"),
    provenance=("paper", "reading"),
    strength="derived",
    statement=("A = v v^T, rho = 0, V = I: x_i -> mean argmax_l v.x_l if v.x_i > 0; mean argmin if "
               "v.x_i < 0; the sequence mean if v.x_i = 0"),
    hypotheses=("hardmax with tie-averaging", "any finite list of rational tokens, v != 0"),
    reading="Scores sc_il = (v.x_i)(v.x_l); a zero row is a full tie (sequence mean).",
    checks=(Check("exact", _lm.rank_one_collapse, description="hypothesis: tokens in Q^d, d in [1, 5], ties, v.x = 0"),),
    controls=(
        Control("all_top", "everything goes to the top: refuted by a token with v.x < 0",
                Check("exact", _lm.rank_one_collapse, {"variant": "all_top"}),
                targets="prediction"),
        Control("boundary_extreme", "tokens with v.x = 0 go to an extreme: they go to the mean",
                Check("exact", _lm.rank_one_collapse, {"variant": "boundary_extreme"}),
                targets="prediction"),
    ),
    expected=Verdict.CERTIFIED,
)

BOX_TO_CORNER = Claim(
    id="interp.lemma.box_to_corner",
    title="Lemma 4.2 (reading): box tokens jump to a leader at R'(1,..,1) beyond the box; the leader stays",
    source=Source(PAPER, "Lemma 4.2 (figure 4b label)", "§4.8"),
    provenance=("paper", "reading"),
    strength="derived",
    statement="A = I, rho = 0, V = I: tokens in [0, R]^d minus {0} plus a leader R'(1..1), R' > R, all map to the leader",
    hypotheses=("hardmax", "R' > R strictly", "no token at 0"),
    reading="t sum_k x_k > sum_k x_k z_k for x >= 0, x != 0, z in [0, R]^d and t > R.",
    checks=(
        Check("symbolic", _lm.box_symbolic, description="sympy: positivity of sum x_k (t - z_k), d <= 5"),
        Check("exact", _lm.box_to_corner, description="hypothesis: R in [1, 10], R' = R + 2^-k, tokens on the faces"),
    ),
    controls=(
        Control("closed_box", "leader exactly at R: x = (1,0) ties between the leader (2,2) and z = (2,1/2)",
                Check("exact", _lm.box_to_corner, {"variant": "closed_box"}),
                targets="to_leader"),
        Control("zero_token", "the token 0 also goes to the leader: it goes to the sequence mean",
                Check("exact", _lm.box_to_corner, {"variant": "include_zero"}),
                targets="to_leader"),
    ),
    expected=Verdict.CERTIFIED,
)

SPHERE_FIXED = Claim(
    id="interp.lemma.sphere_fixed",
    title="Lemma 4.3 (reading): distinct points on a sphere are their own unique maximisers, hence fixed",
    source=Source(PAPER, "Lemma 4.3 (figure 4c label)", "§4.9"),
    provenance=("paper", "reading"),
    strength="derived",
    statement="A = I, rho = 0, V = I: <s_i, s_i> = R^2 > <s_i, s_l> and > <s_i, z> for other tokens z",
    hypotheses=("hardmax", "distinct s_1..s_k with |s_i| = R", "extra tokens z with <s_i, z> < R^2"),
    reading="Strict Cauchy-Schwarz on the sphere; extra tokens inside the open ball or in the opposite orthant.",
    checks=(
        Check("symbolic", _lm.sphere_symbolic, description="sympy: |s - t|^2 = 2 - 2<s, t> on the unit sphere"),
        Check("exact", _lm.sphere_fixed, description="k in [1, 12] rational sphere points (Sph, Sph^-), extra tokens"),
    ),
    controls=(
        Control("outer_point", "adding z = 2 s_1: s_1 moves to z",
                Check("exact", _lm.sphere_fixed, {"variant": "outer_point"}),
                targets="fixed"),
        Control("rank_one", "with A = v v^T and k >= 3 points, not all points are fixed",
                Check("exact", _lm.sphere_fixed, {"variant": "rank_one"}),
                targets="fixed"),
    ),
    expected=Verdict.CERTIFIED,
)

ASSUMPTIONS_NECESSARY = Claim(
    id="interp.assumptions.necessary",
    title="The distinctness assumptions are necessary: every network of the class is permutation-equivariant",
    source=Source(PAPER, "assumptions of Theorems 1.6/1.8 (seed)", "§4.11, §2.1"),
    provenance=("derived", "seed", "reading"),
    strength="derived",
    quote="The input sequences are pairwise distinct.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L11",
    statement=("(E1) T(X o sigma) = T(X) o sigma; (E2) x_i = x_k => T_i(X) = T_k(X); (E3) equal sets => "
               "equal output sets; (E4) |set T(X)| <= n; hence datasets violating A2 (or A1/A4 beyond the "
               "number of distinct tokens) cannot be interpolated by any network of the class"),
    hypotheses=("blocks FF then SA, no positional encoding, no normalisation", "any weights, hardmax or softmax",
                "d >= 2 (for d = 1: UNKNOWN, no impossibility claimed)"),
    reading="A2 is about sets, not ordered sequences; the builder rejects every invalid kind with a ValueError.",
    checks=(
        Check("symbolic", _nc.equivariance_symbolic, description="sympy: one generic softmax block, n <= 3, all permutations"),
        Check("exact", _nc.equivariance, description="random rational networks, hardmax, exact; invalid kinds rejected"),
        Check("softmax_mp", _nc.equivariance, {"kernel": "softmax"}, role="corroborating",
              description="random networks under softmax in mpmath (dps 30)"),
        Check("d1", _nc.d1_status, role="corroborating", description="d = 1 refused; UNKNOWN, no impossibility claim"),
    ),
    controls=(
        Control("positional_encoding", "token i gets i e_1 before block 1: E1 must fail (the check is sensitive)",
                Check("exact", _nc.equivariance, {"variant": "positional"}),
                targets=("E1", "E2", "E4")),
        Control("ordered_distinctness", "ordered distinctness suffices: a permutation pair with different targets",
                Check("exact", _nc.equivariance, {"variant": "ordered"}),
                targets="E3"),
    ),
    expected=Verdict.CERTIFIED,
)

def _tikhonov_statement():
    import sympy as sp

    eps, n2, J = sp.symbols("epsilon |theta_dagger|^2 inf_J_epsilon", positive=True)
    return sp.Le(J, eps * n2)


TIKHONOV_UPPER = Claim(
    id="interp.tikhonov.upper_bound",
    title="Regularised training: inf J_eps <= J_eps(theta_dag) = eps |theta_dag|^2 for every exact interpolant",
    source=Source(PAPER, "abstract (regularised training) and Figure 1a (red line eps |theta*|^2)", "§4.12, §5.1-5.3"),
    provenance=("paper", "seed", "derived", "reading"),
    strength="derived",
    statement=_tikhonov_statement,
    hypotheses=("softmax attention (E continuous)", "the architecture contains an exact interpolant theta_dag",
                "J_eps = E + eps |theta|^2, E = (1/N) sum_j d_H(T(X^j), Y^j)^2"),
    reading=("Euclidean norm in the trained parametrisation (dense V: d lam^2; a factor pair |p|^2 + |q|^2); "
             "for a tau = 1 model, tau0 = tau_c is absorbed into A. Adam's coupled weight decay targets "
             "E + (eps/2)|theta|^2, so the figure's red line is conservative by a factor 2. Code finding "
             "(the authors' tikhonov/src/generateData.py, read and run): `V = inputs @ V` overwrites V = I "
             "with the inputs, so their code draws the Figure 1a line at |theta*|^2 = |inputs|^2 + 1 + "
             "|W|^2 + |U|^2 + |b|^2 = 5402.77, while the published figure shows 62.53 (the value here)."),
    checks=(
        Check("ridge", _tk.upper_bound_ridge, description="sympy closed forms and the bound for V_mn and a non-minimal interpolant"),
        Check("construction", _tk.upper_bound_construction,
              description="softmax construction: E(theta_dag) = 0 (arb certificate; absorbed tau = 1 net exact in "
                          "mpmath), |theta_dag|^2 exact and equal to the materialised tensors' sum of squares"),
        Check("figure1", _tk.figure1_reproduction, role="corroborating",
              description="theta* in the trained model: E(theta*) <= float64 budget, |theta*|^2 = 62.53; "
                          "E(theta_0) = 1.72e3 as in Fig. 1a (reading half-widths x 2); the authors' starting "
                          "weights (E = 1718.66 of their code); their code's line norm 5402.77 (V overwritten); "
                          "thorough: Fig. 1a/1b runs (1b minima within 2 x (0.5 % float32 effect + reading))"),
    ),
    controls=(
        Control("tenth", "min J_eps <= eps |V_mn|^2 / 10: refuted at eps = 1/100 (min J = 10723/296602)",
                Check("ridge", _tk.upper_bound_ridge, {"factor": "1/10"}),
                targets="bound"),
        Control("no_absorption", "tau0 dropped: the unscaled weights at tau = 1 are not an interpolant (E > 0)",
                Check("construction", _tk.upper_bound_construction, {"variant": "no_absorption"}),
                targets="tau1_exact"),
        Control("fig1_weights_first", "Figure 1 data with W, U, b drawn before the inputs: |theta*|^2 = 57.90, "
                "E(theta_0) = 1313 (inside the old [55, 70] window)",
                Check("figure1", _tk.figure1_reproduction, {"variant": "weights_first"}),
                targets=("theta_star_norm2", "E_epoch1", "E_theta0_authors")),
        Control("fig1_no_skip", "theta* without the residual (eta = 0) as the interpolant: E(theta*) = 4.04",
                Check("figure1", _tk.figure1_reproduction, {"variant": "no_skip"}),
                targets="E_theta_star"),
    ),
    expected=Verdict.CERTIFIED,
)


def _linear_statement():
    import sympy as sp

    eps = sp.Symbol("epsilon", positive=True)
    J = sp.Function("min_J")(eps)
    return sp.Eq(sp.Limit(J / eps, eps, 0), sp.Symbol("min{|theta|^2 : E(theta) = 0}"))


TIKHONOV_LINEAR = Claim(
    id="interp.tikhonov.linear_scaling",
    title="Linear law: min J_eps / eps -> minimal interpolant norm^2; the data term is o(eps)",
    source=Source(PAPER, "abstract; seed: training loss linear in eps; Figure 1b", "§4.13, §5.1"),
    provenance=("seed", "derived", "reading"),
    strength="derived",
    quote=("if a global minimizer of the Tikhonov regularization objective function exists, the "
           r"training loss is linearly proportional to the regularization parameter $\varepsilon$ as "
           r"$\varepsilon \to 0$."),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L64",
    statement=_linear_statement,
    hypotheses=("softmax (E continuous); ridge instances with N <= d and independent columns",),
    reading=("The linear law is about J_eps (not the plotted data term, which is o(eps) at global "
             "minima). Torch slopes are a diagnostic: CONSISTENT in [0.8, 1.2], else UNKNOWN, never REFUTED."),
    checks=(
        Check("ridge", _tk.linear_scaling_ridge, description="sympy limits, monotonicity (items 4-6), random instances"),
        Check("torch_cold_start", _tk.torch_slope, role="corroborating",
              description="cold-start sweep slope of J_eps(theta_T) (ci/thorough only)"),
    ),
    controls=(
        Control("data_term_linear", "the data term is Theta(eps): lim E/eps = 0 refutes it",
                Check("ridge", _tk.linear_scaling_ridge, {"variant": "data_theta_eps"}),
                targets="data_term_order"),
        Control("little_o", "min J_eps = o(eps): the limit is 214/59",
                Check("ridge", _tk.linear_scaling_ridge, {"variant": "o_eps"}),
                targets="J_order"),
    ),
    expected=Verdict.PROVED,
)


def _resnet_statement():
    import sympy as sp

    from ._checks_tikhonov import p_resnet, p_transformer

    N, M, d, n = sp.symbols("N M d n", positive=True)
    return sp.Equivalent(sp.Lt(p_transformer(N, M, d), p_resnet(N, n, d)),
                         sp.Gt(n, (p_transformer(N, M, d) - 4 * N) / (6 * d * N)))


RESNET = Claim(
    id="interp.resnet_comparison",
    title="Transformer O(d sum m_j) vs ResNet O(dNn) parameters: crossover n* ~ 2m + 5/3 (heuristic counts)",
    source=Source(PAPER, "introduction (transformer/ResNet contrast); seed", "§4.14, §6"),
    provenance=("seed", "paper", "derived", "reading"),
    strength="derived",
    quote="Transformers are strictly [or: 'rigorously'] more parameter-efficient than ResNet.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L92",
    statement=_resnet_statement,
    hypotheses=("same gadgets: ResNet = one 3-neuron hat block per sequence on flattened inputs R^{dn}",
                "hardmax construction with kappa = 1 and R = N - 1"),
    reading="Upper bounds of two specific constructions; no lower bound for ResNets is claimed.",
    checks=(
        Check("symbolic", _tk.resnet_symbolic, description="sympy: crossover, sign, limits"),
        Check("instances", _tk.resnet_instances, role="corroborating",
              description="exact: measured P_H constant in n, P_Res linear, crossover where sympy puts it"),
    ),
    controls=(
        Control("always_smaller", "the transformer is smaller for every n >= 1: refuted at n = 1, N = M = 1",
                Check("symbolic", _tk.resnet_symbolic, {"variant": "all_n"}),
                targets="all_n"),
        Control("m_independent", "n* does not depend on m: d n*/dm = 2 + 2/d",
                Check("symbolic", _tk.resnet_symbolic, {"variant": "m_free"}),
                targets="m_dependence"),
    ),
    expected=Verdict.PROVED,
)


# -- faithful headline claims (the seed's theorems as stated, each on ONE network) ----------------------
def _hardmax_theorem_statement():
    import sympy as sp

    M, N, L, P, d, w = sp.symbols("M N L P d d'", positive=True, integer=True)
    return sp.And(sp.Eq(L, 2 * M + 2 * N + 1), sp.Le(w, 4), sp.Le(P, (22 * d + 28) * M),
                  sp.Eq(sp.Function("set")(sp.Function("T_0")(sp.Symbol("X^j"))),
                        sp.Function("set")(sp.Symbol("Y^j"))))


HARDMAX_THEOREM = Claim(
    id="interp.hardmax.theorem",
    title="Theorem 1.6 as stated: one hardmax network with L = 2M+2N+1 blocks, width <= 4, P = O(dM), exact on every X^j",
    source=Source(PAPER, "Theorem 1.6 (seed numbering), the whole statement", "§4.1-4.3, §3.6"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote="For any dataset satisfying the mutual distinctness assumption, there exists a hardmax Transformer having the following:\n• Width $d' \\le 4$.\n• Number of blocks $L = 2 \\sum_{j=1}^N m_j + 2N + 1$.\n• Number of parameters $P = O(d \\sum_{j=1}^N m_j)$.\n  Such a Transformer satisfies $T_0(X_j) = Y_j$ for all $j$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L70-L75",
    statement=_hardmax_theorem_statement,
    hypotheses=HYP + ("d = 20 instances included (004 L15 'specifically $d \\ge 20$ in the main construction proof')",),
    reading=("The conjunction on ONE object per dataset: the toolkit's construction padded with identity "
             "blocks (pad_to_paper_count, seeded positions) to exactly 2M + 2N + 1 blocks; on that padded "
             "network the FF width is <= 4, every attention matrix is alpha I plus at most one rank-one "
             "factor (004 L27/L60), P (spec §2.5 count, recomputed from the blocks) <= (22d + 28) M, which "
             "with interp.hardmax.params' symbolic bound is O(d sum m_j), and T_0(X_j) = Y_j as sets "
             "(004 L7) by the Fraction reference evaluator and the fast exact evaluator. Existence is "
             "witnessed per instance; the paper's own construction is not available (spec §1)."),
    checks=(
        Check("exact", _ff.hardmax_theorem,
              description="fmpq/Fraction: edge cases, witness chain N = M = 6, d = 20 pinned datasets "
                          "(1/2/4 by profile), hypothesis datasets; all four properties on the padded net"),
    ),
    controls=(
        Control("unpadded", "the unpadded construction claimed to have exactly 2M + 2N + 1 blocks",
                Check("exact", _ff.hardmax_theorem, {"variant": "unpadded"}),
                **_ff.targets("block_count")),
        Control("nonzero_padding", "padding blocks with W != 0 (not identity): the padded net misses a target",
                Check("exact", _ff.hardmax_theorem, {"variant": "nonzero_padding"}),
                **_ff.targets("exactness")),
        Control("unpadded_constant", "(22d + 19) M claimed for the padded network: the chain N = M = 6, d = 2 "
                "has P = 381 > 378", Check("exact", _ff.hardmax_theorem, {"variant": "unpadded_constant"}),
                **_ff.targets("param_bound")),
    ),
    uses=("interp.hardmax.exact", "interp.hardmax.blocks", "interp.hardmax.params"),
    expected=Verdict.CERTIFIED,
)


def _softmax_theorem_statement():
    return ("exists tau* > 0 such that for all 0 < tau < tau* there exists T_tau with width <= 4, "
            "L = 2M + 3N, P <= (24d + 29) M = O(dM) and set(T_tau(X^j)) = set(Y^j) for all j")


SOFTMAX_THEOREM = Claim(
    id="interp.softmax.theorem",
    title="Theorem 1.8 as stated: exists tau*, for every tau < tau* a softmax network with L = 2M+3N, width <= 4, P = O(dM), exact",
    source=Source(PAPER, "Theorem 1.8 (seed numbering), the whole statement", "§4.4-4.5, §3.5-3.6"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote="For the same dataset, there exists a temperature $\\tau^* > 0$ such that, for all $0 < \\tau < \\tau^*$, there exists a softmax Transformer having the following [the Korean leaves open whether one Transformer serves all such $\\tau$ or one exists for each $\\tau$]:\n• Width $d' \\le 4$.\n• Number of blocks $L = 2 \\sum_{j=1}^N m_j + 3N$.\n• Number of parameters $P = O(d \\sum_{j=1}^N m_j)$.\n  Such a Transformer satisfies $T_\\tau(X_j) = Y_j$ for all $j$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L79-L84",
    statement=_softmax_theorem_statement,
    hypotheses=HYP + ("d = 20 instances included (004 L15)",),
    reading=("The literal (weaker) quantifier order exists tau* for all tau exists T_tau; the witness is "
             "stronger: ONE padded network (pad_to_paper_count to exactly 2M + 3N blocks) serves every "
             "tau <= tau_c, with tau* := tau_c certified in arb on that padded network (one weight set for "
             "every tau is the toolkit's strengthening, claimed separately by interp.softmax.exact). On the "
             "same network: width <= 4, alpha I + rank <= 1 attention, P <= (24d + 29) M. The mpmath grid "
             "at tau_c, tau_c/10, tau_c/1000 (dps and 2 dps) corroborates."),
    checks=(
        Check("certificate", _ff.softmax_theorem,
              description="structure exact + arb tau_c > 0 on the padded network; pinned, chain, d = 20"),
        Check("grid", _ff.softmax_theorem, {"mode": "grid"}, role="corroborating",
              description="mpmath: exact at tau_c, tau_c/10, tau_c/1000 on the padded network (dps, 2 dps)"),
    ),
    controls=(
        Control("unpadded", "the unpadded construction claimed to have exactly 2M + 3N blocks",
                Check("certificate", _ff.softmax_theorem, {"variant": "unpadded"}),
                **_ff.targets("block_count")),
        Control("unpadded_constant", "(24d + 20) M claimed for the padded network (padding free)",
                Check("certificate", _ff.softmax_theorem, {"variant": "unpadded_constant"}),
                **_ff.targets("param_bound")),
        Control("tau_infinity", "exactness claimed at tau = 10^3 max |score| (no small-tau regime needed)",
                Check("grid", _ff.softmax_theorem, {"mode": "grid", "variant": "tau_infinity"}),
                **_ff.targets("grid_exactness")),
    ),
    uses=("interp.softmax.exact", "interp.softmax.blocks"),
    expected=Verdict.CERTIFIED,
)

TIKHONOV_AS_STATED = Claim(
    id="interp.tikhonov.as_stated",
    title="Regularised training as stated: 'training loss linearly proportional to eps' -- undetermined (readings disagree)",
    source=Source(PAPER, "seed §3.4 (regularised training)", "§4.12-4.13, §5.1"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("The authors show that, if a global minimizer of the Tikhonov regularization objective function "
           "exists, the training loss is linearly proportional to the regularization parameter "
           "$\\varepsilon$ as $\\varepsilon \\to 0$."),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L64",
    statement=("min J_eps ~ c eps (eps -> 0) for 'training loss' in {J_eps, E} and 'linearly proportional' "
               "in {Theta(eps), <= C eps}: the seed fixes neither"),
    hypotheses=("a global minimiser of J_eps = E + eps |theta|^2 exists", "the architecture contains an exact interpolant"),
    reading=("'Training loss' may be the regularised objective J_eps or the data term E (the authors' "
             "Fig. 1b plots E); 'linearly proportional' may be Theta(eps) or O(eps). Each candidate is run "
             "through its own check on the ridge sanity model (not the paper's transformer): (J, Theta) "
             "PROVED, (J or E, <= C eps) CERTIFIED, (E, Theta) REFUTED (E = Theta(eps^2)). The candidates "
             "disagree, so the sentence's truth depends on a reading the seed leaves open: UNKNOWN. The "
             "check would be REFUTED if every candidate failed, and return the weakest level if all held."),
    checks=(
        Check("candidates", _ff.tikhonov_as_stated,
              description="runs linear_scaling_ridge, upper_bound_ridge and the data-term Theta(eps) reading"),
    ),
    controls=(
        Control("determined", "the reading is determined (the candidate readings agree): their verdicts split",
                Check("candidates", _ff.tikhonov_as_stated, {"variant": "determined"}),
                **_ff.targets("candidates_agree")),
    ),
    uses=("interp.tikhonov.linear_scaling", "interp.tikhonov.upper_bound"),
    expected=Verdict.UNKNOWN,
)


def _resnet_order_statement():
    import sympy as sp

    n, c = sp.symbols("n c", positive=True)
    P = sp.Function("P_TF")(sp.Symbol("N"), sp.Symbol("M"), sp.Symbol("d"))
    return sp.Eq(sp.Limit(P / (c * sp.Symbol("d") * sp.Symbol("N") * n), n, sp.oo), 0)


RESNET_ORDER = Claim(
    id="interp.resnet.order",
    title="ResNet comparison as stated: transformer P = O(d sum m_j) free of n, a ResNet's P proportional to dNn; ratio -> 0",
    source=Source(PAPER, "seed §5 (comparison with ResNet)", "§4.14, §6"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("Whereas ResNet requires parameters proportional to the input length $n$ (e.g., $O(d N n)$), "
           "Transformers are proportional to the output length ($O(d \\sum m_j)$)."),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L92",
    statement=_resnet_order_statement,
    hypotheses=HYP + ("a ResNet count P_Res >= c d N n, c > 0 (the seed's 'proportional to the input length')",),
    reading=("An order comparison at fixed (N, M, d): the construction's count parameter_formula(R <= N-1, "
             "M, d, kappa in {1, 4d}) has dP/dn = 0 and is <= (22d + 19) M, so P_TF / P_Res -> 0 as n -> oo "
             "for any P_Res >= c d N n. The built networks keep P when every input grows and still "
             "interpolate. The literal 'strictly more parameter-efficient whenever m_j < n_j' is not "
             "encoded: no ResNet lower bound exists, and the heuristic counts of interp.resnet_comparison "
             "favour the transformer only beyond n* ~ 2m + 5/3."),
    checks=(
        Check("symbolic", _ff.resnet_order, description="sympy: dP/dn = 0, (22d+19)M - P >= 0 coefficientwise, lim P/(cdNn) = 0"),
        Check("built", _ff.resnet_order, {"mode": "built"}, role="corroborating",
              description="exact: built networks with n_j + k tokens keep P and interpolate; P/(dNn) decreases"),
    ),
    controls=(
        Control("reversed", "the ResNet count is the smaller order: lim P_Res/P_TF = oo, not 0",
                Check("symbolic", _ff.resnet_order, {"variant": "reversed"}),
                **_ff.targets("ratio_limit")),
        Control("naive", "the construction with every input token a leader (m_j = n_j): P grows with n",
                Check("built", _ff.resnet_order, {"mode": "built", "variant": "naive"}),
                **_ff.targets("built_counts")),
    ),
    uses=("interp.resnet_comparison", "interp.length_independence"),
    expected=Verdict.PROVED,
)


CLAIMS = (HARDMAX_EXACT, HARDMAX_BLOCKS, HARDMAX_PARAMS, SOFTMAX_EXACT, SOFTMAX_BLOCKS,
          LENGTH_INDEPENDENCE, RANK_ONE_COLLAPSE, BOX_TO_CORNER, SPHERE_FIXED, SOFTMAX_TO_HARDMAX,
          ASSUMPTIONS_NECESSARY, TIKHONOV_UPPER, TIKHONOV_LINEAR, RESNET,
          HARDMAX_THEOREM, SOFTMAX_THEOREM, TIKHONOV_AS_STATED, RESNET_ORDER)
