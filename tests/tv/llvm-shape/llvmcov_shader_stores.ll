; Pixel and compute shaders that store their cross-lane results through a
; global pointer argument (the shape of llvm.amdgcn.mov.dpp8.ll's dpp8_i64 and
; dpp8_v2i32): the pointer and the data in VGPRs (or SGPRs with inreg), no
; caller, so no entry wait; 16-bit and bfloat arguments as bits; <3 x i32>.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck -check-prefix=GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -amdgpu-enable-vopd=0 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -amdgpu-enable-vopd=0 < %s | FileCheck -check-prefix=GFX12 %s

define amdgpu_ps void @ps_store_i32(i32 %in, ptr addrspace(1) %out) {
  store i32 %in, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_update_dpp(i32 %in, ptr addrspace(1) %out) {
  %tmp0 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %in, i32 273, i32 15, i32 15, i1 false)
  store i32 %tmp0, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_i64_dpp(i64 %in, ptr addrspace(1) %out) {
  %tmp0 = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %in, i32 1, i32 15, i32 15, i1 true)
  store i64 %tmp0, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_v3i32(<3 x i32> %in, ptr addrspace(1) %out) {
  store <3 x i32> %in, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_v3f32_readfirstlane(<3 x float> %in, ptr addrspace(1) %out) {
  %e = extractelement <3 x float> %in, i32 2
  %r = call float @llvm.amdgcn.readfirstlane.f32(float %e)
  %v = insertelement <3 x float> %in, float %r, i32 0
  store <3 x float> %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_cs void @cs_store_readlane(i32 %in, ptr addrspace(1) inreg %out) {
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %in, i32 1)
  %id = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %p
  ret void
}

define amdgpu_cs void @cs_store_i16_arg(i16 %x, ptr addrspace(1) %out) {
  %a = zext i16 %x to i32
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_bfloat_bits(bfloat %x, half %y, ptr addrspace(1) %out) {
  %a = bitcast bfloat %x to i16
  %b = bitcast half %y to i16
  %a32 = zext i16 %a to i32
  %b32 = zext i16 %b to i32
  %hi = shl i32 %b32, 16
  %v = or i32 %a32, %hi
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_cs void @cs_store_v2i16_arg(<2 x i16> %x, i16 inreg %s, ptr addrspace(1) %out) {
  %v = bitcast <2 x i16> %x to i32
  %s32 = zext i16 %s to i32
  %w = add i32 %v, %s32
  store i32 %w, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_store_p3_readfirstlane(ptr addrspace(3) %in, ptr addrspace(1) %out) {
  %r = call ptr addrspace(3) @llvm.amdgcn.readfirstlane.p3(ptr addrspace(3) %in)
  store ptr addrspace(3) %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps void @ps_load_p3_gep_store(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %p = load ptr addrspace(3), ptr addrspace(1) %in
  %q = getelementptr i32, ptr addrspace(3) %p, i32 3
  store ptr addrspace(3) %q, ptr addrspace(1) %out
  ret void
}
