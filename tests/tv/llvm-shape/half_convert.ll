; fpext / fptrunc between half, bfloat and float, and bitcasts of <2 x half>
; (LLVM's fpext.f16.ll / fptrunc.f16.ll / bf16.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 21 instances

define float @fpext_f16(half %a) {
  %r = fpext half %a to float
  ret float %r
}

define half @fptrunc_f16(float %a) {
  %r = fptrunc float %a to half
  ret half %r
}

define float @fpext_bf16(bfloat %a) {
  %r = fpext bfloat %a to float
  ret float %r
}

define bfloat @fptrunc_bf16(float %a) {
  %r = fptrunc float %a to bfloat
  ret bfloat %r
}

define float @fpext_permlane_f16(half %a) {
  %b = bitcast half %a to i16
  %z = zext i16 %b to i32
  %p = call i32 @llvm.amdgcn.ds.bpermute(i32 12, i32 %z)
  %t = trunc i32 %p to i16
  %h = bitcast i16 %t to half
  %r = fpext half %h to float
  ret float %r
}

define i32 @bitcast_v2f16(<2 x half> %a) {
  %r = bitcast <2 x half> %a to i32
  ret i32 %r
}

define <2 x half> @bitcast_i32_v2f16(i32 %a) {
  %r = bitcast i32 %a to <2 x half>
  ret <2 x half> %r
}
