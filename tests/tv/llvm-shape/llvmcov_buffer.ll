; Global memory through MUBUF buffer resources (-mattr=-flat-for-global), in
; the shape of LLVM's llvm.amdgcn.update.dpp.ll / mov.dpp.ll / atomic optimizer
; tests: the descriptor built from a kernel's pointer argument, then
; buffer_store_dword / buffer_load_dword / buffer_atomic_add through it.
; RUN: llc -mtriple=amdgcn -mcpu=fiji -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=None < %s | FileCheck -check-prefix=GFX8 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=None < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=None < %s | FileCheck -check-prefix=GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=None < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=-wavefrontsize32,+wavefrontsize64 -mattr=-flat-for-global -amdgpu-atomic-optimizer-strategy=None < %s | FileCheck -check-prefix=GFX12 %s

define amdgpu_kernel void @store_readfirstlane(ptr addrspace(1) %out, i32 %x) {
  %v = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_update_dpp_row_shr(ptr addrspace(1) %out, i32 %in1, i32 %in2) {
  %tmp0 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %in1, i32 %in2, i32 273, i32 15, i32 15, i1 false)
  store i32 %tmp0, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_mov_dpp_tid(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %tmp0 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %id, i32 1, i32 1, i32 1, i1 true)
  store i32 %tmp0, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_offset(ptr addrspace(1) %out, i32 %x) {
  %p = getelementptr i32, ptr addrspace(1) %out, i64 5
  store i32 %x, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @store_v2i32(ptr addrspace(1) %out, <2 x i32> %x) {
  store <2 x i32> %x, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @store_i64_readlane(ptr addrspace(1) %out, i64 %x) {
  %v = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  store i64 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @load_add_store(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %a = load i32, ptr addrspace(1) %in
  %p = getelementptr i32, ptr addrspace(1) %in, i64 1
  %b = load i32, ptr addrspace(1) %p
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @load_v4i32_store(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %v = load <4 x i32>, ptr addrspace(1) %in
  store <4 x i32> %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @atomic_add_noret(ptr addrspace(1) %inout, i32 %x) {
  %old = atomicrmw add ptr addrspace(1) %inout, i32 %x syncscope("agent") monotonic
  ret void
}

define amdgpu_kernel void @store_wave_shuffle(ptr addrspace(1) %out, i32 %v, i32 %idx) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %id, i32 3)
  %s = add i32 %r, %v
  store i32 %s, ptr addrspace(1) %out
  ret void
}
