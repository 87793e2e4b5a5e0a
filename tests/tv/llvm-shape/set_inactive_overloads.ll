; set.inactive and strict.wwm of 64-bit and vector types (LLVM's
; llvm.amdgcn.set.inactive.ll shape), with a DPP move in whole-wave mode.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s

define i64 @set_inactive_i64(i64 %x) {
  %s = call i64 @llvm.amdgcn.set.inactive.i64(i64 %x, i64 0)
  %d = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %s, i32 273, i32 15, i32 15, i1 false)
  %w = call i64 @llvm.amdgcn.strict.wwm.i64(i64 %d)
  ret i64 %w
}

define <2 x half> @set_inactive_v2f16(<2 x half> %x) {
  %s = call <2 x half> @llvm.amdgcn.set.inactive.v2f16(<2 x half> %x, <2 x half> zeroinitializer)
  %d = call <2 x half> @llvm.amdgcn.update.dpp.v2f16(<2 x half> zeroinitializer, <2 x half> %s, i32 273, i32 15, i32 15, i1 false)
  %w = call <2 x half> @llvm.amdgcn.strict.wwm.v2f16(<2 x half> %d)
  ret <2 x half> %w
}
