; Packed 16-bit integer arithmetic around cross-lane moves (LLVM's
; update.dpp / readlane / permlane tests, <2 x i16> and i16 overloads):
; v_pk_add_u16, v_pk_sub_u16, v_pk_lshlrev_b16 on GFX9+, 16-bit VALU ops
; (SDWA or true16 halves) elsewhere.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 24 instances

define <2 x i16> @dpp_v2i16_add(<2 x i16> %x, <2 x i16> %y) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 273, i32 15, i32 15, i1 false)
  %s = add <2 x i16> %r, %y
  ret <2 x i16> %s
}

define <2 x i16> @readlane_v2i16_sub(<2 x i16> %x, i32 inreg %l) {
  %r = call <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16> %x, i32 %l)
  %s = sub <2 x i16> %x, %r
  ret <2 x i16> %s
}

define <2 x i16> @dpp_v2i16_xor(<2 x i16> %x, <2 x i16> %y) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 177, i32 15, i32 15, i1 false)
  %s = xor <2 x i16> %r, %y
  ret <2 x i16> %s
}

define <2 x i16> @readfirstlane_v2i16_shl(<2 x i16> %x) {
  %r = call <2 x i16> @llvm.amdgcn.readfirstlane.v2i16(<2 x i16> %x)
  %s = shl <2 x i16> %x, <i16 1, i16 2>
  %o = or <2 x i16> %s, %r
  ret <2 x i16> %o
}

define i16 @dpp_i16_add(i16 %x, i16 %y) {
  %r = call i16 @llvm.amdgcn.update.dpp.i16(i16 0, i16 %x, i32 273, i32 15, i32 15, i1 false)
  %s = add i16 %r, %y
  ret i16 %s
}

define <2 x i16> @dpp_v2i16_lshr(<2 x i16> %x) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 273, i32 15, i32 15, i1 false)
  %s = lshr <2 x i16> %r, <i16 3, i16 3>
  ret <2 x i16> %s
}
