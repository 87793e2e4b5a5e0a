; 8- and 16-bit atomicrmw in the shape of LLVM's atomic_optimizations_global_pointer.ll
; (uniform_or_i8 ...): the atomic optimizer's one lane runs a compare-and-swap
; loop on the aligned dword holding the bytes; each lane gets the old value
; combined with the lanes before it.  [S:atomic-subword]
; Left unsupported here: the IR's xchg (LLVM runs it in a compare-and-swap
; loop that every lane enters).  (uniform_umax_i8: v_max_u16 on true16
; halves with an SGPR source [S:true16-vop3-halves], proved.)  (uniform_and_i16, with the GFX11 s_or_not1_b32, is proved.)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX1132
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX1164
; EXPECT: 10 instances
; EXPECT: unsupported @uniform_xchg_i8 "atomicrmw 'atomicrmw xchg ptr' of i8"

define amdgpu_kernel void @uniform_or_i8(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw or ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  store i8 %rmw, ptr addrspace(1) %result
  ret void
}

define amdgpu_kernel void @uniform_and_i16(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i16 %val) {
  %rmw = atomicrmw and ptr addrspace(1) %uniform.ptr, i16 %val monotonic, align 2
  store i16 %rmw, ptr addrspace(1) %result
  ret void
}

define amdgpu_kernel void @uniform_umax_i8(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw umax ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  store i8 %rmw, ptr addrspace(1) %result
  ret void
}

define amdgpu_kernel void @uniform_xchg_i8(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw xchg ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  store i8 %rmw, ptr addrspace(1) %result
  ret void
}

define amdgpu_kernel void @uniform_xor_i8_noret(ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw xor ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  ret void
}
