; fcmp feeding llvm.amdgcn.ballot (LLVM's llvm.amdgcn.ballot.i64.ll / .i32.ll
; shape: a compare folded into the lane mask).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @ballot_olt(float %a, float %b) {
  %c = fcmp olt float %a, %b
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}

define i64 @ballot_ult(float %a, float %b) {
  %c = fcmp ult float %a, %b
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}

define i64 @ballot_uno(float %a) {
  %c = fcmp uno float %a, %a
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}

define i64 @ballot_oge_const(float %a) {
  %c = fcmp oge float %a, 0.5
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}

define i32 @ballot_ogt_popc(float %a, float %b) {
  %c = fcmp ogt float %a, %b
  %m = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %n = call i64 @llvm.ctpop.i64(i64 %m)
  %r = trunc i64 %n to i32
  ret i32 %r
}
