"""The lit runner's overhead per test against plain `verify tv` runs (issue
32; goal: < 10%).

    python benchmarks/bench_lit.py [--files GLOB] [--repeat N]

Copies the tests/tv files the glob names into a temporary lit suite (the
three-line lit.cfg.py of docs/tv.md), then, on one worker so that both
sides do the same work one file after another:

* plain: `python -m verify tv FILE` for each file, one process each (what a
  shell loop over a tree does), summed wall time;
* in one process: verify's `main(["tv", FILE])` for each file in one Python
  (no start-up per file: what lit's worker does, without lit);
* lit: `lit -j 1 SUITE` (one lit test per file, verify run inside lit's
  worker), wall time.

Prints the three, and lit's overhead per test against each ((lit - other) /
files, and as a share of the other's time per test): against the one
process it is lit's own cost (discovery, scheduling, the worker, reports).  The best of `--repeat` runs of each is taken (the
machine is shared: the best is the least disturbed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CFG = "import os\nfrom verify.tv.litformat import configure\nconfigure(config, lit_config, os.path.dirname(__file__))\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", default="dpp_row_s*.ll", help="a glob under tests/tv (default: dpp_row_s*.ll)")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each side; the best is taken (default 2)")
    args = ap.parse_args()
    files = sorted((ROOT / "tests" / "tv").glob(args.files))
    if not files:
        print(f"no tests/tv file matches {args.files}", file=sys.stderr)
        return 2
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "suite"
        suite.mkdir()
        (suite / "lit.cfg.py").write_text(CFG)
        for f in files:
            shutil.copy(f, suite / f.name)
        plain, inproc, lit = [], [], []
        loop = ("import io, sys\nfrom verify.cli import main\n"
                "for f in sys.argv[1:]:\n    main(['tv', f], io.StringIO(), io.StringIO())\n")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", loop, *map(str, sorted(suite.glob("*.ll")))], env=env,
                           capture_output=True, check=False)
            inproc.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for f in sorted(suite.glob("*.ll")):
                subprocess.run([sys.executable, "-m", "verify", "tv", str(f)], env=env, capture_output=True,
                               check=False)
            plain.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-c", "import lit.main; lit.main.main()", "-q", "-j", "1",
                                "--order=lexical", str(suite)], env=env, capture_output=True, text=True, check=False)
            lit.append(time.perf_counter() - t0)
            if r.returncode not in (0, 1):
                print(r.stdout + r.stderr, file=sys.stderr)
                return 2
    n = len(files)
    p, i, q = min(plain), min(inproc), min(lit)
    print(f"{n} files ({args.files}), best of {args.repeat}")
    print(f"plain verify tv, one process per file: {p:7.2f} s  ({p / n:.2f} s per file)")
    print(f"verify tv in one process:              {i:7.2f} s  ({i / n:.2f} s per file)")
    print(f"lit -j 1 (verify in lit's worker):     {q:7.2f} s  ({q / n:.2f} s per file)")
    for what, base in (("a plain run", p), ("a run in one process", i)):
        per = (q - base) / n
        print(f"lit's overhead per test against {what}: {per:+.3f} s ({100 * per / (base / n):+.1f}%; goal < 10%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
