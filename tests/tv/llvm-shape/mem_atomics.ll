; atomicrmw of i32 on global, flat and LDS pointers held in VGPRs (one
; address per lane: the atomic optimizer leaves them alone), every
; operation, with and without their result, under the DPP strategy's flag.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -amdgpu-atomic-optimizer-strategy=DPP < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -amdgpu-atomic-optimizer-strategy=Iterative < %s | FileCheck %s --check-prefix=GFX12

define void @atomic_add(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_sub(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw sub ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_and(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw and ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_xor(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw xor ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_min(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw min ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_umax(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw umax ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @atomic_add_offset(ptr addrspace(1) %out, i32 %x) {
  %p = getelementptr i32, ptr addrspace(1) %out, i64 4
  %r = atomicrmw add ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @flat_atomic_umin(ptr %out, i32 %x) {
  %r = atomicrmw umin ptr %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @lds_atomic_sub(ptr addrspace(3) %out, i32 %x) {
  %r = atomicrmw sub ptr addrspace(3) %out, i32 %x syncscope("workgroup") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @lds_atomic_add_ret_store(ptr addrspace(3) %out, ptr addrspace(1) %res, i32 %x) {
  %r = atomicrmw add ptr addrspace(3) %out, i32 %x syncscope("workgroup") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  store i32 %r, ptr addrspace(1) %res, align 4
  ret void
}

define i32 @atomic_add_ret(ptr addrspace(1) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(1) %out, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret i32 %r
}

!0 = !{}
