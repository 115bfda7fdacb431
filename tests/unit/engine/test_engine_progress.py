"""The progress bar of ``verify run``: per finished task at one worker and at two, elapsed time and the
slowest running check, on a terminal only.

No test needs a real terminal: the bar writes to an injected stream that says it is a TTY (``FakeTTY``),
and the CLI tests swap ``sys.stderr`` for one.
"""

from __future__ import annotations

import dataclasses
import io
import time

import pytest

from verify import Check, Claim, Control, Evidence, Source, Verdict, refuted, run_claims
from verify._cli import EXIT_FAILED, main
from verify._progress import ProgressBar


def quick(*, seed, profile, level="CERTIFIED", sleep=0.0):
    time.sleep(sleep)
    v = Verdict.parse(level)
    return Evidence(v, instances=1, seeds=(seed,),
                    counterexample=refuted("pinned", margin=-1.0) if v is Verdict.REFUTED else None)


def _claim(cid, n_checks, sleep=0.0):
    kw = {"strength": "derived"} if "strength" in {f.name for f in dataclasses.fields(Claim)} else {}
    return Claim(id=cid, title=cid, source=Source("0000.00000", "Thm 1", "§1"), statement="s",
                 reading="r",
                 checks=tuple(Check(f"c{k}", quick, {"sleep": sleep}) for k in range(n_checks)),
                 controls=(Control("ctrl", "false", Check("c0", quick, {"level": "REFUTED"})),),
                 expected=Verdict.CERTIFIED, **kw)


class Recorder:
    def __init__(self):
        self.events = []

    def started(self, label):
        self.events.append(("start", label))

    def __call__(self, label, done, total):
        self.events.append(("done", label, done, total))


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_one_worker_reports_each_task_as_it_finishes():
    """At one worker every task is reported finished before the next one starts (not in batches)."""
    rec = Recorder()
    r = run_claims([_claim("p.a", 3), _claim("p.b", 2)], workers=1, progress=rec)
    assert r.passed
    labels = ["p.a c0", "p.a c1", "p.a c2", "p.a ctrl", "p.b c0", "p.b c1", "p.b ctrl"]
    expected = []
    for k, lab in enumerate(labels, 1):
        expected += [("start", lab), ("done", lab, k, len(labels))]
    assert rec.events == expected


def test_plain_callable_progress_still_works_at_one_and_two_workers():
    """``progress(label, done, total)`` without ``started``: called once per task, done = 1..total."""
    for workers in (1, 2):
        calls = []
        run_claims([_claim("p.a", 3)], workers=workers, progress=lambda *a: calls.append(a))
        assert [c[1] for c in calls] == [1, 2, 3, 4] and {c[2] for c in calls} == {4}
        assert sorted(c[0] for c in calls) == ["p.a c0", "p.a c1", "p.a c2", "p.a ctrl"]


def test_two_workers_report_each_task_and_when_it_started():
    rec = Recorder()
    run_claims([_claim("p.a", 3, sleep=0.6)], workers=2, progress=rec)
    done = [e for e in rec.events if e[0] == "done"]
    assert [e[2] for e in done] == [1, 2, 3, 4]
    starts = [e[1] for e in rec.events if e[0] == "start"]
    assert len(starts) == len(set(starts))  # each at most once
    # the slow checks were seen running before they finished
    for lab in ("p.a c0", "p.a c1", "p.a c2"):
        if ("start", lab) in rec.events:
            assert rec.events.index(("start", lab)) < next(
                k for k, e in enumerate(rec.events) if e[0] == "done" and e[1] == lab)
    assert sum(("start", f"p.a c{k}") in rec.events for k in range(3)) >= 2


def test_bar_shows_count_elapsed_and_slowest_running():
    now = [100.0]
    bar = ProgressBar(FakeTTY(), total=10, width=120, clock=lambda: now[0])
    with bar:
        bar.started("x.first a")
        now[0] += 2.0
        bar.started("x.second b")
        bar("x.done c", 3, 10)
        now[0] += 63.0
        line = bar.render()
    assert "3/10" in line and "1:05" in line
    assert "slowest: x.first a 65.0s" in line
    assert "######" in line and line.count("#") == 6  # 3/10 of 20 cells
    out = bar.stream.getvalue()
    assert out.endswith("\r\x1b[2K")  # the line is erased at the end
    bar2 = ProgressBar(FakeTTY(), total=4, width=60, clock=lambda: now[0])
    bar2.started("a.very.long.claim.identifier.that.does.not.fit check_name")
    line = bar2.render()
    assert len(line) <= 59 and line.endswith("s") and "..." in line


def test_bar_redraws_while_a_check_runs_in_the_calling_thread():
    """At one worker the check runs in the runner's thread; the bar's own thread keeps the elapsed
    time and the running check on screen."""
    stream = FakeTTY()
    bar = ProgressBar(stream, total=2, interval=0.05)
    with bar:
        run_claims([_claim("p.slow", 1, sleep=0.5)], workers=1, progress=bar)
    out = stream.getvalue()
    assert out.count("slowest: p.slow c0") >= 3
    assert "2/2" in out


def test_no_output_when_not_a_tty():
    stream = io.StringIO()
    bar = ProgressBar(stream, total=3)
    with bar:
        bar.started("a b")
        bar("a b", 1, 3)
    assert stream.getvalue() == "" and not bar.enabled


@pytest.mark.parametrize("tty, flag, shown", [(True, [], True), (True, ["--no-progress"], False),
                                              (False, [], False)])
def test_cli_progress_only_on_a_terminal(fake_catalogue, monkeypatch, capsys, tty, flag, shown):
    err = FakeTTY() if tty else io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    code = main(["--catalogue", fake_catalogue, "run", "--workers", "1", *flag])
    assert code == EXIT_FAILED  # the fake catalogue has failing claims on purpose
    text = err.getvalue()
    assert ("verify [" in text) is shown
    assert ("\r" in text) is shown
    out = capsys.readouterr().out
    assert "verify [" not in out and "demo.good" in out
