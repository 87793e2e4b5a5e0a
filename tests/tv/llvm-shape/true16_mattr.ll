; -mattr=+real-true16 / -real-true16 on RUN lines, as LLVM's dpp_combine.ll
; has them: GFX12 encodes the 16-bit VGPR halves (v_mov_b16_e32 v2.l, v0.l,
; v_min_num_f16_e32 v0.l, ...) only with +real-true16, GFX11 not with
; -real-true16 [S:true16-mattr].  LLVM's code for each is proved, none is
; called invalid on its target.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+real-true16 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=-real-true16 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=-real-true16 < %s | FileCheck %s
; EXPECT: 6 instances

define half @shr_min(half %x) {
  %d = call half @llvm.amdgcn.update.dpp.f16(half 0xH7C00, half %x, i32 273, i32 15, i32 15, i1 false)
  %m = call nnan half @llvm.minnum.f16(half %x, half %d)
  ret half %m
}

define half @mov_row(half %x) {
  %d = call half @llvm.amdgcn.update.dpp.f16(half 0xH0000, half %x, i32 273, i32 15, i32 15, i1 true)
  ret half %d
}
