"""Every single wait (s_nop, s_wait_alu, s_waitcnt, s_wait_dscnt) of every
catalogue lowering deleted or shortened: how many mutants, their outcomes,
and the slowest one.  A mutant must be refuted (or unknown: never proved),
or leave no hazard/wait finding, or be in tests/test_hazard_mutants.py's
HARMLESS list (proved with the finding: the proof shows the guarded value
reaches no output).  Prints numbers; exits 1 on a mutant outside those.

    python benchmarks/bench_hazard_mutants.py [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_hazard_mutants import HARMLESS, ROOT, judge, mutants, reason, wait_files


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0, help="stop after N files (0: all)")
    args = ap.parse_args()
    files = wait_files()[: args.limit or None]
    counts: Counter[str] = Counter()
    slowest = (0.0, "")
    bad = []
    t0 = time.perf_counter()
    for p in files:
        rel = str(p.relative_to(ROOT))
        for name, text in mutants(p):
            t = time.perf_counter()
            verdict, findings, used = judge(p, text)
            dt = time.perf_counter() - t
            slowest = max(slowest, (dt, f"{rel} {name} ({verdict})"))
            kind = verdict if verdict != "proved" else "harmless" if findings else "unguarded"
            counts[kind] += 1
            if kind == "harmless" and HARMLESS.get((rel, name)) != reason(used):
                bad.append((rel, name))
    print(f"files: {len(files)}  mutants: {sum(counts.values())}  " +
          "  ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"slowest: {slowest[0]:.1f} s  {slowest[1]}")
    print(f"total: {time.perf_counter() - t0:.0f} s")
    if bad:
        print(f"proved with a finding, not in HARMLESS: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
