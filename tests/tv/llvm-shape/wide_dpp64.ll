; 64-bit DPP with row_newbcast on the CDNA targets that have it (LLVM's
; llvm.amdgcn.update.dpp.ll gfx90a/gfx940 checks): gfx942 and gfx950 move
; the pair with v_mov_b64_dpp, gfx90a with two v_mov_b32_dpp after a
; v_pk_mov_b32.
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s | FileCheck %s
; EXPECT: 15 instances

define i64 @newbcast_i64(i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 337, i32 15, i32 15, i1 false)
  ret i64 %r
}

define double @newbcast_f64_old(double %old, double %x) {
  %r = call double @llvm.amdgcn.update.dpp.f64(double %old, double %x, i32 351, i32 15, i32 15, i1 false)
  ret double %r
}

define i64 @newbcast_i64_bound(i64 %x) {
  %r = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %x, i32 337, i32 15, i32 15, i1 true)
  ret i64 %r
}

define i64 @newbcast_i64_masks(i64 %old, i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %old, i64 %x, i32 338, i32 5, i32 3, i1 false)
  ret i64 %r
}

define i64 @newbcast_i64_add(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 337, i32 15, i32 15, i1 false)
  %s = add i64 %r, %y
  ret i64 %s
}
