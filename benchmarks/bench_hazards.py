"""The cost of hazard checking on the catalogue: for every lowering and
every target it declares (and each wave size the target runs), the static
check (`hazards.check`, the warnings) and the machine's question before
each instruction (`hazards.window`), without the solver.

    python benchmarks/bench_hazards.py [--repeat 5] [--lowerings DIR]

Prints the median CPU time (the process's, so that other load on the machine
counts less) over --repeat passes of the whole catalogue, split into
the two, and the number of (lowering, target, wave) instances and findings.
The same script runs on an older checkout (PYTHONPATH=that checkout) to
compare: it uses only the two functions' first positional arguments.

Measured 2026-11-29 on the shared 2-core machine (load 3-6), three runs each,
median of 2 passes (CPU seconds): before the GFX12/GFX11 scans (main at
78cb195) 1.40-1.48 s on its catalogue; after, 1.25-1.51 s on this one; the
same 371 non-synth files under both: 1.02-1.17 s before, 1.10-1.17 s after.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from verify import catalog
from verify.hazards import check, window
from verify.lowering_file import load_lowering
from verify.target import resolve_all


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--lowerings", help="the catalogue's directory (default: this checkout's): the same files "
                                        "for two checkouts compared")
    args = ap.parse_args()
    work = []
    files = sorted(Path(args.lowerings).rglob("*.s")) if args.lowerings else catalog.lowering_files()
    for p in files:
        if "_gen" in Path(p).parts:
            continue
        low = load_lowering(p)
        for t in resolve_all(low.targets):
            if any(w in t.waves for w in low.waves):
                work.append((low.program, t))
    t_check: list[float] = []
    t_window: list[float] = []
    found = 0
    for _ in range(args.repeat):
        t0 = time.process_time()
        n = 0
        for prog, t in work:
            n += len(check(prog, t))
        t1 = time.process_time()
        m = 0
        for prog, t in work:
            for k in range(len(prog)):
                m += len(window(prog, k, t))
        t2 = time.process_time()
        t_check.append(t1 - t0)
        t_window.append(t2 - t1)
        found = n + m
    print(f"{len(work)} (lowering, target) instances, {sum(len(p) for p, _ in work)} instructions, "
          f"{found} findings")
    print(f"check  (warnings): median {statistics.median(t_check) * 1000:.0f} ms")
    print(f"window (machine):  median {statistics.median(t_window) * 1000:.0f} ms")
    print(f"total:             median {statistics.median(a + b for a, b in zip(t_check, t_window)) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
