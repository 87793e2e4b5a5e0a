"""wave64 votes against wave32 (issue #35.4): each vote lowering of the
catalogue that has a wave32 and a wave64 form, proved on its first target
(CPU seconds of this process, the median of a few runs after a warm-up),
with the ratio w64 / w32 (goal <= 2; shuffles: about 1.6).

Usage: python benchmarks/bench_votes.py [--runs N] [NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import time

from verify import catalog
from verify.refine import check_lowering, instantiations

PAIRS = ["ballot", "cuda_ballot", "cuda_activemask", "all_true", "any_true", "all_equal", "all_equal_f32",
         "cuda_all", "cuda_any", "cuda_match_all", "cuda_match_any", "quadrants_all_true", "invocation_id"]


def cpu(name: str, runs: int) -> tuple[float, str]:
    low = catalog.load(name)
    targets, waves, _ = instantiations(low, None, None)
    targets = targets[:1]
    verdict = ""
    times = []
    for k in range(runs + 1):
        t0 = time.process_time()
        results = check_lowering(low, targets, waves, 30.0, {}, False)
        if k:
            times.append(time.process_time() - t0)
        verdict = ",".join(sorted({r.verdict for r in results}))
    return statistics.median(times), verdict


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("names", nargs="*", default=PAIRS)
    args = ap.parse_args()
    ratios = []
    for base in args.names:
        (t32, v32), (t64, v64) = cpu(f"{base}_w32", args.runs), cpu(f"{base}_w64", args.runs)
        ratios.append(t64 / t32)
        print(f"{base:22s} w32 {t32 * 1000:8.1f} ms ({v32})  w64 {t64 * 1000:8.1f} ms ({v64})  w64/w32 {t64 / t32:5.2f}")
    print(f"median w64/w32: {statistics.median(ratios):.2f}, worst {max(ratios):.2f} (goal <= 2)")


if __name__ == "__main__":
    main()
