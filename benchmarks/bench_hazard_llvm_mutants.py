"""The hazard model against llc-22's own waits, over any .ll files (the
tests/tv corpus, or LLVM's CodeGen tests fetched to a scratch directory):
each file compiled for each target, each function's code checked (LLVM's
output must draw no hazard warning: a false alarm), then each wait LLVM put
there (s_nop, s_wait_alu, s_waitcnt_depctr, v_nop, `s_mov_b32 null, 0`)
deleted in turn (the mutant must draw one: else verify would accept code
LLVM's recognizer fixes).  Prints the counts and each exception; exits 1 on
any.  docs/semantics.md [S:trust-hazards].

    python benchmarks/bench_hazard_llvm_mutants.py [--targets gfx900:64,gfx1100:32] FILE.ll...
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verify.target import get
from verify.tv.check import gpu_code

WAIT = re.compile(r"^\s*(s_nop|s_wait_alu|s_waitcnt_depctr|v_nop|s_mov_b32 null, 0\s*$)")
TARGETS = ("gfx803:64,gfx900:64,gfx90a:64,gfx942:64,gfx950:64,gfx1010:32,gfx1010:64,gfx1030:64,gfx1100:32,"
           "gfx1100:64,gfx1150:64,gfx1200:32,gfx1200:64")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--targets", default=TARGETS, help="CPU:WAVE,... (default: %(default)s)")
    ap.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args()
    llc = shutil.which("llc-22")
    if llc is None:
        print("needs llc-22")
        return 2
    targets = [(c, int(w)) for c, w in (t.split(":") for t in args.targets.split(","))]
    n = {"compiled": 0, "other cpu": 0, "llc failed": 0, "functions": 0, "unsupported": 0, "waits flagged": 0}
    alarms: list[str] = []
    missed: list[str] = []
    for f in args.files:
        src = f.read_text()
        pinned = set(re.findall(r'"target-cpu"="([\w-]+)"', src))
        for cpu, wave in targets:
            if pinned and pinned != {cpu}:  # a function attribute compiles it for another processor
                n["other cpu"] += 1
                continue
            r = subprocess.run([llc, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", f"-mattr=+wavefrontsize{wave}"],
                               input=src, capture_output=True, text=True)
            if r.returncode:
                n["llc failed"] += 1
                continue
            n["compiled"] += 1
            asm = r.stdout
            kernels = set(re.findall(r"^\s*\.amdhsa_kernel\s+([\w.$]+)", asm, re.M))
            lines = asm.splitlines()
            for name in re.findall(r"^\s*\.type\s+([\w.$]+),@function", asm, re.M):
                code = gpu_code(asm, name, f"{f.name}:{cpu}", name in kernels)
                if code.problems:
                    n["unsupported"] += 1
                    continue
                n["functions"] += 1
                got = code.hazard_warnings(get(cpu), None, wave)[0]
                if got:
                    alarms.append(f"{f.name} {cpu} w{wave} {name}: {got[0]}")
                start = next(i for i, t in enumerate(lines) if t.startswith(f"{name}:"))
                end = next((i for i in range(start, len(lines)) if lines[i].startswith(".Lfunc_end")), len(lines))
                for k in range(start, end):
                    if WAIT.match(lines[k]):
                        mutant = "\n".join(lines[:k] + lines[k + 1:])
                        if gpu_code(mutant, name, f.name, name in kernels).hazard_warnings(get(cpu), None, wave)[0]:
                            n["waits flagged"] += 1
                        else:
                            missed.append(f"{f.name} {cpu} w{wave} {name} line {k + 1}: {lines[k].strip()} "
                                          f"(before: {lines[k + 1].strip()})")
    print("  ".join(f"{k}: {v}" for k, v in n.items()) + f"  false alarms: {len(alarms)}  waits missed: {len(missed)}")
    for a in alarms:
        print("false alarm:", a)
    for m in missed:
        print("missed:", m)
    return 1 if alarms or missed else 0


if __name__ == "__main__":
    sys.exit(main())
