; llvm.read_register of exec / exec_lo (HIP's __lanemask_lt reads exec with
; read_register.i64), combined with ballot and mbcnt.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i64 @read_exec() {
  %r = call i64 @llvm.read_register.i64(metadata !0)
  ret i64 %r
}

define i32 @read_exec_lo() {
  %r = call i32 @llvm.read_register.i32(metadata !1)
  ret i32 %r
}

define i32 @read_exec_hi() {
  %r = call i32 @llvm.read_register.i32(metadata !2)
  ret i32 %r
}

define i32 @active_count() {
  %e = call i64 @llvm.read_register.i64(metadata !0)
  %n = call i64 @llvm.ctpop.i64(i64 %e)
  %r = trunc i64 %n to i32
  ret i32 %r
}

define i32 @exec_eq_ballot(float %a) {
  %e = call i64 @llvm.read_register.i64(metadata !0)
  %c = fcmp olt float %a, 0.0
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %q = icmp eq i64 %e, %b
  %r = zext i1 %q to i32
  ret i32 %r
}

define i32 @exec_ugt_ballot(float %a) {
  %e = call i64 @llvm.read_register.i64(metadata !0)
  %c = fcmp uge float %a, 2.0
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %q = icmp ugt i64 %e, %b
  %r = zext i1 %q to i32
  ret i32 %r
}

define i32 @lanemask_lt_lo() {
  %e = call i32 @llvm.read_register.i32(metadata !1)
  %l = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %s = shl i32 1, %l
  %m = sub i32 %s, 1
  %r = and i32 %e, %m
  ret i32 %r
}

!0 = !{!"exec"}
!1 = !{!"exec_lo"}
!2 = !{!"exec_hi"}
