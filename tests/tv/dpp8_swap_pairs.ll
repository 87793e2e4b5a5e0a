; mov.dpp8 [1,0,3,2,5,4,7,6] then add (GFX10+)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)

define i32 @dpp8_swap_pairs(i32 %var) {
  %d = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %var, i32 14570689)
  %r = add i32 %var, %d
  ret i32 %r
}
