"""Claims of arXiv:2604.01880, DDCL-INCRT (spec: ddcl_incrt.md).

Each seed theorem maps to a claim through an explicit reading (spec §1.1); verdicts concern readings,
never the paper.
"""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_decomposition as _dec

PAPER = "2604.01880"


def _decomposition_statement():
    import sympy as sp

    return sp.Eq(sp.Symbol("L_q"), sp.Symbol("L_OLS") + sp.Symbol("V"))


def _decomposition_derivation():
    import sympy as sp

    from .dictionary import pairwise_variance, sample_terms

    z, p1, p2, q = sp.symbols("z p_1 p_2 q")
    P = [[p1], [p2]]
    qs = [q, 1 - q]
    ell, ols, var = sample_terms([z], P, qs)
    zt = q * p1 + (1 - q) * p2
    return (
        ("one sample, K = 2, d = 1, q = (q, 1 - q); soft reconstruction zt:", sp.Eq(sp.Symbol("zt"), zt)),
        ("ell = sum_k q_k (z - p_k)^2:", sp.Eq(sp.Symbol("ell"), sp.factor(ell))),
        ("expand (z - p_k)^2 = (z - zt)^2 + 2(z - zt)(zt - p_k) + (zt - p_k)^2; the cross term "
         "vanishes because sum_k q_k (zt - p_k) = 0:",
         sp.Eq(sp.Symbol("sum_k q_k (zt - p_k)"),
               sp.expand(sum(qk * (zt - pk[0]) for qk, pk in zip(qs, P))), evaluate=False)),
        ("so ell - |z - zt|^2 - V_i is identically zero:",
         sp.Eq(sp.Symbol("ell - |z - zt|^2 - V_i"), sp.expand(ell - ols - var), evaluate=False)),
        ("pairwise form V_i = 1/2 sum_{k,l} q_k q_l (p_k - p_l)^2:",
         sp.Eq(sp.factor(var), sp.factor(pairwise_variance(P, qs)), evaluate=False)),
    )


DECOMPOSITION = Claim(
    id="ddcl.dictionary.decomposition",
    title="Soft quantisation loss = reconstruction + non-negative prototype variance",
    source=Source(PAPER, "companion identity behind the seed's fidelity + separation split", "§3.1"),
    provenance=("companion", "derived"),
    statement=_decomposition_statement,
    derivation=_decomposition_derivation,
    hypotheses=("rows q_i of Q on the simplex (Gibbs or not); any N, K, d",),
    reading=(
        "R1: L_q = L_OLS + V with V_i = 1/2 sum_{k,l} q_ik q_il |p_k - p_l|^2 >= 0 and, for K >= 2, "
        "1/2 dmin^2 (1 - |q_i|^2) <= V_i <= 1/2 dmax^2 (1 - |q_i|^2)."
    ),
    checks=(
        Check("symbolic", _dec.symbolic, description="sympy, K in {2,3}, d in {1,2}"),
        Check("exact", _dec.exact_instances,
              description="exact rationals on hypothesis instances (identity, V >= 0, sandwich)"),
        Check("mp_gibbs", _dec.mp_gibbs, role="corroborating",
              description="mpmath at the profile's dps with Gibbs assignments"),
        Check("float64", _dec.float_gibbs, role="corroborating",
              description="float64, N <= 64, K <= 12, d <= 16, coordinates up to 1e3"),
    ),
    controls=(
        Control("minus_v", "the wrong decomposition L_q = L_OLS - V",
                Check("exact", _dec.exact_instances, {"variant": "minus_v"})),
        Control("off_simplex", "assignment rows scaled by 1 + 1/1000 (off the simplex)",
                Check("exact", _dec.exact_instances, {"variant": "off_simplex"})),
        Control("variance_at_data", "V computed around z_i instead of the reconstruction",
                Check("exact", _dec.exact_instances, {"variant": "variance_at_data"})),
        Control("pairwise_no_half", "the pairwise form without its 1/2",
                Check("symbolic", _dec.symbolic, {"variant": "pairwise_no_half"})),
    ),
    expected=Verdict.CERTIFIED,
)

CLAIMS = (DECOMPOSITION,)
