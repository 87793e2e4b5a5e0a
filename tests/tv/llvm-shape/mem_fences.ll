; Fences and atomic orderings around stores: LLVM's memory model lowers them
; to waits and cache invalidates (buffer_wbinvl1_vol on gfx9,
; buffer_gl0_inv/buffer_gl1_inv on gfx10/11, global_inv/global_wb on gfx12),
; which change nothing in one wave's memory.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s | FileCheck %s --check-prefix=GFX90A
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s --check-prefix=GFX12

define void @fence_agent_acquire(ptr addrspace(1) %out, i32 %x) {
  store i32 %x, ptr addrspace(1) %out, align 4
  fence syncscope("agent") acquire
  ret void
}

define void @fence_seq_cst_between(ptr addrspace(1) %out, i32 %x, i32 %y) {
  store i32 %x, ptr addrspace(1) %out, align 4
  fence seq_cst
  %p = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %y, ptr addrspace(1) %p, align 4
  ret void
}

define void @fence_workgroup_release(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  fence syncscope("workgroup") release
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @fence_then_load(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  fence syncscope("agent") acq_rel
  %v = load i32, ptr addrspace(1) %in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @atomic_add_acquire_agent(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %out, i32 %x syncscope("agent") acquire, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_or_seq_cst(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw or ptr addrspace(1) %out, i32 %x seq_cst, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @lds_fence_workgroup(ptr addrspace(3) %out, i32 %x) {
  store i32 %x, ptr addrspace(3) %out, align 4
  fence syncscope("workgroup") seq_cst
  ret void
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)

!0 = !{}
