"""Real LLVM output for the `verify asm` tests, compiled at test time with
llvmlite's bundled LLVM (AMDGPU backend included)."""

from __future__ import annotations

import re
from functools import cache

ATOMIC_IR = r'''
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %q, i32 %id
  %v = load i32, ptr addrspace(1) %g
  %old = atomicrmw add ptr addrspace(1) %p, i32 %v syncscope("agent") monotonic
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %old, ptr addrspace(1) %o
  ret void
}
'''

# HIP's __shfl_xor as include/hip/amd_detail/amd_warp_functions.h writes it:
# self = __lane_id(); index = self ^ mask; index >= ((self + width) & ~(width - 1)) ? self : index;
# ds_bpermute(index << 2, var)
HIP_XOR_IR = r'''
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
define i32 @shfl_xor(i32 %var) {{
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %index = xor i32 {self}, {mask}
  %t = add i32 {self}, {width}
  %b = and i32 %t, {notw}
  %c = icmp sge i32 %index, %b
  %sel = select i1 %c, i32 {self}, i32 %index
  %addr = shl i32 %sel, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %var)
  ret i32 %r
}}
'''


# The same __shfl_xor as a kernel: each lane loads its var from in[tid],
# shuffles it, and stores the result to out[tid].
HIP_XOR_KERNEL_IR = r'''
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
define amdgpu_kernel void @shfl_xor_kernel(ptr addrspace(1) %in, ptr addrspace(1) %out) {{
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %g = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %var = load i32, ptr addrspace(1) %g
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %index = xor i32 {self}, {mask}
  %t = add i32 {self}, {width}
  %b = and i32 %t, {notw}
  %c = icmp sge i32 %index, %b
  %sel = select i1 %c, i32 {self}, i32 %index
  %addr = shl i32 %sel, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %var)
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %o
  ret void
}}
'''


def _features(cpu: str, wave: int) -> str:
    return "" if cpu.startswith("gfx9") else f"+wavefrontsize{wave}"


@cache
def compile_ir(ir: str, cpu: str, wave: int, dpp: bool = False) -> str:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.set_option("", "-amdgpu-atomic-optimizer-strategy=DPP")
    m = llvm.parse_assembly(ir)
    tm = llvm.Target.from_triple("amdgcn-amd-amdhsa").create_target_machine(
        cpu=cpu, features=_features(cpu, wave), opt=2)
    return tm.emit_assembly(m)


def atomic_kernel(cpu: str, wave: int) -> str:
    return compile_ir(ATOMIC_IR, cpu, wave)


def hip_shfl_xor(cpu: str, wave: int, mask: int, width: int) -> str:
    self = "%lo" if wave == 32 else "%hi"
    return compile_ir(HIP_XOR_IR.format(self=self, mask=mask, width=width, notw=-width), cpu, wave)


def hip_shfl_xor_kernel(cpu: str, wave: int, mask: int, width: int, wide: bool = False) -> str:
    """The kernel; `wide`: indexed by a 64-bit global id plus an i64 offset
    argument, so LLVM computes the addresses with 64-bit arithmetic."""
    self = "%lo" if wave == 32 else "%hi"
    ir = HIP_XOR_KERNEL_IR.format(self=self, mask=mask, width=width, notw=-width)
    if wide:
        ir = ir.replace("ptr addrspace(1) %out) {", "ptr addrspace(1) %out, i64 %n) {")
        ir = ir.replace("  %g = getelementptr i32, ptr addrspace(1) %in, i32 %id\n",
                        "  %wg = call i32 @llvm.amdgcn.workgroup.id.x()\n  %w = mul i32 %wg, 256\n"
                        "  %gid = add i32 %w, %id\n  %gid64 = sext i32 %gid to i64\n  %ix = add i64 %gid64, %n\n"
                        "  %g = getelementptr i32, ptr addrspace(1) %in, i64 %ix\n")
        ir = ir.replace("%out, i32 %id", "%out, i64 %ix")
        ir = ir.replace("declare i32 @llvm.amdgcn.workitem.id.x()", "declare i32 @llvm.amdgcn.workitem.id.x()\n"
                        "declare i32 @llvm.amdgcn.workgroup.id.x()")
    return compile_ir(ir, cpu, wave)


def kernel_registers(text: str) -> tuple[str, str]:
    """(var, result): the VGPR the kernel's global load writes and the VGPR
    its global store stores, as this LLVM allocated them."""
    ins = [s for _, s in _instrs(text)]
    var = next(re.match(r"\w*load\w* (v\d+),", s).group(1) for s in ins if re.match(r"(global|buffer|flat)_load", s))
    res = next(re.match(r"\w*store\w* v(?:\d+|\[\d+:\d+\]), (v\d+),", s).group(1) for s in ins
               if re.match(r"(global|buffer|flat)_store", s))
    return var, res


def _instrs(text: str) -> list[tuple[int, str]]:
    out = []
    for k, line in enumerate(text.splitlines(), 1):
        s = line.split(";")[0].strip()
        if s and not s.startswith(".") and not s.endswith(":") and re.match(r"^[a-z]", s):
            out.append((k, s))
    return out


def atomic_registers(text: str) -> tuple[str, str, str]:
    """(x, sum, exclusive scan): the loaded value, the SGPR the atomic adds,
    the VGPR added to the atomic's result, as this LLVM allocated them."""
    ins = _instrs(text)
    x = next(re.match(r"v_cndmask_b32_e64 v\d+, 0, (v\d+),", s).group(1) for _, s in ins
             if s.startswith("v_cndmask_b32_e64") and ", 0, v" in s)
    k = next(i for i, (_, s) in enumerate(ins) if s.startswith("s_cbranch_execz"))
    total = next(re.match(r"v_mov_b32_e32 v\d+, (s\d+)", s).group(1) for _, s in ins[k:] if re.match(r"v_mov_b32_e32 v\d+, s\d+", s))
    r = next(i for i, (_, s) in enumerate(ins) if s.startswith("v_readfirstlane_b32"))
    scan = next(re.match(r"v_mov_b32_e32 v\d+, (v\d+)", s).group(1) for _, s in ins[r:] if re.match(r"v_mov_b32_e32 v\d+, v\d+", s))
    return x, total, scan
