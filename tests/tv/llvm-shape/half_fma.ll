; f32 fmul, llvm.fma and llvm.fmuladd, half fma (LLVM's fma.ll / fmuladd.f32.ll shape),
; with cross-lane operands.  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx803 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 28 instances
; the function flushes f32 subnormals ("denormal-fp-math-f32"="preserve-sign"): modelled only under --assume f32.denormals=flush
; EXPECT: unsupported @fmuladd_flush "f32 denormal mode 'preserve-sign'"

define float @fmul_f32(float %a, float %b) {
  %r = fmul float %a, %b
  ret float %r
}

define float @fma_f32(float %a, float %b, float %c) {
  %r = call float @llvm.fma.f32(float %a, float %b, float %c)
  ret float %r
}

define float @fmuladd_f32(float %a, float %b, float %c) {
  %r = call float @llvm.fmuladd.f32(float %a, float %b, float %c)
  ret float %r
}

define float @fma_dpp_f32(float %a, float %b) {
  %d = call float @llvm.amdgcn.update.dpp.f32(float poison, float %a, i32 273, i32 15, i32 15, i1 false)
  %r = call float @llvm.fma.f32(float %a, float %d, float %b)
  ret float %r
}

define float @fmul_readfirstlane_f32(float %a) {
  %l = call float @llvm.amdgcn.readfirstlane.f32(float %a)
  %r = fmul float %a, %l
  ret float %r
}

define half @fma_f16(half %a, half %b, half %c) {
  %r = call half @llvm.fma.f16(half %a, half %b, half %c)
  ret half %r
}

define float @fmuladd_flush(float %a, float %b, float %c) #0 {
  %r = call float @llvm.fmuladd.f32(float %a, float %b, float %c)
  ret float %r
}

attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
