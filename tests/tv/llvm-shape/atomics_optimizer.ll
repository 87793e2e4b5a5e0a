; The atomic optimizer (AMDGPUAtomicOptimizer.cpp) in the shape of LLVM's
; atomic_optimizations_global_pointer.ll: an atomicrmw to a uniform address
; (an inreg pointer) with a divergent value, with and without its result,
; in non-kernel functions (EXEC at entry is any non-empty mask), under the
; DPP strategy (set.inactive, a DPP scan, readlane of the last lane, one
; lane's atomic, readfirstlane, the per-lane exclusive scan); the Iterative
; strategy's RUN lines are atomics_iterative.ll's (one target's verdicts
; differ between the strategies, and EXPECT lines name no strategy).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX9-DPP
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX1064-DPP
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX1132-DPP
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX1264-DPP
; EXPECT: 32 instances
; EXPECT: unknown @umax_i32_varying_ret "the solver gave up on EXEC and the returned value"

define void @add_i32_varying(ptr addrspace(1) inreg %p, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @add_i32_varying_ret(ptr addrspace(1) inreg %p, ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @sub_i32_varying_ret(ptr addrspace(1) inreg %p, ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw sub ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @xor_i32_varying_ret(ptr addrspace(1) inreg %p, ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw xor ptr addrspace(1) %p, i32 %x syncscope("workgroup") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @or_i32_varying(ptr addrspace(1) inreg %p, i32 %x) {
  %r = atomicrmw or ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @umax_i32_varying_ret(ptr addrspace(1) inreg %p, ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw umax ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @min_i32_varying(ptr addrspace(1) inreg %p, i32 %x) {
  %r = atomicrmw min ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define i32 @add_i32_varying_returned(ptr addrspace(1) inreg %p, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret i32 %r
}

!0 = !{}
