; LDS (addrspace 3) loads, stores and atomics in functions, with the
; cross-lane intrinsics of LLVM's tests: ds_write_b32/ds_read_b32 (gfx9,
; gfx10), ds_store_b32/ds_load_b32 (gfx11+), M0 set to -1 on gfx8.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s --check-prefix=GFX8
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s --check-prefix=GFX12

define void @lds_store(ptr addrspace(3) %out, i32 %x) {
  store i32 %x, ptr addrspace(3) %out, align 4
  ret void
}

define void @lds_store_readfirstlane_offset(ptr addrspace(3) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  %p = getelementptr i32, ptr addrspace(3) %out, i32 3
  store i32 %r, ptr addrspace(3) %p, align 4
  ret void
}

define void @lds_load_to_global(ptr addrspace(1) %out, ptr addrspace(3) %in) {
  %v = load i32, ptr addrspace(3) %in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @lds_copy(ptr addrspace(3) %out, ptr addrspace(3) %in) {
  %v = load i32, ptr addrspace(3) %in, align 4
  store i32 %v, ptr addrspace(3) %out, align 4
  ret void
}

define void @lds_store_i64(ptr addrspace(3) %out, i64 %x) {
  store i64 %x, ptr addrspace(3) %out, align 8
  ret void
}

define void @lds_atomic_add(ptr addrspace(3) %out, i32 %x) {
  %r = atomicrmw add ptr addrspace(3) %out, i32 %x syncscope("workgroup") monotonic, align 4
  ret void
}

define void @lds_atomic_max_ret(ptr addrspace(3) %out, ptr addrspace(1) %res, i32 %x) {
  %r = atomicrmw max ptr addrspace(3) %out, i32 %x syncscope("workgroup") monotonic, align 4
  store i32 %r, ptr addrspace(1) %res, align 4
  ret void
}

define void @lds_two_stores(ptr addrspace(3) %out, i32 %x, i32 %y) {
  store i32 %x, ptr addrspace(3) %out, align 4
  %p = getelementptr i32, ptr addrspace(3) %out, i32 1
  store i32 %y, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
