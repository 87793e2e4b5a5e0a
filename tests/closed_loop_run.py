"""The corpus tier's closed loop (tests/test_closed_loop.py,
test_every_emitted_lowering_and_winner_is_proved_by_tv) in resumable
chunks: one JSON line per instantiation in OUT/COMPILER.jsonl (lowering,
target, wave, verdict, notes, CPU seconds with compiling), an instantiation
already there skipped.  For a machine too small to run the whole catalogue
in one go (run it under `nice -n 19`):

    PYTHONPATH=. python tests/closed_loop_run.py --compiler llvmlite --slice 0/8 --out /tmp/closedloop
    PYTHONPATH=. python tests/closed_loop_run.py --summary --out /tmp/closedloop

--summary counts the verdicts per compiler and lists every result the test
would reject (the gaps of TV_GAPS and EMIT_GAPS applied as the test does).
On a many-core machine, `--jobs N --wall S` runs N processes and stops after
S seconds of wall time, and `--record tests/data/closed_loop.json --meta JSON`
writes the logs as the data file the slow tier checks (docs/ci.md)."""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import queue
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


def tasks(k: int, n: int, pick: str = "all", match: str = "") -> list[tuple[str, str, str, int]]:
    """(path, lowering, target, wave) of the slice, in the corpus test's order."""
    out = []
    for p in paths()[k::n]:
        low = load_lowering(p)
        if match and not re.search(match, low.name):
            continue
        insts = instantiations(low)
        if pick == "wave":  # the first declared target of each wave
            insts = [i for j, i in enumerate(insts) if i[1] not in {w for _, w in insts[:j]}]
        elif pick == "reps":  # one declared target of each feature set per wave
            insts = [i for i in insts if i in representatives(p)]
        out += [(p, low.name, t, w) for t, w in insts]
    return out


def one(task: tuple[str, str, str, int], compiler: str) -> dict[str, Any]:
    """The record of one instantiation (CPU: this process's and its children's,
    the compiling included); an exception of verify's is a verdict 'error'."""
    p, name, t, w = task
    c0 = _cpu()
    try:
        results, gaps = closed_loop(p, None if compiler == "llvmlite" else compiler, {(t, w)})
        res = [{"function": r.function, "verdict": r.verdict, "notes": r.notes, "queries": r.queries}
               for r in results]
    except Exception as e:  # (reported, not swallowed: --summary lists it as rejected)
        res, gaps = [{"function": "", "verdict": "error", "notes": [f"{type(e).__name__}: {e}"[:500]],
                      "queries": 0}], []
    return {"lowering": name, "target": t, "wave": w, "cpu": round(_cpu() - c0, 3), "results": res, "gaps": gaps}


def _worker(compiler: str, todo: Any, done: Any) -> None:
    while True:
        k = todo.get()
        if k is None:
            return
        task = _TASKS[k]
        done.put(("start", k, time.time()))
        done.put(("done", k, one(task, compiler)))


_TASKS: list[tuple[str, str, str, int]] = []


def read_log(log: Path) -> dict[tuple[str, str, int], dict[str, Any]]:
    recs: dict[tuple[str, str, int], dict[str, Any]] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:  # (a line a stopped chunk left half-written: asked again)
                continue
            recs[(r["lowering"], r["target"], r["wave"])] = r
    return recs


def sort_log(log: Path) -> None:
    """The log rewritten in (lowering, target, wave) order, one record each."""
    recs = read_log(log)
    tmp = log.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(recs[k]) + "\n" for k in sorted(recs)))
    tmp.replace(log)


def run(compiler: str, k: int, n: int, out: Path, limit: float | None, pick: str = "all",
        match: str = "", jobs: int = 1, wall: float | None = None, t0: float | None = None) -> None:
    """The slice's instantiations not yet in OUT/COMPILER.jsonl, in `jobs`
    processes (the largest lowering files first, so that the slow ones do not
    come last), each record appended as it comes; stopped after `limit` CPU
    seconds (one process) or `wall` seconds (several: the instantiations then
    running are printed, and asked again by the next run); the log sorted at
    the end."""
    global _TASKS
    out.mkdir(parents=True, exist_ok=True)
    log = out / f"{compiler}.jsonl"
    done = set(read_log(log))
    todo = [x for x in tasks(k, n, pick, match) if x[1:] not in done]
    start, t0 = _cpu(), time.time() if t0 is None else t0
    if jobs <= 1:
        for x in todo:
            rec = one(x, compiler)
            with log.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            if (limit is not None and _cpu() - start > limit) or (wall is not None and time.time() - t0 > wall):
                break
        sort_log(log)
        return
    todo.sort(key=lambda x: -os.path.getsize(x[0]))
    _TASKS = todo
    ctx = multiprocessing.get_context("fork")
    q, res = ctx.Queue(), ctx.Queue()
    for i in range(len(todo)):
        q.put(i)
    for _ in range(jobs):
        q.put(None)
    procs = [ctx.Process(target=_worker, args=(compiler, q, res), daemon=True) for _ in range(jobs)]
    for pr in procs:
        pr.start()
    running: dict[int, float] = {}
    left = len(todo)
    try:
        with log.open("a") as f:
            while left:
                timeout = None if wall is None else max(0.0, wall - (time.time() - t0))
                try:
                    kind, i, v = res.get(timeout=timeout)
                except queue.Empty:
                    break
                if kind == "start":
                    running[i] = v
                    continue
                running.pop(i, None)
                f.write(json.dumps(v) + "\n")
                f.flush()
                left -= 1
    finally:
        q.cancel_join_thread()  # (the tasks not taken stay in the pipe: exit without flushing them)
        res.cancel_join_thread()
        for pr in procs:
            if pr.is_alive():
                pr.kill()
            pr.join()
        now = time.time()
        for i, s in sorted(running.items(), key=lambda x: x[1]):
            print(f"still running at the stop: {' '.join(map(str, todo[i][1:]))} ({now - s:.0f} s)", file=sys.stderr)
        print(f"{len(todo) - left} of {len(todo)} instantiations done", file=sys.stderr)
        sort_log(log)


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


def file_hash(path: str) -> str:
    """What a recorded verdict was measured on: the lowering file's text."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def record(out: Path, dest: Path, meta: dict[str, Any]) -> None:
    """The logs under OUT (one compiler each) as the compact data file the
    slow tier checks (tests/test_closed_loop.py): per compiler and lowering,
    the lowering file's hash, its instantiations' CPU seconds in all, those
    proved ("TARGET/WAVE") and every other verdict or emit refusal with its
    first note."""
    files = {load_lowering(p).name: p for p in paths()}
    data: dict[str, Any] = {"meta": meta, "compilers": {}}
    for log in sorted(out.glob("**/*.jsonl")):
        by: dict[str, dict[str, Any]] = {}
        for (name, t, w), rec in sorted(read_log(log).items()):
            e = by.setdefault(name, {"hash": file_hash(files[name]), "cpu": 0.0, "proved": [], "other": {}})
            e["cpu"] = round(e["cpu"] + rec["cpu"], 2)
            key = f"{t}/{w}"
            if rec["gaps"]:
                e["other"][key] = "emit refused: " + rec["gaps"][0].split(": ", 1)[-1][:200]
            elif all(r["verdict"] == "proved" for r in rec["results"]):
                e["proved"].append(key)
            else:
                r = next(r for r in rec["results"] if r["verdict"] != "proved")
                e["other"][key] = f"{r['verdict']}: {'; '.join(r['notes'])[:200]}"
        data["compilers"][log.stem] = by
    comp = [f"{json.dumps(c)}: {{\n" + ",\n".join(f"{json.dumps(n)}: {json.dumps(e)}" for n, e in sorted(by.items()))
            + "}" for c, by in data["compilers"].items()]
    dest.write_text(f'{{"meta": {json.dumps(meta)},\n"compilers": {{' + ",\n".join(comp) + "}}\n")


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
    ap.add_argument("--jobs", type=int, default=1, help="processes (fork); --wall stops them")
    ap.add_argument("--wall", type=float, default=None, help="stop after this many seconds of wall time")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--record", default="", help="write OUT's logs as this data file (tests/data/closed_loop.json)")
    ap.add_argument("--meta", default="{}", help="--record: a JSON object of what was measured where")
    a = ap.parse_args()
    if a.summary:
        summary(Path(a.out))
        return
    if a.record:
        record(Path(a.out), Path(a.record), json.loads(a.meta))
        return
    k, n = map(int, a.slice.split("/"))
    t0, w0 = _cpu(), time.time()
    run(a.compiler, k, n, Path(a.out), a.cpu_limit, a.pick, a.match, a.jobs, a.wall, w0)
    print(f"done slice {a.slice} ({a.compiler}) in {_cpu() - t0:.0f} s CPU, {time.time() - w0:.0f} s wall", file=sys.stderr)


if __name__ == "__main__":
    main()
