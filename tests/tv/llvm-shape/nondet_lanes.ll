; Cross-lane intrinsics whose "old" or inactive-lane operand is undef,
; poison or freeze of poison (LLVM's llvm.amdgcn.writelane.ll,
; permlane.ll and update.dpp shapes after the move to poison): the lanes
; that keep it are the IR's to choose (verify/tv/nondet.py).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s

define i32 @writelane_old_undef(i32 %x, i32 inreg %l) {
  %r = call i32 @llvm.amdgcn.writelane.i32(i32 %x, i32 %l, i32 undef)
  ret i32 %r
}

define i32 @writelane_old_freeze(i32 inreg %x, i32 inreg %l) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.writelane.i32(i32 %x, i32 %l, i32 %o)
  ret i32 %r
}

define i32 @permlane16_old_poison(i32 %x) {
  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 poison, i32 %x, i32 1985229328, i32 -19088744, i1 false, i1 false)
  ret i32 %r
}

define i32 @permlanex16_old_freeze(i32 %x) {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.permlanex16.i32(i32 %o, i32 %x, i32 -1, i32 -1, i1 false, i1 false)
  ret i32 %r
}

define i32 @permlane16_old_undef_fi(i32 %x) {
  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 undef, i32 %x, i32 0, i32 0, i1 true, i1 false)
  ret i32 %r
}

declare i32 @llvm.amdgcn.writelane.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1 immarg, i1 immarg)
declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1 immarg, i1 immarg)
