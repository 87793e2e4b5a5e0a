; readlane, readfirstlane and writelane of every type LLVM legalises into
; dwords (LLVM's llvm.amdgcn.readlane.ll / readfirstlane.ll / writelane.ll
; shape: many functions, several RUN lines, pointer and vector overloads).
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @readlane_i64(i64 %src, i32 inreg %lane) {
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %src, i32 %lane)
  ret i64 %r
}

define double @readlane_f64_const(double %src) {
  %r = call double @llvm.amdgcn.readlane.f64(double %src, i32 5)
  ret double %r
}

define <2 x i16> @readlane_v2i16(<2 x i16> %src, i32 %lane) {
  %r = call <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16> %src, i32 %lane)
  ret <2 x i16> %r
}

define ptr addrspace(1) @readfirstlane_p1(ptr addrspace(1) %src) {
  %r = call ptr addrspace(1) @llvm.amdgcn.readfirstlane.p1(ptr addrspace(1) %src)
  ret ptr addrspace(1) %r
}

define <3 x float> @readfirstlane_v3f32(<3 x float> %src) {
  %r = call <3 x float> @llvm.amdgcn.readfirstlane.v3f32(<3 x float> %src)
  ret <3 x float> %r
}

define half @readfirstlane_f16(half %src) {
  %r = call half @llvm.amdgcn.readfirstlane.f16(half %src)
  ret half %r
}

define <2 x i64> @readlane_v2i64(<2 x i64> %src) {
  %r = call <2 x i64> @llvm.amdgcn.readlane.v2i64(<2 x i64> %src, i32 1)
  ret <2 x i64> %r
}

define i64 @writelane_i64(i64 inreg %val, i64 %old) {
  %r = call i64 @llvm.amdgcn.writelane.i64(i64 %val, i32 3, i64 %old)
  ret i64 %r
}

define <2 x half> @writelane_v2f16(<2 x half> inreg %val, i32 inreg %lane, <2 x half> %old) {
  %r = call <2 x half> @llvm.amdgcn.writelane.v2f16(<2 x half> %val, i32 %lane, <2 x half> %old)
  ret <2 x half> %r
}

define ptr addrspace(3) @readlane_p3(ptr addrspace(3) %src) {
  %r = call ptr addrspace(3) @llvm.amdgcn.readlane.p3(ptr addrspace(3) %src, i32 2)
  ret ptr addrspace(3) %r
}
