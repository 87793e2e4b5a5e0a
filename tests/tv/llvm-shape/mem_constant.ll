; Constant (addrspace 4) loads: s_load_dword* from an inreg pointer or a
; kernel argument, and the kernel arguments of every type (i64, double,
; i16, half, i8, <2 x i16>, <2 x half>, pointers of every address space).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s --check-prefix=GFX9
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s --check-prefix=GFX10
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s --check-prefix=GFX11
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s --check-prefix=GFX12

define void @const_load(ptr addrspace(1) %out, ptr addrspace(4) inreg %in) {
  %v = load i32, ptr addrspace(4) %in, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define void @const_load_offset(ptr addrspace(1) %out, ptr addrspace(4) inreg %in, i32 %x) {
  %p = getelementptr i32, ptr addrspace(4) %in, i64 5
  %v = load i32, ptr addrspace(4) %p, align 4
  %s = add i32 %v, %x
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %s)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @const_load_i64(ptr addrspace(1) %out, ptr addrspace(4) inreg %in) {
  %v = load i64, ptr addrspace(4) %in, align 8
  store i64 %v, ptr addrspace(1) %out, align 8
  ret void
}

define amdgpu_kernel void @kernel_const_arg(ptr addrspace(1) %out, ptr addrspace(4) %in) {
  %v = load i32, ptr addrspace(4) %in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @kernel_i16_half_i8(ptr addrspace(1) %out, i16 %h, half %f, i8 %b) {
  %hz = zext i16 %h to i32
  store i32 %hz, ptr addrspace(1) %out, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  %fb = bitcast half %f to i16
  %fz = zext i16 %fb to i32
  store i32 %fz, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %out, i64 2
  %bz = zext i8 %b to i32
  store i32 %bz, ptr addrspace(1) %p2, align 4
  ret void
}

define amdgpu_kernel void @kernel_wide_args(ptr addrspace(1) %out, i64 %a, double %d, <2 x i16> %v, <2 x half> %hv) {
  store i64 %a, ptr addrspace(1) %out, align 8
  %p1 = getelementptr i64, ptr addrspace(1) %out, i64 1
  store double %d, ptr addrspace(1) %p1, align 8
  %p2 = getelementptr i32, ptr addrspace(1) %out, i64 4
  store <2 x i16> %v, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %out, i64 5
  store <2 x half> %hv, ptr addrspace(1) %p3, align 4
  ret void
}

define amdgpu_kernel void @kernel_i16_readfirstlane(ptr addrspace(1) %out, i16 %h, i16 %g) {
  %hz = zext i16 %h to i32
  %gz = zext i16 %g to i32
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %s = add i32 %hz, %id
  %t = add i32 %s, %gz
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %t)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.workitem.id.x()
