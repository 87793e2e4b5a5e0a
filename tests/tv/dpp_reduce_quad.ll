; rocPRIM-style quad reduction: two quad_perm steps
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

define i32 @dpp_reduce_quad(i32 %var) {
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %var, i32 177, i32 15, i32 15, i1 false)
  %s1 = add i32 %var, %a
  %b = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s1, i32 78, i32 15, i32 15, i1 false)
  %s2 = add i32 %s1, %b
  ret i32 %s2
}
