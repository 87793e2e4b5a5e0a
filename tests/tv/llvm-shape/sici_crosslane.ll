; Southern and Sea Islands (GFX6, GFX7) in the shape of LLVM's cross-lane
; tests [S:sici]: SMRD kernarg offsets in dwords, the VOP2 v_mbcnt_hi,
; ds_swizzle_b32 (quad-perm and bitmask), readlane/readfirstlane/writelane,
; the v_add_i32 carry spelling, a callable function's flat (CI) or buffer
; (SI: ADDR64, not modelled) stores; the Iterative atomic optimizer's loop
; branches on vccnz there (no s_cmp_lg_u64 before GFX8): proved under the
; VCCZ-bug assumption vccz.sici=llvm [S:vccz-bug].
; RUN: llc -mtriple=amdgcn -mcpu=tahiti < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=hawaii < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=bonaire < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn < %s | FileCheck %s
; EXPECT: 24 instances
; EXPECT: unsupported @readlane_store gfx600 "addr64"
; EXPECT: unsupported @add_carry gfx600 "addr64"
; EXPECT: unsupported @fn_swizzle gfx600 "addr64"

define amdgpu_kernel void @mbcnt_lane(ptr addrspace(1) %out, i32 %x) {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %r = add i32 %hi, %x
  %v = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %r)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @swizzle_quad(ptr addrspace(1) %out, i32 %x) {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %v = add i32 %hi, %x
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %v, i32 32795)
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %s, i32 5)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @swizzle_bitmask(ptr addrspace(1) %out, i32 %src) {
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %src, i32 100)
  store i32 %s, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @writelane_k(ptr addrspace(1) %out, i32 %a, i32 %lane) {
  %old = load i32, ptr addrspace(1) %out
  %w = call i32 @llvm.amdgcn.writelane.i32(i32 %a, i32 %lane, i32 %old)
  store i32 %w, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @readlane_store(ptr addrspace(1) %out, i32 %lane) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %tid, i32 %lane)
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %g
  ret void
}

define amdgpu_kernel void @add_carry(ptr addrspace(1) %out, i64 %a) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = zext i32 %tid to i64
  %s = add i64 %a, %t
  %r = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %s)
  %g = getelementptr i64, ptr addrspace(1) %out, i32 %tid
  store i64 %r, ptr addrspace(1) %g
  ret void
}

define void @fn_swizzle(ptr addrspace(1) %out, i32 %x) {
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %x, i32 31)
  store i32 %s, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @atomic_varying(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %old = atomicrmw add ptr addrspace(1) %inout, i32 %lane syncscope("agent") acq_rel
  store i32 %old, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i64 @llvm.amdgcn.readfirstlane.i64(i64)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
