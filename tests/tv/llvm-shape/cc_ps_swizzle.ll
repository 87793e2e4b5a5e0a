; Pixel shaders with ds_swizzle and ds_bpermute (LLVM's llvm.amdgcn.ds.swizzle.ll
; shape, the result returned instead of stored), and an unused input LLVM skips.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck -check-prefix=GFX12 %s
; EXPECT: 15 instances

define amdgpu_ps float @ps_swizzle_quad_perm(float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 32795)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_swizzle_bitmask(float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 1055)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_swizzle_skipped_input(float %unused, float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 32795)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_bpermute(float %addr, float %src) {
  %a = bitcast float %addr to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %s)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_cs float @cs_swizzle_quad_perm(i32 inreg %k, float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 32795)
  %x = xor i32 %r, %k
  %f = bitcast i32 %x to float
  ret float %f
}

declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
