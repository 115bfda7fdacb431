"""verify: the engine that checks the catalogue of claims.

Public API (explicit re-exports; the implementation lives in private modules):

* claim model: :class:`Claim`, :class:`Check`, :class:`Control`, :class:`Source`
* verdicts: :class:`Verdict`, :func:`combine`, :class:`Evidence`, :class:`Counterexample`
* building evidence: :class:`Tally` (``Tally.sub`` names a sub-check), :class:`Gate`, :class:`Observation`,
  :func:`explore`
* profiles: :class:`Profile`, :func:`get_profile`, :data:`PROFILES`
* catalogue: :func:`catalogue`, :class:`Registry`
* running: :func:`run_claims`, :func:`run_claim`, :class:`RunResult`, :class:`ClaimOutcome`
* sweeps: :class:`Sweep`, :func:`run_sweep`, :class:`SweepResult`
* statements as code: :class:`ForAll`, :class:`Exists`, :class:`AllOf`, :func:`statement_of`,
  :func:`perturbations`, :class:`Derivation`, :class:`Step`; :mod:`observe` (pure builders of one
  :class:`Observation`); :func:`figure` (figure data for the report)
* errors: :class:`VerifyError` (base), :class:`InputError`, :class:`InputTypeError`,
  :class:`RegistryError`, :class:`UsageError`, :class:`CheckError`
"""

from . import _observe as observe
from ._claim import (
    PROVENANCE_TAGS,
    ROLES,
    SOURCE_STRENGTHS,
    STRENGTHS,
    Check,
    Claim,
    Control,
    Source,
    derive_seed,
    refuted,
    unknown_evidence,
)
from ._derivation import Derivation, Step, check_derivation
from ._errors import CheckError, InputError, InputTypeError, RegistryError, UsageError, VerifyError
from ._figure import figure
from ._models import ModelCheck, check_model
from ._profile import PROFILES, Profile, get_profile
from ._registry import Registry, catalogue, discover
from ._runner import (
    CheckOutcome,
    ClaimOutcome,
    RunResult,
    SerialExecutor,
    claim_verdict,
    run_claim,
    run_claims,
)
from ._sweep import Sweep, SweepResult, run_sweep
from ._statement import AllOf, Exists, ForAll, is_formula, perturbations, statement_of
from ._tally import SUB_CHECK, Gate, Observation, Tally, explore, reject
from ._verdict import Counterexample, Evidence, Verdict, combine

__version__ = "0.1.0"

__all__ = [
    "PROFILES",
    "PROVENANCE_TAGS",
    "ROLES",
    "SOURCE_STRENGTHS",
    "STRENGTHS",
    "SUB_CHECK",
    "AllOf",
    "Check",
    "ModelCheck",
    "check_model",
    "CheckError",
    "CheckOutcome",
    "Claim",
    "ClaimOutcome",
    "Control",
    "Counterexample",
    "Derivation",
    "Evidence",
    "Exists",
    "ForAll",
    "Gate",
    "InputError",
    "InputTypeError",
    "Observation",
    "Profile",
    "Registry",
    "RegistryError",
    "RunResult",
    "SerialExecutor",
    "Sweep",
    "SweepResult",
    "Source",
    "Step",
    "Tally",
    "UsageError",
    "Verdict",
    "VerifyError",
    "catalogue",
    "check_derivation",
    "claim_verdict",
    "combine",
    "derive_seed",
    "discover",
    "explore",
    "figure",
    "get_profile",
    "is_formula",
    "observe",
    "perturbations",
    "refuted",
    "reject",
    "run_claim",
    "run_claims",
    "run_sweep",
    "statement_of",
    "unknown_evidence",
]
