; int <-> half casts, f16 NEG/ABS source modifiers, v_pk_fma_f16, llvm.minimum/maximum.f16
; (GFX12: v_minimum_f16) and 16-bit bitwise ops, in LLVM's test shape.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 57 instances

define half @sitofp_i16(i16 %a) {
  %r = sitofp i16 %a to half
  ret half %r
}

define half @uitofp_i16(i16 %a) {
  %r = uitofp i16 %a to half
  ret half %r
}

define i16 @fptosi_i16(half %a) {
  %r = fptosi half %a to i16
  ret i16 %r
}

define i16 @fptoui_i16(half %a) {
  %r = fptoui half %a to i16
  ret i16 %r
}

define half @sitofp_i32(i32 %a) {
  %r = sitofp i32 %a to half
  ret half %r
}

define half @uitofp_i32(i32 %a) {
  %r = uitofp i32 %a to half
  ret half %r
}

define i32 @fptosi_i32(half %a) {
  %r = fptosi half %a to i32
  ret i32 %r
}

define i32 @fptoui_i32(half %a) {
  %r = fptoui half %a to i32
  ret i32 %r
}

define half @fmul_fneg_fabs(half %a, half %b) {
  %x = call half @llvm.fabs.f16(half %a)
  %n = fneg half %x
  %r = fmul half %n, %b
  ret half %r
}

define half @fma_fabs(half %a, half %b, half %c) {
  %x = call half @llvm.fabs.f16(half %b)
  %n = fneg half %c
  %r = call half @llvm.fma.f16(half %a, half %x, half %n)
  ret half %r
}

define i32 @fcmp_fabs(half %a, half %b) {
  %x = call half @llvm.fabs.f16(half %a)
  %c = fcmp olt half %x, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define float @fpext_fneg(half %a) {
  %n = fneg half %a
  %r = fpext half %n to float
  ret float %r
}

define half @fptrunc_fabs(float %a) {
  %x = call float @llvm.fabs.f32(float %a)
  %r = fptrunc float %x to half
  ret half %r
}

define <2 x half> @pk_fma(<2 x half> %a, <2 x half> %b, <2 x half> %c) {
  %r = call <2 x half> @llvm.fma.v2f16(<2 x half> %a, <2 x half> %b, <2 x half> %c)
  ret <2 x half> %r
}

define <2 x half> @pk_fma_fneg(<2 x half> %a, <2 x half> %b, <2 x half> %c) {
  %n = fneg <2 x half> %c
  %r = call <2 x half> @llvm.fma.v2f16(<2 x half> %a, <2 x half> %b, <2 x half> %n)
  ret <2 x half> %r
}

define half @minimum_f16(half %a, half %b) {
  %r = call half @llvm.minimum.f16(half %a, half %b)
  ret half %r
}

define half @maximum_f16(half %a, half %b) {
  %r = call half @llvm.maximum.f16(half %a, half %b)
  ret half %r
}

define half @fneg_f16(half %a) {
  %r = fneg half %a
  ret half %r
}

define half @fabs_f16(half %a) {
  %r = call half @llvm.fabs.f16(half %a)
  ret half %r
}
