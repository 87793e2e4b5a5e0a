"""How `verify tv` grows with chained cross-lane steps (issue 35, item 3).

    python benchmarks/bench_tv_chains.py [--ops dpp,swizzle,...] [--n 1,2,4,8,16,32,64]
                                         [--targets gfx1030:32,gfx1100:64] [--limit S]

For each cross-lane operation and each n, a function that chains n steps
``x = x + op(x)`` (IR of the shape clang emits, compiled by llc-22), then
`verify tv` on it per target/wave, in this process.  Prints one line per
(op, target, wave, n): the verdict, verify's CPU seconds (the IR and GPU
runs and the solver; this process's CPU time, compiling not included) and
llc-22's CPU seconds compiling the same file for the same target, measured
in the same run, and their ratio.  ``--limit`` stops an op's curve after a
point that took longer (the rest of its curve is then not printed).  The
ds_bpermute chain computes its address from the lane id as clang's
__shfl_xor does (mbcnt, xor, shift), so its lane map is known only after
evaluating that arithmetic per lane.  ``readlane_same`` and ``bpermute_same``
read one lane at every step (lane 1).  ``--hip`` times HIP's warp sum and
inclusive scan as clang-22 emits them (tests/tv/clang22_warp_reduce_*.ll,
one line per function and target), the item's other goal (< 2 s each).
"""

from __future__ import annotations

import argparse
import gc
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.tv.check import check_file

# op -> (declarations, body of one step from %x<k> to %x<k+1> (format k, j), targets it exists on)
OPS: dict[str, tuple[str, str, str]] = {
    "dpp": ("declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)",
            "  %d{k} = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x{k}, i32 273, i32 15, i32 15, i1 false)\n",
            "all"),
    "swizzle": ("declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)",
                "  %d{k} = call i32 @llvm.amdgcn.ds.swizzle(i32 %x{k}, i32 1055)\n", "all"),
    "permlane16": ("declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)",
                   "  %d{k} = call i32 @llvm.amdgcn.permlane16.i32(i32 %x{k}, i32 %x{k}, i32 -1985229329, "
                   "i32 1985229328, i1 false, i1 false)\n", "gfx10"),
    "permlanex16": ("declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)",
                    "  %d{k} = call i32 @llvm.amdgcn.permlanex16.i32(i32 %x{k}, i32 %x{k}, i32 1985229328, "
                    "i32 -19088744, i1 false, i1 false)\n", "gfx10"),
    "permlane64": ("declare i32 @llvm.amdgcn.permlane64.i32(i32)",
                   "  %d{k} = call i32 @llvm.amdgcn.permlane64.i32(i32 %x{k})\n", "gfx11w64"),
    "readlane": ("declare i32 @llvm.amdgcn.readlane.i32(i32, i32)",
                 "  %d{k} = call i32 @llvm.amdgcn.readlane.i32(i32 %x{k}, i32 {j})\n", "all"),
    "readlane_same": ("declare i32 @llvm.amdgcn.readlane.i32(i32, i32)",
                      "  %d{k} = call i32 @llvm.amdgcn.readlane.i32(i32 %x{k}, i32 1)\n", "all"),
    "bpermute_same": ("declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)",
                      "  %d{k} = call i32 @llvm.amdgcn.ds.bpermute(i32 4, i32 %x{k})\n", "all"),
    "bpermute": ("declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)\ndeclare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)\n"
                 "declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)",
                 "  %l{k} = xor i32 %lane, {m}\n  %a{k} = shl i32 %l{k}, 2\n"
                 "  %d{k} = call i32 @llvm.amdgcn.ds.bpermute(i32 %a{k}, i32 %x{k})\n", "all"),
}


def chain_ir(op: str, n: int, wave: int) -> str:
    decl, step, _ = OPS[op]
    body = ""
    if op == "bpermute":
        body += "  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n"
        body += ("  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)\n" if wave == 64
                 else "  %lane = or i32 %lo, 0\n")
    for k in range(n):
        body += step.format(k=k, j=(3 * k + 1) % wave, m=1 << (k % (5 if wave == 32 else 6)))
        body += f"  %x{k + 1} = add i32 %x{k}, %d{k}\n"
    return f"{decl}\n\ndefine i32 @chain(i32 %x0) {{\n{body}  ret i32 %x{n}\n}}\n"


def applies(op: str, target: str, wave: int) -> bool:
    where = OPS[op][2]
    gen = int(target[3:-2]) if target.startswith("gfx1") else 9
    if where == "gfx10":
        return gen >= 10
    if where == "gfx11w64":
        return gen >= 11 and wave == 64
    return True


def llc_cpu(llc: str, text: str, target: str, wave: int) -> float:
    """llc's CPU seconds (user + system of the child) compiling `text`."""
    attr = [f"-mattr=+wavefrontsize{wave}"] if target.startswith("gfx1") else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([llc, "-mtriple=amdgcn", f"-mcpu={target}", *attr, "-o", "/dev/null"], input=text.encode(),
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--n", default="1,2,4,8,12,16,24,32,48,64")
    ap.add_argument("--targets", default="gfx1030:32,gfx1100:64")
    ap.add_argument("--limit", type=float, default=20.0, help="stop a curve after a point over this many CPU s")
    ap.add_argument("--llc", default="llc-22")
    ap.add_argument("--hip", action="store_true", help="HIP's warp sum and scan (clang-22's) instead")
    args = ap.parse_args()
    llc = shutil.which(args.llc)
    if llc is None:
        print(f"{args.llc} not found", file=sys.stderr)
        return 2
    if args.hip:
        return hip(llc)
    ns = [int(x) for x in args.n.split(",")]
    print(f"{'op':<12} {'target':<8} {'wave':>4} {'n':>3}  {'verdict':<8} {'verify s':>9} {'llc s':>7} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as d:
        for op in args.ops.split(","):
            for tw in args.targets.split(","):
                target, w = tw.split(":")
                wave = int(w)
                if not applies(op, target, wave):
                    continue
                for n in ns:
                    text = chain_ir(op, n, wave)
                    p = Path(d) / f"{op}_{n}.ll"
                    p.write_text(text)
                    llc_s = llc_cpu(llc, text, target, wave)
                    gc.collect()  # (the last point's z3 context freed before, not inside, this point's time)
                    t0 = time.process_time()
                    rs = check_file(str(p), text, [target], wave, [f"{llc} -mtriple=amdgcn -mcpu={target}"])
                    # (the llc child's time is not this process's CPU time)
                    cpu = time.process_time() - t0
                    v = ",".join(r.verdict for r in rs)
                    print(f"{op:<12} {target:<8} {wave:>4} {n:>3}  {v:<8} {cpu:9.3f} {llc_s:7.3f} "
                          f"{cpu / max(llc_s, 1e-3):6.1f}", flush=True)
                    if cpu > args.limit:
                        break
    return 0


def hip(llc: str) -> int:
    """verify's CPU seconds per function of tests/tv/clang22_warp_reduce_*.ll."""
    print(f"{'function':<10} {'target':<8} {'wave':>4}  {'verdict':<8} {'verify s':>9}")
    for p in sorted((ROOT / "tests" / "tv").glob("clang22_warp_reduce_*.ll")):
        text = p.read_text()
        for fn in ("warp_sum", "warp_scan"):
            t0 = time.process_time()
            rs = check_file(str(p), text, [], None, [llc], functions=[fn])
            cpu = time.process_time() - t0
            for r in rs:
                print(f"{fn:<10} {r.target:<8} {r.wave:>4}  {r.verdict:<8} {cpu:9.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
