; Ordinary instructions on vectors, 64-bit values and pointers around
; cross-lane moves: extractelement, insertelement, shufflevector, bitcast,
; ptrtoint, inttoptr, zext/sext/trunc.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s

define i16 @extract_hi(<2 x i16> %v, i32 inreg %lane) {
  %r = call <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16> %v, i32 %lane)
  %e = extractelement <2 x i16> %r, i32 1
  ret i16 %e
}

define <2 x i16> @insert_lo(<2 x i16> %v, i16 %x) {
  %i = insertelement <2 x i16> %v, i16 %x, i32 0
  %r = call <2 x i16> @llvm.amdgcn.update.dpp.v2i16(<2 x i16> %v, <2 x i16> %i, i32 177, i32 15, i32 15, i1 false)
  ret <2 x i16> %r
}

define <2 x i16> @swap_halves(<2 x i16> %v) {
  %s = shufflevector <2 x i16> %v, <2 x i16> poison, <2 x i32> <i32 1, i32 0>
  %r = call <2 x i16> @llvm.amdgcn.readfirstlane.v2i16(<2 x i16> %s)
  ret <2 x i16> %r
}

define i32 @bitcast_v2f16(<2 x half> %v) {
  %r = call <2 x half> @llvm.amdgcn.update.dpp.v2f16(<2 x half> zeroinitializer, <2 x half> %v, i32 273, i32 15, i32 15, i1 true)
  %b = bitcast <2 x half> %r to i32
  ret i32 %b
}

define double @bitcast_i64(i64 %v) {
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %v)
  %b = bitcast i64 %r to double
  ret double %b
}

define i64 @ptr_roundtrip(ptr addrspace(1) %p) {
  %r = call ptr addrspace(1) @llvm.amdgcn.readlane.p1(ptr addrspace(1) %p, i32 3)
  %i = ptrtoint ptr addrspace(1) %r to i64
  ret i64 %i
}

define ptr @inttoptr_i64(i64 %v) {
  %p = inttoptr i64 %v to ptr
  %r = call ptr @llvm.amdgcn.readfirstlane.p0(ptr %p)
  ret ptr %r
}

define i32 @ptrtoint_trunc(ptr %p) {
  %i = ptrtoint ptr %p to i32
  ret i32 %i
}

define i64 @sext_i16(i16 %x) {
  %s = sext i16 %x to i64
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %s)
  ret i64 %r
}

define i32 @trunc_i64(i64 %x) {
  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)
  %t = trunc i64 %r to i32
  ret i32 %t
}

define <4 x i16> @bitcast_v2i32(<2 x i32> %v) {
  %r = call <2 x i32> @llvm.amdgcn.readfirstlane.v2i32(<2 x i32> %v)
  %b = bitcast <2 x i32> %r to <4 x i16>
  ret <4 x i16> %b
}
