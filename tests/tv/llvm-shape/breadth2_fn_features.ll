; A function's own "target-features" under RUN lines of the other real-true16
; setting: llc appends -mattr to the function's list, so the RUN line wins
; where both say something, and the function's attribute decides where the
; RUN line is silent (llvm::codegen::setFunctionAttributes).  Written for
; verify's tests (LLVM's dpp_combine.ll / reduce.umax.ll RUN-line shape).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=-real-true16 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+real-true16 < %s | FileCheck %s
; EXPECT: 16 instances

define i16 @add_i16_true16(i16 %a, i16 %b) #0 {
  %r = add i16 %a, %b
  ret i16 %r
}

define i16 @add_i16_fake16(i16 %a, i16 %b) #1 {
  %r = add i16 %a, %b
  ret i16 %r
}

define half @fadd_dpp_f16_true16(half %a, half %b) #0 {
  %i = bitcast half %a to i16
  %z = zext i16 %i to i32
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %z, i32 1, i32 15, i32 15, i1 false)
  %t = trunc i32 %d to i16
  %h = bitcast i16 %t to half
  %r = fadd half %h, %b
  ret half %r
}

define i16 @readlane_i16_fake16(i16 %a, i32 %l) #1 {
  %r = call i16 @llvm.amdgcn.readlane.i16(i16 %a, i32 %l)
  %s = add i16 %r, %a
  ret i16 %s
}

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i16 @llvm.amdgcn.readlane.i16(i16, i32)

attributes #0 = { "target-features"="+real-true16" }
attributes #1 = { "target-features"="-real-true16" }
