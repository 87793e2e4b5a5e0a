; Shaders with readlane, readfirstlane and writelane, SGPR (inreg) and VGPR
; arguments, results in SGPRs and VGPRs.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck -check-prefix=GFX8 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn--amdpal -mcpu=gfx1200 < %s | FileCheck -check-prefix=GFX12 %s
; EXPECT: 27 instances

define amdgpu_ps float @ps_readfirstlane(float %v) {
  %i = bitcast float %v to i32
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps i32 @ps_readfirstlane_sgpr(i32 %v) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  ret i32 %r
}

define amdgpu_ps float @ps_readlane_inreg_lane(i32 inreg %lane, float %v) {
  %i = bitcast float %v to i32
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %i, i32 %lane)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_vs float @vs_readlane_const(float %v) {
  %i = bitcast float %v to i32
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %i, i32 3)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_cs float @cs_writelane(i32 inreg %val, i32 inreg %lane, float %old) {
  %o = bitcast float %old to i32
  %r = call i32 @llvm.amdgcn.writelane.i32(i32 %val, i32 %lane, i32 %o)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps i32 @ps_sgpr_args_sum(i32 inreg %a, i32 inreg %b, i64 inreg %c) {
  %t = trunc i64 %c to i32
  %s = add i32 %a, %b
  %r = add i32 %s, %t
  ret i32 %r
}

define amdgpu_ps <2 x float> @ps_two_results(float %a, float %b) {
  %i = bitcast float %a to i32
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i)
  %f = bitcast i32 %r to float
  %v0 = insertelement <2 x float> poison, float %f, i32 0
  %v1 = insertelement <2 x float> %v0, float %b, i32 1
  ret <2 x float> %v1
}

define amdgpu_ps i32 @ps_inreg_i64_unaligned(i32 inreg %a, i64 inreg %c) {
  %t = lshr i64 %c, 32
  %u = trunc i64 %t to i32
  %r = add i32 %a, %u
  ret i32 %r
}

define amdgpu_cs i32 @cs_inreg_vector_pointer(i32 inreg %a, <2 x i32> inreg %v, ptr addrspace(1) inreg %p) {
  %e = extractelement <2 x i32> %v, i32 1
  %pi = ptrtoint ptr addrspace(1) %p to i64
  %t = lshr i64 %pi, 32
  %u = trunc i64 %t to i32
  %r = add i32 %e, %u
  ret i32 %r
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
