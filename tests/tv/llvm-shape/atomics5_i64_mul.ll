; An i64 atomicrmw add of a uniform value and of a constant in the shape of
; LLVM's atomic_optimizations_global_pointer.ll: the atomic optimizer
; multiplies the value by the active-lane count in 32-bit pieces (s_mul_i32,
; s_mul_hi_u32) and gives each lane old + value * mbcnt by two
; v_mad_u64_u32; verify tv meets the IR's lane-by-lane sum with the 64-bit
; normal form of [S:atomic64-mul] (before it: unknown, the z3 budget spent
; by EXEC = lanes 0..5).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX1132
; EXPECT: 4 instances

define amdgpu_kernel void @add_i64_constant(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
entry:
  %old = atomicrmw add ptr addrspace(1) %inout, i64 5 syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @add_i64_uniform(ptr addrspace(1) %out, ptr addrspace(1) %inout, i64 %additive) {
entry:
  %old = atomicrmw add ptr addrspace(1) %inout, i64 %additive syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}
