; Cross-lane intrinsics whose results go to memory (LLVM's
; llvm.amdgcn.writelane.ll, update.dpp.ll shape: the result
; stored through %out), kernels indexing global and LDS memory by
; workitem.id.x, gfx9 to gfx12.
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s | FileCheck %s --check-prefix=GFX90A
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s --check-prefix=GFX12

define void @writelane_store(ptr addrspace(1) %out, i32 %old, i32 inreg %v, i32 inreg %lane) {
  %r = call i32 @llvm.amdgcn.writelane.i32(i32 %v, i32 %lane, i32 %old)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @update_dpp_row_shl_store(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 257, i32 15, i32 15, i1 true)
  %p = getelementptr i32, ptr addrspace(1) %out, i64 2
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

define void @readfirstlane_lds_and_global(ptr addrspace(1) %out, ptr addrspace(3) %l, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %r, ptr addrspace(3) %l, align 4
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @kernel_readfirstlane_by_id(ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %s = add i32 %x, %id
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %s)
  %z = zext i32 %id to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %z
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

define amdgpu_kernel void @kernel_lds_by_id(ptr addrspace(3) %l, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  %p = getelementptr i32, ptr addrspace(3) %l, i32 %id
  store i32 %r, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workitem.id.x()
