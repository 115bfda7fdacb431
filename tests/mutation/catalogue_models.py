"""Mutations of the model-level checks (users' models against the theory, issue 12).

Each breaks how a model check reads its observables off the user's model; the user-model tests (which
run the toolkit's own and the examples' correct models) must then see a correct model refuted.
"""

from ._model import Mutation

DDCL = "pytest:tests/unit/ddcl_incrt/test_ddcl_user_models.py"
DDCL_SIGNS = DDCL + "::test_temperature_sign_laws_on_a_user_block"
DDCL_LYAPUNOV = DDCL + "::test_free_energy_descent_on_the_toolkit_block_records_its_budget"
DDCL_AMP = DDCL + "::test_amplification_on_a_user_block_reads_both_hessians"
DDCL_PRUNE = DDCL + "::test_pruning_margin_on_a_user_block_exercises_the_premise"
DDCL_PRUNE_VACUOUS = DDCL + "::test_pruning_margin_without_a_met_premise_is_unknown"
DDCL_TRAINED = DDCL + "::test_a_trained_user_dictionary_beats_m_over_d_and_keeps_nothing_once_collapsed"
DDCL_BATCHED = DDCL + "::test_the_batched_program_takes_the_sequential_steps"
FOCUS = "pytest:tests/unit/focus_dilution/test_focus_user_models.py"
FOCUS_CONDENSATION = FOCUS + "::test_condensation_rate_of_a_user_transformer_flow"
FOCUS_TRANSVERSE = FOCUS + "::test_transverse_mode_at_the_degenerate_point_of_a_user_transformer"
FOCUS_GROWTH = FOCUS + "::test_focus_growth_from_the_saddle_of_a_user_transformer"
FOCUS_REDISTRIBUTION = FOCUS + "::test_mass_redistribution_along_the_flow_of_a_user_transformer"
FOCUS_OPPOSITE = FOCUS + "::test_opposite_motion_of_a_user_transformer_flow"
FOCUS_DETACHED = FOCUS + "::test_a_stop_gradient_on_the_scores_is_caught_only_by_the_redistribution"
FOCUS_DYN = "theorems/focus_dilution/_model_checks_dynamics.py"
INTERP = "pytest:tests/unit/interpolation/test_interp_user_models.py"
INTERP_TIKHONOV = INTERP + "::test_tikhonov_upper_bound_with_a_user_sublayer_in_the_tau1_parametrisation"


def _m(id, path, old, new, kills, why):
    return Mutation(id=id, path=path, old=old, new=new, kills=kills, why=why, family="check")


MUTATIONS: list[Mutation] = [
    _m("models.ddcl_variance_dropped", "theorems/ddcl_incrt/_model_checks_dictionary.py",
       '"V": float(parts.V),', '"V": 0.0,',
       (DDCL,), "the decomposition model check forgets the prototype variance V"),
    _m("models.ddcl_assignments_of_wrong_sample", "theorems/ddcl_incrt/_model_checks_dictionary.py",
       "q = model.assignments(z, P)[0]", "q = model.assignments(Z[-1:], P)[0]",
       (DDCL,), "the gradient model check reads the assignments of another sample"),
    _m("models.ddcl_free_energy_step_too_long", "theorems/ddcl_incrt/_model_checks_dynamics.py",
       "eta, steps, worst = 0.5, 25, 0.0", "eta, steps, worst = 2.5, 25, 0.0",
       (DDCL_LYAPUNOV,), "the free-energy model check trains beyond the admissible step eta <= 1/2"),
    _m("models.ddcl_free_energy_pair_reversed", "theorems/ddcl_incrt/_model_checks_dynamics.py",
       "rise, pair = F_next - F_prev, (F_prev, F_next)", "rise, pair = F_next - F_prev, (F_next, F_prev)",
       (DDCL_LYAPUNOV,), "the free-energy model check records the step's values in the wrong order"),
    _m("models.ddcl_sign_laws_second_moment", "theorems/ddcl_incrt/_model_checks_dynamics.py",
       "var = float((qk * dk ** 2).sum() - (qk * dk).sum() ** 2)", "var = float((qk * dk ** 2).sum())",
       (DDCL_SIGNS,), "the sign-law model check reads the second moment of d for its variance"),
    _m("models.ddcl_sign_laws_entropy_sign", "theorems/ddcl_incrt/_model_checks_dynamics.py",
       "F = Lq - t * H", "F = Lq + t * H",
       (DDCL_SIGNS,), "the sign-law model check differentiates L_q + tau H for the free energy"),
    _m("models.ddcl_amplification_counts_swapped", "theorems/ddcl_incrt/_model_checks_collapse.py",
       "{N_OLD: n_old, N_NEW: n_new,", "{N_OLD: n_new, N_NEW: n_old,",
       (DDCL_AMP,), "the amplification model check presents the counts before and after growth swapped"),
    _m("models.ddcl_amplification_channel_not_appended", "theorems/ddcl_incrt/_model_checks_collapse.py",
       "n_new, u_new, tol_new = _unstable_count(model, Zx, tau, dtype)",
       "n_new, u_new, tol_new = _unstable_count(model, Zy, tau, dtype)",
       (DDCL_AMP,), "the amplification model check reads the grown count off the features without the head's "
       "channel (a count compared with itself)"),
    _m("models.ddcl_pruning_hessian_at_double_tau", "theorems/ddcl_incrt/_model_checks_collapse.py",
       "n_sub, u_sub, tol = _unstable_count(model, torch.tensor(X[:, :ds], dtype=dtype), tau, dtype)",
       "n_sub, u_sub, tol = _unstable_count(model, torch.tensor(X[:, :ds], dtype=dtype), 2 * tau, dtype)",
       (DDCL_PRUNE,), "the pruning model check reads the Hessian at another temperature than the premise's"),
    _m("models.ddcl_pruning_top_eigenvalue_for_every_mode", "theorems/ddcl_incrt/_model_checks_collapse.py",
       '"lambda_j": float(lf[j - 1]),', '"lambda_j": float(lf[0]),',
       (DDCL_PRUNE,), "the pruning model check takes lambda_1(C_full) as the margin of every mode j"),
    _m("models.ddcl_pruning_vacuous_pass", "theorems/ddcl_incrt/_model_checks_collapse.py",
       "if met == 0 and tally.counterexample is None:", "if False:",
       (DDCL_PRUNE_VACUOUS,), "the pruning model check passes when no instance meets the margin condition"),
    _m("models.ddcl_trained_span_of_initial_prototypes", "theorems/ddcl_incrt/_model_checks_training.py",
       '(P, _) = trained[(mode, sd, "trained")][1]', 'P = trained[(mode, sd, "trained")][0].P',
       (DDCL_TRAINED,), "the trained-dictionary model check reads the span of the initial prototypes, not the "
       "trained ones"),
    _m("models.ddcl_trained_beats_kept_fraction", "theorems/ddcl_incrt/_model_checks_training.py",
       "di > B.shape[1] / d)", "di > di)",
       (DDCL_TRAINED,), "the trained-dictionary model check compares the kept fraction with itself instead of m/d"),
    _m("models.ddcl_trained_collapse_run_skipped", "theorems/ddcl_incrt/_model_checks_training.py",
       "COLLAPSE_STEPS, CHECK_EVERY = 3000, 100", "COLLAPSE_STEPS, CHECK_EVERY = 1, 100",
       (DDCL_TRAINED,), "the trained-dictionary model check stops the collapse run after one step"),
    _m("models.ddcl_trained_batch_shares_first_tau", "theorems/ddcl_incrt/_model_training.py",
       '"tau": torch.tensor([runs[i].tau for i in idx], dtype=dtype)',
       '"tau": torch.tensor([runs[idx[0]].tau for i in idx], dtype=dtype)',
       (DDCL_BATCHED,), "the batched training gives every run of a group the first run's temperature"),
    _m("models.focus_attention_entry_misplaced", "theorems/focus_dilution/_model_checks_spectra.py",
       "ik = iq + M * MK", "ik = iq + M * MK + 1",
       (FOCUS,), "the saddle model check reads c off the wrong Hessian entry (W_K[0, 1] against W_Q[0, 0]; shifting both indices would read c_H of the second attention pair, the same value)"),
    _m("models.focus_condensation_fits_energy", "theorems/focus_dilution/_model_checks_dynamics.py",
       "rate, _ = fit_rate(t, s1, 20 * eps, 0.1)", "rate, _ = fit_rate(t, s1 ** 2, 20 * eps, 0.1)",
       (FOCUS_CONDENSATION,), "the condensation model check fits the growth of sigma1^2, not sigma1"),
    _m("models.focus_transverse_attention_scale", "theorems/focus_dilution/_model_checks_spectra.py",
       "WQ[0, 0] = WK[0, 0] = float(ctx.sqrt(pt.kappa))", "WQ[0, 0] = WK[0, 0] = float(pt.kappa)",
       (FOCUS_TRANSVERSE,), "the transverse model check embeds the attention scale as kappa, not sqrt(kappa)"),
    _m("models.focus_growth_stable_eigenvector", FOCUS_DYN,
       "u = V[n0:, -1] / max(float(np.linalg.norm(V[n0:, -1])), 1e-300)",
       "u = V[n0:, 0] / max(float(np.linalg.norm(V[n0:, 0])), 1e-300)",
       (FOCUS_GROWTH,), "the focus-growth model check compares the direction with the most stable eigenvector"),
    _m("models.focus_growth_least_frequent_key", FOCUS_DYN,
       "for k in [k for k in range(d) if pe[k] == max(pe)]:", "for k in [k for k in range(d) if pe[k] == min(pe)]:",
       (FOCUS_GROWTH,), "the focus-growth model check reads the attention on the least frequent key"),
    _m("models.focus_growth_toolkit_flow", FOCUS_DYN,
       "t, fine, coarse = _paired_flows(model, ch, theta0, t_end, lambda x, n0=n0: float((x[n0:] ** 2).sum()) > 2 * hi)",
       "t, fine, coarse = _paired_flows(__import__('theorems.focus_dilution.models', fromlist=['M'])"
       ".ToolkitTransformer(), ch, theta0, t_end, lambda x, n0=n0: float((x[n0:] ** 2).sum()) > 2 * hi)",
       (FOCUS_GROWTH,), "the focus-growth model check integrates the toolkit's flow instead of the user's"),
    _m("models.focus_redistribution_toolkit_flow", FOCUS_DYN,
       "t, fine, coarse = _paired_flows(model, ch, theta0, t_end, lambda x: float(kappa(x.numpy())) > 2 * hi)",
       "t, fine, coarse = _paired_flows(__import__('theorems.focus_dilution.models', fromlist=['M'])"
       ".ToolkitTransformer(), ch, theta0, t_end, lambda x: float(kappa(x.numpy())) > 2 * hi)",
       (FOCUS_DETACHED,), "the redistribution model check integrates the toolkit's flow instead of the user's"),
    _m("models.focus_redistribution_motion_sign", FOCUS_DYN,
       "gp = _perp(g[sel], ch.pi)", "gp = -_perp(g[sel], ch.pi)",
       (FOCUS_REDISTRIBUTION,), "the redistribution model check reads the embedding's motion with the wrong sign"),
    Mutation(id="models.focus_redistribution_loose_tolerance", path=FOCUS_DYN,
             old="err=RHO_TOL + e_rk4 + e_float)", new="err=1000 * RHO_TOL + e_rk4 + e_float)",
             kills=(FOCUS_DETACHED,), family="tolerance",
             why="the redistribution model check allows 1 instead of the o(kappa) allowance 1e-3 (the stop-gradient "
                 "model's 0.5 deviation passes)"),
    _m("models.focus_opposite_motion_rarest_first", FOCUS_DYN,
       'order = np.argsort(-np.asarray(ch.pi, dtype=float), kind="stable")',
       'order = np.argsort(np.asarray(ch.pi, dtype=float), kind="stable")',
       (FOCUS_OPPOSITE,), "the opposite-motion model check sorts the tokens rarest first"),
    _m("models.focus_opposite_motion_witness_negative", FOCUS_DYN,
       "pos = (r > 0).all(axis=0)", "pos = (r < 0).all(axis=0)",
       (FOCUS_OPPOSITE,), "the opposite-motion model check counts the leading negative components for its witness k"),
    _m("models.interp_tau_above_certificate", "theorems/interpolation/models.py",
       "tau = float(cert.tau_c) / 2", "tau = float(cert.tau_c) * 50",
       (INTERP,), "the softmax model check runs far above the certified temperature"),
    _m("models.interp_hardmax_budget_unsquared", "theorems/interpolation/models.py",
       "tol=D.d * budget ** 2)", "tol=D.d * budget)",
       (INTERP,), "the hardmax model check compares d_H^2 with the network budget unsquared (a 1e-7 relative "
                  "error passes)"),
    _m("models.interp_tikhonov_tau0_above_certificate", "theorems/interpolation/models.py",
       "tau0 = Fraction(cert.tau_c)", "tau0 = 50 * Fraction(cert.tau_c)",
       (INTERP_TIKHONOV,), "the Tikhonov model check absorbs a temperature far above the certified tau_c"),
    _m("models.interp_tikhonov_regulariser_doubled", "theorems/interpolation/models.py",
       '"inf_J_epsilon": E + float(eps * n2)', '"inf_J_epsilon": E + float(2 * eps * n2)',
       (INTERP_TIKHONOV,), "the Tikhonov model check evaluates J_eps with the regulariser counted twice"),
]
