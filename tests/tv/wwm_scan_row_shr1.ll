; set.inactive + update.dpp row_shr:1 + add in strict.wwm (a scan step as the atomic optimizer writes it)
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

define i32 @wwm_scan_row_shr1(i32 %var) {
  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %var, i32 0)
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 273, i32 15, i32 15, i1 false)
  %s = add i32 %a, %d
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %s)
  ret i32 %w
}
