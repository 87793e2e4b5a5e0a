; permlane16, permlanex16 and permlane64 of 64-bit, vector and 16-bit types
; (LLVM's llvm.amdgcn.permlane.ll / permlane64.ll shape).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @permlane16_i64(i64 %old, i64 %src, i32 inreg %s1, i32 inreg %s2) {
  %r = call i64 @llvm.amdgcn.permlane16.i64(i64 %old, i64 %src, i32 %s1, i32 %s2, i1 false, i1 false)
  ret i64 %r
}

define double @permlanex16_f64_fi(double %old, double %src) {
  %r = call double @llvm.amdgcn.permlanex16.f64(double %old, double %src, i32 1985229328, i32 -19088744, i1 true, i1 false)
  ret double %r
}

define <2 x half> @permlane16_v2f16_bc(<2 x half> %old, <2 x half> %src) {
  %r = call <2 x half> @llvm.amdgcn.permlane16.v2f16(<2 x half> %old, <2 x half> %src, i32 -1, i32 0, i1 false, i1 true)
  ret <2 x half> %r
}

define <2 x i32> @permlanex16_v2i32(<2 x i32> %old, <2 x i32> %src) {
  %r = call <2 x i32> @llvm.amdgcn.permlanex16.v2i32(<2 x i32> %old, <2 x i32> %src, i32 305419896, i32 -1698898192, i1 false, i1 false)
  ret <2 x i32> %r
}

define i64 @permlane64_i64(i64 %src) {
  %r = call i64 @llvm.amdgcn.permlane64.i64(i64 %src)
  ret i64 %r
}

define <2 x i16> @permlane64_v2i16(<2 x i16> %src) {
  %r = call <2 x i16> @llvm.amdgcn.permlane64.v2i16(<2 x i16> %src)
  ret <2 x i16> %r
}

define ptr @permlane64_p0(ptr %src) {
  %r = call ptr @llvm.amdgcn.permlane64.p0(ptr %src)
  ret ptr %r
}
