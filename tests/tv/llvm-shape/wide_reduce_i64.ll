; wave.reduce of i64, uniform and divergent (LLVM's llvm.amdgcn.reduce.*.ll
; shape): umin, min, max, and, or of a uniform i64 (closed forms).
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 15 instances

define amdgpu_kernel void @umin_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.umin.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @min_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.min.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @max_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.max.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @and_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.and.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @or_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.or.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}
