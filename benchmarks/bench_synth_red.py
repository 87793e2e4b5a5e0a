"""Time reduction/scan synthesis per (target, wave, spec) and, with --write,
keep the winners: lowerings/synth/syn_red_*.s and docs/synthesis-reductions.json.

    python benchmarks/bench_synth_red.py [--targets gfx900,gfx1100] [--specs red.scan_excl:add] [--write]
                                         [--time-limit 300]
    python benchmarks/bench_synth_red.py --llvm    # recompile the LLVM column only (no search)

With --specs, only those (spec, op) entries are searched; --write then
replaces them in the index and keeps the others.

Every entry is searched and proved from its text (verify/synth/reduce.py);
the line gives the cost, the verdict and the seconds (goal: < 300 s each).
With --write or --llvm, each entry also gets what LLVM (llvmlite) emits for it
(verify/synth/llvmref.py), compiled in one child process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.synth import llcref, llvmref
from verify.synth.reduce import synthesize_red
from verify.target import get

TARGETS = ["gfx900", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1200"]
SPECS = [("red.scan_incl", "add"), ("red.scan_excl", "add"), ("red.reduce_all", "add"), ("red.reduce_all", "umax"),
         ("red.reduce_all", "fadd")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--write", action="store_true", help="write lowerings/synth/syn_red_*.s and the json index")
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--specs", default="", help="spec:op entries to search (default: all)")
    ap.add_argument("--llvm", action="store_true", help="only recompile the json's LLVM column, then exit")
    a = ap.parse_args()
    path = ROOT / "docs" / "synthesis-reductions.json"
    if a.llvm:
        index = json.loads(path.read_text())
        t0 = time.perf_counter()
        llvmref.add_to(index)
        llcref.add_to(index)
        print(f"compiled and costed {len(index)} LLVM sequences in {time.perf_counter() - t0:.1f} s")
        path.write_text(json.dumps(index, indent=1) + "\n")
        return
    specs = [tuple(x.split(":")) for x in a.specs.split(",")] if a.specs else SPECS
    index = []
    for tn in a.targets.split(","):
        t = get(tn)
        for wave in t.waves:
            for spec, op in specs:
                name = f"syn_red_{spec.split('.')[1]}_{op}_{tn}_w{wave}"
                cmd = f"verify synth {spec} op={op} --target {tn} --wave {wave}"
                t0 = time.perf_counter()
                try:
                    o = synthesize_red(spec, {"op": op}, [t], wave, name, cmd, 60.0, time_limit=a.time_limit)
                    verdict, cost, err = o.verdict, o.cost, ""
                except Exception as e:  # reported, not hidden
                    o, verdict, cost, err = None, "error", None, f"{type(e).__name__}: {e}"
                dt = time.perf_counter() - t0
                print(f"{tn:8} wave{wave} {spec:15} {op:5} {verdict:7} cost {cost!s:5} {dt:7.1f} s {err}", flush=True)
                entry = {"target": tn, "wave": wave, "spec": spec, "op": op, "verdict": verdict, "cost": cost,
                         "seconds": round(dt, 1), "error": err}
                if o is not None and o.text is not None:
                    entry.update({"file": f"lowerings/synth/{name}.s", "claim": o.claim(), "relies_on": o.relies_on,
                                  "lowering": o.lines, "stats": o.to_json()["stats"]})
                    if a.write:
                        (ROOT / "lowerings" / "synth" / f"{name}.s").write_text(o.text)
                index.append(entry)
    if a.write:
        llvmref.add_to(index)
        llcref.add_to(index)
        key = lambda e: (e["target"], e["wave"], e["spec"], e["op"])  # noqa: E731
        if a.specs or set(a.targets.split(",")) != set(TARGETS):  # the other entries as they were
            new = {key(e) for e in index}
            index += [e for e in json.loads(path.read_text()) if key(e) not in new]
        tk, sk = {t: k for k, t in enumerate(TARGETS)}, {so: k for k, so in enumerate(SPECS)}
        index.sort(key=lambda e: (tk.get(e["target"], 99), e["wave"], sk.get((e["spec"], e["op"]), 99)))
        path.write_text(json.dumps(index, indent=1) + "\n")


if __name__ == "__main__":
    main()
