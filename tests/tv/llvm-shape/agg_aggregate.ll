; Aggregate results built by insertvalue and returned (verify emit's
; several-output lowerings return {i32, i32}; HIP's pair-returning helpers):
; each member from a register of its own [S:ir-aggregate]; a member left
; poison constrains nothing; extractvalue of a permlane swap's pair.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define {i32, i32} @pair_dpp(i32 %x, i32 %y) {
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 false)
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %y)
  %r = insertvalue {i32, i32} poison, i32 %a, 0
  %s = insertvalue {i32, i32} %r, i32 %b, 1
  ret {i32, i32} %s
}

define {i64, i32} @wide_member(i64 %x, i32 %y) {
  %a = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %x)
  %b = add i32 %y, 1
  %r = insertvalue {i64, i32} poison, i64 %a, 0
  %s = insertvalue {i64, i32} %r, i32 %b, 1
  ret {i64, i32} %s
}

define {i16, i32} @short_member(i32 %x, i32 %y) {
  %t = trunc i32 %x to i16
  %u = add i16 %t, 3
  %r = insertvalue {i16, i32} poison, i16 %u, 0
  %s = insertvalue {i16, i32} %r, i32 %y, 1
  ret {i16, i32} %s
}

define {i32, i32} @one_member_written(i32 %x) {
  %a = xor i32 %x, 5
  %r = insertvalue {i32, i32} poison, i32 %a, 1
  ret {i32, i32} %r
}

define {i32, i32} @member_rewritten(i32 %x, i32 %y) {
  %r = insertvalue {i32, i32} poison, i32 %x, 0
  %s = insertvalue {i32, i32} %r, i32 %y, 1
  %t = insertvalue {i32, i32} %s, i32 7, 0
  ret {i32, i32} %t
}

define i32 @extract_after_insert(i32 %x, i32 %y) {
  %r = insertvalue {i32, i32} poison, i32 %x, 0
  %s = insertvalue {i32, i32} %r, i32 %y, 1
  %a = extractvalue {i32, i32} %s, 1
  %b = extractvalue {i32, i32} %s, 0
  %c = sub i32 %a, %b
  ret i32 %c
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.readfirstlane.i64(i64)
