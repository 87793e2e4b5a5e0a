; 16-bit values around cross-lane moves (LLVM's update.dpp/mov.dpp/readlane
; tests, half/i16/bfloat overloads): on GFX11+ llc-22 emits true16 code
; (v_mov_b16 v1.l, v0.h); on GFX9 16-bit ops with SDWA or op_sel.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s
; EXPECT: 21 instances

define half @dpp_f16_hi(<2 x half> %v) {
  %e = extractelement <2 x half> %v, i32 1
  %r = call half @llvm.amdgcn.update.dpp.f16(half poison, half %e, i32 273, i32 15, i32 15, i1 true)
  ret half %r
}

define i16 @dpp_i16_lo(<2 x i16> %v) {
  %e = extractelement <2 x i16> %v, i32 0
  %r = call i16 @llvm.amdgcn.update.dpp.i16(i16 0, i16 %e, i32 273, i32 15, i32 15, i1 false)
  ret i16 %r
}

define <2 x i16> @swap_then_dpp(<2 x i16> %v) {
  %s = shufflevector <2 x i16> %v, <2 x i16> poison, <2 x i32> <i32 1, i32 0>
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %s, i32 177, i32 15, i32 15, i1 true)
  ret <2 x i16> %r
}

define <2 x half> @insert_hi_readlane(<2 x half> %v, half %x) {
  %i = insertelement <2 x half> %v, half %x, i32 1
  %r = call <2 x half> @llvm.amdgcn.readfirstlane.v2f16(<2 x half> %i)
  ret <2 x half> %r
}

define bfloat @readlane_bf16(bfloat %x, i32 inreg %l) {
  %r = call bfloat @llvm.amdgcn.readlane.bf16(bfloat %x, i32 %l)
  ret bfloat %r
}

define <2 x i16> @build_from_two(i16 %a, i16 %b) {
  %v0 = insertelement <2 x i16> poison, i16 %a, i32 0
  %v1 = insertelement <2 x i16> %v0, i16 %b, i32 1
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %v1, i32 273, i32 15, i32 15, i1 true)
  ret <2 x i16> %r
}

define i32 @zext_i16_dpp(i16 %x) {
  %r = call i16 @llvm.amdgcn.update.dpp.i16(i16 0, i16 %x, i32 273, i32 15, i32 15, i1 true)
  %z = zext i16 %r to i32
  ret i32 %z
}
