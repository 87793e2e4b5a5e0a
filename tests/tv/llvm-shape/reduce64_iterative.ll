; llvm.amdgcn.wave.reduce.* on i64 values that differ per lane: LLVM 22's
; Iterative loop (also what the DPP strategy falls back to for i64) reads
; each active lane's pair with two v_readlanes, compares it with the running
; value by v_cmp_{gt,lt}_{u,i}64 under EXEC, and picks by s_cselect_b64 on
; the SCC of `s_and_b64 vcc, <lanes left>` (LLVM's llvm.amdgcn.reduce.umax.ll
; `divergent_value_i64`, `divergent_value_dpp_i64` shape).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 12 instances

define void @umax_i64(ptr addrspace(1) %out, i64 %x) {
entry:
  %r = call i64 @llvm.amdgcn.wave.reduce.umax.i64(i64 %x, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define void @umin_i64(ptr addrspace(1) %out, i64 %x) {
entry:
  %r = call i64 @llvm.amdgcn.wave.reduce.umin.i64(i64 %x, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define void @max_i64(ptr addrspace(1) %out, i64 %x) {
entry:
  %r = call i64 @llvm.amdgcn.wave.reduce.max.i64(i64 %x, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define void @min_i64_dpp(ptr addrspace(1) %out, i64 %x) {
entry:
  %r = call i64 @llvm.amdgcn.wave.reduce.min.i64(i64 %x, i32 2)
  store i64 %r, ptr addrspace(1) %out
  ret void
}
