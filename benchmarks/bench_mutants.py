"""Every one-token mutant of the catalogue's reduction and scan lowerings,
and how long verify takes to give each one a verdict.

    python benchmarks/bench_mutants.py [--jobs N] [--sample K] [--limit S] [--only SUBSTR] [--list]

A lowering is a reduction or scan when its spec folds lanes (``red.*``).
One mutant changes one token of one instruction line, or drops the line:

* opcode: ``max``<->``min``, ``_u32``<->``_i32``, ``add``<->``sub``,
  ``and``/``or``/``xor`` rotated, ``readlane``<->``readfirstlane``...;
* DPP control: ``row_shr:N`` to N-1 / N+1 / ``row_shl:N`` / ``row_ror:N``,
  ``row_bcast:15``<->``31``, ``row_mirror``<->``row_half_mirror``,
  one ``quad_perm`` entry changed, ``bound_ctrl`` added or dropped;
* one bit of ``row_mask`` / ``bank_mask``;
* a constant operand: 0, 1, -1, -2, 2, 0x80000000 and the value +-1;
* one instruction line dropped.

Each mutant is checked by ``python -m verify lowering --json --times`` on
the first target the lowering declares and every wave it declares, in a
process of its own with a hard wall-clock limit (``--limit``, default 120 s:
a mutant still running then counts as "timeout").  Printed: the number of
mutants, the verdict counts, the slowest verdicts (seconds as verify reports
them, and wall time with the process start) with their names.  The goal is
a verdict for every mutant in < 30 s.  ``--sample K`` checks a fixed-seed
sample of K mutants; ``--jobs`` runs that many at once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mutations import token_mutations

from verify import catalog
from verify.lowering_file import load_lowering
from verify.target import resolve_all


@dataclass(frozen=True)
class Mutant:
    name: str  # lowering:L<line>:<what>
    lowering: str
    text: str
    target: str
    waves: tuple[int, ...]


def mutants_of(path: Path) -> list[Mutant]:
    low = load_lowering(path)
    target = resolve_all(low.targets)[0].name
    lines = path.read_text().splitlines()
    out: list[Mutant] = []
    code = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith(";")]
    seen: set[str] = set()
    for i in code:
        muts = token_mutations(lines[i]) + [("drop line", None)]
        for what, new in muts:
            body = lines[:i] + ([] if new is None else [new]) + lines[i + 1:]
            text = "\n".join(body) + "\n"
            if text in seen:
                continue
            seen.add(text)
            out.append(Mutant(f"{low.name}:L{i + 1}:{what}", low.name, text, target, tuple(low.waves)))
    return out


def catalogue_mutants(only: str | None = None) -> list[Mutant]:
    out: list[Mutant] = []
    for p in catalog.lowering_files():
        low = load_lowering(p)
        if not low.spec.startswith("red.") or (only and only not in low.name):
            continue
        out += mutants_of(Path(p))
    return out


@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # proved / refuted / unknown / error / timeout
    seconds: float  # as verify reports it (all waves); the limit for a timeout
    wall: float


def check(m: Mutant, tmp: Path, limit: float, timeout: float) -> Outcome:
    path = tmp / (re.sub(r"[^A-Za-z0-9_.-]+", "_", m.name) + ".s")
    path.write_text(m.text)
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "verify", "lowering", str(path), "--target", m.target, "--json",
                            "--times", "--timeout", str(timeout)], capture_output=True, text=True, cwd=ROOT,
                           timeout=limit)
    except subprocess.TimeoutExpired:
        return Outcome(m, "timeout", limit, time.perf_counter() - t0)
    wall = time.perf_counter() - t0
    if p.returncode == 2 or not p.stdout.strip():
        return Outcome(m, "error", wall, wall)
    if "Traceback" in p.stderr:
        return Outcome(m, "traceback", wall, wall)
    js = json.loads(p.stdout)
    secs = sum(r.get("seconds", 0.0) for r in js["results"])
    return Outcome(m, js["verdict"], secs, wall)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 0))
    ap.add_argument("--sample", type=int, default=0, help="check a fixed-seed sample of this many mutants")
    ap.add_argument("--limit", type=float, default=120.0, help="wall-clock seconds per mutant before 'timeout'")
    ap.add_argument("--timeout", type=float, default=30.0, help="verify's solver timeout per obligation")
    ap.add_argument("--only", help="only lowerings whose name contains this")
    ap.add_argument("--rest", action="store_true",
                    help="with --sample K: check every mutant NOT in that sample (the rest of a full run)")
    ap.add_argument("--names", metavar="FILE", help="check only the mutants named in FILE (one per line), e.g. the "
                    "slowest of an earlier --out")
    ap.add_argument("--list", action="store_true", help="list the mutants, check none")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--shard", metavar="K/N", help="check only the K-th of N interleaved parts (1-based)")
    ap.add_argument("--out", metavar="FILE", help="also write every outcome as JSON lines")
    args = ap.parse_args()

    muts = catalogue_mutants(args.only)
    total = len(muts)
    if args.sample and args.sample < total:
        picked = sorted(random.Random(0).sample(muts, args.sample), key=lambda m: m.name)
        if args.rest:
            names = {m.name for m in picked}
            muts = [m for m in muts if m.name not in names]
        else:
            muts = picked
    if args.names:
        wanted = set(Path(args.names).read_text().split("\n")) - {""}
        muts = [m for m in muts if m.name in wanted]
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        muts = muts[k - 1::n]
    if args.list:
        for m in muts:
            print(m.name)
        print(f"{total} mutants")
        return
    print(f"{total} one-token mutants of {len({m.lowering for m in catalogue_mutants(args.only)})} reduction/scan "
          f"lowerings; checking {len(muts)} with {args.jobs} jobs, limit {args.limit:.0f} s each", flush=True)
    t0 = time.perf_counter()
    outs: list[Outcome] = []
    # each outcome is written as its mutant finishes: a cut-off run keeps its part
    with open(args.out or os.devnull, "w") as sink, \
            tempfile.TemporaryDirectory(prefix="verify-mutants-") as d, ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check, m, Path(d), args.limit, args.timeout) for m in muts]
        for fut in as_completed(futures):
            o = fut.result()
            outs.append(o)
            sink.write(json.dumps({"mutant": o.mutant.name, "verdict": o.verdict,
                                   "seconds": round(o.seconds, 3), "wall": round(o.wall, 3)}) + "\n")
            sink.flush()
    outs.sort(key=lambda o: o.mutant.name)
    counts = Counter(o.verdict for o in outs)
    print(f"checked {len(outs)} mutants in {time.perf_counter() - t0:.0f} s: "
          + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())))
    print(f"verdicts in < 30 s: {sum(o.seconds < 30 and o.verdict != 'timeout' for o in outs)} of {len(outs)}")
    print(f"slowest {args.top} (verify's seconds, wall seconds, verdict, mutant):")
    for o in sorted(outs, key=lambda o: (-o.seconds, o.mutant.name))[:args.top]:
        print(f"  {o.seconds:7.2f} {o.wall:7.2f}  {o.verdict:<9} {o.mutant.name}")
    slow = max(outs, key=lambda o: (o.seconds, o.mutant.name)) if outs else None
    if slow is not None:
        print(f"slowest mutant verdict: {slow.verdict} in {slow.seconds:.2f} s: {slow.mutant.name}")
    proved = [o for o in outs if o.verdict == "proved"]
    if proved:
        print(f"proved mutants ({len(proved)}; equivalent mutants, or a modelling question):")
        for o in proved[:40]:
            print(f"  {o.mutant.name}")


if __name__ == "__main__":
    main()
