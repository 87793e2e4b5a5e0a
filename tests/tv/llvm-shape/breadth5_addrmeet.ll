; Loads at 64-bit addresses the IR and the GPU spell differently, in LLVM's
; llvm.amdgcn.readlane.ll shape (test_readlane_vregs_*): the IR's
; `getelementptr <2 x i32>, ptr addrspace(1) %in, i32 %tid` carries into the
; high half when the low sum is below the scaled index, GFX8's
; `v_add_u32 v0, vcc, s2, v0; v_addc_u32 v1, vcc, 0, v1, vcc` when it is below
; the base: the same bit, two terms.  The two addresses are proved equal once
; and read one unknown ([S:tv-address-meet]).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=fiji < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=gfx900 < %s | FileCheck %s
; EXPECT: 8 instances

define amdgpu_kernel void @readlane_vregs_i32(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gep.in = getelementptr <2 x i32>, ptr addrspace(1) %in, i32 %tid
  %args = load <2 x i32>, ptr addrspace(1) %gep.in
  %value = extractelement <2 x i32> %args, i32 0
  %lane = extractelement <2 x i32> %args, i32 1
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %value, i32 %lane)
  store i32 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @readlane_vregs_i64(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gep.in = getelementptr <2 x i64>, ptr addrspace(1) %in, i32 %tid
  %args = load <2 x i64>, ptr addrspace(1) %gep.in
  %value = extractelement <2 x i64> %args, i32 0
  %lane = extractelement <2 x i64> %args, i32 1
  %lane32 = trunc i64 %lane to i32
  %readlane = call i64 @llvm.amdgcn.readlane.i64(i64 %value, i32 %lane32)
  store i64 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define void @load_pair_index(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %i) {
  %gep.in = getelementptr <2 x i32>, ptr addrspace(1) %in, i32 %i
  %args = load <2 x i32>, ptr addrspace(1) %gep.in
  %value = extractelement <2 x i32> %args, i32 0
  %lane = extractelement <2 x i32> %args, i32 1
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %value)
  %s = add i32 %r, %lane
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define void @load_wide_index(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %i) {
  %gep.in = getelementptr i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %gep.in, align 4
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i64 @llvm.amdgcn.readlane.i64(i64, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
