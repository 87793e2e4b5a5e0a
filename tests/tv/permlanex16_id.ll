; permlanex16 (GFX10+)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)

define i32 @permlanex16_id(i32 %var) {
  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 %var, i32 %var, i32 1985229328, i32 -19088744, i1 false, i1 false)
  %s = add i32 %r, %var
  ret i32 %s
}
