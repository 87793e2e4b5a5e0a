"""`verify tv` CPU against llc-22's, per tests/tv file (issue 35, item 2).

    python benchmarks/bench_tv_llc.py [--files GLOB] [--every K] [--llc llc-22] [--repeat R]

For each file: the CPU seconds (user + system, children included) of a cold
``python -m verify tv FILE`` (start-up, compiling by llvmlite in its child,
the proofs), and of ``llc-22`` compiling the same file once per instance its
RUN lines name (the same targets, waves and flags), both measured in this
run, one after the other (verify with its bytecode cached, written by a
first run of ``verify tv`` on one small file); then their ratio, and the median and maximum ratio
over the files.  ``--every K`` takes every K-th file (a sample of the
corpus); ``--repeat R`` takes the least CPU of R runs of each.  Goal (issue
35): median <= 3, maximum <= 10.  Verdicts are printed too: a speed-up that
changes one is a bug.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.tv.runlines import Instance, module_triple, read_run_lines


def child_cpu(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """CPU seconds of the child `argv` and everything it waited for, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), r.stdout


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default="*.ll", help="a glob under tests/tv (default: every file)")
    ap.add_argument("--every", type=int, default=1, help="every K-th file only")
    ap.add_argument("--llc", default="llc-22")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    llc = shutil.which(args.llc)
    if llc is None:
        print(f"{args.llc} not found", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as an installed verify runs
    subprocess.run([sys.executable, "-m", "verify", "tv", "tests/tv/swizzle_xor1.ll"], capture_output=True, env=env, cwd=ROOT)
    files = sorted((ROOT / "tests" / "tv").glob(args.files))[:: args.every]
    ratios: list[tuple[float, str]] = []
    print(f"{'file':<40} {'inst':>4} {'verify s':>9} {'llc s':>7} {'ratio':>6}  summary")
    for p in files:
        text = p.read_text()
        runs = read_run_lines(str(p), text)
        inst: list[Instance] = runs.instances
        if not inst:
            continue
        triple = module_triple(text)
        v_cpu = l_cpu = float("inf")
        summary = ""
        for _ in range(args.repeat):
            c, out = child_cpu([sys.executable, "-m", "verify", "tv", str(p)], env)
            v_cpu = min(v_cpu, c)
            m = re.search(r"^Summary: .*$", out, re.M)
            summary = m.group(0)[len("Summary: "):] if m else "(no summary)"
            total = 0.0
            for i in inst:
                c, _ = child_cpu([llc, *i.llc_args(triple), str(p), "-o", os.devnull])
                total += c
            l_cpu = min(l_cpu, total)
        ratio = v_cpu / max(l_cpu, 1e-3)
        ratios.append((ratio, p.stem))
        print(f"{p.stem:<40} {len(inst):>4} {v_cpu:9.3f} {l_cpu:7.3f} {ratio:6.1f}  {summary}", flush=True)
    if not ratios:
        print("no files")
        return 1
    worst = max(ratios)
    p90 = statistics.quantiles([r for r, _ in ratios], n=10)[-1] if len(ratios) > 1 else worst[0]
    print(f"\n{len(ratios)} files: verify tv / llc-22 CPU median {statistics.median(r for r, _ in ratios):.1f}x, "
          f"p90 {p90:.1f}x, max {worst[0]:.1f}x ({worst[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
