; The DPP combiner folding a DPP move into a VOP3 op with an inline-constant
; src1 (triton#10414/#10452): v_bfe_i32_e64_dpp ..., 0, 16 is not valid on
; GFX11.0 (gfx1100), valid on GFX11.5 and GFX12.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1151 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s
; EXPECT: compiler error @xmask8_sext16 gfx1100
; EXPECT: compiler error @shr1_sext8 gfx1100
; EXPECT: compiler error @shr1_ubfe_const gfx1100

define amdgpu_ps i32 @xmask8_sext16(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 360, i32 15, i32 15, i1 true)
  %t = trunc i32 %d to i16
  %s = sext i16 %t to i32
  ret i32 %s
}

define amdgpu_ps i32 @shr1_sext8(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  %t = trunc i32 %d to i8
  %s = sext i8 %t to i32
  ret i32 %s
}

define amdgpu_ps i32 @shr1_field_var(i32 %x, i32 %o) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  %o5 = and i32 %o, 31
  %h = lshr i32 %d, %o5
  %s = and i32 %h, 255
  ret i32 %s
}

define amdgpu_ps i32 @shr1_add(i32 %x, i32 %y) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  %s = add i32 %d, %y
  ret i32 %s
}

define amdgpu_ps i32 @xmask1_add_const(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 353, i32 15, i32 15, i1 true)
  %s = add i32 %d, 7
  ret i32 %s
}

define amdgpu_ps i32 @shr1_ubfe_const(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  %h = lshr i32 %d, 4
  %s = and i32 %h, 255
  ret i32 %s
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
