"""verify.workers: a killed command leaves no worker running (`verify tv -j 2`
killed by SIGTERM once left two workers proving for 20 minutes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import os, sys, time
from verify.workers import pool

def work(k):
    os.write(1, f"worker {os.getpid()}\n".encode())
    time.sleep(60)
    return k

if __name__ == "__main__":
    with pool(2, method=sys.argv[1]) as p:
        print(p.map(work, range(2), chunksize=1), flush=True)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("method, sig", [("forkserver", signal.SIGTERM), ("forkserver", signal.SIGKILL),
                                         ("fork", signal.SIGTERM)])
def test_workers_end_with_the_command(tmp_path, method, sig):
    script = tmp_path / "w.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE, text=True,
                            cwd=os.getcwd())
    assert proc.stdout is not None
    workers = [int(proc.stdout.readline().split()[1]) for _ in range(2)]
    assert all(_alive(w) for w in workers)
    os.kill(proc.pid, sig)
    assert proc.wait(10) == (143 if sig == signal.SIGTERM else -signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a worker outlived its command"
