; i64 multiplies and shifts as LLVM 22 selects them (v_mul_lo_u32 /
; v_mul_hi_u32 / v_mad_u64_u32 chains, GFX12's v_mad_co_u64_u32,
; v_lshlrev_b64 / v_lshrrev_b64 / v_ashrrev_i64, the 32-bit pair sequences
; of a constant shift), around cross-lane moves, with LangRef's nuw / nsw /
; exact poison [S:ir-mul64] [S:arith64] [S:ir-wrap-flags] [S:xad-u32].
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define i64 @mul_i64_readlane(i64 %x, i64 %y) {
  %a = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  %r = mul i64 %a, %y
  ret i64 %r
}

define i64 @mul_i64_const(i64 %x) {
  %r = mul i64 %x, 3
  ret i64 %r
}

define i64 @mul_u32_wide(i32 %x, i32 %y) {
  %a = zext i32 %x to i64
  %b = zext i32 %y to i64
  %r = mul nuw i64 %a, %b
  ret i64 %r
}

define i64 @mul_i64_nsw(i64 %x, i64 %y) {
  %r = mul nsw i64 %x, %y
  ret i64 %r
}

define i32 @mul_i32_nuw_nsw(i32 %x, i32 %y) {
  %r = mul nuw nsw i32 %x, %y
  ret i32 %r
}

define i64 @shl_i64_var(i64 %x, i64 %n) {
  %r = shl i64 %x, %n
  ret i64 %r
}

define i64 @lshr_i64_exact(i64 %x, i64 %n) {
  %r = lshr exact i64 %x, %n
  ret i64 %r
}

define i64 @ashr_i64_var(i64 %x, i64 %n) {
  %r = ashr i64 %x, %n
  ret i64 %r
}

define i64 @ashr_i64_const(i64 %x) {
  %a = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %r = ashr exact i64 %a, 7
  ret i64 %r
}

define i64 @shl_i64_nuw_nsw(i64 %x) {
  %r = shl nuw nsw i64 %x, 5
  ret i64 %r
}

define i64 @add_sub_i64_flags(i64 %x, i64 %y) {
  %a = add nuw nsw i64 %x, %y
  %r = sub nuw nsw i64 %a, %y
  ret i64 %r
}

define i32 @xad(i32 %x, i32 %y, i32 %z) {
  %a = xor i32 %x, %y
  %r = add i32 %a, %z
  ret i32 %r
}

define <2 x i16> @v2i16_add_nuw(<2 x i16> %x, <2 x i16> %y) {
  %r = add nuw <2 x i16> %x, %y
  ret <2 x i16> %r
}

define <2 x i16> @v2i16_shl_nuw_nsw(<2 x i16> %x, <2 x i16> %y) {
  %r = shl nuw nsw <2 x i16> %x, %y
  ret <2 x i16> %r
}

define <2 x i16> @v2i16_mul_nsw(<2 x i16> %x, <2 x i16> %y) {
  %r = mul nsw <2 x i16> %x, %y
  ret <2 x i16> %r
}

declare i64 @llvm.amdgcn.readfirstlane.i64(i64)
declare i64 @llvm.amdgcn.update.dpp.i64(i64, i64, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
