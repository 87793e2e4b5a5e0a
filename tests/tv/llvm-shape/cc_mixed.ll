; One module with kernels, plain functions, amdgpu_gfx functions and shaders:
; each function compiled as LLVM compiles it (the kernels for HSA, the
; shaders with the RUN line's triple) and checked on its own.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; EXPECT: 14 instances

define amdgpu_kernel void @kernel_readfirstlane(ptr addrspace(1) %out, i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define i32 @func_update_dpp(i32 %old, i32 %src) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %old, i32 %src, i32 1, i32 15, i32 15, i1 false)
  ret i32 %r
}

define amdgpu_gfx i32 @gfx_inreg_add(i32 inreg %a, i32 %b, i32 inreg %c) {
  %s = add i32 %a, %b
  %r = add i32 %s, %c
  ret i32 %r
}

define amdgpu_ps float @ps_update_dpp(float %old, float %src) {
  %o = bitcast float %old to i32
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %s, i32 1, i32 15, i32 15, i1 false)
  %f = bitcast i32 %r to float
  ret float %f
}

define amdgpu_cs i32 @cs_readfirstlane(i32 %x) {
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  ret i32 %r
}

define amdgpu_vs float @vs_swizzle(float %src) {
  %s = bitcast float %src to i32
  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 32795)
  %f = bitcast i32 %r to float
  ret float %f
}

define float @func_fadd(float %a, float %b) {
  %r = fadd float %a, %b
  ret float %r
}

declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
