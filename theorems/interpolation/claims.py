"""Claims of arXiv:2502.02270, "Exact Sequence Interpolation with Transformers" (spec: interpolation.md).

Each claim lists its statement, hypotheses, the reading chosen, its checks and its negative controls.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_softmax as _sm

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
    ),
    controls=(
        Control("doubled_exponent",
                "the same bound with exp(-2 Delta/tau): refuted e.g. at n = 2, x = (0, 1), scores (Delta, 0)",
                Check("certified_bound", _sm.certified_bound, {"exponent_factor": 2})),
        Control("first_maximiser",
                "ties go to the first maximiser instead of averaging: refuted by any tie of distinct values",
                Check("certified_bound", _sm.certified_bound, {"limit_point": "first"})),
        Control("doubled_exponent_limit",
                "the sharp limit with exp(2 Delta/tau) scaling: sympy finds a different (infinite) limit",
                Check("symbolic", _sm.symbolic_identity_and_limit, {"exponent_factor": 2})),
    ),
    expected=Verdict.CERTIFIED,
)

CLAIMS = (SOFTMAX_TO_HARDMAX,)
