; llvm.amdgcn.inverse.ballot (verify emit's spelling of an EXEC-mask
; write: a lane keeps its value where the mask's bit is clear), of a
; constant and of a uniform value, wave32 and wave64 [S:ir-inverse-ballot].
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s

define i32 @inverse_ballot_const(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 %x, i32 %x, i32 273, i32 15, i32 15, i1 false)
  %w = call i1 @llvm.amdgcn.inverse.ballot.i64(i64 -281479271743490)
  %r = select i1 %w, i32 %d, i32 %x
  ret i32 %r
}

define i32 @inverse_ballot_uniform(i64 inreg %m, i32 %x) {
  %w = call i1 @llvm.amdgcn.inverse.ballot.i64(i64 %m)
  %r = select i1 %w, i32 %x, i32 7
  ret i32 %r
}

define i32 @inverse_ballot_of_ballot(i32 %x) {
  %c = icmp ugt i32 %x, 10
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %w = call i1 @llvm.amdgcn.inverse.ballot.i64(i64 %b)
  %r = select i1 %w, i32 1, i32 2
  ret i32 %r
}

declare i1 @llvm.amdgcn.inverse.ballot.i64(i64)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
