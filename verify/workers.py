"""Worker pools that end with the command that started them.

`verify prove -j N` and `verify tv -j N` hand their work to a pool of
processes.  Killed with SIGTERM (a CI job's time limit, lit's `--timeout`,
`kill`), a Python process ends at once, without leaving its `with Pool`
block, and the workers would run on as orphans until their current proof
ends (observed: 20 minutes of two cores).  Two guards, both here:

* while a pool is open, SIGTERM in the command raises SystemExit (exit
  status 143, as the signal's default would give), so the pool is
  terminated on the way out;
* each worker watches the command's process (a pidfd on Linux, else its
  pid every half second) and ends when it does, which covers SIGKILL too.
  (A forkserver's worker is the forkserver's child, and a forkserver whose
  command was killed was seen to stay, so the parent is not what to watch.)
"""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


def _watch(command: int) -> None:
    """A worker's initializer: a daemon thread that ends this worker when the
    command process `command` ends (a forkserver's worker is the
    forkserver's child, so the parent's death is not the signal)."""
    try:
        fd = os.pidfd_open(command)
    except (AttributeError, OSError):  # no pidfd (not Linux >= 5.3): poll the pid
        fd = None

    def wait() -> None:
        if fd is not None:
            select.select([fd], [], [])  # readable once the process has ended
        else:
            while True:
                try:
                    os.kill(command, 0)
                except ProcessLookupError:
                    break
                except PermissionError:
                    pass
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=wait, name="verify-watch-command", daemon=True).start()


def _terminated(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def pool(jobs: int, preload: Sequence[str] = (), method: str = "forkserver") -> Iterator[Any]:
    """A multiprocessing pool of `jobs` workers (forkserver where the platform
    has it, else spawn; `method="fork"` for a pool that must share the
    parent's memory), terminated when the block ends, also by SIGTERM."""
    if method not in multiprocessing.get_all_start_methods():
        method = "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver" and preload:
        ctx.set_forkserver_preload(list(preload))
    old = signal.getsignal(signal.SIGTERM)
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread:
        signal.signal(signal.SIGTERM, _terminated)
    try:
        with ctx.Pool(jobs, initializer=_watch, initargs=(os.getpid(),)) as p:
            yield p
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, old)
