"""verify/_heap.py: the collector's settings of a catalogue run.  Each test runs in a fresh interpreter
(the settings are process-wide and the test process must keep its own)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_settle_freezes_what_is_alive_and_raises_the_young_threshold():
    out = _run("""
        import gc
        from verify._heap import YOUNG_THRESHOLD, settle
        before = gc.get_freeze_count()
        settle()
        print(before == 0, gc.get_freeze_count() > 1000, gc.get_threshold() == YOUNG_THRESHOLD)
    """)
    assert out == "True True True"


def test_after_task_settles_only_after_many_new_modules_and_only_where_settle_ran():
    out = _run("""
        import gc, sys, types
        from verify import _heap
        default = gc.get_threshold()
        _heap.after_task()  # never settled: nothing changes, however many modules arrive
        for k in range(_heap.NEW_MODULES + 5):
            sys.modules[f"_heap_probe_{k}"] = types.ModuleType(f"_heap_probe_{k}")
        _heap.after_task()
        untouched = gc.get_freeze_count() == 0 and gc.get_threshold() == default
        _heap.settle()
        frozen = gc.get_freeze_count()
        _heap.after_task()  # no new module since: no second settle
        same = gc.get_freeze_count() == frozen
        junk = [[object() for _ in range(100)] for _ in range(100)]
        for k in range(_heap.NEW_MODULES):
            sys.modules[f"_heap_more_{k}"] = types.ModuleType(f"_heap_more_{k}")
        _heap.after_task()  # a large library arrived: what is alive now is frozen too
        print(untouched, same, gc.get_freeze_count() > frozen)
    """)
    assert out == "True True True"
