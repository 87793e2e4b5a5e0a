"""A progress bar on stderr for long runs (tqdm), shown only where a person
watches: stderr a terminal, not ``--json``, and only once the run has taken
``DELAY`` seconds.  It writes to stderr alone, so no clock reading can change
what a command prints on stdout; the bar clears itself when the run ends.

``VERIFY_PROGRESS_DELAY`` (seconds) overrides the delay (the tests set 0).
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm

DELAY = 2.0


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("VERIFY_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY


class Bar:
    """``with Bar(err, "check", on) as tick: work(progress=tick)``; ``tick(done,
    total, current)`` moves the bar (``current``: what is being worked on)."""

    def __init__(self, err: TextIO, what: str, enabled: bool = True, unit: str = "lowering"):
        shown = enabled and _isatty(err)
        self._bar: Any = (
            tqdm(file=err, desc=what, unit=unit, delay=_delay(), leave=False, dynamic_ncols=True, total=0)
            if shown else None)

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
        if self._bar is not None:
            self._bar.close()


def _isatty(f: TextIO) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False
