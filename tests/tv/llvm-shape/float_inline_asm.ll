; Empty inline asm as the device libraries use it: a value passed through a
; tied operand (the marker that keeps a ballot's operand in place) and a
; side-effect barrier, around ballot/icmp.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i32 @asm_identity_v(i32 %x) {
  %r = call i32 asm sideeffect "", "=v,0"(i32 %x)
  ret i32 %r
}

define float @asm_identity_float(float %x) {
  %r = call float asm "", "=v,0"(float %x)
  ret float %r
}

define i64 @asm_barrier_ballot(i32 %x) {
  call void asm sideeffect "", ""()
  %c = icmp ne i32 %x, 0
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}

define i32 @wfany(i32 %x) {
  %v = call i32 asm sideeffect "", "=v,0"(i32 %x)
  %m = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %v, i32 0, i32 33)
  %c = icmp ne i64 %m, 0
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @wfall(i32 %x) {
  %v = call i32 asm sideeffect "", "=v,0"(i32 %x)
  %m = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %v, i32 0, i32 33)
  %e = call i64 @llvm.read_register.i64(metadata !0)
  %c = icmp eq i64 %m, %e
  %r = zext i1 %c to i32
  ret i32 %r
}

!0 = !{!"exec"}
