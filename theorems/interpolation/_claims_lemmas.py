"""Claims on the lemmas (readings of Lemmas 4.1-4.3, spec §4.7-4.9) and the necessity of the assumptions (§4.11).

Each claim lists its statement, hypotheses, the reading chosen, its checks and its negative controls.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_lemmas as _lm
from . import _checks_necessary as _nc
from . import _statements_lemmas as _st
from ._claims_common import PAPER

RANK_ONE_COLLAPSE = Claim(
    id="interp.lemma.rank_one_collapse",
    title="Lemma 4.1 (reading): rank-one hardmax attention sends each token to an extreme or the mean",
    source=Source(PAPER, "Lemma 4.1 (figure 4a label)", "§4.7"),
    provenance=("paper", "reading"),
    strength="derived",
    statement=_st.rank_one_statement,
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
    statement=_st.box_statement,
    derivation=_st.box_derivation,
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
    statement=_st.sphere_statement,
    derivation=_st.sphere_derivation,
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
    statement=_st.necessary_statement,
    hypotheses=("blocks FF then SA, no positional encoding, no normalisation", "any weights, hardmax or softmax",
                "d >= 2 (for d = 1: UNKNOWN, no impossibility claimed)"),
    reading="A2 is about sets, not ordered sequences; the builder rejects every invalid kind with a ValueError.",
    checks=(
        Check("symbolic", _nc.equivariance_symbolic, description="sympy: one generic softmax block, n <= 3, all permutations"),
        Check("exact", _nc.equivariance, description="random rational networks, hardmax, exact; invalid kinds rejected"),
        Check("softmax_mp", _nc.equivariance, {"kernel": "softmax"}, role="corroborating",
              description="random networks under softmax in mpmath (dps 30)"),
        Check("d1", _nc.d1_status, role="corroborating",
              description="d = 1 refused; UNKNOWN, no impossibility claim",
              inconclusive=("by design: d = 1 is outside the construction (the builder refuses it) and the "
                            "toolkit claims neither interpolation nor its impossibility there (spec §2.6)")),
    ),
    controls=(
        Control("d2_refused", "the builder refuses d = 2 as it refuses d = 1 (refuted: it accepts d = 2)",
                Check("d1", _nc.d1_status, {"d": 2}), targets="d1"),
        Control("positional_encoding", "token i gets i e_1 before block 1: E1 must fail (the check is sensitive)",
                Check("exact", _nc.equivariance, {"variant": "positional"}),
                targets=("E1", "E2", "E4")),
        Control("ordered_distinctness", "ordered distinctness suffices: a permutation pair with different targets",
                Check("exact", _nc.equivariance, {"variant": "ordered"}),
                targets="E3"),
    ),
    expected=Verdict.CERTIFIED,
)
