; Pixel shaders with llvm.amdgcn.wqm and softwqm of lane-wise values: LLVM
; turns whole quad mode on (s_wqm) around the computation and ANDs the live
; mask back at the end (the shape of LLVM's wqm.ll shader functions).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck -check-prefix=GFX12 %s
; EXPECT: 15 instances

define amdgpu_ps float @ps_wqm_fadd(float %a, float %b) {
  %s = fadd float %a, %b
  %w = call float @llvm.amdgcn.wqm.f32(float %s)
  ret float %w
}

define amdgpu_ps float @ps_wqm_add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  %w = call i32 @llvm.amdgcn.wqm.i32(i32 %s)
  %f = bitcast i32 %w to float
  ret float %f
}

define amdgpu_ps float @ps_wqm_inreg(i32 inreg %a, i32 %b) {
  %s = mul i32 %a, %b
  %t = xor i32 %s, 12345
  %w = call i32 @llvm.amdgcn.wqm.i32(i32 %t)
  %f = bitcast i32 %w to float
  ret float %f
}

define amdgpu_ps float @ps_wqm_then_dpp(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  %w = call i32 @llvm.amdgcn.wqm.i32(i32 %s)
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %b, i32 %w, i32 177, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_ps float @ps_softwqm(float %a, float %b) {
  %s = fadd float %a, %b
  %w = call float @llvm.amdgcn.softwqm.f32(float %s)
  ret float %w
}

declare float @llvm.amdgcn.wqm.f32(float)
declare i32 @llvm.amdgcn.wqm.i32(i32)
declare float @llvm.amdgcn.softwqm.f32(float)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
