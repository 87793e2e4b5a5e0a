; Rounding to an integral value and the i32 <-> float conversions (LLVM's
; fceil.ll / ffloor.ll / llvm.rint.ll / cvt_f32_ubyte.ll / fp_to_sint.ll
; shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define float @ceil(float %a) {
  %r = call float @llvm.ceil.f32(float %a)
  ret float %r
}

define float @floor(float %a) {
  %r = call float @llvm.floor.f32(float %a)
  ret float %r
}

define float @trunc(float %a) {
  %r = call float @llvm.trunc.f32(float %a)
  ret float %r
}

define float @rint(float %a) {
  %r = call float @llvm.rint.f32(float %a)
  ret float %r
}

define float @nearbyint(float %a) {
  %r = call float @llvm.nearbyint.f32(float %a)
  ret float %r
}

define float @roundeven(float %a) {
  %r = call float @llvm.roundeven.f32(float %a)
  ret float %r
}

define float @sitofp(i32 %a) {
  %r = sitofp i32 %a to float
  ret float %r
}

define float @uitofp(i32 %a) {
  %r = uitofp i32 %a to float
  ret float %r
}

define i32 @fptosi(float %a) {
  %r = fptosi float %a to i32
  ret i32 %r
}

define i32 @fptoui(float %a) {
  %r = fptoui float %a to i32
  ret i32 %r
}

define i32 @fptosi_floor(float %a) {
  %f = call float @llvm.floor.f32(float %a)
  %r = fptosi float %f to i32
  ret i32 %r
}

define float @sitofp_dpp(i32 %a) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 1, i32 15, i32 15, i1 true)
  %r = sitofp i32 %d to float
  ret float %r
}
