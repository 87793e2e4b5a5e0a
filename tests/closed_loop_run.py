"""The corpus tier's closed loop (tests/test_closed_loop.py,
test_every_emitted_lowering_and_winner_is_proved_by_tv) in resumable
chunks: one JSON line per instantiation in OUT/COMPILER.jsonl (lowering,
target, wave, verdict, notes, CPU seconds with compiling), an instantiation
already there skipped.  For a machine too small to run the whole catalogue
in one go (run it under `nice -n 19`):

    PYTHONPATH=. python tests/closed_loop_run.py --compiler llvmlite --slice 0/8 --out /tmp/closedloop
    PYTHONPATH=. python tests/closed_loop_run.py --summary --out /tmp/closedloop

--summary counts the verdicts per compiler and lists every result the test
would reject (the gaps of TV_GAPS and EMIT_GAPS applied as the test does)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from closed_loop import closed_loop
from test_closed_loop import TV_GAPS, catalogue, representatives, winners
from test_emit import EMIT_GAPS

from verify.lowering_file import load_lowering
from verify.proofs import instantiations


def paths() -> list[str]:
    """The corpus test's lowerings, in its order."""
    return sorted(set(catalogue()) | set(winners()))


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run(compiler: str, k: int, n: int, out: Path, limit: float | None, pick: str = "all",
        match: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    log = out / f"{compiler}.jsonl"
    done = set()
    if log.exists():
        for line in log.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:  # (a line a stopped chunk left half-written: asked again)
                continue
            done.add((r["lowering"], r["target"], r["wave"]))
    start = _cpu()
    llc = None if compiler == "llvmlite" else compiler
    for p in paths()[k::n]:
        name = load_lowering(p).name
        if match and not re.search(match, name):
            continue
        insts = instantiations(load_lowering(p))
        if pick == "wave":  # the first declared target of each wave
            insts = [i for k, i in enumerate(insts) if i[1] not in {w for _, w in insts[:k]}]
        elif pick == "reps":  # one declared target of each feature set per wave
            insts = [i for i in insts if i in representatives(p)]
        for t, w in insts:
            if (name, t, w) in done:
                continue
            c0 = _cpu()
            results, gaps = closed_loop(p, llc, {(t, w)})
            rec = {"lowering": name, "target": t, "wave": w, "cpu": round(_cpu() - c0, 3),
                   "results": [{"function": r.function, "verdict": r.verdict, "notes": r.notes,
                                "queries": r.queries} for r in results],
                   "gaps": gaps}
            with log.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            if limit is not None and _cpu() - start > limit:
                return


def bad(rec: dict[str, Any]) -> list[str]:
    """What the corpus test rejects in one instantiation's record (its check())."""
    name = rec["lowering"]
    out = [f"{name} {r['function']} {rec['target']} wave{rec['wave']}: {r['verdict']}: {'; '.join(r['notes'])[:300]}"
           for r in rec["results"] if r["verdict"] != "proved" and not (
               name in TV_GAPS and r["verdict"] == TV_GAPS[name][0] and any(TV_GAPS[name][1] in x for x in r["notes"]))]
    return out + [g for g in rec["gaps"] if g.split(" ", 1)[0] not in EMIT_GAPS]


def summary(out: Path) -> None:
    total = {p: len(instantiations(load_lowering(p))) for p in paths()}
    print(f"corpus: {len(total)} lowerings, {sum(total.values())} instantiations per compiler")
    logs: dict[str, dict[tuple[str, str, int], dict[str, Any]]] = {}  # (the chunks' files under OUT, merged per compiler)
    for log in sorted(out.glob("**/*.jsonl")):
        for x in log.read_text().splitlines():
            try:
                r = json.loads(x)
            except ValueError:  # (a line a stopped chunk left half-written)
                continue
            logs.setdefault(log.stem, {})[(r["lowering"], r["target"], r["wave"])] = r
    for compiler, by in sorted(logs.items()):
        recs = list(by.values())
        verdicts: dict[str, int] = {}
        for rec in recs:
            for r in rec["results"]:
                verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
            if rec["gaps"]:
                verdicts["emit refused"] = verdicts.get("emit refused", 0) + 1
        cpu = sum(r["cpu"] for r in recs)
        low = {r["lowering"] for r in recs}
        print(f"{compiler}: {len(low)} lowerings, {len(recs)} instantiations, {cpu:.0f} s CPU "
              f"({cpu / max(len(recs), 1):.2f} s each): {verdicts}")
        for rec in recs:
            for b in bad(rec):
                print("  BAD", b)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", default="llvmlite")
    ap.add_argument("--slice", default="0/1", help="K/N: every N-th lowering from the K-th")
    ap.add_argument("--out", default="/tmp/closedloop")
    ap.add_argument("--cpu-limit", type=float, default=None, help="stop after this many CPU seconds")
    ap.add_argument("--pick", choices=["all", "reps", "wave"], default="all",
                    help="every declared instantiation (the corpus test's), one target of each feature set per "
                         "wave (the slow tier's), or the first declared target of each wave")
    ap.add_argument("--match", default="", help="only the lowerings whose name this regular expression finds")
    ap.add_argument("--summary", action="store_true")
    a = ap.parse_args()
    if a.summary:
        summary(Path(a.out))
        return
    k, n = map(int, a.slice.split("/"))
    t0 = time.process_time()
    run(a.compiler, k, n, Path(a.out), a.cpu_limit, a.pick, a.match)
    print(f"done slice {a.slice} ({a.compiler}) in {time.process_time() - t0:.0f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
