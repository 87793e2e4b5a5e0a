; Pixel and compute shaders with DPP (the shape of LLVM's
; llvm.amdgcn.update.dpp.ll and llvm.amdgcn.mov.dpp.ll shader functions).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck -check-prefix=GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck -check-prefix=GFX11 %s
; EXPECT: 21 instances

define amdgpu_ps float @ps_update_dpp_quad(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %s, i32 27, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_update_dpp_row_shr(float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s, i32 273, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_update_dpp_bound_ctrl(float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 7, i32 %s, i32 1, i32 15, i32 15, i1 true)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_dpp_add(float %a, float %b) {
  %s = bitcast float %a to i32
  %t = bitcast float %b to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %t, i32 %s, i32 177, i32 15, i32 15, i1 false)
  %x = add i32 %r, %t
  %f = bitcast i32 %x to float
  ret float %f
}

define amdgpu_ps float @ps_inreg_old(i32 inreg %old, float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %old, i32 %s, i32 78, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_cs float @cs_update_dpp_row_mask(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %s, i32 1, i32 5, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_vs float @vs_update_dpp_row_mirror(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %s, i32 320, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
