; Compute and pixel shaders with ballot.i64 (LLVM's llvm.amdgcn.ballot.i64.ll
; shape) in wave64: the mask returned in an SGPR pair.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; EXPECT: 21 instances

define amdgpu_cs i64 @constant_false() {
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 0)
  ret i64 %ballot
}

define amdgpu_cs i64 @constant_true() {
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 1)
  ret i64 %ballot
}

define amdgpu_cs i64 @non_compare(i32 %x) {
  %trunc = trunc i32 %x to i1
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %trunc)
  ret i64 %ballot
}

define amdgpu_cs i64 @compare_ints(i32 %x, i32 %y) {
  %cmp = icmp eq i32 %x, %y
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %cmp)
  ret i64 %ballot
}

define amdgpu_cs i64 @compare_signed(i32 %x, i32 %y) {
  %cmp = icmp slt i32 %x, %y
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %cmp)
  ret i64 %ballot
}

define amdgpu_ps i64 @ps_ballot(float %x) {
  %i = bitcast float %x to i32
  %cmp = icmp slt i32 %i, 0
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %cmp)
  ret i64 %ballot
}

define amdgpu_cs i32 @ctpop_of_ballot(i32 %x) {
  %cmp = icmp ne i32 %x, 0
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %cmp)
  %bcnt = call i64 @llvm.ctpop.i64(i64 %ballot)
  %t = trunc i64 %bcnt to i32
  ret i32 %t
}

declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i64 @llvm.ctpop.i64(i64)
