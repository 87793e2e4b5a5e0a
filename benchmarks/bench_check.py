"""Time `verify check` on the whole catalogue, as CI runs it.

    python benchmarks/bench_check.py [--jobs 2] [--repeat 3]

Works on a copy of lowerings/ and proofs/ in a temporary directory:

* warm: every record is current, so nothing is proved (hashes only);
* cold: proofs/ removed, so every lowering is proved again (`verify check`
  then exits 1, every record being missing: that is the point);
* cold with --jobs 1, for comparison;
* `verify prove --jobs N` from nothing (writes every record).

Each figure is the median of --repeat runs of the whole process (Python
start-up and imports included).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).parent / "verify")


def timed(cmd: list[str], cwd: Path, n: int, before=None) -> tuple[float, int, str]:
    ts, code, last = [], 0, ""
    for _ in range(n):
        if before:
            before()
        t0 = time.perf_counter()
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        ts.append(time.perf_counter() - t0)
        code, last = r.returncode, (r.stdout.strip().splitlines() or [""])[-1]
    return statistics.median(ts), code, last


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        shutil.copytree(ROOT / "lowerings", work / "lowerings")
        shutil.copytree(ROOT / "proofs", work / "proofs")
        shutil.copy(ROOT / "proofs.lock", work / "proofs.lock")
        saved = work / "proofs.saved"
        shutil.copytree(work / "proofs", saved)

        def no_records():
            shutil.rmtree(work / "proofs", ignore_errors=True)
            (work / "proofs.lock").unlink(missing_ok=True)

        rows = [
            (f"check --jobs {args.jobs}, warm (all current)", [EXE, "check", "--jobs", str(args.jobs)], None),
            (f"check --jobs {args.jobs}, cold (no records)", [EXE, "check", "--jobs", str(args.jobs)], no_records),
            ("check --jobs 1, cold (no records)", [EXE, "check", "--jobs", "1"], no_records),
            (f"prove --jobs {args.jobs}, from nothing", [EXE, "prove", "--jobs", str(args.jobs)], no_records),
        ]
        print(f"cpus: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}; "
              f"python {sys.version.split()[0]}")
        for label, cmd, before in rows:
            med, code, last = timed(cmd, work, args.repeat, before)
            print(f"{label:<40} {med:7.2f} s  exit {code}  | {last}")


if __name__ == "__main__":
    main()
