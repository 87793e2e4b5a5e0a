; row_xmask:1 (GFX10+) with umax
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

define i32 @dpp_row_xmask1_max(i32 %var) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %var, i32 353, i32 15, i32 15, i1 false)
  %c = icmp ugt i32 %var, %d
  %r = select i1 %c, i32 %var, i32 %d
  ret i32 %r
}
