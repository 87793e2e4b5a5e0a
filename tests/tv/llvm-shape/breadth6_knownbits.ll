; A mask of a lane count that clears nothing and that LLVM keeps anyway, in
; LLVM's llvm.amdgcn.mbcnt.ll shape (mbcnt_lo_known_bits_4): mbcnt.lo(%x, 15)
; is at most 15 + 32, `and` with 63 keeps it whole; the IR's mask is left
; out (verify/tv/knownbits.py) and the GPU's `v_and_b32 v0, 63, v0` must be
; known to change nothing as well (verify/smt/terms.py upper_bound,
; [S:tv-known-bits]).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=tonga < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; EXPECT: 4 instances

define i32 @mbcnt_lo_mask63(i32 %x) nounwind readnone {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %x, i32 15)
  %mask = and i32 %lo, 63
  ret i32 %mask
}

define i32 @mbcnt_lo_31_mask63(i32 %x) nounwind readnone {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %x, i32 31)
  %mask = and i32 %lo, 63
  ret i32 %mask
}

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) nounwind readnone
