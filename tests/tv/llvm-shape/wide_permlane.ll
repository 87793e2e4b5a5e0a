; permlane16, permlanex16, permlane64 and ds.bpermute of 64-bit and
; packed 16-bit values (LLVM's llvm.amdgcn.permlane.ll shape), with
; arithmetic around them.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 18 instances

define i64 @permlane16_i64(i64 %old, i64 %x, i32 inreg %s1, i32 inreg %s2) {
  %r = call i64 @llvm.amdgcn.permlane16.i64(i64 %old, i64 %x, i32 %s1, i32 %s2, i1 false, i1 false)
  ret i64 %r
}

define double @permlanex16_f64(double %old, double %x, i32 inreg %s1, i32 inreg %s2) {
  %r = call double @llvm.amdgcn.permlanex16.f64(double %old, double %x, i32 %s1, i32 %s2, i1 false, i1 false)
  ret double %r
}

define <2 x i16> @permlane16_v2i16(<2 x i16> %old, <2 x i16> %x, i32 inreg %s1, i32 inreg %s2) {
  %r = call <2 x i16> @llvm.amdgcn.permlane16.v2i16(<2 x i16> %old, <2 x i16> %x, i32 %s1, i32 %s2, i1 false, i1 false)
  ret <2 x i16> %r
}

define i64 @permlanex16_i64_xor(i64 %old, i64 %x, i32 inreg %s1, i32 inreg %s2) {
  %r = call i64 @llvm.amdgcn.permlanex16.i64(i64 %old, i64 %x, i32 %s1, i32 %s2, i1 false, i1 false)
  %s = xor i64 %r, %x
  ret i64 %s
}

define i64 @bpermute_i64(i32 %addr, i64 %x) {
  %lo = trunc i64 %x to i32
  %sh = lshr i64 %x, 32
  %hi = trunc i64 %sh to i32
  %rl = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %lo)
  %rh = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %hi)
  %zl = zext i32 %rl to i64
  %zh = zext i32 %rh to i64
  %h = shl i64 %zh, 32
  %r = or i64 %h, %zl
  ret i64 %r
}

define i64 @permlane16_i64_add(i64 %old, i64 %x, i32 inreg %s1, i32 inreg %s2) {
  %r = call i64 @llvm.amdgcn.permlane16.i64(i64 %old, i64 %x, i32 %s1, i32 %s2, i1 false, i1 false)
  %s = add i64 %r, %x
  ret i64 %s
}
