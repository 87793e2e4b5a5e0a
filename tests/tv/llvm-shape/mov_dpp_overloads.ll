; mov.dpp (i32 and i64: llvm_anyint_ty) and mov.dpp8 (any type) overloads
; (LLVM's llvm.amdgcn.mov.dpp.ll / mov.dpp8.ll shape).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @mov_dpp_i64_bc(i64 %src) {
  %r = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %src, i32 1, i32 15, i32 15, i1 true)
  ret i64 %r
}

define i64 @mov_dpp8_i64(i64 %src) {
  %r = call i64 @llvm.amdgcn.mov.dpp8.i64(i64 %src, i32 1)
  ret i64 %r
}

define double @mov_dpp8_f64(double %src) {
  %r = call double @llvm.amdgcn.mov.dpp8.f64(double %src, i32 16434824)
  ret double %r
}

define <2 x i16> @mov_dpp8_v2i16(<2 x i16> %src) {
  %r = call <2 x i16> @llvm.amdgcn.mov.dpp8.v2i16(<2 x i16> %src, i32 342391)
  ret <2 x i16> %r
}

define <4 x half> @mov_dpp8_v4f16(<4 x half> %src) {
  %r = call <4 x half> @llvm.amdgcn.mov.dpp8.v4f16(<4 x half> %src, i32 0)
  ret <4 x half> %r
}

define ptr addrspace(5) @mov_dpp8_p5(ptr addrspace(5) %src) {
  %r = call ptr addrspace(5) @llvm.amdgcn.mov.dpp8.p5(ptr addrspace(5) %src, i32 1)
  ret ptr addrspace(5) %r
}
