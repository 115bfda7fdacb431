"""The ddcl torch checks never convert a tensor that requires grad to a Python float.

``float(t)`` on such a tensor emits a UserWarning; under pytest's ``filterwarnings = error`` (and in
any caller that escalates warnings) that warning is an exception, which would turn the check's
outcome into a crash / UNKNOWN instead of its verdict.  Values are detached first.
"""

from __future__ import annotations

import warnings

from theorems.ddcl_incrt import _checks_gradients as grad
from verify import Verdict, get_profile


def test_autograd_check_emits_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = grad.autograd(seed=0, profile=get_profile("quick"))
    assert ev.level is Verdict.CONSISTENT


def test_block_detached_control_emits_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = grad.autograd(seed=0, profile=get_profile("quick"), variant="block_detached")
    assert ev.level is Verdict.REFUTED
