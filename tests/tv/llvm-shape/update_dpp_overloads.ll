; update.dpp of every type LLVM legalises into dwords: 64-bit scalars and
; pointers, vectors, 16-bit scalars (LLVM's llvm.amdgcn.update.dpp.ll shape:
; many functions, several RUN lines).
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s

define i64 @update_dpp_i64(i64 %old, i64 %src) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %old, i64 %src, i32 273, i32 15, i32 15, i1 false)
  ret i64 %r
}

define double @update_dpp_f64_bc(double %src) {
  %r = call double @llvm.amdgcn.update.dpp.f64(double poison, double %src, i32 1, i32 15, i32 15, i1 true)
  ret double %r
}

define i64 @update_dpp_i64_imm_old(i64 %src) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 123451234512345, i64 %src, i32 1, i32 1, i32 1, i1 false)
  ret i64 %r
}

define <2 x i32> @update_dpp_v2i32(<2 x i32> %old, <2 x i32> %src) {
  %r = call <2 x i32> @llvm.amdgcn.update.dpp.v2i32(<2 x i32> %old, <2 x i32> %src, i32 1, i32 1, i32 1, i1 false)
  ret <2 x i32> %r
}

define <2 x float> @update_dpp_v2f32(<2 x float> %src) {
  %r = call <2 x float> @llvm.amdgcn.update.dpp.v2f32(<2 x float> zeroinitializer, <2 x float> %src, i32 320, i32 15, i32 15, i1 false)
  ret <2 x float> %r
}

define ptr @update_dpp_p0(ptr %old, ptr %src) {
  %r = call ptr @llvm.amdgcn.update.dpp.p0(ptr %old, ptr %src, i32 1, i32 1, i32 1, i1 false)
  ret ptr %r
}

define ptr addrspace(3) @update_dpp_p3(ptr addrspace(3) %old, ptr addrspace(3) %src) {
  %r = call ptr addrspace(3) @llvm.amdgcn.update.dpp.p3(ptr addrspace(3) %old, ptr addrspace(3) %src, i32 1, i32 1, i32 1, i1 false)
  ret ptr addrspace(3) %r
}

define <2 x i16> @update_dpp_v2i16(<2 x i16> %src) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> <i16 7, i16 -1>, <2 x i16> %src, i32 177, i32 15, i32 15, i1 false)
  ret <2 x i16> %r
}

define <2 x half> @update_dpp_v2f16(<2 x half> %old, <2 x half> %src) {
  %r = call <2 x half> @llvm.amdgcn.update.dpp.v2f16(<2 x half> %old, <2 x half> %src, i32 78, i32 15, i32 15, i1 true)
  ret <2 x half> %r
}

define half @update_dpp_f16(half %src) {
  %r = call half @llvm.amdgcn.update.dpp.f16(half 0xH3C00, half %src, i32 273, i32 15, i32 15, i1 false)
  ret half %r
}

define i16 @update_dpp_i16(i16 %old, i16 %src) {
  %r = call i16 @llvm.amdgcn.update.dpp.i16(i16 %old, i16 %src, i32 280, i32 15, i32 15, i1 false)
  ret i16 %r
}

define bfloat @update_dpp_bf16(bfloat %src) {
  %r = call bfloat @llvm.amdgcn.update.dpp.bf16(bfloat poison, bfloat %src, i32 57, i32 15, i32 15, i1 true)
  ret bfloat %r
}

define <4 x i32> @update_dpp_v4i32(<4 x i32> %src) {
  %r = call <4 x i32> @llvm.amdgcn.update.dpp.v4i32(<4 x i32> poison, <4 x i32> %src, i32 321, i32 15, i32 15, i1 true)
  ret <4 x i32> %r
}
