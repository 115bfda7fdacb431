"""Mutations of the engine code (see tests/mutation/_model.py for the format).

Each one breaks one trust rule of the engine; the test file named in ``kills`` pins that rule (the
rule letters are those of the test modules' docstrings).
"""

from ._model import Mutation

RULES = "pytest:tests/unit/engine/test_engine_rules.py"
ALGEBRA = "pytest:tests/unit/engine/test_engine_verdict_algebra.py"
TRUST = "pytest:tests/unit/engine/test_engine_cli_trust.py"
INTERRUPT = "pytest:tests/unit/engine/test_engine_interrupt.py"
PROGRESS = "pytest:tests/unit/engine/test_engine_progress.py"
DASK = "pytest:tests/unit/engine/test_engine_dask.py"
TARGETS = "pytest:tests/unit/engine/test_control_targets.py"
HTML = "pytest:tests/unit/engine/test_html_report.py"
SWEEP = "pytest:tests/unit/engine/test_sweep.py"

_RUNNER = "verify/_runner.py"
_VERDICT = "verify/_verdict.py"
_TALLY = "verify/_tally.py"
_OBSERVE = "verify/_observe.py"
_CLI = "verify/_cli.py"
_EVALUATE = "verify/_evaluate.py"
_DERIVATION = "verify/_derivation.py"
STATEMENTS = "pytest:tests/unit/engine/test_statements.py"
SHARDS = "pytest:tests/unit/engine/test_engine_shards.py"
DERIV = "pytest:tests/unit/engine/test_derivation_review.py"
EVAL = "pytest:tests/unit/engine/test_statement_eval_review.py"
PERTURB = "pytest:tests/unit/engine/test_perturbations_review.py"
_REPORT = "verify/_report.py"
_HTML = "verify/_html.py"
_SWEEP = "verify/_sweep.py"


def _m(id, path, old, new, kills, why):
    return Mutation(id=id, path=path, old=old, new=new, kills=kills, why=why, family="engine")


MUTATIONS: list[Mutation] = [
    # (a) a control passes only on REFUTED
    _m("engine.control_passes_unless_proved", _RUNNER,
       "return self.evidence.level is Verdict.REFUTED",
       "return self.evidence.level is not Verdict.PROVED",
       (RULES,), "rule (a): a control passes on anything but PROVED (UNKNOWN, CERTIFIED, a crash)"),
    _m("engine.control_passes_on_unknown", _RUNNER,
       "return self.evidence.level is Verdict.REFUTED",
       "return self.evidence.level in (Verdict.REFUTED, Verdict.UNKNOWN)",
       (RULES,), "rule (a): an undecided (or crashed) control counts as refuted"),
    # (b) a corroborating refutation refutes the claim
    _m("engine.corroborating_refutation_ignored", _RUNNER,
       'levels = [c.evidence.level for c in checks if c.kind == "check"]',
       'levels = [c.evidence.level for c in checks if c.kind == "check" and c.role == "decisive"]',
       (RULES, ALGEBRA), "rule (b): only decisive checks may refute the claim"),
    _m("engine.claim_verdict_counts_controls", _RUNNER,
       'levels = [c.evidence.level for c in checks if c.kind == "check"]',
       "levels = [c.evidence.level for c in checks]",
       (RULES, ALGEBRA), "rules (b)/(f): a (REFUTED) control passed to claim_verdict refutes the claim"),
    # (c) weakest decisive level
    _m("engine.corroborating_lowers_level", _RUNNER,
       'return combine(c.evidence.level for c in checks if c.kind == "check" and c.role == "decisive")',
       'return combine(c.evidence.level for c in checks if c.kind == "check")',
       (RULES, ALGEBRA), "rule (c): a corroborating float cross-check lowers an exact claim's level"),
    _m("engine.combine_strongest", _VERDICT,
       "return min(vs, key=lambda v: v.strength)",
       "return max(vs, key=lambda v: v.strength)",
       (RULES, ALGEBRA), "rule (c): the claim takes the strongest level instead of the weakest"),
    # (d) an undecided ball stays UNKNOWN
    _m("engine.ball_unknown_certified", _OBSERVE,
       'if name == "UNKNOWN":\n        return _observation(Verdict.UNKNOWN, margin=_f(margin))',
       'if name == "UNKNOWN":\n        return _observation(Verdict.CERTIFIED, margin=_f(margin))',
       (RULES,), "rule (d): a ball straddling zero is taken as certified"),
    _m("engine.combine_drops_unknown", _VERDICT,
       "return min(vs, key=lambda v: v.strength)",
       "return min([v for v in vs if v is not Verdict.UNKNOWN] or vs, key=lambda v: v.strength)",
       (RULES, ALGEBRA), "rule (d): UNKNOWN is coerced away when another part holds"),
    # (e) a raising check is UNKNOWN with its traceback
    _m("engine.raising_check_consistent", _RUNNER,
       "level=Verdict.UNKNOWN,\n            seeds=(seed,),",
       "level=Verdict.CONSISTENT,\n            seeds=(seed,),",
       (RULES,), "rule (e): a check that crashes counts as a pass"),
    _m("engine.raising_check_no_traceback", _RUNNER,
       'details={"traceback": tb},',
       "details={},",
       (RULES,), "rule (e): the traceback of a crashed check is lost"),
    _m("engine.serial_executor_swallows_interrupt", _RUNNER,
       "except Exception as e:  # noqa: BLE001 - handed to the caller through the future",
       "except BaseException as e:  # noqa: BLE001 - handed to the caller through the future",
       (RULES,), "rules (e)/(i): the one-worker executor stores Ctrl-C in a future instead of stopping"),
    # (f) no evidence is UNKNOWN
    _m("engine.empty_tally_certified", _TALLY,
       'level = Verdict.UNKNOWN\n            notes.append("no instance was examined")',
       'level = Verdict.CERTIFIED\n            notes.append("no instance was examined")',
       (RULES,), "rule (f): a check that examined nothing certifies"),
    _m("engine.combine_empty_proved", _VERDICT,
       "if not vs:\n        return Verdict.UNKNOWN",
       "if not vs:\n        return Verdict.PROVED",
       (RULES, ALGEBRA), "rule (f): no decisive result at all reads as PROVED"),
    # (g) level_cap
    _m("engine.level_cap_ignored", _TALLY,
       "if level_cap is not None and level.holds and level.strength > level_cap.strength:",
       "if False:",
       (RULES,), "rule (g): a float cross-check keeps the exact level it cannot have"),
    _m("engine.level_cap_raises", _TALLY,
       "if level_cap is not None and level.holds and level.strength > level_cap.strength:",
       "if level_cap is not None and level.holds and level.strength != level_cap.strength:",
       (RULES,), "rule (g): the cap also lifts a weaker level up to it"),
    # (h) NaN is UNKNOWN
    _m("engine.nan_close_consistent", _OBSERVE,
       "if not math.isfinite(err) or math.isnan(budget):\n"
       "            return _observation(Verdict.UNKNOWN, error=None)",
       "if not math.isfinite(err) or math.isnan(budget):\n"
       "            return _observation(Verdict.CONSISTENT, error=None)",
       (RULES,), "rule (h): a NaN difference passes a float comparison"),
    _m("engine.close_through_floats", _OBSERVE,
       "    diff = _exact_difference(value, target)\n",
       "    diff = None\n",
       ("pytest:tests/unit/engine/test_engine_tally_precision.py",),
       "rule (h'): Tally.close converts each side to float, hiding a 1e-30 discrepancy at dps 50"),
    _m("engine.le_through_floats", _OBSERVE,
       "    diff = _exact_difference(bound, value)\n",
       "    diff = None\n",
       ("pytest:tests/unit/engine/test_engine_tally_precision.py",),
       "rule (h'): Tally.le compares exact / mpmath sides through floats (1 + 1e-30 <= 1 passes)"),
    _m("engine.nan_le_consistent", _OBSERVE,
       "or math.isnan(b - v):\n        return _observation(Verdict.UNKNOWN)",
       "or math.isnan(b - v):\n        return _observation(Verdict.CONSISTENT)",
       (RULES,), "rule (h): a NaN bound passes an inequality"),
    # (i) interruption
    _m("engine.interrupt_not_flagged", _RUNNER,
       "        interrupted = True\n",
       "        interrupted = False\n",
       (RULES,), "rule (i): an interrupted run is reported as complete"),
    _m("engine.half_run_claim_reported", _RUNNER,
       "if len(cos) != check_count(claim) + len(claim.controls):",
       "if not cos:",
       (RULES,), "rule (i): a claim with only some checks finished is reported (and may pass)"),
    _m("engine.interrupted_run_passes", _RUNNER,
       "return not self.interrupted and all(o.passed for o in self.outcomes)",
       "return all(o.passed for o in self.outcomes)",
       (RULES,), "rule (i): an interrupted run whose finished claims passed counts as passed"),
    _m("engine.interrupted_flag_not_written", _REPORT,
       '"interrupted": result.interrupted,',
       '"interrupted": False,',
       (RULES,), "rule (i): the JSON report of an interrupted run does not say so"),
    _m("engine.pool_workers_left_running", _RUNNER,
       'procs = list((getattr(executor, "_processes", None) or {}).values())',
       "procs = []",
       (INTERRUPT,), "rule (i): on interruption the pool's workers are neither terminated nor reaped"),
    _m("engine.sigterm_not_handled", _RUNNER,
       "for sig in (signal.SIGINT, signal.SIGTERM):\n            self._old[sig]",
       "for sig in (signal.SIGINT,):\n            self._old[sig]",
       (INTERRUPT,), "rule (i): SIGTERM kills verify run without reports or exit 130"),
    _m("engine.interrupt_not_repeated", _RUNNER,
       "                signal.pthread_kill(main, signal.SIGINT)  # a real signal also cuts a sleep short",
       "                pass",
       (INTERRUPT,), "rule (i): a Ctrl-C dropped by Python (raised in a gc callback, as hypothesis "
                     "installs one) or swallowed by a check is never repeated: the run goes on"),
    _m("engine.interrupt_guard_not_used", _CLI,
       "        guard.__enter__()\n",
       "        raise ValueError\n",
       (INTERRUPT,), "rule (i): verify run installs no signal handling (SIGTERM kills it, no repeat)"),
    # (j) exit codes
    _m("engine.exit_interrupted_as_failed", _CLI,
       "        return EXIT_INTERRUPTED\n    return EXIT_OK if result.passed else EXIT_FAILED",
       "        return EXIT_FAILED\n    return EXIT_OK if result.passed else EXIT_FAILED",
       (RULES,), "rule (j): an interrupted run exits 1 instead of 130"),
    _m("engine.exit_failed_as_ok", _CLI,
       "    return EXIT_OK if result.passed else EXIT_FAILED\n\n\ndef _run_model",
       "    return EXIT_OK\n\n\ndef _run_model",
       (RULES,), "rule (j): verify run exits 0 although a claim is off its expected verdict"),
    # (k)-(n) the command's guard rails
    _m("engine.output_paths_unchecked", _CLI,
       '    _check_outputs(args, ("json", "junit", "markdown"))\n',
       "",
       (TRUST,), "rule (k): a bad --json path is found only after the whole run"),
    _m("engine.workers_uncapped", _CLI,
       "workers = max(1, min(requested, tasks, cpus))",
       "workers = max(1, requested)",
       (TRUST,), "rule (l): --workers 64 starts 64 processes on a two-core machine"),
    _m("engine.workers_zero_accepted", _CLI,
       'if args.workers < 1:\n        raise UsageError("--workers must be >= 1")',
       'if args.workers < 0:\n        raise UsageError("--workers must be >= 1")',
       (TRUST,), "rule (l): --workers 0 is accepted"),
    _m("engine.report_not_validated", _CLI,
       "        validate(obj)\n",
       "",
       (TRUST,), "rule (m): verify report crashes (or renders) on a JSON array / claims: null"),
    _m("engine.schema_allows_no_claims", "verify/report.schema.json",
       '{"properties": {"claims": {"minItems": 1}}}',
       '{"properties": {"claims": {"minItems": 0}}}',
       (TRUST,), "rule (m): the schema accepts a finished report with no claim"),
    _m("engine.report_written_in_place", _REPORT,
       "    p.parent.mkdir(parents=True, exist_ok=True)\n    fd, tmp = tempfile.mkstemp(",
       "    p.parent.mkdir(parents=True, exist_ok=True)\n    p.write_text(text)\n    fd, tmp = tempfile.mkstemp(",
       (TRUST,), "rule (n): the report is written in place first (a failure leaves half a file)"),
    _m("engine.temporary_left_behind", _REPORT,
       "        with contextlib.suppress(OSError):\n            os.unlink(tmp)\n        raise",
       "        raise",
       (TRUST,), "rule (n): a failed write leaves its temporary file next to the report"),
    # progress and the dask engine
    _m("engine.serial_progress_batched", _RUNNER,
       "if fut.done():  # ran in-process: report it now, not after the next task",
       "if False:  # ran in-process: report it now, not after the next task",
       (PROGRESS,), "at one worker, a finished task is reported only after the next one has run"),
    _m("engine.dask_scheduler_not_recorded", _RUNNER,
       'scheduler=getattr(executor, "scheduler_info", None))',
       "scheduler=None)",
       (DASK,), "a run on dask does not record its scheduler, workers and their package versions"),
    # control targets: a control is refuted only through the sub-check it declares it targets
    _m("engine.control_target_not_enforced", _RUNNER,
       "            merged[k] = _through_target(item, merged[k])\n",
       "",
       (TARGETS,), "a sub-test that ignores its variant refutes a control, and the control passes for the "
       "wrong reason (the runner no longer checks that the refutation came from the declared target)"),
    _m("engine.sub_check_not_named", _TALLY,
       "and SUB_CHECK not in obs.counterexample.data):",
       "and False):",
       (TARGETS,), "Tally.sub records nothing: no refutation names its sub-check, so every targeted "
       "control is voided (and a wrong one could not be told apart)"),
    _m("engine.gate_asserts_every_sub_check", _TALLY,
       "        return self.active is None or name in self.active\n",
       "        return True\n",
       (TARGETS,), "a Gate asserts every sub-check under a control variant: an unrelated failing sub-check "
       "can refute the control"),
    # the HTML report and sweeps
    _m("engine.html_not_escaped", _HTML,
       'return escape("" if text is None else str(text), quote=True)',
       'return "" if text is None else str(text)',
       (HTML,), "report text (titles, notes, counterexamples) lands in the HTML unescaped: markup and "
       "scripts from a report run in the reader's browser"),
    _m("engine.html_figure_not_written", _HTML,
       "_write_bytes(root / src, _figures.render_png(fig))",
       "_figures.render_png(fig)",
       (HTML,), "a claim page points at figure files that were never written"),
    _m("engine.html_dir_not_checked", "verify/_cli.py",
       "            check_html_dir(args.html)\n",
       "            pass\n",
       (HTML,), "an unwritable --html directory is found only after the whole run, not before (exit 4)"),
    _m("engine.sweep_seed_from_shard", _SWEEP,
       "rec[\"result\"] = _plain(fn(point, seed))",
       "rec[\"result\"] = _plain(fn(point, items[0][2]))",
       (SWEEP,), "a point's seed depends on the shard it landed in: results change with the sharding "
       "and the executor"),
    # statements as code (issue 11)
    _m("engine.strict_relation_lenient", _EVALUATE,
       '    if name == "StrictLessThan":\n        return d < -t\n',
       '    if name == "StrictLessThan":\n        return d < t\n',
       (STATEMENTS,), "a strict relation within the tolerance holds, so a relation and its negation "
       "both hold near equality and a flipped statement is not refuted"),
    _m("engine.float_decision_rounded", _EVALUATE,
       "        holds = bool(_decide_exact(rel, d, tol))\n",
       "        import numpy as np\n        holds = bool(_decide_exact(rel, float(np.float32(d)), tol))\n",
       (EVAL,), "a float relation decided on d rounded to float32 (through a float, not as the exact "
       "rational the double is): it holds or fails one ulp from the tolerance's edge"),
    _m("engine.ball_straddle_true", _EVALUATE,
       "        if a > b:\n            return False\n        return None",
       "        if a > b:\n            return False\n        return True",
       (STATEMENTS,), "a ball straddling the bound is taken as holding (coerced, not UNKNOWN)"),
    _m("engine.derivation_step_unchecked", _DERIVATION,
       "            s, how = _reduced(diff)\n            if s == 0:\n                return \"PROVED\", f\"sympy {how}\", None",
       "            s, how = _reduced(diff)\n            if True:\n                return \"PROVED\", f\"sympy {how}\", None",
       (STATEMENTS,), "every derivation step is 'proved' without comparing it with the previous one"),
    _m("engine.statement_not_shipped", _RUNNER,
       "args = (_run_task, chk, s, prof.name, ctx)",
       "args = (_run_task, chk, s, prof.name, None)",
       (STATEMENTS,), "the runner does not ship the claim's statement: a perturbed (or user) statement "
       "never reaches the checks"),
    _m("engine.statement_part_unnamed", _TALLY,
       "        with self.sub(part):",
       "        with contextlib.nullcontext():",
       (STATEMENTS,), "tally.statement records a part without naming it: controls lose their target"),
    _m("engine.derivation_constant_difference_unknown", _DERIVATION,
       "diff.free_symbols | sp.sympify(prev).free_symbols | sp.sympify(expr).free_symbols,",
       "diff.free_symbols,",
       (DERIV,), "a step off by a constant (p -> p + 1) is never evaluated (its scale misses p): "
       "UNKNOWN instead of REFUTED"),
    _m("engine.derivation_no_point_consistent", _DERIVATION,
       "    if checked == 0:",
       "    if False:",
       (DERIV,), "a spot check whose assumptions exclude every sample point reports CONSISTENT"),
    _m("engine.derivation_strict_conclusion_lenient", _DERIVATION,
       'if isinstance(target, (sp.Lt, sp.Gt)) and chain not in ("<", ">"):',
       "if False:",
       (DERIV,), "a chain of non-strict steps 'proves' a strict statement"),
    _m("engine.derivation_empty_chain_proved", _DERIVATION,
       "    elif not levels or steps_checked == 0:",
       "    elif not levels:",
       (DERIV,), "a one-expression chain whose end matches the statement's formula side is PROVED "
       "without a single checked step"),
    _m("engine.derivation_defined_symbol_observable", _DERIVATION,
       "            if defs and isinstance(target, sp.Basic):",
       "            if False:",
       (DERIV,), "a symbol the derivation defines counts as an observable of the conclusion: a chain "
       "that never starts from its definition 'proves' the statement"),
    _m("engine.derivation_ne_fact_as_eq", _DERIVATION,
       '"StrictGreaterThan": ">", "Unequality": "!="}',
       '"StrictGreaterThan": ">", "Unequality": "="}',
       (DERIV,), "a fact a != b is checked as a = b: a false inequation is PROVED"),
    _m("engine.statement_float_nan_decides", _EVALUATE,
       "        if kind != \"MPArithmetic\" and not math.isfinite(d):  # NaN / inf decides nothing\n"
       "            return None, math.nan\n",
       "",
       (EVAL,), "an infinite float observable is compared (inf - 1 > tol refutes, and its negation "
       "passes) instead of deciding nothing"),
    _m("engine.statement_exact_tolerance_certified", _EVALUATE,
       "        if kind == \"ExactArithmetic\" and tol and decide(expr, values, None)[0] is not True:",
       "        if False:",
       (EVAL,), "exact values that hold a relation only within the tolerance are CERTIFIED"),
    _m("engine.statement_exact_transcendental_crash", _EVALUATE,
       '        if type(ar).__name__ != "ExactArithmetic":\n            raise\n',
       "        raise\n",
       (EVAL,), "exact values in a statement with pi / exp / sqrt crash the check instead of being "
       "decided rigorously in balls"),
    _m("engine.statement_array_strict_lenient", _EVALUATE,
       "return bool((m > 0).all() if strict else (m >= 0).all()), float(m.min())",
       "return bool((m >= 0).all()), float(m.min())",
       (EVAL,), "an array observable decides a strict relation within the tolerance as holding (the "
       "vectorised decision differs from the entrywise exact one)"),
    _m("engine.statement_array_first_entry_only", _EVALUATE,
       "return bool((m > 0).all() if strict else (m >= 0).all()), float(m.min())",
       "return bool(m[0] > 0 if strict else m[0] >= 0), float(m[0])",
       (EVAL,), "an array observable is decided on its first entry only"),
    _m("engine.explore_draws_depend_on_loaded_modules", _TALLY,
       "    hp._get_local_constants = lambda: blank\n    hp.CONSTANTS_CACHE = LRUCache(1024)\n",
       "    pass\n",
       ("pytest:tests/unit/engine/test_explore_reproducible.py",),
       "hypothesis mixes literals of the loaded local modules into explore's draws: the same seed draws "
       "other instances after another claim (or pytest) loaded other modules"),
    _m("engine.model_refutation_as_boundary", _RUNNER,
       "return (self.verdict is Verdict.REFUTED and not self.model and bool(self.strength)",
       "return (self.verdict is Verdict.REFUTED and bool(self.strength)",
       ("pytest:tests/unit/ddcl_incrt/test_ddcl_user_models.py::"
        "test_a_refuted_user_model_is_a_finding_about_the_model_and_its_report_reads_back",),
       "a user's model refuted on a repaired claim is reported as the boundary of the reading, not as a "
       "finding about the model"),
    _m("engine.statement_values_unchecked", _EVALUATE,
       "            if isinstance(v, (str, bool, bytes)) or v is None:",
       "            if False:",
       (EVAL,), "a text or bool observable is parsed as a number ('2' <= 3 CERTIFIED)"),
    _m("engine.arithmetic_integer_tensor", "numerics/arithmetic.py",
       "            dt = v.dtype if v.dtype.is_floating_point else None",
       "            dt = v.dtype",
       (EVAL,), "an integer tensor (a count) among float tensors crashes the statement's evaluation"),
    _m("engine.statement_float_constant_float64", _EVALUATE,
       "            return ar.convert(_float_constant(e))",
       "            return ar.convert(Fraction(*float(e).as_integer_ratio()))",
       (EVAL,), "a 40-digit constant of the statement is rounded to float64 before a 40-digit "
       "comparison: a true statement is refuted at 5e-18"),
    _m("engine.arithmetic_mp_context_digits", "numerics/arithmetic.py",
       "                    dps = max(dps, int(int(part[3]) * 0.30103) + 3)",
       "                    pass",
       (EVAL,), "mpmath values made in a 50-digit block are rounded to the global 15 digits: a 1e-40 "
       "discrepancy passes a 1e-45 tolerance"),
    _m("engine.statement_tol_unchecked", _EVALUATE,
       "    if not math.isfinite(t) or t < 0:",
       "    if False:",
       (EVAL,), "a NaN / infinite / negative tolerance is used (a negative one turns <= into <)"),
    _m("engine.perturb_common_constant", "verify/_statement.py",
       "                if not _equivalent_identity(rel, new_rel):",
       "                if True:",
       (PERTURB,), "a constant scaled on both sides of an identity is offered as a false variant (it "
       "is the same identity, no check can refute it)"),
    _m("engine.perturb_implication_premise", "verify/_statement.py",
       "        if isinstance(expr, sp.Implies) and any(True for _ in _relations(expr.args[1])):",
       "        if False:",
       (PERTURB,), "an implication is perturbed only to P and not Q, which any instance outside the "
       "premise refutes: a check that never meets the premise passes the perturbation test"),
    # sharded checks (issue 14)
    _m("engine.shards_first_level_only", _VERDICT,
       "level = combine(p.level for p in examined) if examined else Verdict.UNKNOWN",
       "level = parts[0].level",
       (SHARDS,), "a sharded check takes its first shard's verdict: a refutation in another shard is lost"),
    _m("engine.shards_crash_ignored", _VERDICT,
       '                or "traceback" in p.details]',
       "                ]",
       (SHARDS,), "a crashed shard is dropped like an empty one: the other shards' CERTIFIED stands for "
       "instances never examined"),
    _m("engine.shards_counterexample_shard_order", _VERDICT,
       "    ce = min(refuting, key=_order)[1] if refuting else None",
       "    ce = refuting[0][1] if refuting else None",
       (SHARDS,), "interleaved shards report the first refuting shard's counterexample, not the "
       "unsharded run's first"),
    _m("engine.shards_instances_first_only", _VERDICT,
       "level=level, instances=sum(p.instances for p in parts),",
       "level=level, instances=parts[0].instances,",
       (SHARDS,), "a sharded check reports one shard's instances as the whole check's"),
    # (o) an inconclusive corroborating check must say why
    _m("engine.corroborating_unknown_ignored", _RUNNER,
       "return self.verdict is self.expected and self.controls_refuted and self.corroboration_decided",
       "return self.verdict is self.expected and self.controls_refuted",
       (RULES,), "rule (o): a corroborating check that silently turns UNKNOWN leaves its claim green"),
    _m("engine.inconclusive_profile_ignored", _RUNNER,
       'inconclusive=chk.inconclusive_at(prof.name) if kind == "check" else "",',
       'inconclusive=chk.inconclusive_at("*") if kind == "check" else "",',
       (RULES,), "rule (o): a declaration made for other profiles excuses an UNKNOWN at this one"),
    _m("engine.declaration_excuses_any_level", _RUNNER,
       "        return self._corroborating_unknown and bool(self.inconclusive)",
       '        return self.role == "corroborating" and bool(self.inconclusive)',
       (RULES,), "rule (o): a declared-inconclusive check passes even when it refutes"),
    _m("engine.every_derivation_shown_only", _RUNNER,
       "return not any(st.is_fact for st in live) and len(live) <= 1",
       "return True",
       (RULES,), "rule (o): every derivation check declares itself display-only, so a derivation whose "
                 "steps stop deciding passes"),
    # the collector's settings (verify/_heap.py) change nothing for a process that did not ask for them
    _m("engine.heap_settles_every_process", "verify/_heap.py",
       "    if _modules_at_settle and len(sys.modules) - _modules_at_settle[0] >= NEW_MODULES:",
       "    if len(sys.modules) - (_modules_at_settle or [0])[0] >= NEW_MODULES:",
       ("pytest:tests/unit/engine/test_engine_heap.py",),
       "a library user's process (run_claims without verify run) has its collector settings changed"),
]

# ---------------------------------------------------------------- numerics.aposteriori (issue 14)
APOST = "pytest:tests/unit/engine/test_engine_aposteriori.py"
_AP = "numerics/aposteriori.py"


def _a(id, old, new, why):
    return Mutation(id=id, path=_AP, old=old, new=new, kills=(APOST,), why=why, family="formula")


MUTATIONS += [
    _a("numerics.aposteriori.weyl_widening_dropped", "    if e_s:\n        core = _merge(",
       "    if False:\n        core = _merge(",
       "Weyl's widening by ||S - G||_2 forgotten: the enclosures are those of the float G, not of S"),
    _a("numerics.aposteriori.gershgorin_offdiagonal_dropped",
       "rho = _fl_up(np.add.reduce(off, 1) * k_off + np.add.reduce(M, 1) * k_err + sl)",
       "rho = _fl_up(np.add.reduce(M, 1) * k_err + sl)",
       "the Gershgorin radius without the off-diagonal mass of V^T G V"),
    _a("numerics.aposteriori.ostrowski_dropped",
       "    out = [[_down(a / d_lo) if a < 0 else _down(a / d_hi), "
       "_upf(b / d_hi) if b < 0 else _upf(b / d_lo), k]",
       "    out = [[a, b, k]",
       "Ostrowski's scaling by 1 -+ delta forgotten: non-orthonormal eigenvectors shift the enclosures"),
    _a("numerics.aposteriori.gram_error_dropped",
       "err = _up(k_err * fro + s_fro)", "err = flint.arb(0)",
       "the rounding error of the float covariance Gram matrix (and of the centring) ignored"),
    _a("numerics.aposteriori.top_not_excluded", "del lo_l[t], hi_l[t]", "lo_t = lo_t",
       "the top-only route's hull of the rest includes the top interval: the top is never simple"),
    _a("numerics.aposteriori.top_by_lowest", "lo_t = max(lo_l)", "lo_t = min(lo_l)",
       "the top-only route takes the lowest Gershgorin interval as the top one"),
    _a("numerics.aposteriori.no_refinement", "        for _ in range(int(steps)):\n            R = (eye",
       "        for _ in range(0):\n            R = (eye",
       "float eigenvectors not refined: ball spectra only as tight as 2**-53"),
    _a("numerics.aposteriori.cluster_not_orthogonalised", "/ np.where(sep, D, 1.0), Rf / 2)",
       "/ np.where(sep, D, 1.0), 0 * Rf)",
       "Ogita-Aishima without the in-cluster orthogonalisation: a repeated eigenvalue's vectors stay "
       "2**-53 apart"),
]

# ---------------------------------------------------------------- numerics.rayleigh (issue 14)
RAYLEIGH = "pytest:tests/unit/engine/test_engine_rayleigh.py"
_RQ = "numerics/rayleigh.py"


def _r(id, old, new, why):
    return Mutation(id=id, path=_RQ, old=old, new=new, kills=(RAYLEIGH,), why=why, family="formula")


MUTATIONS += [
    _r("numerics.rayleigh.centring_dropped", "return [N * x - y * sv for x, y in zip(Mz, s)]",
       "return [N * x for x in Mz]", "X v without the centring term s (s.v): the uncentred second moment"),
    _r("numerics.rayleigh.carry_lost", "        L[1:r + 1] += c\n", "        L[1:r + 1] += 0 * c\n",
       "the limb carries of z = M v dropped: z loses its high part"),
    _r("numerics.rayleigh.kato_temple_dropped",
       "return rho.union(rho + kt) / den if kt <= goal * rho else None",
       "return rho / den if kt <= goal * rho else None",
       "the Rayleigh quotient taken for lambda_max without the Kato-Temple upper widening"),
    _r("numerics.rayleigh.rho_interval_dropped", "rho = (Ea - wid).union(Ea + wid) / nva", "rho = Ea / nva",
       "the float-Gram step's Rayleigh quotient read as exact: c^T (X c - Q y) forgotten"),
    _r("numerics.rayleigh.column_sums_lost", "                Lf[nl] = 1.0\n",
       "                Lf[nl] = 0.0\n",
       "the row of ones in the W product gives zero column sums s: X v loses its centring"),
    _r("numerics.rayleigh.slices_not_rounded", "sig = 1.5 * 2.0 ** (52 + _S * p - u)",
       "sig = 1.5 * 2.0 ** (_S * p - u)",
       "ExtractScalar's sigma too small: the slices are not multiples of 2**(S p), the products not exact"),
    _r("numerics.rayleigh.kato_temple_never_tried",
       "if e2n.bit_length() - 1 <= 2 * vXv.bit_length() - bits - 4:", "if False:",
       "the bit-length shortcut skips Kato-Temple always: even an exact eigenvector gets no enclosure"),
    _r("numerics.rayleigh.lambda2_from_the_top_cluster",
       "alpha = flint.arb(ends[-2][1]) * _pow2(", "alpha = flint.arb(ends[-1][1]) * _pow2(",
       "the gap bound alpha >= lambda_2 read from the top cluster: no Kato-Temple bound, always the exact "
       "route"),
    _r("numerics.rayleigh.wide_slice_weight_lost",
       "return np.array([[x & mask, (x >> wide) << r] for x in v]",
       "return np.array([[x & mask, x >> wide] for x in v]",
       "the high 27-bit slice of v (d < 8) stored without its 2**r: it lands in limb 1 with weight 2**21"),
    _r("numerics.rayleigh.wide_slice_weight_lost_numpy", "out[:, 1] = (vi >> wide) << r",
       "out[:, 1] = vi >> wide",
       "the high 27-bit slice of v (8 <= d <= 32) stored without its 2**r"),
    _r("numerics.rayleigh.one_carry_step", "    for j in range(2):\n", "    for j in range(1):\n",
       "one carry step: limbs of z up to 2**38, the limb-slice products over 2**11 rows no longer exact"),
    _r("numerics.rayleigh.carry_misses_a_row", "r = min(rows + j, top)", "r = min(rows + j - 1, top)",
       "the carries skip the highest row the slice products filled"),
    _r("numerics.rayleigh.limbs_one_short", "+ _S) // _S, k + m)", ") // _S, k + m)",
       "one limb fewer than |z| needs: the top limb exceeds 2**(S + 1) for data at the top of its range"),
    _r("numerics.rayleigh.unit_not_undone", "sw = _scales(k, self.unit)", "sw = _scales(k, 0)",
       "the slices cut from A in its own units (sigma 2**-sh) but the products not scaled back by 2**sh"),
    _r("numerics.rayleigh.gram_step_norm_cross_term",
       "nv = (vv << 2 * L) - (vc << (L + t + 1)) + (cc << 2 * t)", "nv = (vv << 2 * L) + (cc << 2 * t)",
       "|v1|^2 expanded without its cross term 2**(L + t + 1) v.c: the Rayleigh quotient's denominator is "
       "off"),
    _r("numerics.rayleigh.gram_step_residual_cross_term",
       "bK = (XX << 2 * (L + K)) - ((N * Xy) << (L + P + 2 * K + 1)) + ((N * N * yy) << 2 * (P + K))",
       "bK = (XX << 2 * (L + K)) + ((N * N * yy) << 2 * (P + K))",
       "|X v1|^2 expanded without its cross term: the residual norm of the refined vector is wrong"),
    _a("numerics.aposteriori.merge_pair_unordered", "= ivs[::-1] if ivs[1][0] < ivs[0][0] else ivs",
       "= ivs", "the unrolled merge of two intervals takes them in the given order, unsorted"),
    _a("numerics.aposteriori.merge_pair_touching_split", "if x <= b else [[a, b, c], [x, y, z]]",
       "if x < b else [[a, b, c], [x, y, z]]",
       "two intervals that touch are not merged: a shared eigenvalue is counted in both"),
    _m("engine.derivation_zero_test_any_expression", _DERIVATION,
       "if zero_test and name == \"cancel\" and _in_rational_field(e):",
       "if zero_test and name == \"cancel\":",
       ("pytest:tests/unit/engine/test_engine_derivation_zero_test.py",),
       "the conclusion's zero test trusts a nonzero cancel form outside Q(x): sin^2 + cos^2 - 1 is "
       "'not 0'"),
    _m("engine.derivation_rational_field_admits_roots", _DERIVATION,
       "                and all(p.exp.is_Integer for p in e.atoms(sp.Pow))\n",
       "",
       ("pytest:tests/unit/engine/test_engine_derivation_zero_test.py",),
       "Q(x) admits non-integer powers: 1/(sqrt(2) - 1) - sqrt(2) - 1 (zero) is decided 'not 0' by cancel"),
    _m("engine.worker_statement_re_evaluated", _RUNNER,
       "ctx = sealed[claim.id] = exact(context[claim.id])",
       "ctx = sealed[claim.id] = context[claim.id]",
       ("pytest:tests/unit/engine/test_engine_transport.py",),
       "statements and derivations pickled plainly to the workers: Eq(0, 0, evaluate=False) arrives as True"),
    _m("engine.transport_seal_opened_at_first_unpickle", "verify/_transport.py",
       "        return _Sealed, (self.data,)\n", "        return pickle.loads, (self.data,)\n",
       ("pytest:tests/unit/engine/test_engine_transport.py::test_the_seal_survives_a_hop_that_unpickles_and_pickles_again",
        "pytest:tests/unit/engine/test_engine_dask.py::test_a_derivation_fact_reaches_a_dask_worker_as_built"),
       "the seal opens at the first unpickling: a dask scheduler's re-pickling re-evaluates the derivation"),
    _m("engine.transport_evaluates_relations", "verify/_transport.py",
       "return (sp.Add, sp.Mul, sp.Pow), (sp.core.relational.Relational,)",
       "return (sp.Add, sp.Mul, sp.Pow), ()",
       ("pytest:tests/unit/engine/test_engine_transport.py",),
       "the transport keeps sums and products but lets relations re-evaluate (a derivation fact becomes True)"),
    _m("engine.schedule_groups_ignored", "verify/_schedule.py",
       "            by_group.setdefault(g, []).append(t)\n",
       "            by_group.setdefault(f\"{g} {t}\", []).append(t)\n",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "every task its own group: the tasks sharing a memo are spread over the workers"),
    _m("engine.schedule_no_stealing", "verify/_schedule.py",
       "                donors = [v for v in range(len(self._queues)) if self._queues[v]]\n",
       "                donors = []\n",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "an idle worker waits while the other worker's queue is full"),
    _m("engine.schedule_steals_begun_groups", "verify/_schedule.py",
       "            if g not in self._begun[v]:\n",
       "            if True:\n",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "an idle worker takes a group the other has begun: its memo-warm tasks recompute the memo"),
    _m("engine.schedule_steals_single_tasks", "verify/_schedule.py",
       "        if fresh:\n            g = min(",
       "        if False:\n            g = min(",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "an idle worker takes the shortest queued task even when a whole group is untouched (memo recomputed)"),
    _m("engine.schedule_queue_longest_first_across_groups", "verify/_schedule.py",
       "        self._queues = queues\n",
       "        self._queues = [sorted(q, key=lambda t: -cost[t]) for q in queues]\n",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "a queue runs its tasks longest first across groups: every group is begun early, none stays whole"),
    _m("engine.schedule_steals_memo_warm_tasks", "verify/_schedule.py",
       "MIN_STOLEN_SECONDS = 1.0\n", "MIN_STOLEN_SECONDS = 0.0\n",
       ("pytest:tests/unit/engine/test_engine_schedule.py",),
       "an idle worker takes ~0 s tasks of a begun group: no balance gained, the group's memo recomputed"),
    # shipped timing hints (issue 14): a first run packs its long tasks first
    _m("engine.timing_hints_ignored", "verify/_timings.py",
       "return {**shipped_hints(profile), **_remembered(profile)}", "return _remembered(profile)",
       ("pytest:tests/unit/engine/test_engine_shards.py::test_remembered_timings_override_the_shipped_hints",),
       "the shipped hints are never read: a first run orders its tasks by the median guess"),
    _m("engine.timing_hints_override_remembered", "verify/_timings.py",
       "return {**shipped_hints(profile), **_remembered(profile)}",
       "return {**_remembered(profile), **shipped_hints(profile)}",
       ("pytest:tests/unit/engine/test_engine_shards.py::test_remembered_timings_override_the_shipped_hints",),
       "the package's hints override this machine's remembered timings"),
    _m("engine.timing_hints_saved_to_cache", "verify/_timings.py",
       "    data = _remembered(result.profile)  # the hints stay in the package, not in the cache\n",
       "    data = load_timings(result.profile)\n",
       ("pytest:tests/unit/engine/test_engine_shards.py::test_remembered_timings_override_the_shipped_hints",),
       "a run copies the shipped hints into the cache, where they would outlive a refreshed package"),
    # Check.seed_of (issue 14): a control evaluates its false statement on its check's own instances
    _m("engine.seed_of_ignored", _RUNNER,
       "derive_seed(seed, *chk.seed_key(claim.id, item.name))",
       "derive_seed(seed, claim.id, item.name)",
       ("pytest:tests/unit/engine/test_engine_registry.py::test_seed_of_gives_the_named_checks_seed",),
       "seed_of is ignored: a control runs on other instances than the check it declares it shares"),
    _m("engine.seed_of_relay_allowed", "verify/_registry.py",
       "    if target.seed_of:\n", "    if False:\n",
       ("pytest:tests/unit/engine/test_engine_registry.py::test_seed_of_must_name_a_check_that_owns_its_seed",),
       "a seed borrowed from a check that borrows its own: the task's seed is not the named check's"),
    _m("engine.seed_of_cross_claim_unchecked", "verify/_registry.py",
       "                if isinstance(chk.seed_of, tuple):\n", "                if False:\n",
       ("pytest:tests/unit/engine/test_engine_registry.py::test_seed_of_across_claims_is_checked",),
       "a seed_of naming another claim's check is never validated (an unknown claim or check passes)"),
    Mutation(
        id="engine.compiled.max_shift_dropped",
        path="numerics/compiled.py",
        old="out[idx + (0,)] = se.Max(*x[idx])",
        new="out[idx + (0,)] = se.Integer(0)",
        kills=("pytest:tests/unit/engine/test_engine_compiled.py"
               "::test_the_traced_max_shift_keeps_a_kernel_finite_where_exp_overflows",),
        why="the tracing arithmetic's row maximum is 0: compiled softmaxes are unshifted and overflow at "
            "exp(709), where the float64 run of the same code stays finite",
        family="construction",
    ),
    Mutation(
        id="engine.compiled.bind_constants_first",
        path="numerics/compiled.py",
        old="return fn(cat((x, const)))",
        new="return fn(cat((const, x)))",
        kills=("pytest:tests/unit/engine/test_engine_compiled.py::test_bind_and_batches_give_the_unbatched_values",
               "pytest:tests/unit/focus_dilution/test_focus_perf_caches.py::test_full_jac_is_forward_differences"),
        why="a bound kernel reads its fixed inputs where the state goes: every compiled flow field is "
            "evaluated at a scrambled state",
        family="construction",
    ),
    Mutation(
        id="engine.cli.program_skips_atexit",
        path="verify/_cli.py",
        old="            atexit._run_exitfuncs()  # what a normal exit runs, the teardown of every module aside",
        new="            pass",
        kills=("pytest:tests/unit/engine/test_engine_cli.py"
               "::test_the_program_exits_with_the_code_after_the_atexit_handlers",),
        why="the program's hard exit skips the atexit handlers a normal exit runs (a pool's or a logger's "
            "shutdown, a user's handler)",
        family="engine",
    ),
    Mutation(
        id="engine.cli.hypothesis_plugins_loaded",
        path="verify/_cli.py",
        old='    os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")',
        new="    pass",
        kills=("pytest:tests/unit/engine/test_engine_cli.py"
               "::test_the_program_exits_with_the_code_after_the_atexit_handlers",),
        why="the command's process loads every installed hypothesis plugin, whose code may change the "
            "draws (and costs 0.13 s a start)",
        family="engine",
    ),
]
