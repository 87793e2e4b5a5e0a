; <2 x half> arithmetic: v_pk_* on GFX9+, pairs of f16 ops with SDWA on GFX8
; (LLVM's fadd.v2f16.ll shape), with a DPP-moved operand.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 18 instances

define <2 x half> @pk_fadd(<2 x half> %a, <2 x half> %b) {
  %r = fadd <2 x half> %a, %b
  ret <2 x half> %r
}

define <2 x half> @pk_fmul(<2 x half> %a, <2 x half> %b) {
  %r = fmul <2 x half> %a, %b
  ret <2 x half> %r
}

define <2 x half> @pk_fsub(<2 x half> %a, <2 x half> %b) {
  %r = fsub <2 x half> %a, %b
  ret <2 x half> %r
}

define <2 x half> @pk_maxnum(<2 x half> %a, <2 x half> %b) {
  %r = call <2 x half> @llvm.maximumnum.v2f16(<2 x half> %a, <2 x half> %b)
  ret <2 x half> %r
}

define <2 x half> @pk_fadd_dpp(<2 x half> %a) {
  %d = call <2 x half> @llvm.amdgcn.update.dpp.v2f16(<2 x half> poison, <2 x half> %a, i32 273, i32 15, i32 15, i1 false)
  %r = fadd <2 x half> %a, %d
  ret <2 x half> %r
}

define <2 x half> @pk_fneg(<2 x half> %a) {
  %r = fneg <2 x half> %a
  ret <2 x half> %r
}
