; The min/max families, canonicalize and compares on half (LLVM's fminnum.f16.ll /
; fcmp.f16.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 44 instances

define half @maxnum_f16(half %a, half %b) {
  %r = call half @llvm.maxnum.f16(half %a, half %b)
  ret half %r
}

define half @minnum_f16(half %a, half %b) {
  %r = call half @llvm.minnum.f16(half %a, half %b)
  ret half %r
}

define half @maximumnum_f16(half %a, half %b) {
  %r = call half @llvm.maximumnum.f16(half %a, half %b)
  ret half %r
}

define half @minimumnum_f16(half %a, half %b) {
  %r = call half @llvm.minimumnum.f16(half %a, half %b)
  ret half %r
}

define half @minimum_f16(half %a, half %b) {
  %r = call half @llvm.minimum.f16(half %a, half %b)
  ret half %r
}

define half @canonicalize_f16(half %a) {
  %r = call half @llvm.canonicalize.f16(half %a)
  ret half %r
}

define i32 @fcmp_olt_f16(half %a, half %b) {
  %c = fcmp olt half %a, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @fcmp_ueq_f16(half %a, half %b) {
  %c = fcmp ueq half %a, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @fcmp_one_f16(half %a, half %b) {
  %c = fcmp one half %a, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @fcmp_uno_f16(half %a, half %b) {
  %c = fcmp uno half %a, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define half @max_dpp_f16(half %a) {
  %d = call half @llvm.amdgcn.update.dpp.f16(half poison, half %a, i32 280, i32 15, i32 15, i1 false)
  %r = call half @llvm.maxnum.f16(half %a, half %d)
  ret half %r
}
