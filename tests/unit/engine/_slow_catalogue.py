"""A catalogue of slow claims in a temporary package, for the interruption and dask tests.

``slow.fast`` finishes at once; ``slow.s0`` .. ``slow.s3`` sleep (about a minute) until stopped.  Every
check writes a marker line (``fast``/``start``/``swallowed`` and its pid) to ``$VERIFY_TEST_MARKERS/log``,
so a test knows when to send its signal.  With ``VERIFY_TEST_SWALLOW`` set, the first Ctrl-C inside a
slow check is swallowed, as Python drops one raised inside a gc callback.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

__all__ = ["SLOW_CLAIMS", "write_slow_catalogue"]

SLOW_CLAIMS = textwrap.dedent('''
    import os
    import time

    from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted


    def _mark(text):
        with open(os.path.join(os.environ["VERIFY_TEST_MARKERS"], "log"), "a") as fh:
            fh.write(f"{text} {os.getpid()}\\n")


    def fast(*, seed, profile, refute=False):
        _mark("fast")
        if refute:
            return Evidence(Verdict.REFUTED, instances=1, counterexample=refuted("1 > 0"))
        return Evidence(Verdict.CERTIFIED, instances=1)


    def slow(*, seed, profile):
        _mark("start")
        if os.environ.get("VERIFY_TEST_SWALLOW"):
            try:  # the first Ctrl-C is lost, as Python drops one raised inside a gc callback
                for _ in range(600):
                    time.sleep(0.1)
            except KeyboardInterrupt:
                _mark("swallowed")
                time.sleep(60)  # the repeated request must cut a long sleep short too
        for _ in range(600):
            time.sleep(0.1)
        return Evidence(Verdict.CERTIFIED, instances=1)


    def _claim(cid, fn):
        return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"), statement="s",
                     reading="r", checks=(Check("main", fn),),
                     controls=(Control("ctrl", "false", Check("main", fast, {"refute": True})),),
                     expected=Verdict.CERTIFIED, strength="derived")


    CLAIMS = (_claim("slow.fast", fast),) + tuple(_claim(f"slow.s{k}", slow) for k in range(4))
''')

def write_slow_catalogue(root: Path, package: str) -> tuple[dict[str, str], Path]:
    """Write ``package`` (papers: ``slow``) under ``root``; return the environment that imports it and
    sends markers to a fresh folder, and the marker log's path."""
    pkg = root / package
    (pkg / "slow").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "slow" / "__init__.py").write_text("")
    (pkg / "slow" / "claims.py").write_text(SLOW_CLAIMS)
    markers = root / "markers"
    markers.mkdir()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["VERIFY_TEST_MARKERS"] = str(markers)
    return env, markers / "log"
