"""A progress bar on stderr for long runs (tqdm), shown only where a person
watches: stderr a terminal, not ``--json``, and only once the run has taken
``DELAY`` seconds.  It writes to stderr alone, so no clock reading can change
what a command prints on stdout; the bar clears itself when the run ends.

A run that reports its steps (``tick(done, total, current)``: prove, check)
shows a bar with a count; one that does not (a single lowering, asm, tv,
synth) shows the time it has taken.  A background thread redraws the bar
twice a second, so one long proof does not leave the terminal silent.

``VERIFY_PROGRESS_DELAY`` (seconds) overrides the delay (the tests set 0).
"""

from __future__ import annotations

import os
import threading
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm

DELAY = 2.0
REDRAW = 0.5  # seconds between redraws while nothing reports progress


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("VERIFY_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY


def isatty(f: TextIO) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


def _columns(f: TextIO) -> int:
    """The terminal's width (0 where it says none, as a fresh pseudo-terminal does)."""
    try:
        return os.get_terminal_size(f.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0


class Bar:
    """``with Bar(err, "check") as tick: work(progress=tick)``; ``tick(done,
    total, current)`` moves the bar (``current``: what is being worked on).
    With ``steps=False`` it shows only the time taken."""

    def __init__(self, err: TextIO, what: str, enabled: bool = True, unit: str = "lowering", steps: bool = True):
        self._bar: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if enabled and isatty(err):
            # miniters=0: every update may redraw (tqdm's own limits: mininterval and the delay)
            width: dict[str, Any] = {"dynamic_ncols": True} if _columns(err) else {"ncols": 80, "nrows": 24}
            if not steps:  # nothing to count: the time it has taken
                width["bar_format"] = "{desc}: {elapsed}"
            self._bar = tqdm(file=err, desc=what, unit=unit, delay=_delay(), leave=False, miniters=0, total=None,
                             **width)
            self._thread = threading.Thread(target=self._redraw, daemon=True)
            self._thread.start()

    def _redraw(self) -> None:
        while not self._stop.wait(REDRAW):
            self._bar.update(0)

    def __call__(self, done: int, total: int, current: str | None = None) -> None:
        b = self._bar
        if b is None:
            return
        if b.total != total:
            b.total = total
        if current is not None:
            b.set_postfix_str(current, refresh=False)
        b.update(done - b.n)

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._bar is not None:
            self._bar.close()
