; wave.reduce of i64 uniform kernel arguments (LLVM's
; llvm.amdgcn.reduce.*.ll shape); gfx942 copies the result with v_mov_b64.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s

define amdgpu_kernel void @umax_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.umax.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @xor_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.xor.i64(i64 %in, i32 1)
  store i64 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @add_i64_uniform(ptr addrspace(1) %out, i64 %in) {
  %r = call i64 @llvm.amdgcn.wave.reduce.add.i64(i64 %in, i32 0)
  store i64 %r, ptr addrspace(1) %out
  ret void
}
