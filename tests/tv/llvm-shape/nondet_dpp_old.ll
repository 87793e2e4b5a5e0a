; The old operand of a DPP move where the lanes that keep it are "don't
; care", as LLVM's passes and verify emit leave it: poison, undef, and
; freeze of poison (undef is a fresh value at each use, freeze one fixed
; value per lane; either is the IR's to choose: verify/tv/nondet.py).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s

define i32 @dpp_old_poison(i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %x, i32 273, i32 15, i32 15, i1 false)
  ret i32 %r
}

define i32 @dpp_old_undef(i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 undef, i32 %x, i32 273, i32 15, i32 15, i1 false)
  ret i32 %r
}

define i32 @dpp_old_freeze(i32 %x) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 273, i32 15, i32 15, i1 false)
  ret i32 %r
}

define i32 @dpp_old_freeze_row_masked(i32 %x) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 280, i32 5, i32 15, i1 false)
  ret i32 %r
}

define i32 @dpp_old_freeze_bank_masked(i32 %x) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 78, i32 15, i32 3, i1 false)
  ret i32 %r
}

define float @dpp_old_freeze_f32(float %x) {
  %o = freeze float poison
  %r = call float @llvm.amdgcn.update.dpp.f32(float %o, float %x, i32 257, i32 15, i32 15, i1 false)
  ret float %r
}

define i64 @dpp_old_freeze_i64(i64 %x) {
  %o = freeze i64 poison
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %o, i64 %x, i32 273, i32 15, i32 15, i1 false)
  ret i64 %r
}

define <2 x i16> @dpp_old_freeze_v2i16(<2 x i16> %x) {
  %o = freeze <2 x i16> poison
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> %o, <2 x i16> %x, i32 273, i32 15, i32 15, i1 false)
  ret <2 x i16> %r
}

define i32 @mov_dpp_unwritten(i32 %x) {
  %r = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %x, i32 274, i32 15, i32 15, i1 false)
  ret i32 %r
}

define i32 @dpp_old_freeze_then_add(i32 %x) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 273, i32 15, i32 15, i1 false)
  %s = add i32 %r, %x
  ret i32 %s
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare float @llvm.amdgcn.update.dpp.f32(float, float, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare i64 @llvm.amdgcn.update.dpp.i64(i64, i64, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16>, <2 x i16>, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
