"""Claims about the model of spec §2 (arXiv:2605.01199, §4.1-§4.3): the population limit, the closed-form
gradients and the conservation laws."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_model as _mod
from . import _statements_model as _st
from ._claims_common import PAPER

POPULATION_LIMIT = Claim(
    id="focus.model.population_limit",
    title="The finite-context loss converges to the closed-form population loss as s -> oo",
    source=Source(PAPER, "population gradient-flow limit (N, s -> oo) of the seed", "§4.1"),
    provenance=("derived", "seed", "reading"),
    strength="derived",
    quote=("This study applies the population gradient-flow limit (population gradient-flow limit), "
           "with a large sample size $N$ and a long context $s$, in order to derive deterministic "
           "dynamics."),
    quote_source="seeds/002_33c0cd80d27af751.txt.en.md L9",
    statement=_st.population_limit,
    hypotheses=("P irreducible and aperiodic, pi_k > 0", "(M, Phi) fixed"),
    reading="A1 (the query's own position is attended; an O(1/s) effect) and A6 (stationary start).",
    checks=(
        Check("regrouping", _mod.regrouping,
              description="exact regrouping z = A_hat_q M vs the position-by-position torch model"),
        Check("monte_carlo", _mod.monte_carlo,
              description="E1 pi, lam = 0.6, s in {64, 256} (quick), n = 1e4: |mean - L| <= 4 SE + 1/s"),
        Check("uniform_start", _mod.uniform_start,
              description="(c) uniform start: fitted decay exponent of the bias in [1/2, 5/2], s in {8, 16, 32, 64}"),
    ),
    controls=(
        Control("position_blind", "A = row-softmax(Phi) without log pi misses the Monte Carlo mean",
                Check("monte_carlo", _mod.monte_carlo, {"variant": "position_blind"}),
                targets="mean"),
        Control("no_decay", "with a uniform start the bias does not shrink with s",
                Check("uniform_start", _mod.uniform_start, {"variant": "no_decay"}),
                targets="exponent"),
    ),
    expected=Verdict.CONSISTENT,
)

GRADIENTS = Claim(
    id="focus.model.gradients",
    title="Closed-form gradients G_M = A^T D, G_Phi = A o (X - rowsum(A o X)) / tau and the chain rule",
    source=Source(PAPER, "closed-form population gradients (toolkit derivation)", "§4.2"),
    provenance=("derived",),
    strength="derived",
    statement=_st.gradients,
    derivation=_st.gradients_derivation,
    hypotheses=("any theta, any tau > 0",),
    reading="none needed",
    checks=(
        Check("symbolic", _mod.symbolic_gradients,
              description="sympy: G_M, G_Phi for symbolic pi, lam, tau, M, Phi (d = 2); the chain rule"),
        Check("autograd", _mod.autograd_agreement, role="corroborating",
              description="torch autograd vs closed form on S_pi x S_P, origin and theta_c1"),
        Check("finite_differences", _mod.finite_differences, role="corroborating",
              description="central differences h = 1e-6, relative error <= 1e-7"),
    ),
    controls=(
        Control("drop_phiT_term", "drop G_Phi^T W0 W_Q W_K^T from dL/dW0: finite differences disagree",
                Check("finite_differences", _mod.finite_differences, {"variant": "drop_phiT_term"}),
                targets="fd"),
        Control("drop_phiT_term_symbolic", "the same bug fails the symbolic chain rule",
                Check("symbolic", _mod.symbolic_gradients, {"variant": "drop_phiT_term"}),
                targets="chain_rule"),
        Control("column_sums", "1^T G_M = 0 (columns instead of rows; sympy)",
                Check("symbolic", _mod.symbolic_gradients, {"variant": "column_sums"}),
                targets="sums"),
    ),
    expected=Verdict.PROVED,
)

CONSERVATION = Claim(
    id="focus.model.conservation",
    title="D = W0^T W0 - W1 W1^T - W_Q W_Q^T - W_K W_K^T, E = W_Q^T W_Q - W_K^T W_K and W1 1 are conserved",
    source=Source(PAPER, "balancedness behind the rank-one condensation (toolkit derivation)", "§4.3"),
    provenance=("derived",),
    strength="derived",
    statement=_st.conservation,
    derivation=_st.conservation_derivation,
    hypotheses=("exact gradient flow; any pi, P, tau",),
    reading="A1: a value matrix or a residual would change the invariants.",
    checks=(
        Check("pointwise", _mod.pointwise_conservation,
              description="exact polarisation derivative along -grad L at random theta (S_pi x S_P)"),
        Check("integrated", _mod.integrated_conservation,
              description="LSODA from eps = 0.3 and 1e-3 (quick: T = 300): drift <= 1e-6 (1 + |theta|^2)"),
        Check("reduced", _mod.reduced_conservation,
              description="the reduced-ODE invariants of §2.8"),
        Check("oracle", _mod.reduced_oracle, role="corroborating",
              description="LSODA vs a 30-digit mpmath RK4 oracle on the reduced ODE (t <= 5)"),
    ),
    controls=(
        Control("E_plus", "E+ = W_Q^T W_Q + W_K^T W_K is not conserved",
                Check("integrated", _mod.integrated_conservation, {"variant": "E_plus"}),
                targets="E"),
        Control("D_plus_W1", "D with + W1 W1^T is not conserved",
                Check("pointwise", _mod.pointwise_conservation, {"variant": "D_plus_W1"}),
                targets="D"),
        Control("bug_gradient", "the bug-injected gradient of §4.2 breaks D",
                Check("pointwise", _mod.pointwise_conservation, {"variant": "drop_phiT_term"}),
                targets="D"),
    ),
    expected=Verdict.CONSISTENT,
)
