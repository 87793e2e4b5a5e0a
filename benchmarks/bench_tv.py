"""Time `verify tv` over the corpus (tests/tv/): every function on every
target/wave its RUN lines name, compiled by llvmlite.

    python benchmarks/bench_tv.py [--files GLOB] [--llc CMD]

Prints the median and the slowest proof time per (function, target, wave)
(the solver and the IR/GPU runs; compiling is counted apart, once per file and
target/wave), the compile time, and the whole corpus's wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.tv.check import check_file


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default="*.ll", help="a glob under tests/tv (default: all)")
    ap.add_argument("--llc", action="append", default=[], help="an llc command line instead of llvmlite")
    args = ap.parse_args()
    files = sorted((ROOT / "tests" / "tv").glob(args.files))
    t_all = time.perf_counter()
    rows: list[tuple[float, str]] = []
    verdicts: dict[str, int] = {}
    for p in files:
        t0 = time.perf_counter()
        results = check_file(str(p), p.read_text(), [], None, args.llc)
        wall = time.perf_counter() - t0
        for r in results:
            rows.append((r.seconds, f"{p.stem} {r.target} wave{r.wave}"))
            verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
        print(f"{p.stem:<28} {len(results)} instances  {wall:6.2f} s wall", flush=True)
    total = time.perf_counter() - t_all
    secs = [s for s, _ in rows]
    print(f"\n{len(rows)} (function, target, wave) instances in {len(files)} files: {verdicts}")
    print(f"proof time per instance: median {statistics.median(secs):.3f} s, max {max(secs):.3f} s "
          f"({max(rows)[1]})")
    print(f"whole corpus (compiling included): {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
