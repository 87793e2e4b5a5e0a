"""Start-up cost of the CLI against its floor, as CPU ratios paired in one run.

Each round runs, one after another: `python -c pass`, `python -c 'import z3'`,
`verify --help` and `verify lowering xor5 --wave 64` (bytecode cached), and
takes each child's CPU time (user + system).  It prints the medians and the
two ratios issue #35 sets goals for:

    verify lowering xor5 --wave 64  /  python -c 'import z3'   (goal <= 1.5)
    verify --help                   /  python -c pass          (goal <= 2)

Usage: python benchmarks/bench_startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import z3'": [sys.executable, "-c", "import z3"],
    "verify --help": [sys.executable, "-m", "verify", "--help"],
    "verify lowering xor5 --wave 64": [sys.executable, "-m", "verify", "lowering", "xor5", "--wave", "64"],
}


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed


def cpu_of(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()
    for cmd in CASES.values():  # warm the bytecode caches
        cpu_of(cmd)
    times: dict[str, list[float]] = {k: [] for k in CASES}
    for _ in range(args.rounds):
        for name, cmd in CASES.items():
            times[name].append(cpu_of(cmd))
    med = {k: statistics.median(v) for k, v in times.items()}
    for name, t in med.items():
        print(f"{name:34s} {t * 1000:7.1f} ms CPU (median of {args.rounds})")
    bare, z3, helps, lowering = (med[k] for k in CASES)
    print(f"lowering / import z3: {lowering / z3:.2f} (goal <= 1.5)")
    print(f"--help / python -c pass: {helps / bare:.2f} (goal <= 2)")


if __name__ == "__main__":
    main()
