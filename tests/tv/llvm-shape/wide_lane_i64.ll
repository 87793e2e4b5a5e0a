; readlane, readfirstlane and writelane of i64 and double (LLVM's
; llvm.amdgcn.readlane.ll / writelane.ll shape), with 64-bit compares,
; selects and carries around them.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 32 instances

define i64 @readlane_i64_sgpr(i64 %x, i32 inreg %l) {
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %x, i32 %l)
  ret i64 %r
}

define double @readlane_f64_imm(double %x) {
  %r = call double @llvm.amdgcn.readlane.f64(double %x, i32 7)
  ret double %r
}

define i64 @readfirstlane_i64_add(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  %s = add i64 %r, %y
  ret i64 %s
}

define i64 @writelane_i64(i64 %x, i64 inreg %v, i32 inreg %l) {
  %r = call i64 @llvm.amdgcn.writelane.i64(i64 %v, i32 %l, i64 %x)
  ret i64 %r
}

define i64 @readlane_i64_umin(i64 %x, i32 inreg %l) {
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %x, i32 %l)
  %c = icmp ult i64 %x, %r
  %m = select i1 %c, i64 %x, i64 %r
  ret i64 %m
}

define i32 @readlane_i64_eq(i64 %x, i32 inreg %l) {
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %x, i32 %l)
  %c = icmp eq i64 %x, %r
  %z = zext i1 %c to i32
  ret i32 %z
}

define i64 @readlane_i64_smax(i64 %x, i32 inreg %l) {
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %x, i32 %l)
  %c = icmp sgt i64 %x, %r
  %m = select i1 %c, i64 %x, i64 %r
  ret i64 %m
}

define i64 @readfirstlane_i64_sub(i64 %x, i64 %y) {
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  %s = sub i64 %y, %r
  ret i64 %s
}
