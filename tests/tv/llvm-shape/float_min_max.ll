; The float min/max families and the sign operations on plain arguments
; (LLVM's fminnum.ll / fmaximum.ll / fneg.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define float @minnum(float %a, float %b) {
  %r = call float @llvm.minnum.f32(float %a, float %b)
  ret float %r
}

define float @maxnum(float %a, float %b) {
  %r = call float @llvm.maxnum.f32(float %a, float %b)
  ret float %r
}

define float @minnum_nnan(float %a, float %b) {
  %r = call nnan float @llvm.minnum.f32(float %a, float %b)
  ret float %r
}

define float @minimumnum(float %a, float %b) {
  %r = call float @llvm.minimumnum.f32(float %a, float %b)
  ret float %r
}

define float @maximumnum(float %a, float %b) {
  %r = call float @llvm.maximumnum.f32(float %a, float %b)
  ret float %r
}

define float @minimum(float %a, float %b) {
  %r = call float @llvm.minimum.f32(float %a, float %b)
  ret float %r
}

define float @maximum(float %a, float %b) {
  %r = call float @llvm.maximum.f32(float %a, float %b)
  ret float %r
}

define float @fabs(float %a) {
  %r = call float @llvm.fabs.f32(float %a)
  ret float %r
}

define float @fneg(float %a) {
  %r = fneg float %a
  ret float %r
}

define float @fneg_fabs(float %a) {
  %x = call float @llvm.fabs.f32(float %a)
  %r = fneg float %x
  ret float %r
}

define float @canonicalize(float %a) {
  %r = call float @llvm.canonicalize.f32(float %a)
  ret float %r
}

define float @minnum_const(float %a) {
  %r = call float @llvm.minnum.f32(float %a, float 1.0)
  ret float %r
}
