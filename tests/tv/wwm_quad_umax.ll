; set.inactive with the umax identity, quad_perm reduction in strict.wwm
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.strict.wwm.i32(i32)

define i32 @wwm_quad_umax(i32 %var) {
  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %var, i32 0)
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 177, i32 15, i32 15, i1 false)
  %c1 = icmp ugt i32 %a, %d1
  %m1 = select i1 %c1, i32 %a, i32 %d1
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %m1, i32 78, i32 15, i32 15, i1 false)
  %c2 = icmp ugt i32 %m1, %d2
  %m2 = select i1 %c2, i32 %m1, i32 %d2
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %m2)
  ret i32 %w
}
