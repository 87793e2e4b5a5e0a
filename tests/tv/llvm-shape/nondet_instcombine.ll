; freeze, undef and poison as LLVM's middle end leaves them around the
; cross-lane intrinsics (InstCombine's and SimplifyCFG's shapes: a freeze
; of a value that may be poison, a select or vector element left undef,
; a "don't care" lane): the IR's choices, which the compiled code may take
; any way (verify/tv/nondet.py).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck %s

define i32 @freeze_add_nsw(i32 %x) {
  %a = add nsw i32 %x, 1
  %f = freeze i32 %a
  ret i32 %f
}

define i32 @freeze_shl_by_any(i32 %x, i32 %n) {
  %s = shl i32 %x, %n
  %f = freeze i32 %s
  ret i32 %f
}

define i32 @select_undef_arm(i32 %x, i32 %c) {
  %p = icmp eq i32 %c, 0
  %r = select i1 %p, i32 %x, i32 undef
  ret i32 %r
}

define i32 @freeze_select_poison_arm(i32 %x, i32 %c) {
  %p = icmp eq i32 %c, 0
  %s = select i1 %p, i32 %x, i32 poison
  %f = freeze i32 %s
  ret i32 %f
}

define <2 x i32> @insert_into_undef(i32 %x) {
  %v = insertelement <2 x i32> undef, i32 %x, i32 0
  ret <2 x i32> %v
}

define <2 x i32> @insert_into_freeze_poison(<2 x i32> %x) {
  %e = extractelement <2 x i32> %x, i32 1
  %z = freeze <2 x i32> poison
  %v = insertelement <2 x i32> %z, i32 %e, i32 0
  ret <2 x i32> %v
}

define i32 @freeze_of_dpp_result(i32 %x) {
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32 %x, i32 273, i32 15, i32 15, i1 false)
  %f = freeze i32 %r
  ret i32 %f
}

define i32 @readfirstlane_of_freeze(i32 %x) {
  %a = add nsw i32 %x, 7
  %f = freeze i32 %a
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %f)
  ret i32 %r
}

define i32 @xor_with_undef(i32 %x) {
  %r = xor i32 %x, undef
  ret i32 %r
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
