; Functions that take a global pointer and store what a cross-lane
; intrinsic gives (the shape of LLVM's llvm.amdgcn.readlane.ll,
; update.dpp.ll, mov.dpp.ll tests: `define void @f(ptr addrspace(1) %out, ...)`).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s --check-prefix=GFX12

define void @readfirstlane_store(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @readlane_store_offset(ptr addrspace(1) %out, i32 %x, i32 inreg %lane) {
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %lane)
  %p = getelementptr i32, ptr addrspace(1) %out, i64 4
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

define void @update_dpp_store(ptr addrspace(1) %out, i32 %old, i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %old, i32 %x, i32 1, i32 15, i32 15, i1 false)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @mov_dpp_row_shr_store(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %x, i32 273, i32 15, i32 15, i1 true)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @readfirstlane_i64_store(ptr addrspace(1) %out, i64 %x) {
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  store i64 %r, ptr addrspace(1) %out, align 8
  ret void
}

define void @two_stores(ptr addrspace(1) %out, i32 %x, i32 %y) {
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %a, ptr addrspace(1) %out, align 4
  %p = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %y, ptr addrspace(1) %p, align 4
  ret void
}

define void @load_readfirstlane_store(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %v = load i32, ptr addrspace(1) %in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @store_negative_offset(ptr addrspace(1) %out, i32 %x) {
  %p = getelementptr i32, ptr addrspace(1) %out, i64 -2
  store i32 %x, ptr addrspace(1) %p, align 4
  ret void
}

define i32 @store_and_return(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %x, ptr addrspace(1) %out, align 4
  ret i32 %r
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.readfirstlane.i64(i64)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
