; 64-bit overloads of update.dpp and mov.dpp (LLVM's
; llvm.amdgcn.update.dpp.ll shape) with 64-bit arithmetic around them:
; each half moved by its own v_mov_b32_dpp, or v_mov_b64_dpp where the
; target has it (gfx90a, gfx940 family: row_newbcast).
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s
; EXPECT: 54 instances

define i64 @dpp_i64_row_shr(i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  ret i64 %r
}

define i64 @dpp_i64_quad_perm_old(i64 %old, i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 %old, i64 %x, i32 27, i32 15, i32 15, i1 false)
  ret i64 %r
}

define double @dpp_f64_row_mask(double %old, double %x) {
  %r = call double @llvm.amdgcn.update.dpp.f64(double %old, double %x, i32 273, i32 10, i32 15, i1 false)
  ret double %r
}

define i64 @mov_dpp_i64_bound(i64 %x) {
  %r = call i64 @llvm.amdgcn.mov.dpp.i64(i64 %x, i32 320, i32 15, i32 15, i1 true)
  ret i64 %r
}

define i64 @dpp_i64_xor_after(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %s = xor i64 %r, %y
  ret i64 %s
}

define i64 @dpp_i64_and_or(i64 %x, i64 %y) {
  %a = and i64 %x, %y
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %a, i32 273, i32 15, i32 15, i1 false)
  %o = or i64 %r, %x
  ret i64 %o
}

define i64 @dpp_i64_add(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %s = add i64 %r, %y
  ret i64 %s
}

define i64 @dpp_i64_umax(i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %c = icmp ugt i64 %r, %x
  %m = select i1 %c, i64 %r, i64 %x
  ret i64 %m
}

define i64 @dpp_i64_shl(i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %s = shl i64 %r, 3
  ret i64 %s
}
