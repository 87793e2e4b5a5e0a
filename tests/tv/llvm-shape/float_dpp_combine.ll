; update.dpp feeding the float ops LLVM's GCNDPPCombine folds the move into
; (LLVM's dpp_combine.ll shape: minnum/maxnum/minimumnum/maximumnum/ceil on
; a DPP-moved value), and the rounding ops.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define float @dpp_minnum(float %old, float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float %old, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call float @llvm.minnum.f32(float %d, float %in)
  ret float %r
}

define float @dpp_maxnum(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 273, i32 15, i32 15, i1 true)
  %r = call float @llvm.maxnum.f32(float %d, float %in)
  ret float %r
}

define float @dpp_minimumnum(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call float @llvm.minimumnum.f32(float %d, float %in)
  ret float %r
}

define float @dpp_maximumnum(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 78, i32 15, i32 15, i1 true)
  %r = call float @llvm.maximumnum.f32(float %d, float %in)
  ret float %r
}

define float @dpp_ceil(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call float @llvm.ceil.f32(float %d)
  ret float %r
}

define float @dpp_floor(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 273, i32 15, i32 15, i1 true)
  %r = call float @llvm.floor.f32(float %d)
  ret float %r
}

define float @dpp_trunc(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call float @llvm.trunc.f32(float %d)
  ret float %r
}

define float @dpp_rint(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call float @llvm.rint.f32(float %d)
  ret float %r
}

define float @dpp_maxnum_nnan(float %in) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %in, i32 1, i32 15, i32 15, i1 true)
  %r = call nnan float @llvm.maxnum.f32(float %d, float %in)
  ret float %r
}
