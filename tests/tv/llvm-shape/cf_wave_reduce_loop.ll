; llvm.amdgcn.wave.reduce.* of divergent values, strategy 1 (Iterative): the
; s_ff1/s_ctz + v_readlane + s_bitset0 + s_cmp_lg + s_cbranch_scc1 loop
; (LLVM's llvm.amdgcn.reduce.*.ll shape).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @umax_divergent(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %gi
  %r = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %x, i32 1)
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %go
  ret void
}

define amdgpu_kernel void @umin_divergent(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %gi
  %r = call i32 @llvm.amdgcn.wave.reduce.umin.i32(i32 %x, i32 1)
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %go
  ret void
}

