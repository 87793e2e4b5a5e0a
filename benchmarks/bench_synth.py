"""Time synthesis: every table entry and the whole table, and the CLI examples.

    python benchmarks/bench_synth.py [--targets gfx9,gfx11] [--jobs 2] [--from-index]

Without --from-index it re-runs the table search (every column, in parallel
over --jobs processes; nothing is written) and prints each entry's time, the
sum and the wall time.  With --from-index it prints the times recorded in
docs/synthesis-table.json by the last `verify synth --table`.  Then it times
the two examples of docs/synthesis.md as cold CLI processes.
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
sys.path.insert(0, str(ROOT))

from verify.synth import table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--targets", help="table columns (families), comma-separated")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--from-index", action="store_true")
    args = ap.parse_args()
    cols = table.COLUMNS
    if args.targets:
        want = args.targets.split(",")
        cols = [c for c in cols if c[0] in want]
    t0 = time.perf_counter()
    if args.from_index:
        entries = json.loads(table.INDEX.read_text())
        entries = [e for e in entries if (e["family"], e["wave"]) in cols]
        wall = None
    else:
        entries = table.build(cols, args.jobs)
        wall = time.perf_counter() - t0
    print(f"{'column':<12} {'entry':<40} {'cost':>5} {'base':>5}  seconds")
    for e in entries:
        label = f"{e['spec']} " + " ".join(f"{k}={v}" for k, v in e["params"].items())
        print(f"{e['family']} w{e['wave']:<5} {label:<40} {e['cost']!s:>5} {e['baseline']!s:>5}  {e['seconds']:.2f}")
    ts = [e["seconds"] for e in entries]
    print(f"\nentries: {len(ts)}; median {statistics.median(ts):.2f} s; max {max(ts):.2f} s; sum {sum(ts):.1f} s")
    for c in cols:
        cs = [e["seconds"] for e in entries if (e["family"], e["wave"]) == c]
        print(f"  {c[0]} w{c[1]}: {len(cs)} entries, {sum(cs):.1f} s")
    if wall is not None:
        print(f"whole table, wall time with {args.jobs} processes: {wall:.1f} s")
    exe = str(Path(sys.executable).parent / "verify")
    for argv in (["cuda.shfl_xor", "mask=5", "width=16", "--target", "gfx9", "--wave", "64"],
                 ["cuda.shfl_xor", "mask=5", "width=16", "--target", "gfx1100", "--wave", "32"]):
        t1 = time.perf_counter()
        subprocess.run([exe, "synth", *argv], cwd=ROOT, capture_output=True, check=False)
        print(f"cold `verify synth {' '.join(argv)}`: {time.perf_counter() - t1:.1f} s")


if __name__ == "__main__":
    main()
