; The closed loop's non-deterministic values (issue #37): a freeze of
; poison as the old value of the first of two chained DPP moves (verify
; emit's reductions), a freeze read through ds_bpermute, and a freeze
; scaled by an odd constant; the source's choices witnessed by the GPU's
; registers or solved for (verify/tv/nondet.py).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s

define i32 @dpp_chain_freeze_old(i32 %x) {
  %o = freeze i32 poison
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 177, i32 15, i32 15, i1 false)
  %b = call i32 @llvm.umax.i32(i32 %a, i32 %x)
  %c = call i32 @llvm.amdgcn.update.dpp.i32(i32 %b, i32 %b, i32 78, i32 15, i32 15, i1 false)
  %d = call i32 @llvm.umax.i32(i32 %c, i32 %b)
  ret i32 %d
}

define i32 @bpermute_of_freeze(i32 %x) {
  %f = freeze i32 poison
  %a = add i32 %f, %x
  %i = shl i32 %x, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %i, i32 %a)
  ret i32 %r
}

define i32 @freeze_times_three(i32 %x) {
  %f = freeze i32 poison
  %g = mul i32 %f, 3
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 %g, i32 %x, i32 273, i32 15, i32 15, i1 false)
  ret i32 %d
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.umax.i32(i32, i32)
