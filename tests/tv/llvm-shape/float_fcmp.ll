; Every fcmp predicate on float, as a select of two constants (LLVM's
; fcmp.f32 / setcc.ll shape).  Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

define i32 @fcmp_false(float %a, float %b) {
  %c = fcmp false float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_oeq(float %a, float %b) {
  %c = fcmp oeq float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ogt(float %a, float %b) {
  %c = fcmp ogt float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_oge(float %a, float %b) {
  %c = fcmp oge float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_olt(float %a, float %b) {
  %c = fcmp olt float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ole(float %a, float %b) {
  %c = fcmp ole float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_one(float %a, float %b) {
  %c = fcmp one float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ord(float %a, float %b) {
  %c = fcmp ord float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ueq(float %a, float %b) {
  %c = fcmp ueq float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ugt(float %a, float %b) {
  %c = fcmp ugt float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_uge(float %a, float %b) {
  %c = fcmp uge float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ult(float %a, float %b) {
  %c = fcmp ult float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_ule(float %a, float %b) {
  %c = fcmp ule float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_une(float %a, float %b) {
  %c = fcmp une float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_uno(float %a, float %b) {
  %c = fcmp uno float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_true(float %a, float %b) {
  %c = fcmp true float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}

define i32 @fcmp_olt_const(float %a) {
  %c = fcmp olt float %a, 1.0
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @fcmp_nnan_oeq(float %a, float %b) {
  %c = fcmp nnan oeq float %a, %b
  %r = zext i1 %c to i32
  ret i32 %r
}

define float @fcmp_select_float(float %a, float %b) {
  %c = fcmp ogt float %a, %b
  %r = select i1 %c, float %a, float %b
  ret float %r
}
