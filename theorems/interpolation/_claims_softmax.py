"""Claims on softmax attention: the softmax -> hardmax limit (§4.10), Theorem S exactness (§4.4) and its block count (§4.5).

Each claim lists its statement, hypotheses, the reading chosen, its checks and its negative controls.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_certificate as _cw
from . import _checks_counts as _ct
from . import _checks_exact as _ex
from . import _checks_softmax as _sm
from . import _checks_softmax_sharp as _sh
from . import _statements_softmax as _st
from ._claims_common import HYP, PAPER

SOFTMAX_TO_HARDMAX = Claim(
    id="interp.softmax_to_hardmax",
    title="Softmax attention converges to tie-averaging hardmax at rate exp(-gap/tau)",
    source=Source(PAPER, "softmax-to-hardmax limit behind Theorem S (1.8 in the seed)", "§4.10"),
    provenance=("derived", "reading"),
    strength="derived",
    quote=r"hardmax (hardmax) (the softmax limit as the temperature $\tau \to 0$)",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L15",
    statement=_st.softmax_statement,
    derivation=_st.softmax_derivation,
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

SOFTMAX_EXACT = Claim(
    id="interp.softmax.exact",
    title="Theorem S (exactness): one fixed set of softmax weights interpolates exactly for every tau < tau*",
    source=Source(PAPER, "Theorem 1.8 (seed numbering), exactness part", "§4.4, §3.5"),
    provenance=("seed", "paper", "reading", "derived"),
    strength="strengthened",
    quote=(r"there exists a temperature $\tau^* > 0$ such that, for all $0 < \tau < \tau^*$, there "
           "exists a softmax Transformer"),
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L79",
    statement=_st.softmax_exact_statement,
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
                targets="exact"),
        Control("hardmax_network", "the hardmax network (hat moves, no line map) evaluated with softmax at tau*_grid",
                Check("grid", _ex.softmax_grid, {"variant": "hardmax_network"}),
                targets="exact"),
        Control("residual_line_map", "the line map with eta = 1 instead of 0, at tau*_grid",
                Check("grid", _ex.softmax_grid, {"variant": "line_map_residual"}),
                targets="exact"),
        Control("merged_targets", "a snap move re-aimed at another target of its sequence: outputs on targets, a target missed",
                Check("grid", _ex.softmax_grid, {"variant": "merged_targets"}),
                targets="exact"),
        Control("tiny_offset", "a snap target moved by 1e-20 still counts as exact (precision 50 must see it)",
                Check("grid", _ex.softmax_grid, {"variant": "tiny_offset"}),
                targets="exact"),
        Control("gamma_doubled", "the line map declared to accept 2 gamma: tau_c exceeds the witness's true tau*",
                Check("certificate_witness", _cw.certificate_witness, {"variant": "gamma_doubled"}),
                targets="soundness"),
    ),
    expected=Verdict.CERTIFIED,
)

SOFTMAX_BLOCKS = Claim(
    id="interp.softmax.blocks",
    title="Theorem S (depth/size): L_S <= 2M + 3N, width <= 4, P_S <= (24d+20)M, padded <= (24d+29)M; padding changes nothing",
    source=Source(PAPER, "Theorem 1.8 (seed numbering), block count", "§4.5, §3.6"),
    provenance=("seed", "reading", "derived"),
    strength="as-stated",
    quote=r"Number of blocks $L = 2 \sum_{j=1}^N m_j + 3N$.",
    quote_source="seeds/004_4ff95cab01770f63.txt.en.md L82",
    statement=_st.softmax_blocks_statement,
    derivation=_st.softmax_blocks_derivation,
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
