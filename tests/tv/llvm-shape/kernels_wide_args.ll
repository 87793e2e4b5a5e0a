; Kernels in the shape of LLVM's cross-lane tests: uniform kernel arguments
; of i64, double, <2 x i16>, <2 x half>, flat and LDS pointers, per-lane
; loads and stores of 64-bit values through a global pointer.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s

define amdgpu_kernel void @dpp_i64_kernarg(ptr addrspace(1) %out, i64 %in1, i64 %in2) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %in1, i64 %in2, i32 1, i32 1, i32 1, i1 false)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @dpp_i64_load(ptr addrspace(1) %arg, i64 %in1) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr inbounds i64, ptr addrspace(1) %arg, i32 %id
  %v = load i64, ptr addrspace(1) %gep
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %in1, i64 %v, i32 1, i32 1, i32 1, i1 false)
  store i64 %r, ptr addrspace(1) %gep
  ret void
}

define amdgpu_kernel void @readlane_f64_kernarg(ptr addrspace(1) %out, double %src, i32 %lane) {
  %r = call double @llvm.amdgcn.readlane.f64(double %src, i32 %lane)
  store double %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @readfirstlane_v2i16_load(ptr addrspace(1) %arg) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr inbounds <2 x i16>, ptr addrspace(1) %arg, i32 %id
  %v = load <2 x i16>, ptr addrspace(1) %gep
  %r = call <2 x i16> @llvm.amdgcn.readfirstlane.v2i16(<2 x i16> %v)
  store <2 x i16> %r, ptr addrspace(1) %gep
  ret void
}

define amdgpu_kernel void @writelane_v2f16_kernarg(ptr addrspace(1) %out, <2 x half> %val, <2 x half> %old) {
  %r = call <2 x half> @llvm.amdgcn.writelane.v2f16(<2 x half> %val, i32 5, <2 x half> %old)
  store <2 x half> %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @readfirstlane_p0_kernarg(ptr addrspace(1) %out, ptr %p) {
  %r = call ptr @llvm.amdgcn.readfirstlane.p0(ptr %p)
  store ptr %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @readfirstlane_p3_kernarg(ptr addrspace(1) %out, ptr addrspace(3) %p) {
  %r = call ptr addrspace(3) @llvm.amdgcn.readfirstlane.p3(ptr addrspace(3) %p)
  %i = ptrtoint ptr addrspace(3) %r to i32
  store i32 %i, ptr addrspace(1) %out
  ret void
}
