; permlane64 then add: the other half's value (GFX11+)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.permlane64.i32(i32)

define i32 @permlane64_add(i32 %var) {
  %r = call i32 @llvm.amdgcn.permlane64.i32(i32 %var)
  %s = add i32 %r, %var
  ret i32 %s
}
