; Float min/max reductions over DPP row shifts, in LLVM's dpp_combine.ll
; shape (llvm/test/CodeGen/AMDGPU/dpp_combine.ll: dpp_fmin_f32 ...): the
; argument and the result nofpclass(nan), every min/max nnan, the lanes a
; row shift leaves empty reading the identity (+inf for min, -inf for max).
; The GPU's IEEE-mode quieting of a signaling NaN (GFX12 v_min_num_f32) meets
; the IR where it is not poison ([S:lane-normal-given]).  Written for
; verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s
; EXPECT: 12 instances

define nofpclass(nan) float @min_chain(float nofpclass(nan) %x) {
entry:
  %d1 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan float @llvm.minnum.f32(float %x, float %d1)
  %d2 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan float @llvm.minnum.f32(float %m1, float %d2)
  %d4 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan float @llvm.minnum.f32(float %m2, float %d4)
  ret float %m3
}

define nofpclass(nan) float @max_chain(float nofpclass(nan) %x) {
entry:
  %d1 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan float @llvm.maxnum.f32(float %x, float %d1)
  %d2 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan float @llvm.maxnum.f32(float %m1, float %d2)
  %d4 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan float @llvm.maxnum.f32(float %m2, float %d4)
  ret float %m3
}

define nofpclass(nan) float @minimumnum_chain(float nofpclass(nan) %x) {
entry:
  %d1 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan float @llvm.minimumnum.f32(float %x, float %d1)
  %d2 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan float @llvm.minimumnum.f32(float %m1, float %d2)
  %d4 = tail call float @llvm.amdgcn.update.dpp.f32(float 0x7FF0000000000000, float %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan float @llvm.minimumnum.f32(float %m2, float %d4)
  ret float %m3
}

define nofpclass(nan) float @maximumnum_chain(float nofpclass(nan) %x) {
entry:
  %d1 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %x, i32 273, i32 15, i32 15, i1 false)
  %m1 = tail call nnan float @llvm.maximumnum.f32(float %x, float %d1)
  %d2 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %m1, i32 274, i32 15, i32 15, i1 false)
  %m2 = tail call nnan float @llvm.maximumnum.f32(float %m1, float %d2)
  %d4 = tail call float @llvm.amdgcn.update.dpp.f32(float 0xFFF0000000000000, float %m2, i32 276, i32 15, i32 15, i1 false)
  %m3 = tail call nnan float @llvm.maximumnum.f32(float %m2, float %d4)
  ret float %m3
}
