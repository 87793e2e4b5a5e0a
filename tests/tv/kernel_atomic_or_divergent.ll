; a kernel: atomicrmw or p[id], in[id] (per-lane addresses, no result)
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @kernel_atomic_or_divergent(ptr addrspace(1) %p, ptr addrspace(1) %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %idx
  %old = atomicrmw or ptr addrspace(1) %a, i32 %var syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

!0 = !{}
