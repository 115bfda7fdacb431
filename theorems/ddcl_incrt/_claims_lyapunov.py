"""Claims of seed Theorem 8 (piecewise free energy, convergence) of arXiv:2604.01880 (spec §3.8)."""

from __future__ import annotations

from verify import Check, Claim, Control, Source, Verdict

from . import _checks_faithful_growth as _fg
from . import _checks_lyapunov as _lya
from . import _checks_lyapunov_unbounded as _lyu
from . import _statements_lyapunov as _sl

PAPER = "2604.01880"



# -------------------------------------------------------------------------------------------------
# §3.8 Lyapunov (seed Theorem 8)
# -------------------------------------------------------------------------------------------------
LYAPUNOV = Claim(
    id="ddcl.lyapunov.free_energy",
    title="Seed Thm 8: F_rel is a piecewise Lyapunov function through stopgrad training, growth and pruning",
    source=Source(PAPER, "seed Theorem 8; companion DDCL: Lyapunov stability of the frozen-encoder system", "§3.8"),
    provenance=("seed", "companion", "derived", "reading"),
    strength="repaired",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_sl.free_energy_statement,
    derivation=_sl.free_energy_derivation,
    hypotheses=("stopgrad / F-gradient prototypes, fixed tau, eta <= 1/2",
                "channels frozen between events; new coordinates initialised at the channel mean"),
    reading=(
        "Seed Theorem 8 ('a piecewise free-energy functional over training, growth and pruning gives "
        "global Lyapunov stability') is read on the smallest model in which it can be stated: the "
        "companion's frozen-encoder free energy, made continuous across growth by subtracting tr C_H. "
        "HOLDS-IF training descends F (stopgrad) at fixed tau."
    ),
    checks=(
        Check("pinned_stopgrad", _lya.pinned_two_point, {"mode": "stopgrad"},
              description="Z = {-1, 1}, tau = 3: F never increases"),
        Check("piecewise", _lya.piecewise, {"mode": "stopgrad"},
              description="the spec's growth/pruning schedule: L1, L2, L3, L5"),
    ),
    controls=(Control("full_gradient", "the same schedule under full-gradient training",
                      Check("piecewise", _lya.piecewise, {"mode": "full"}),
                      targets="descent"),
              Control("prune_free", "pruning never raises F_rel (L3 with 0 instead of eps_tr)",
                      Check("piecewise", _lya.piecewise, {"mode": "stopgrad", "variant": "prune_free"}),
                      targets="pruning_witness"),
              Control("jump_half", "growth raises F by tr Cov(o)/2 (L2 off by a factor 2)",
                      Check("piecewise", _lya.piecewise, {"mode": "stopgrad", "variant": "jump_half"}),
                      targets="growth_jump"),),
    expected=Verdict.CONSISTENT,
)

LYAPUNOV_FULL = Claim(
    id="ddcl.lyapunov.full_gradient",
    title="Strengthened Thm 8 probe (full-gradient training, a mode the seed does not name): the system "
          "converges (refuted: L_q descends but the trajectory has no finite limit)",
    source=Source(PAPER, "seed Theorem 8 read for full-gradient (live q) training; spec negative control "
                  "'unbounded trajectory'", "§3.8"),
    provenance=("seed", "derived"),
    strength="strengthened",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_sl.full_gradient_statement,
    hypotheses=("full mode", "fixed tau"),
    reading=("Full-gradient training descends L_q, so L_q is itself a Lyapunov function of that flow; measuring "
             "F along it pairs a functional with a flow no source pairs.  What fails is convergence.  "
             "Counterexample (spec §3.8): Z = {-0.3, +0.3}, K = 2, tau = 1/2, p(0) = (0, 2), eta = 1/2: L_q never "
             "increases, p_1 -> 0, p_2 increases at every step (2.804, 3.066, 3.297 after 2e3, 2e4, 2e5 steps; "
             "p_2^2 ~ tau ln t) and dL_q/dp_2 (0, x) < 0 at every x passed, so there is no finite limit.  "
             "Stop-gradient training from the same start sends both prototypes to 0."),
    checks=(Check("unbounded", _lyu.unbounded, {},
                  description="the spec's unbounded-trajectory case (quick/ci 2e4 steps, thorough 2e5)"),),
    controls=(Control("p2_rise_0.1", "p_2 rises by at most 0.1 between steps 2e3 and 2e4 (it rises 0.262)",
                      Check("unbounded", _lyu.unbounded, {"max_rise": 0.1}), targets="p2_rise"),),
    expected=Verdict.REFUTED,
    condition="stopgrad / F-gradient prototypes at fixed tau (ddcl.lyapunov.free_energy)",
)

LYAPUNOV_AS_STATED = Claim(
    id="ddcl.lyapunov.as_stated",
    title="Seed Thm 8 as stated, 'the system converges stably': undetermined (candidate readings disagree)",
    source=Source(PAPER, "seed Theorem 8", "§3.8"),
    provenance=("seed", "reading"),
    strength="as-stated",
    quote=("By constructing a **piecewise free energy function (piecewise free energy functional)** "
           "for the entire system that includes all of the growth, pruning (pruning), and training "
           "stages, it was proved that the system converges stably (Theorem 8)."),
    quote_source="seeds/000_031eb05cef33a3cc.txt.en.md L45",
    statement=_sl.as_stated_statement,
    hypotheses=("the functional, the training mode and the encoder coupling are not given in the sources",),
    reading=("The sources name neither the training mode nor the functional beyond 'piecewise free energy'. "
             "Candidates: ddcl.lyapunov.free_energy (repaired: stop-gradient training at fixed tau, F_rel "
             "non-increasing on pieces, continuous at growth, <= eps_tr at prunings; CONSISTENT) and "
             "ddcl.lyapunov.full_gradient (strengthened: full-gradient training; REFUTED: L_q never increases "
             "but p_2 grows without bound).  The check runs both candidates' decisive checks (at the run's "
             "profile capped at ci) and returns UNKNOWN with their verdicts in details."),
    checks=(Check("candidates", _fg.lyapunov_as_stated,
                  description="the candidates' decisive checks (same functions and arguments)"),),
    controls=(Control("determined", "the reading is determined: all candidate readings agree",
                      Check("candidates", _fg.lyapunov_as_stated, {"variant": "determined"},
                            seed_of="candidates"),
                      targets="candidates_agree"),),
    expected=Verdict.UNKNOWN,
)
