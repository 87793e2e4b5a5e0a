; Flat (addrspace 0) stores and loads on gfx803, where there are no global
; instructions: flat_store_dword, flat_load_dword, the kernels' flat_scratch
; setup (s_mov_b32/s_lshr_b32 flat_scratch_*); and the same IR on gfx9+.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s --check-prefix=GFX8
; RUN: llc -mtriple=amdgcn -mcpu=fiji < %s | FileCheck %s --check-prefix=GFX8
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11

define void @flat_store_readfirstlane(ptr %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %r, ptr %out, align 4
  ret void
}

define void @flat_global_store_gfx8(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @flat_load_store(ptr %out, ptr %in) {
  %v = load i32, ptr %in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr %out, align 4
  ret void
}

define void @flat_store_i64(ptr %out, i64 %x) {
  store i64 %x, ptr %out, align 8
  ret void
}

define amdgpu_kernel void @flat_kernel_store(ptr %out, i32 %x) {
  store i32 %x, ptr %out, align 4
  ret void
}

define amdgpu_kernel void @flat_kernel_readfirstlane(ptr %out, ptr addrspace(1) %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i64 1
  %v = load i32, ptr addrspace(1) %p, align 4
  %s = add i32 %v, %id
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %s)
  store i32 %r, ptr %out, align 4
  ret void
}

define void @flat_atomic_add(ptr %out, i32 %x) {
  %r = atomicrmw add ptr %out, i32 %x syncscope("agent") monotonic, align 4
  ret void
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workitem.id.x()
