"""Time `verify synth ... --max-ops 4`, whose claim is a lower bound over
every DPP16 control, row/bank mask, bound_ctrl and fi (verify/synth/bound.py).

    python benchmarks/bench_synth_bound.py [--runs 3] [--case all]

Each case runs the command as a user would (a fresh process, `--json`) and
prints the wall seconds (median of --runs), the cost, whether the bound holds,
its window, relaxed moves and states.  The goal
(issue 15): the first case, gfx9 wave64 __shfl_xor mask 5 width 16, under 10 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "xor5_gfx9": ["cuda.shfl_xor", "mask=5", "width=16", "--target", "gfx9", "--wave", "64"],
    "xor12_gfx9": ["cuda.shfl_xor", "mask=12", "width=16", "--target", "gfx9", "--wave", "64"],
    "xor16_gfx1100_w64": ["cuda.shfl_xor", "mask=16", "width=32", "--target", "gfx1100", "--wave", "64"],
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--case", default="xor5_gfx9", help=f"one of {', '.join(CASES)}, or all")
    args = ap.parse_args()
    names = list(CASES) if args.case == "all" else [args.case]
    for name in names:
        cmd = [sys.executable, "-m", "verify", "synth", *CASES[name], "--max-ops", "4", "--json"]
        times, data = [], None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
            times.append(time.perf_counter() - t0)
            data = json.loads(out)
        assert data is not None
        b = data["bound"] or {}
        print(f"{name}: {statistics.median(times):.2f} s (runs: {', '.join(f'{t:.2f}' for t in times)}); "
              f"cost {data['cost']}; bound holds: {b.get('holds')}; window {b.get('window')}; "
              f"relaxed moves {b.get('moves')}, states {b.get('states')}; "
              f"dpp16 instances {b.get('instances', {}).get('dpp16')}")
    return 0


if __name__ == "__main__":  # --write: what it prints becomes its measured block (docblock.py)
    import docblock

    sys.exit(docblock.run(main, "bench_synth_bound"))
