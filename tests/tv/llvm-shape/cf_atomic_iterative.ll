; The atomic optimizer's Iterative strategy (LLVM's
; atomic_optimizations_global_pointer.ll shape, -amdgpu-atomic-optimizer-strategy=Iterative):
; a loop over the active lanes (s_ff1/s_ctz, v_readlane, v_writelane,
; s_lshl + s_andn2 until the mask is empty), then one atomic from the first
; lane under s_and_saveexec + s_cbranch_execz, the join's s_or exec, and each
; lane's old value rebuilt with v_readfirstlane.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @add_i32_varying(ptr addrspace(1) %p, ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %old = atomicrmw add ptr addrspace(1) %p, i32 %var syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %old, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @or_i32_varying(ptr addrspace(1) %p, ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %old = atomicrmw or ptr addrspace(1) %p, i32 %var syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %old, ptr addrspace(1) %o, align 4
  ret void
}

!0 = !{}
