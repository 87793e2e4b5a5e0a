; permlane64 of i64, double, <2 x i16> and <2 x half> in wave64 (LLVM's
; llvm.amdgcn.permlane64.ll shape), with arithmetic around it.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 12 instances

define i64 @permlane64_i64(i64 %x) {
  %r = call i64 @llvm.amdgcn.permlane64.i64(i64 %x)
  ret i64 %r
}

define double @permlane64_f64(double %x) {
  %r = call double @llvm.amdgcn.permlane64.f64(double %x)
  ret double %r
}

define <2 x i16> @permlane64_v2i16(<2 x i16> %x) {
  %r = call <2 x i16> @llvm.amdgcn.permlane64.v2i16(<2 x i16> %x)
  ret <2 x i16> %r
}

define <2 x half> @permlane64_v2f16(<2 x half> %x) {
  %r = call <2 x half> @llvm.amdgcn.permlane64.v2f16(<2 x half> %x)
  ret <2 x half> %r
}

define i64 @permlane64_i64_or(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.permlane64.i64(i64 %x)
  %s = or i64 %r, %y
  ret i64 %s
}

define i64 @permlane64_i64_add(i64 %x) {
  %r = call i64 @llvm.amdgcn.permlane64.i64(i64 %x)
  %s = add i64 %r, %x
  ret i64 %s
}
