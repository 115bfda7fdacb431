"""verify: the engine that checks the catalogue of claims.

Public API (explicit re-exports; the implementation lives in private modules):

* claim model: :class:`Claim`, :class:`Check`, :class:`Control`, :class:`Source`
* verdicts: :class:`Verdict`, :func:`combine`, :class:`Evidence`, :class:`Counterexample`
* building evidence: :class:`Tally` (``Tally.sub`` names a sub-check), :class:`Gate`, :class:`Observation`,
  :func:`explore`
* profiles: :class:`Profile`, :func:`get_profile`, :data:`PROFILES`
* catalogue: :func:`catalogue`, :class:`Registry`
* running: :func:`run_claims`, :func:`run_claim`, :class:`RunResult`, :class:`ClaimOutcome`
* statements as code: :class:`ForAll`, :class:`Exists`, :class:`AllOf`, :func:`statement_of`,
  :func:`perturbations`, :class:`Derivation`, :class:`Step`; :mod:`observe` (pure builders of one
  :class:`Observation`); :func:`figure` (figure data for the report)
* errors: :class:`VerifyError` (base), :class:`InputError`, :class:`InputTypeError`,
  :class:`RegistryError`, :class:`UsageError`, :class:`CheckError`
"""

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
from . import _observe as observe
from ._derivation import Derivation, Step, check_derivation
from ._errors import CheckError, InputError, InputTypeError, RegistryError, UsageError, VerifyError
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
from ._figure import figure
from ._statement import AllOf, Exists, ForAll, is_formula, perturbations, statement_of
from ._tally import SUB_CHECK, Gate, Observation, Tally, explore, reject
from ._verdict import Counterexample, Evidence, Verdict, combine

__version__ = "0.1.0"

__all__ = [
    "AllOf",
    "Derivation",
    "Exists",
    "ForAll",
    "Step",
    "check_derivation",
    "figure",
    "is_formula",
    "observe",
    "perturbations",
    "statement_of",
    "PROVENANCE_TAGS",
    "PROFILES",
    "ROLES",
    "SOURCE_STRENGTHS",
    "STRENGTHS",
    "SUB_CHECK",
    "Check",
    "CheckError",
    "CheckOutcome",
    "Claim",
    "ClaimOutcome",
    "Control",
    "Counterexample",
    "Evidence",
    "Gate",
    "InputError",
    "InputTypeError",
    "Observation",
    "Profile",
    "Registry",
    "RegistryError",
    "RunResult",
    "SerialExecutor",
    "Source",
    "Tally",
    "UsageError",
    "Verdict",
    "VerifyError",
    "catalogue",
    "claim_verdict",
    "combine",
    "derive_seed",
    "discover",
    "explore",
    "get_profile",
    "refuted",
    "reject",
    "run_claim",
    "run_claims",
    "unknown_evidence",
]
