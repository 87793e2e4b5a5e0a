"""What llc-22 compiles from the IR a HIP or CUDA programmer's compiler
writes for a wave reduction or scan: the shuffle idiom.  `__shfl_xor`,
`__shfl_up` (HIP: `llvm.amdgcn.ds.bpermute` on the address `lane * 4`, the
lane from `mbcnt`) in the textbook loops, unrolled:

- ``red.reduce_all``: the xor butterfly, strides W/2 .. 1 (every lane ends
  with the whole wave's value);
- ``red.scan_incl``: Hillis-Steele, strides 1 .. W/2, each lane adding the
  value `d` lanes below when it has one (`lane >= d`);
- ``red.scan_excl``: the inclusive scan moved up one lane, lane 0 the
  operator's identity.

The idiom reads every lane (a full wave: `__shfl_*_sync(0xffffffff, ...)`),
so this is the cost a full-wave reduction pays when written by hand.  The
function is compiled by `llc-22 -O3` for each target and wave, read back as
assembly, and every instruction of its body (after the entry wait, before
the return; `s_delay_alu`, an issue hint, not counted) costed under the
same model as the synthesised sequences (cost.py, reduce.instr_cost).

LLVM's other spelling, `llvm.amdgcn.wave.reduce.*`, is an iterative loop
per active lane in LLVM 22 (docs/synthesis-reductions.md), so it has no
straight-line cost to put beside these.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

from ..diag import InputError
from ..target import Target, get
from .cost import model_for
from .llvmref import Line, _body
from .reduce import instr_cost

LLC = "llc-22"

# table operator -> (IR for %r = a OP b on i32, the identity as an i32)
_IR_OP = {"add": ("add i32 {a}, {b}", "0"),
          "umax": ("call i32 @llvm.umax.i32(i32 {a}, i32 {b})", "0"),
          "umin": ("call i32 @llvm.umin.i32(i32 {a}, i32 {b})", "-1"),
          "smax": ("call i32 @llvm.smax.i32(i32 {a}, i32 {b})", "-2147483648"),
          "smin": ("call i32 @llvm.smin.i32(i32 {a}, i32 {b})", "2147483647"),
          "and": ("and i32 {a}, {b}", "-1"), "or": ("or i32 {a}, {b}", "0"), "xor": ("xor i32 {a}, {b}", "0")}
_DECLS = """declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
"""


class _Fn:
    def __init__(self, op: str) -> None:
        self.op, self.n = op, 0
        self.lines: list[str] = []

    def new(self, rhs: str) -> str:
        self.n += 1
        self.lines.append(f"  %t{self.n} = {rhs}")
        return f"%t{self.n}"

    def combine(self, a: str, b: str) -> str:
        if self.op == "fadd":
            fa, fb = self.new(f"bitcast i32 {a} to float"), self.new(f"bitcast i32 {b} to float")
            return self.new(f"bitcast float {self.new(f'fadd float {fa}, {fb}')} to i32")
        return self.new(_IR_OP[self.op][0].format(a=a, b=b))

    def shfl(self, lane: str, src_lane: str, v: str) -> str:
        """__shfl: lane `src_lane`'s v (ds_bpermute on its byte address)."""
        return self.new(f"call i32 @llvm.amdgcn.ds.bpermute(i32 {self.new(f'shl i32 {src_lane}, 2')}, i32 {v})")


def idiom_ir(spec: str, op: str, wave: int) -> str:
    """The shuffle idiom for (spec, op) on a wave of `wave` lanes, as LLVM IR."""
    if op != "fadd" and op not in _IR_OP:
        raise InputError(None, f"no shuffle idiom for op={op}")
    f = _Fn(op)
    lo = f.new("call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)")
    lane = f.new(f"call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 {lo})") if wave == 64 else lo
    v = "%x"
    strides = [1 << k for k in range(wave.bit_length() - 1)]
    if spec == "red.reduce_all":
        for d in reversed(strides):
            v = f.combine(v, f.shfl(lane, f.new(f"xor i32 {lane}, {d}"), v))
    elif spec in ("red.scan_incl", "red.scan_excl"):
        ident = "-2147483648" if op == "fadd" else _IR_OP[op][1]  # -0.0 for fadd
        for d in strides:
            up = f.shfl(lane, f.new(f"sub i32 {lane}, {d}"), v)
            has = f.new(f"icmp uge i32 {lane}, {d}")
            v = f.new(f"select i1 {has}, i32 {f.combine(v, up)}, i32 {v}")
        if spec == "red.scan_excl":
            up = f.shfl(lane, f.new(f"sub i32 {lane}, 1"), v)
            v = f.new(f"select i1 {f.new(f'icmp eq i32 {lane}, 0')}, i32 {ident}, i32 {up}")
    else:
        raise InputError(None, f"no shuffle idiom for {spec}")
    return (_DECLS + "define i32 @idiom(i32 %x) #0 {\n" + "\n".join(f.lines) + f"\n  ret i32 {v}\n}}\n"
            + f'attributes #0 = {{ convergent nounwind "target-features"="+wavefrontsize{wave}" }}\n')


def compile_idiom(spec: str, op: str, target: Target, wave: int) -> str:
    if shutil.which(LLC) is None:
        raise InputError(None, f"{LLC} is not installed")
    r = subprocess.run([LLC, "-O3", "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target.llvm_cpu}", "-o", "-"],
                       input=idiom_ir(spec, op, wave), capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise InputError(None, f"{LLC} failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
    return r.stdout


def cost_of(body: list[Line], idx: list[int], target: Target, wave: int) -> int:
    """The counted instructions' cost: an LDS cross-lane read (ds_bpermute,
    ds_swizzle) at its class's latency, the rest as reduce.instr_cost prices
    the synthesised steps; a GFX11+ dual-issue pair is one issue."""
    model = model_for(target)
    per: dict[int, int] = {}
    for k in idx:
        b = body[k].ins.base
        lds = {"ds_bpermute_b32": "ds_bpermute", "ds_swizzle_b32": "ds_swizzle"}.get(b)
        c = model.cycles[lds] if lds else instr_cost(body[k].ins, model, wave)
        per[body[k].src] = max(per.get(body[k].src, 0), c)
    return sum(per.values())


def reference(spec: str, op: str, target: Target, wave: int) -> dict[str, Any]:
    """The table's llc-22 entry: the idiom's body as compiled, and its cost."""
    asm = compile_idiom(spec, op, target, wave)
    text = asm.split("idiom:", 1)[1] if "idiom:" in asm else asm
    body = _body(text)
    idx = [k for k, ln in enumerate(body)
           if not (k == 0 and ln.text.startswith("s_waitcnt"))  # the callee's entry wait
           and not ln.text.startswith(("s_delay_alu", "s_setpc_b64"))]
    return {"llc": LLC, "construct": f"shuffle idiom ({'xor butterfly' if spec == 'red.reduce_all' else 'shfl_up'})",
            "cost": cost_of(body, idx, target, wave), "sequence": [body[k].text for k in idx]}


def add_to(index: list[dict[str, Any]]) -> None:
    """Fill each reductions-table entry's "llc" field (compiled now)."""
    for e in index:
        try:
            e["llc"] = reference(e["spec"], e["op"], get(e["target"]), e["wave"])
        except InputError as err:
            e["llc"] = {"llc": LLC, "none": err.message}
