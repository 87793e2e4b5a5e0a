; Compute and pixel shaders with permlane16, permlanex16 and permlane64
; (LLVM's llvm.amdgcn.permlane.ll shape, results returned).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck -check-prefix=GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck -check-prefix=GFX12 %s
; EXPECT: 12 instances

define amdgpu_cs float @cs_permlane16(float %old, float %src, i32 inreg %s1, i32 inreg %s2) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 %o, i32 %s, i32 %s1, i32 %s2, i1 false, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_cs float @cs_permlanex16_const(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 %o, i32 %s, i32 1985229328, i32 -19088744, i1 false, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_permlane16_fi(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 %o, i32 %s, i32 1, i32 2, i1 true, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_permlanex16_bc(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 %o, i32 %s, i32 0, i32 0, i1 false, i1 true)
  %f = bitcast i32 %r to float
  ret float %f
}

declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)
