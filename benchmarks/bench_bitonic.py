"""How long `verify lowering` takes on the bitonic sorts (docs/bitonic.md):
the goal is under 60 s for the wave64 sort (64-lane tiles) on this machine.

    python benchmarks/bench_bitonic.py [--all] [--repeat N]

Runs `verify lowering NAME --target T` in a fresh process per run (the cold
cost a user sees: imports, the per-stage queries, the 0-1 check, the one
concrete run against the spec) and prints wall and CPU seconds and the
verdict.  The default is the two wave64 sorts (gfx942 and gfx1100); --all
adds every tile size.  CPU seconds are the better measure on a shared
machine: wall time grows with the load.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = [("bitonic_t64_w64_gfx9", "gfx942"), ("bitonic_t64_w64_gfx11", "gfx1100")]
MORE = [(f"bitonic_t{n}_w{w}", t) for w, t in ((32, "gfx1100"), (64, "gfx942")) for n in (2, 4, 8, 16, 32)]


def run(name: str, target: str) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "verify", "lowering", name, "--target", target],
                       cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdict = next((ln.split()[0] for ln in p.stdout.splitlines()[1:2]), f"exit {p.returncode}")
    return wall, cpu, verdict


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", action="store_true", help="every tile size, not only the wave64 sorts")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    print(f"{'lowering':<24} {'target':<8} {'wall s':>7} {'cpu s':>7}  verdict")
    for name, target in CASES + (MORE if args.all else []):
        for _ in range(args.repeat):
            wall, cpu, verdict = run(name, target)
            print(f"{name:<24} {target:<8} {wall:7.1f} {cpu:7.1f}  {verdict}")


if __name__ == "__main__":
    main()
