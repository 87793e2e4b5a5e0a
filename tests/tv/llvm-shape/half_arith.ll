; Half and bfloat arithmetic on plain arguments and after cross-lane moves
; (LLVM's fadd.f16.ll / fmul.f16.ll / fsub.f16.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 50 instances

define half @fadd_f16(half %a, half %b) {
  %r = fadd half %a, %b
  ret half %r
}

define half @fsub_f16(half %a, half %b) {
  %r = fsub half %a, %b
  ret half %r
}

define half @fmul_f16(half %a, half %b) {
  %r = fmul half %a, %b
  ret half %r
}

define half @fneg_f16(half %a) {
  %r = fneg half %a
  ret half %r
}

define half @fabs_f16(half %a) {
  %r = call half @llvm.fabs.f16(half %a)
  ret half %r
}

define half @copysign_f16(half %a, half %b) {
  %r = call half @llvm.copysign.f16(half %a, half %b)
  ret half %r
}

define half @fadd_dpp_f16(half %a) {
  %d = call half @llvm.amdgcn.update.dpp.f16(half poison, half %a, i32 273, i32 15, i32 15, i1 false)
  %r = fadd half %a, %d
  ret half %r
}

define half @fmul_readlane_f16(half %a) {
  %l = call half @llvm.amdgcn.readlane.f16(half %a, i32 3)
  %r = fmul half %a, %l
  ret half %r
}

define bfloat @fadd_bf16(bfloat %a, bfloat %b) {
  %r = fadd bfloat %a, %b
  ret bfloat %r
}

define bfloat @fneg_bf16(bfloat %a) {
  %r = fneg bfloat %a
  ret bfloat %r
}
