"""Time every catalogue proof, the whole catalogue, and the CLI's cold start.

    python benchmarks/bench_proofs.py [--repeat N] [--cold N]

Prints, per (lowering, target, wave), the time of its own solver run (no
sharing between targets), then the median and maximum, the whole catalogue
as `verify lowering` runs it (targets with the same semantics share a run),
the process's peak memory, and the cold start of
`verify lowering xor5 --wave 64` against Python and z3 start-up.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify import catalog
from verify import target as T
from verify.lowering_file import load_lowering
from verify.refine import check_lowering, prove


def cold(cmd: list[str], n: int) -> tuple[float, float]:
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=False, capture_output=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="runs per proof (the minimum is kept)")
    ap.add_argument("--cold", type=int, default=10, help="cold-start runs")
    args = ap.parse_args()

    rows = []
    for p in catalog.lowering_files():
        low = load_lowering(p)
        for wave in low.waves:
            for t in T.resolve_all(low.targets):
                best = None
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    r, _ = prove(low, t, wave)
                    dt = time.perf_counter() - t0
                    best = dt if best is None else min(best, dt)
                rows.append((low.name, t.name, wave, r.verdict, best))
    w = max(len(r[0]) for r in rows)
    print(f"{'lowering':<{w}}  {'target':<8} wave  verdict   ms")
    for name, tname, wave, verdict, dt in rows:
        print(f"{name:<{w}}  {tname:<8} {wave:>4}  {verdict:<8} {dt * 1000:7.1f}")
    times = [r[4] for r in rows]
    print(f"\nproofs (lowering, target, wave): {len(rows)}; median {statistics.median(times) * 1000:.1f} ms; "
          f"max {max(times) * 1000:.1f} ms ({max(rows, key=lambda r: r[4])[0]}); sum {sum(times):.2f} s")
    bad = [r for r in rows if r[3] != "proved"]
    print(f"not proved: {len(bad)}" + ("" if not bad else " " + ", ".join(f"{r[0]}/{r[1]}" for r in bad)))

    t0 = time.perf_counter()
    n = 0
    for p in catalog.lowering_files():
        low = load_lowering(p)
        n += len(check_lowering(low, T.resolve_all(low.targets), low.waves))
    print(f"whole catalogue as `verify lowering` runs it ({n} instantiations, shared solver runs): "
          f"{time.perf_counter() - t0:.2f} s")
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")

    exe = str(Path(sys.executable).parent / "verify")
    for label, cmd in [("python -c pass", [sys.executable, "-c", "pass"]),
                       ("python -c 'import z3'", [sys.executable, "-c", "import z3"]),
                       ("verify lowering xor5 --wave 64", [exe, "lowering", "xor5", "--wave", "64"])]:
        med, best = cold(cmd, args.cold)
        print(f"cold start, {label}: median {med * 1000:.0f} ms, min {best * 1000:.0f} ms ({args.cold} runs)")


if __name__ == "__main__":
    main()
