; The atomic optimizer's DPP strategy (LLVM's atomic_optimizer_local_atomics,
; global_atomics_scan shape): a uniform address, one lane's atomic for the
; wave, v_mbcnt/s_bcnt1 for a uniform value, a DPP scan for a divergent one.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX10

define amdgpu_kernel void @add_uniform_value(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define amdgpu_kernel void @add_divergent_value(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %r = atomicrmw add ptr addrspace(1) %out, i32 %id syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define amdgpu_kernel void @lds_add_uniform_value(ptr addrspace(3) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(3) %out, i32 %x syncscope("workgroup") monotonic, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

!0 = !{}
