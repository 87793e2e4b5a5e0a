; llvm.amdgcn.icmp / llvm.amdgcn.fcmp, the compare-to-mask intrinsics HIP's
; __ballot compiles to (clang-22: icmp.i64.i32 with predicate 38, sgt)
; (LLVM's llvm.amdgcn.icmp.ll / fcmp.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @icmp_eq(i32 %a, i32 %b) {
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 %b, i32 32)
  ret i64 %r
}

define i64 @icmp_ne_zero(i32 %a) {
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 0, i32 33)
  ret i64 %r
}

define i64 @icmp_ugt(i32 %a, i32 %b) {
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 %b, i32 34)
  ret i64 %r
}

define i64 @icmp_sgt_3(i32 %a) {
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 3, i32 38)
  ret i64 %r
}

define i64 @icmp_sle(i32 %a, i32 %b) {
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 %b, i32 41)
  ret i64 %r
}

define i64 @fcmp_oeq(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 1)
  ret i64 %r
}

define i64 @fcmp_olt(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 4)
  ret i64 %r
}

define i64 @fcmp_ult(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 12)
  ret i64 %r
}

define i64 @fcmp_une(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 14)
  ret i64 %r
}

define i64 @fcmp_ord(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 7)
  ret i64 %r
}
