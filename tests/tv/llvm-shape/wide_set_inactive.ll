; set.inactive of i64, double and packed 16-bit values with a DPP move in
; whole-wave mode (LLVM's llvm.amdgcn.set.inactive.ll shape); a 64-bit
; whole-wave value is spilled to scratch around the mode switch.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 12 instances

define double @set_inactive_f64(double %x) {
  %s = call double @llvm.amdgcn.set.inactive.f64(double %x, double 0.0)
  %d = call double @llvm.amdgcn.update.dpp.f64(double 0.0, double %s, i32 273, i32 15, i32 15, i1 false)
  %w = call double @llvm.amdgcn.strict.wwm.f64(double %d)
  ret double %w
}

define i64 @set_inactive_i64_ones(i64 %x) {
  %s = call i64 @llvm.amdgcn.set.inactive.i64(i64 %x, i64 -1)
  %d = call i64 @llvm.amdgcn.update.dpp.i64(i64 -1, i64 %s, i32 273, i32 15, i32 15, i1 false)
  %w = call i64 @llvm.amdgcn.strict.wwm.i64(i64 %d)
  ret i64 %w
}

define <2 x i16> @set_inactive_v2i16(<2 x i16> %x) {
  %s = call <2 x i16> @llvm.amdgcn.set.inactive.v2i16(<2 x i16> %x, <2 x i16> zeroinitializer)
  %d = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %s, i32 273, i32 15, i32 15, i1 false)
  %w = call <2 x i16> @llvm.amdgcn.strict.wwm.v2i16(<2 x i16> %d)
  ret <2 x i16> %w
}

define i64 @set_inactive_i64_plain(i64 %x) {
  %s = call i64 @llvm.amdgcn.set.inactive.i64(i64 %x, i64 0)
  %w = call i64 @llvm.amdgcn.strict.wwm.i64(i64 %s)
  ret i64 %w
}
