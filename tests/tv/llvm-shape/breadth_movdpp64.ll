; mov.dpp of i64 (issue #31): the two 32-bit v_mov_b32_dpp keep their `old`
; register in the lanes a row/bank mask or bound_ctrl:0 leaves unwritten;
; the IR leaves those lanes non-deterministic, and verify chooses them from
; the GPU's stores (verify/tv/nondet.py settle_stores, [S:tv-nondet-stores]),
; for kernels and for functions that store through a pointer.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=tonga < %s | FileCheck %s
; EXPECT: 4 instances

define amdgpu_kernel void @mov_dpp64_kernel(ptr addrspace(1) %out, i64 %in1) {
  %tmp0 = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %in1, i32 1, i32 1, i32 1, i1 0)
  store i64 %tmp0, ptr addrspace(1) %out
  ret void
}

define void @mov_dpp64_func(ptr addrspace(1) %out, i64 %x) {
  %tmp0 = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %x, i32 273, i32 3, i32 5, i1 0)
  store i64 %tmp0, ptr addrspace(1) %out
  ret void
}

declare i64 @llvm.amdgcn.mov.dpp.i64(i64, i32, i32, i32, i1)
