"""Time `verify tv` over the corpus (tests/tv/): every function on every
target/wave its RUN lines name, compiled by llvmlite.

    python benchmarks/bench_tv.py [--files GLOB] [--llc CMD] [--jobs N]

Prints, per (function, target, wave) instance, the median and slowest proof
time (the IR and GPU runs and the solver, compiling not included) and the
median with the file's compile time shared among its instances; the slowest
wave64 instance of the atomic-optimizer files (``*atomic*``) where there are
some; the compile time (llvmlite: one child process per file, every
target/wave of it); and the whole corpus's wall time, with the instances of
every file proved by `--jobs` worker processes (default: one per core, as
`verify tv --jobs` does; 1: one file after another in this process).  Goals (issue 12):
median < 2 s, a wave64 atomic-optimizer scan < 3 s, the corpus < 5 min.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.tv.check import TVResult, check_file, check_files


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default="*.ll", help="a glob under tests/tv (default: all)")
    ap.add_argument("--llc", action="append", default=[], help="an llc command line instead of llvmlite")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="worker processes (default: one per core; 1: sequential, with per-file wall times)")
    args = ap.parse_args()
    files = sorted((ROOT / "tests" / "tv").glob(args.files))
    t_all = time.perf_counter()
    rows: list[tuple[float, float, str]] = []  # proof seconds, with the compile share, name
    verdicts: dict[str, int] = {}
    compiling = 0.0
    by_file: list[tuple[Path, list[TVResult], float | None]] = []
    if args.jobs > 1:
        every = check_files([(str(p), p.read_text()) for p in files], [], None, args.llc, jobs=args.jobs)
        by_file = [(p, [r for r in every if r.path == str(p)], None) for p in files]
    for p in files if args.jobs <= 1 else []:
        t0 = time.perf_counter()
        results = check_file(str(p), p.read_text(), [], None, args.llc)
        by_file.append((p, results, time.perf_counter() - t0))
    for p, results, wall in by_file:
        comp = sum(r.compile_seconds for r in results)
        compiling += comp
        for r in results:
            rows.append((r.seconds, r.seconds + comp / len(results), f"{p.stem} {r.target} wave{r.wave}"))
            verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
        spent = f"{wall:6.2f} s wall" if wall is not None else f"{sum(r.seconds for r in results):6.2f} s proving"
        print(f"{p.stem:<28} {len(results)} instances  {spent}  (compiling {comp:5.2f} s)", flush=True)
    total = time.perf_counter() - t_all
    if not rows:
        print("no instances")
        return 1
    secs = [s for s, _, _ in rows]
    slow = max(rows)
    print(f"\n{len(rows)} (function, target, wave) instances in {len(files)} files: {verdicts}")
    print(f"proof time per instance: median {statistics.median(secs):.3f} s, max {slow[0]:.3f} s ({slow[2]})")
    print(f"with the compile time shared: median {statistics.median(s for _, s, _ in rows):.3f} s, "
          f"max {max(s for _, s, _ in rows):.3f} s")
    atomic = [r for r in rows if "atomic" in r[2] and r[2].endswith("wave64")]
    if atomic:
        a = max(atomic)
        print(f"wave64 atomic-optimizer instances: {len(atomic)}, slowest {a[0]:.3f} s ({a[2]})")
    print(f"compiling: {compiling:.1f} s in all")
    print(f"whole corpus (compiling included, {args.jobs} worker process{'es' if args.jobs > 1 else ''}): "
          f"{total:.1f} s")
    return 0


if __name__ == "__main__":  # --write: what it prints becomes its measured block (docblock.py)
    import docblock

    sys.exit(docblock.run(main, "bench_tv"))
