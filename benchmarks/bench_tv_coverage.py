"""What `verify tv` decides over a directory of LLVM tests (issue 31, item 9).

    python benchmarks/bench_tv_coverage.py [DIR_OR_FILE ...] [--llc CMD] [--jobs N] [--json]
    python benchmarks/bench_tv_coverage.py --results R.json ... [--before B.json ...] [--write]

Runs `verify tv` with `--llc llc-22` (default) over every .ll file under the
paths (default tests/tv/llvm-shape/), each RUN line an instance source as
`verify tv` plans it, and prints per file and in total: the instances, the
proved, refuted, unknown, compiler errors, errors, and unsupported per cause;
the cause text normalised (`normalise`: a mnemonic, an intrinsic, a calling
convention, a target, a loop...) so that alike causes count together; and the
per-instance median and max CPU seconds proving (this process's CPU time, or
each worker's with --jobs; the llc child's time is not counted).

`--results`: count `verify tv FILE --json` outputs already made (one file
each, measured one at a time, as docs/tv-coverage.md's files are) instead of
running verify; `--before`: the same outputs of an earlier verify, printed
as a column beside each file's; `--write`: what was printed becomes the
measured block of docs/tv-coverage.md (benchmarks/docblock.py).

Everything printed is deterministic except the seconds (the files sorted, the
causes ranked by count, then by text).  Measuring LLVM's own tests:
docs/tv-coverage.md says which files, from which commit, and how.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import docblock

from verify.tv.check import TVResult
from verify.tv.tree import check_tree, tree_files

KINDS = ("proved", "refuted", "unknown", "compiler error", "error", "unsupported")

# (pattern over the cause, the normalised cause): the first that matches wins
_RULES: list[tuple[str, str]] = [
    (r"RUN line not used: -mcpu=(\S+) \((gfx\w+)\) is not modelled", r"target not modelled: \2"),
    (r"RUN line not used: -mcpu=(\S+) is not modelled", r"target not modelled: \1"),
    (r"RUN line not used: (.{0,70})", r"RUN line: \1"),
    (r"could not compile: '[^']+' (crashed|failed).*?LLVM ERROR: ([Cc]annot select)", r"llc \1: cannot select"),
    (r"could not compile: '[^']+' (crashed|failed)", r"llc \1"),
    (r"unsupported non-compute shaders", "llc: non-compute shader on an HSA triple"),
    (r"call to @$", "inline asm call"),
    (r"^(@llvm\.[a-z_.0-9]+?)(?:\.[ivfp]\d+\w*)* of type (\S+)", r"intrinsic \1 of type \2"),
    (r"GPU line \d+: (\S+) .*takes \d+ operands", r"GPU instruction \1 (operand form not parsed)"),
    (r"call to (@llvm\.amdgcn\.[a-z_.0-9]+?)(?:\.[ivfp]\d+\w*)*$", r"intrinsic \1"),
    (r"call to (@llvm\.[a-z_.0-9]+?)(?:\.[ivfp]\d+\w*)*$", r"intrinsic \1"),
    (r"call to (@[\w.]+)", r"call to a function"),
    (r"calling convention (\w+)", r"calling convention \1"),
    (r"a loop in the GPU code", "GPU loop (not bounded)"),
    (r"does not model: line \d+: (\S+) .*flat_scratch", r"GPU instruction \1 (flat_scratch)"),
    (r"does not model: line \d+: (\S+)", r"GPU instruction \1"),
    (r"unknown mnemonic '(\S+)'", r"GPU instruction \1 (not in the assembler table)"),
    (r"kernel argument \S+ of type (.+?) \(", r"kernel argument of type \1"),
    (r"(\w+) of type (\S+)$", r"IR \1 of type \2"),
    (r"instruction '(\w+)' outside a kernel", r"IR \1 outside a kernel"),
    (r"instruction '(\w+)'", r"IR instruction \1"),
    (r"getelementptr '(?:getelementptr )?(?:inbounds )?(\[|<|ptr|i\d+)", r"IR getelementptr over \1"),
]


def read_results(path: str) -> tuple[str, list[Any]]:
    """The LLVM test file a `verify tv --json` output is of, and its results
    (each with the verdict, notes and CPU seconds that `tally` reads)."""
    d = json.loads(Path(path).read_text())
    rs = [SimpleNamespace(verdict=r["verdict"], notes=r["notes"], cpu_seconds=r["cpu_seconds"]) for r in d["results"]]
    files = {Path(r["file"]).name for r in d["results"]}
    return (files.pop() if len(files) == 1 else Path(path).stem), rs


def raw_cause(r: TVResult) -> str:
    """The text of an unsupported (or error) result's reason, as verify printed it."""
    for n in r.notes:
        m = re.search(r"\b(?:unsupported|error): (.*)$", n)
        if m:
            return m.group(1)
    return r.notes[0] if r.notes else "(no reason given)"


def normalise(text: str) -> str:
    """A cause as the per-cause counts group it: the mnemonic, intrinsic,
    calling convention or target it names, else `tree.cause`'s way (its
    names and numbers left out)."""
    for pat, rep in _RULES:
        m = re.search(pat, text)
        if m:
            return m.expand(rep).strip()
    return _NOISE.sub("N", text).strip()[:100]


_NOISE = re.compile(r"(%[\w.]+|@[\w.]+|\bv\d+\b|\bs\d+\b|0x[0-9a-fA-F]+|\b\d+\b)")


def tally(results: list[Any]) -> dict[str, object]:
    v = Counter(r.verdict for r in results if r.verdict != "not codegen")
    causes = Counter(normalise(raw_cause(r)) for r in results if r.verdict in ("unsupported", "error", "compiler error"))
    cpu = sorted(r.cpu_seconds for r in results if r.verdict in ("proved", "refuted", "unknown"))
    n = sum(v.values())
    return {
        "instances": n,
        **{k: v[k] for k in KINDS},
        "decided": v["proved"] + v["refuted"] + v["compiler error"],  # as `verify tv --coverage` counts (tree.coverage)
        "causes": sorted(causes.items(), key=lambda x: (-x[1], x[0])),
        "cpu_median": statistics.median(cpu) if cpu else 0.0,
        "cpu_max": cpu[-1] if cpu else 0.0,
    }


def line(name: str, t: dict[str, object]) -> str:
    n = t["instances"]
    assert isinstance(n, int)
    dec = t["decided"]
    assert isinstance(dec, int)
    pct = f"{100 * dec / n:5.1f}%" if n else "    -"
    return (f"{name:<44} {n:>5} {dec:>5} {pct}  {t['proved']:>5} {t['refuted']:>5} {t['unknown']:>5} "
            f"{t['compiler error']:>5} {t['error']:>5} {t['unsupported']:>5}   "
            f"{t['cpu_median']:6.2f} {t['cpu_max']:6.2f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "tests" / "tv" / "llvm-shape")])
    ap.add_argument("--llc", action="append", default=[], help="llc command line (default: llc-22)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--timeout", type=float, default=30.0, help="verify tv --timeout (solver budget)")
    ap.add_argument("--causes", type=int, default=15, help="causes listed per file (total: all)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--results", nargs="+", default=[], help="verify tv --json outputs to count (verify is not run)")
    ap.add_argument("--before", nargs="+", default=[], help="the same outputs of an earlier verify: a column beside")
    args = ap.parse_args()
    llc = args.llc or ["llc-22"]
    per: list[tuple[str, dict[str, object]]] = []
    every: list[Any] = []
    if args.results:
        files = []
        for p in args.results:
            name, res = read_results(p)
            files.append(name)
            every += res
            per.append((name, tally(res)))
        llc = ["(verify tv --json outputs)"]
    else:
        files = tree_files(args.paths)
        for f in files:
            got = check_tree([f], [], None, llc, None, args.timeout, {}, False, args.jobs)
            every += got
            per.append((f, tally(got)))
            if not args.json:
                print(f"# {Path(f).name}: done", file=sys.stderr, flush=True)
    total = tally(every)
    before: dict[str, dict[str, object]] = {}
    for p in args.before:
        name, res = read_results(p)
        before[name] = tally(res)
    if args.json:
        print(json.dumps({"files": [{"file": Path(f).name, **t} for f, t in per], "total": total}, indent=1))
        return 0
    head = (f"{'file':<44} {'inst':>5} {'dec':>5} {'dec%':>6}  {'prov':>5} {'ref':>5} {'unk':>5} "
            f"{'cerr':>5} {'err':>5} {'unsup':>5}   {'cpu med':>6} {'max':>6}")
    print(f"verify tv over {len(files)} files, llc: {' | '.join(llc)}")
    print(head + ("   before: dec/inst" if before else ""))
    for f, t in per:
        b = before.get(Path(f).name)
        print(line(Path(f).name, t) + (f"   {b['decided']:>5}/{b['instances']}" if b else "   -" if before else ""))
    bt = [b for f, _ in per if (b := before.get(Path(f).name))]
    print(line("TOTAL", total) + (f"   {sum(int(str(b['decided'])) for b in bt):>5}/"
                                  f"{sum(int(str(b['instances'])) for b in bt)}" if before else ""))
    for f, t in per:
        causes = t["causes"]
        assert isinstance(causes, list)
        if causes:
            print(f"\n{Path(f).name}: unsupported / errors by cause")
            for c, k in causes[:args.causes]:
                print(f"  {k:>5}  {c}")
            if len(causes) > args.causes:
                print(f"  ({len(causes) - args.causes} more causes)")
    causes = total["causes"]
    assert isinstance(causes, list)
    print("\nTOTAL: unsupported / errors by cause")
    for c, k in causes:
        print(f"  {k:>5}  {c}")
    return 0


if __name__ == "__main__":
    sys.exit(docblock.run(main, "bench_tv_coverage"))
