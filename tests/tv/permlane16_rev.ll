; permlane16 reversing each row (GFX10+)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)

define i32 @permlane16_rev(i32 %var) {
  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 %var, i32 %var, i32 -1985229329, i32 1985229328, i1 false, i1 false)
  ret i32 %r
}
