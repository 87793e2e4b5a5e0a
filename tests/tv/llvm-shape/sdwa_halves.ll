; 16-bit and 8-bit integer arithmetic around cross-lane moves, where GFX8 and
; GFX9 select SDWA forms (src_sel/dst_sel/dst_unused) and GFX8's 16-bit VOP2
; ops: <2 x i16> add/sub/shifts after update.dpp, readlane and
; ds.bpermute, and i8 lanes of an i32.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; EXPECT: 18 instances

define <2 x i16> @dpp_v2i16_sub(<2 x i16> %x, <2 x i16> %y) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 273, i32 15, i32 15, i1 false)
  %s = sub <2 x i16> %y, %r
  ret <2 x i16> %s
}

define <2 x i16> @readlane_v2i16_shl(<2 x i16> %x, <2 x i16> %y, i32 inreg %l) {
  %r = call <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16> %x, i32 %l)
  %s = shl <2 x i16> %y, %r
  ret <2 x i16> %s
}

define <2 x i16> @dpp_v2i16_ashr(<2 x i16> %x) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 273, i32 15, i32 15, i1 false)
  %s = ashr <2 x i16> %r, <i16 5, i16 9>
  ret <2 x i16> %s
}

define <2 x i16> @bpermute_v2i16_add(<2 x i16> %x, i32 %idx) {
  %xi = bitcast <2 x i16> %x to i32
  %p = call i32 @llvm.amdgcn.ds.bpermute(i32 %idx, i32 %xi)
  %pv = bitcast i32 %p to <2 x i16>
  %s = add <2 x i16> %pv, %x
  ret <2 x i16> %s
}

define i32 @dpp_i8_byte1_add(i32 %x, i32 %y) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 false)
  %h = lshr i32 %r, 8
  %t = trunc i32 %h to i8
  %u = trunc i32 %y to i8
  %a = add i8 %t, %u
  %z = zext i8 %a to i32
  %o = shl i32 %z, 16
  ret i32 %o
}

define i32 @readlane_byte2_or(i32 %x, i32 %y, i32 inreg %l) {
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %l)
  %m = mul i32 %r, %y
  %b = lshr i32 %m, 16
  %c = and i32 %b, 255
  %o = or i32 %c, %y
  ret i32 %o
}

define <2 x i16> @dpp_v2i16_splat_hi(<2 x i16> %x, <2 x i16> %y) {
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> zeroinitializer, <2 x i16> %x, i32 177, i32 15, i32 15, i1 false)
  %a = add <2 x i16> %r, %y
  %s = shufflevector <2 x i16> %a, <2 x i16> poison, <2 x i32> <i32 1, i32 1>
  ret <2 x i16> %s
}

define i32 @readlane_hi16_zext(i32 %x, i32 inreg %l) {
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %l)
  %h = lshr i32 %r, 16
  %t = trunc i32 %h to i16
  %a = add i16 %t, 7
  %z = zext i16 %a to i32
  %o = or i32 %z, %x
  ret i32 %o
}

define i16 @dpp_i16_lshr_hi(i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 177, i32 15, i32 15, i1 false)
  %h = lshr i32 %r, 16
  %t = trunc i32 %h to i16
  %s = lshr i16 %t, 3
  ret i16 %s
}

declare <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16>, <2 x i16>, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16>, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare <2 x i16> @llvm.amdgcn.readfirstlane.v2i16(<2 x i16>)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
