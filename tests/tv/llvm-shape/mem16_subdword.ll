; 8- and 16-bit global memory (issue 31): half, bfloat, i16 and i8 stores and
; loads through ptr addrspace(1), in the shape of LLVM's
; llvm.amdgcn.permlane64.ll (test_half, test_bfloat, test_i16) and
; update.dpp.ll: lane-dependent addresses (two lanes' i16 stores share a
; dword), zero- and sign-extending loads, the high half stored by
; *_short_d16_hi, two i16 loads into one register's halves (_d16_hi), and
; -mattr=-flat-for-global (buffer_store_short, buffer_load_ushort); dpp_combine.ll's
; dpp_src1_sgpr (s_sext_i32_i16 of an i16 argument, an i16 store).
; EXPECT: 36 instances
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=-flat-for-global < %s | FileCheck -check-prefix=GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck -check-prefix=GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck -check-prefix=GFX12 %s

define amdgpu_kernel void @store_i16_by_lane(ptr addrspace(1) %out, i16 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %t = trunc i32 %id to i16
  %v = add i16 %t, %x
  %p = getelementptr i16, ptr addrspace(1) %out, i32 %id
  store i16 %v, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @store_i8_by_lane(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %t = trunc i32 %id to i8
  %p = getelementptr i8, ptr addrspace(1) %out, i32 %id
  store i8 %t, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @store_half_permlane_src(ptr addrspace(1) %out, half %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr half, ptr addrspace(1) %out, i32 %id
  store half %x, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @store_hi_half(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %w = load i32, ptr addrspace(1) %q
  %h = lshr i32 %w, 16
  %t = trunc i32 %h to i16
  %p = getelementptr i16, ptr addrspace(1) %out, i32 %id
  store i16 %t, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @load_zext_sext(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %in8) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i16, ptr addrspace(1) %in, i32 %id
  %a = load i16, ptr addrspace(1) %q
  %r = getelementptr i8, ptr addrspace(1) %in8, i32 %id
  %b = load i8, ptr addrspace(1) %r
  %az = zext i16 %a to i32
  %bs = sext i8 %b to i32
  %s = add i32 %az, %bs
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %s, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @load_two_halves(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i16, ptr addrspace(1) %in, i32 %id
  %a = load i16, ptr addrspace(1) %q
  %q2 = getelementptr i16, ptr addrspace(1) %q, i32 64
  %b = load i16, ptr addrspace(1) %q2
  %az = zext i16 %a to i32
  %bz = zext i16 %b to i32
  %bh = shl i32 %bz, 16
  %s = or i32 %az, %bh
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %s, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @load_v2i16_d16(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i16, ptr addrspace(1) %in, i32 %id
  %a = load i16, ptr addrspace(1) %q
  %q2 = getelementptr i16, ptr addrspace(1) %q, i32 64
  %b = load i16, ptr addrspace(1) %q2
  %v0 = insertelement <2 x i16> poison, i16 %a, i32 0
  %v1 = insertelement <2 x i16> %v0, i16 %b, i32 1
  %p = getelementptr <2 x i16>, ptr addrspace(1) %out, i32 %id
  store <2 x i16> %v1, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @dpp_src1_sgpr_i16(ptr addrspace(1) %out, i16 %in) {
  %ext = sext i16 %in to i32
  %tmp = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %ext, i32 280, i32 15, i32 15, i1 true)
  %trunc = trunc i32 %tmp to i16
  %add = add i16 %in, %trunc
  store i16 %add, ptr addrspace(1) %out
  ret void
}

define void @test_i16_fn(ptr addrspace(1) %out, i16 %src0) {
  %v = call i16 @llvm.amdgcn.readfirstlane.i16(i16 %src0)
  store i16 %v, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i16 @llvm.amdgcn.readfirstlane.i16(i16)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
