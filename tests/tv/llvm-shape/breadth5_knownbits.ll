; Masks of a lane count that clear nothing, in LLVM's llvm.amdgcn.mbcnt.ll
; shape (mbcnt_lo_known_bits_3, mbcnt_hi_known_bits_3/4): mbcnt(%x, 15) is
; at most 15 + 32, so `and` with 127 or 63 keeps it whole and LLVM drops the
; mask; with a base of 96 the count can reach 128 and the mask stays
; ([S:tv-known-bits]).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=tonga < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; EXPECT: 8 instances

define i32 @mbcnt_lo_mask127(i32 %x) nounwind readnone {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %x, i32 15)
  %mask = and i32 %lo, 127
  ret i32 %mask
}

define i32 @mbcnt_hi_mask63(i32 %x) nounwind readnone {
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 %x, i32 15)
  %mask = and i32 63, %hi
  ret i32 %mask
}

define i32 @mbcnt_lo_hi_mask127(i32 %x, i32 %y) nounwind readnone {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %x, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 %y, i32 %lo)
  %mask = and i32 %hi, 127
  ret i32 %mask
}

define i32 @mbcnt_lo_96_mask127(i32 %x) nounwind readnone {
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 %x, i32 96)
  %mask = and i32 %lo, 127
  ret i32 %mask
}

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) nounwind readnone
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) nounwind readnone
