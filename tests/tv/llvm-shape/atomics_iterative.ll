; The atomic optimizer's Iterative strategy in non-kernel functions (EXEC at
; entry any non-empty mask): the functions of atomics_optimizer.ll (LLVM's
; atomic_optimizations_global_pointer.ll shape, an inreg pointer and a
; divergent value), a loop over the active lanes (s_ff1/s_ctz, readlane,
; writelane, andn2) before one lane's atomic.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX9-ITER
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX1132-ITER
; EXPECT: 16 instances
; EXPECT: unknown @umax_i32_varying_ret "the --timeout 30 s budget of 300000000 z3 resource units is spent"
; EXPECT: unknown @min_i32_varying "the solver gave up (the --timeout 30 s budget of 300000000 z3 resource units is spent"

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
