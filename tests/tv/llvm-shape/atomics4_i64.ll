; 64-bit atomicrmw in the shape of LLVM's atomic_optimizations_global_pointer.ll
; (kernels): the atomic optimizer folds the lanes' i64 values into one lane's
; global_atomic_*_u64 and rebuilds each lane's result with v_mad_u64_u32 of
; the readfirstlane pair (verify/tv/atomic64.py); a uniform xor without its
; result is run by every lane (unsupported: several lanes), on gfx1100 and
; on gfx1200 (whose s_mul_u64 is modelled: [S:s-mul-u64]).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX1132-ITER
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX1232-DPP
; EXPECT: 4 instances
; EXPECT: unsupported @xor_i64_uniform_noret "a 64-bit atomic that several lanes may run"

define amdgpu_kernel void @add_i64_constant(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
entry:
  %old = atomicrmw add ptr addrspace(1) %inout, i64 5 syncscope("agent") acq_rel, align 8, !amdgpu.no.fine.grained.memory !0
  store i64 %old, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @xor_i64_uniform_noret(ptr addrspace(1) %inout, i64 %x) {
entry:
  %old = atomicrmw xor ptr addrspace(1) %inout, i64 %x syncscope("agent") monotonic, align 8, !amdgpu.no.fine.grained.memory !0
  ret void
}

!0 = !{}
