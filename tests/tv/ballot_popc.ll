; ballot (wave32) of var != 0
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s

declare i32 @llvm.amdgcn.ballot.i32(i1)

define i32 @ballot_popc(i32 %var) {
  %c = icmp ne i32 %var, 0
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %c)
  ret i32 %b
}
