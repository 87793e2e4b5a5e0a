; The "simulated negated ballot" of llvm.amdgcn.ballot.i32.ll: a branch on
; llvm.amdgcn.icmp(i1 %c, i1 0, ICMP_EQ) compared with 0, i.e. on whether some
; active lane has %c false. LLVM 22's SelectionDAG selects it as a branch on
; whether NO active lane has %c true (AMDGPUISelDAGToDAG.cpp, SelectBRCOND and
; combineBallotPattern: the SETEQ form sets Negate and branches on the mask of
; %c itself), which differs whenever %c is divergent: a LLVM 22 miscompile
; (docs/tv.md, Findings). Refuted: the LLVM test's two functions and four
; variants (%c one compare, an `or`, an fcmp; an i32 zext). Proved: the same question
; asked with llvm.amdgcn.ballot of `xor %c, true`, and the uniform (inreg)
; forms, where "some lane has !c" and "no lane has c" agree.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -amdgpu-enable-delay-alu=0 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX11 %s
; EXPECT: 22 instances
; EXPECT: refuted @branch_divergent_simulated_negated_ballot_ne_zero_and
; EXPECT: refuted @branch_divergent_simulated_negated_ballot_eq_zero_and
; EXPECT: refuted @simulated_negated_ballot_ne_zero_compare
; EXPECT: refuted @simulated_negated_ballot_eq_zero_or
; EXPECT: refuted @simulated_negated_ballot_ne_zero_fcmp

declare i32 @llvm.amdgcn.icmp.i32(i1, i1, i32)
declare i32 @llvm.amdgcn.ballot.i32(i1)

define amdgpu_cs i32 @branch_divergent_simulated_negated_ballot_ne_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32) ; ICMP_EQ == 32
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @branch_divergent_simulated_negated_ballot_eq_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32) ; ICMP_EQ == 32
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @simulated_negated_ballot_ne_zero_compare(i32 %v) {
  %c = icmp ult i32 %v, 12
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @simulated_negated_ballot_eq_zero_or(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = or i1 %v1c, %v2c
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32)
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @simulated_negated_ballot_ne_zero_fcmp(float %x) {
  %c = fcmp olt float %x, 1.0
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @negated_ballot_ne_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %nc = xor i1 %c, true
  %ballot = call i32 @llvm.amdgcn.ballot.i32(i1 %nc)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @negated_ballot_eq_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %nc = xor i1 %c, true
  %ballot = call i32 @llvm.amdgcn.ballot.i32(i1 %nc)
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @branch_uniform_simulated_negated_ballot_ne_zero_and(i32 inreg %v1, i32 inreg %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @uniform_simulated_negated_ballot_eq_zero_compare(i32 inreg %v) {
  %c = icmp ult i32 %v, 12
  %ballot = call i32 @llvm.amdgcn.icmp.i32(i1 %c, i1 0, i32 32)
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

; The ICMP_EQ of an i32 `zext` of %c: the same selection (combineBallotPattern
; looks through the extension). LLVM's own InstCombine (AMDGPUInstCombine-
; Intrinsic.cpp: "llvm.amdgcn.icmp([sz]ext ([if]cmp pred a, b), 0, eq) ->
; llvm.amdgcn.[if]cmp(a, b, inv pred)") rewrites it to the next function,
; ICMP_UGE (35) of %v and 12, which llc-22 compiles to a branch on the lanes
; with %v >= 12: proved. So LLVM disagrees with itself on this IR.
; EXPECT: refuted @simulated_negated_ballot_ne_zero_zext
define amdgpu_cs i32 @simulated_negated_ballot_ne_zero_zext(i32 %v) {
  %c = icmp ult i32 %v, 12
  %z = zext i1 %c to i32
  %ballot = call i32 @llvm.amdgcn.icmp.i32.i32(i32 %z, i32 0, i32 32)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @simulated_negated_ballot_ne_zero_zext_instcombined(i32 %v) {
  %ballot = call i32 @llvm.amdgcn.icmp.i32.i32(i32 %v, i32 12, i32 35)
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %false, label %true
true:
  ret i32 42
false:
  ret i32 33
}

declare i32 @llvm.amdgcn.icmp.i32.i32(i32, i32, i32)
