; HIP __shfl_xor(var, 12, 32): index = self ^ mask, kept in the width group
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)

define i32 @hip_shfl_xor_12_w32(i32 %var) {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %self = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %index = xor i32 %self, 12
  %t = add i32 %self, 32
  %b = and i32 %t, -32
  %c = icmp sge i32 %index, %b
  %sel = select i1 %c, i32 %self, i32 %index
  %addr = shl i32 %sel, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %var)
  ret i32 %r
}
