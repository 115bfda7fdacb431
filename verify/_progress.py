"""The progress bar of ``verify run``: one line on a terminal, redrawn in place.

``ProgressBar`` is what :func:`~verify.run_claims` accepts as ``progress``: calling it,
``bar(label, done, total)``, records a finished task, and ``bar.started(label)`` a task that began (the
runner calls it just before an in-process task runs, and when a pool reports a task running).  While it
is entered (``with bar:``) a thread redraws the line every ``interval`` seconds, so the elapsed time and
the slowest running check advance even at one worker, where the check runs in the calling thread::

    verify [########------------]  12/40  0:35  slowest: interp.softmax_to_hardmax certify 12.3s

Nothing is written unless the stream is a terminal (``stream.isatty()``); leaving the ``with`` block
erases the line.  The stream is injectable (tests pass a fake terminal).
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

__all__ = ["ProgressBar"]


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class ProgressBar:
    """A one-line progress bar on ``stream`` (default ``sys.stderr``); quiet unless it is a TTY."""

    def __init__(self, stream: IO[str] | None = None, *, total: int | None = None,
                 interval: float = 0.5, width: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.enabled = bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.enabled = False
        self.total = total
        self.done = 0
        self.interval = interval
        self._width = width
        self._clock = clock
        self._t0 = clock()
        self._running: dict[str, list[float]] = {}  # label -> start times (labels may repeat)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False
        self._io = threading.Lock()  # the ticker and the runner's thread both draw

    # -- the runner's side ------------------------------------------------------------------------
    def started(self, label: str) -> None:
        with self._lock:
            self._running.setdefault(label, []).append(self._clock())

    def __call__(self, label: str, done: int, total: int) -> None:
        with self._lock:
            starts = self._running.get(label)
            if starts:
                starts.pop(0)
                if not starts:
                    del self._running[label]
            self.done, self.total = done, total
        self.draw()

    # -- display -----------------------------------------------------------------------------------
    def slowest(self) -> tuple[str, float] | None:
        """The running task that started first, and how long it has run."""
        now = self._clock()
        with self._lock:
            firsts = [(starts[0], label) for label, starts in self._running.items() if starts]
        if not firsts:
            return None
        t, label = min(firsts)
        return label, now - t

    def render(self) -> str:
        """The line as it would be drawn now (without control characters)."""
        with self._lock:
            done, total = self.done, self.total
        cols = self._width or shutil.get_terminal_size((100, 24)).columns
        bar_w = 20
        if total:
            fill = min(bar_w, bar_w * done // total)
            bar = "#" * fill + "-" * (bar_w - fill)
            count = f"{done}/{total}"
        else:
            bar, count = "-" * bar_w, f"{done}/?"
        line = f"verify [{bar}] {count:>9}  {_clock(self._clock() - self._t0)}"
        slow = self.slowest()
        if slow is not None:
            label, dt = slow
            tail = f"  slowest: {label} {dt:.1f}s"
            room = cols - 1 - len(line)
            if room > 12:
                if len(tail) > room:  # keep the start of the label and the duration
                    keep = room - len(f" {dt:.1f}s") - 3
                    tail = f"  slowest: {label}"[:keep] + "..." + f" {dt:.1f}s"
                line += tail
        return line[: max(cols - 1, 10)]

    def draw(self) -> None:
        if not self.enabled:
            return
        line = self.render()
        with self._io:
            try:
                self.stream.write("\r\x1b[2K" + line)
                self.stream.flush()
                self._drawn = True
            except (OSError, ValueError):  # a closed terminal: stop drawing
                self.enabled = False

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()

    def __enter__(self) -> ProgressBar:
        self._t0 = self._clock()
        if self.enabled:
            self.draw()
            self._thread = threading.Thread(target=self._tick, name="verify-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2 * self.interval + 1)
        if self._drawn:
            try:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
