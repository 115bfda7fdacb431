"""Statements (and the checked derivation) of the Lyapunov claims (seed Theorem 8; spec §3.8).

Lazy builders for ``Claim(statement=..., derivation=...)``; AllOf labels are the sub-check names the
checks record and the controls target.
"""

from __future__ import annotations

from typing import Any

from verify import AllOf, Derivation, ForAll, Step

__all__ = ["free_energy_statement", "free_energy_derivation", "full_gradient_statement", "as_stated_statement"]


def free_energy_statement() -> Any:
    """F_rel = F_tau(P; Y_H) - tr C_H along stopgrad training with growth and pruning (spec §3.8):
    L1/L5 F_rel never increases on a training step; L2 a growth (new coordinate at the channel mean)
    raises F by exactly tr Cov(o), so F_rel is continuous; L3 a pruning changes F by a value in
    [-mean_i max_k delta_ik, -mean_i min_k delta_ik] and raises F_rel by at most eps_tr = tr Cov(pruned)."""
    import sympy as sp

    Fn, Fp, dF, trc, Fa, Fb = sp.symbols("F_rel_next F_rel_prev Delta_F_growth tr_Cov_o F_rel_after F_rel_before",
                                         real=True)
    dFp, dmax, dmin, dFr = sp.symbols("Delta_F_prune delta_max_mean delta_min_mean Delta_F_rel_prune", real=True)
    eps_tr = sp.Symbol("epsilon_tr", nonnegative=True)
    return ForAll(sp.Symbol("t"), "steps and events t of stopgrad training (F-gradient, fixed tau, eta <= 1/2) "
                  "with growth and pruning of frozen channels",
                  AllOf(descent=sp.Le(Fn, Fp),
                        growth_jump=sp.Eq(dF, trc),
                        growth_invariance=sp.Eq(Fa, Fb),
                        pruning_bounds=sp.And(sp.Le(-dmax, dFp), sp.Le(dFp, -dmin)),
                        L3=sp.Le(dFr, eps_tr)))


def free_energy_derivation() -> Derivation:
    """The free-energy decrease per step: grad^2 F <= 2 I (spec §2.3), so by the descent lemma a step
    P' = P - eta g (g = grad F, |g|^2 = g2) gives F(P') <= F - eta g2 + (2/2) eta^2 g2 = F - eta (1 - eta) g2
    <= F for 0 < eta < 1 (eta = s/(1 + s), s > 0)."""
    import sympy as sp

    Fp = sp.Symbol("F_rel_prev", real=True)
    g2, s = sp.symbols("g2 s", positive=True)
    eta = s / (1 + s)
    lemma = Fp - eta * g2 + sp.Rational(2, 2) * eta**2 * g2
    return Derivation(
        Step("F_rel(P') <= F_rel(P) + <g, P' - P> + (L/2)|P' - P|^2, L = 2, P' - P = -eta g, eta = s/(1 + s)",
             lemma, why="descent lemma: grad^2 F <= 2 I (2 diag(q_i) (x) I <= 2 I, the assignment term is NSD)"),
        Step("collect", Fp - eta * (1 - eta) * g2),
        Step("eta (1 - eta) g2 >= 0 for 0 < eta < 1", Fp, relation="<="),
        concludes="descent")


def full_gradient_statement() -> Any:
    """'Full-gradient training converges to a finite limit' on the spec's trajectory (Z = {-0.3, 0.3},
    tau = 1/2, p(0) = (0, 2), eta = 1/2): a limit requires that p_2 stops increasing or that a stationary
    point of L_q waits ahead on the branch p_1 = 0, i.e. min step of p_2 <= 0 or max dL_q/dp_2 (0, x) >= 0
    over x in [2, p_2(end) + 1]."""
    import sympy as sp

    step, slope = sp.symbols("min_p2_step max_dLq_dp2", real=True)
    return ForAll(sp.Symbol("t"), "full-gradient steps t from p(0) = (0, 2) (fixed tau = 1/2, eta = 1/2)",
                  AllOf(converges=sp.Or(sp.Le(step, 0), sp.Ge(slope, 0))))


def as_stated_statement() -> Any:
    """Seed Theorem 8 as stated: the system converges stably with a piecewise free energy as Lyapunov
    function.  A predicate, not a relation: the sources fix neither the functional nor the training mode
    (the claim is undetermined; its candidate readings are formula claims)."""
    import sympy as sp

    system = sp.Symbol("system")
    return ForAll(system, "the DDCL-INCRT system through training, growth and pruning",
                  sp.Function("ConvergesStablyWithPiecewiseFreeEnergy")(system))
