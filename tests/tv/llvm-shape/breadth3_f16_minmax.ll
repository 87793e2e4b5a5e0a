; Half min/max reductions over DPP row shifts, in LLVM's dpp_combine.ll
; shape (llvm/test/CodeGen/AMDGPU/dpp_combine.ll: dpp_fmin_f16,
; dpp_fmax_f16): the argument and the result nofpclass(nan), every
; minnum/maxnum nnan, the lanes a row shift leaves empty reading the
; identity (+inf for min, -inf for max).  The GPU's v_min_f16/v_max_f16
; quiet a signaling NaN in IEEE mode ([S:half-minmax]); where the IR is not
; poison no operand is a NaN, and the lane normal forms meet
; ([S:lane-normal-mask], [S:lane-normal-pieces]).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 6 instances

define nofpclass(nan) half @min_chain_f16(half nofpclass(nan) %x) {
entry:
  %d1 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xH7C00, half %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan half @llvm.minnum.f16(half %x, half %d1)
  %d2 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xH7C00, half %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan half @llvm.minnum.f16(half %m1, half %d2)
  %d4 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xH7C00, half %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan half @llvm.minnum.f16(half %m2, half %d4)
  ret half %m3
}

define nofpclass(nan) half @max_chain_f16(half nofpclass(nan) %x) {
entry:
  %d1 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xHFC00, half %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan half @llvm.maxnum.f16(half %x, half %d1)
  %d2 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xHFC00, half %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan half @llvm.maxnum.f16(half %m1, half %d2)
  %d4 = tail call half @llvm.amdgcn.update.dpp.f16(half 0xHFC00, half %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan half @llvm.maxnum.f16(half %m2, half %d4)
  ret half %m3
}

declare half @llvm.amdgcn.update.dpp.f16(half, half, i32, i32, i32, i1)
declare half @llvm.minnum.f16(half, half)
declare half @llvm.maxnum.f16(half, half)
