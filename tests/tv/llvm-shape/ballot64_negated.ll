; The "simulated negated ballot" in wave64 (tests/tv/llvm-shape/ballot_negated.ll
; has the wave32 forms): llvm.amdgcn.icmp.i64(i1 %c, i1 0, ICMP_EQ) compared
; with 0 and branched on. LLVM 22 branches on `s_and_b64 vcc` of %c's compares
; with s_cbranch_vccnz to %false, i.e. "no active lane has %c", where the IR
; asks "some active lane has !%c": refuted for a divergent %c (docs/tv.md,
; Findings; [S:ir-amdgcn-cmp]). The ballot.i64 of `xor %c, true` and the
; uniform (inreg) form are proved.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefixes=CHECK,GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s | FileCheck -check-prefixes=CHECK,GFX942 %s
; EXPECT: 6 instances
; EXPECT: refuted @branch_divergent_simulated_negated_ballot64_ne_zero_and

declare i64 @llvm.amdgcn.icmp.i64.i1(i1, i1, i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)

define amdgpu_cs i32 @branch_divergent_simulated_negated_ballot64_ne_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %ballot = call i64 @llvm.amdgcn.icmp.i64.i1(i1 %c, i1 0, i32 32) ; ICMP_EQ == 32
  %ballot_ne_zero = icmp ne i64 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @negated_ballot64_ne_zero_and(i32 %v1, i32 %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %nc = xor i1 %c, true
  %ballot = call i64 @llvm.amdgcn.ballot.i64(i1 %nc)
  %ballot_ne_zero = icmp ne i64 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @branch_uniform_simulated_negated_ballot64_ne_zero_and(i32 inreg %v1, i32 inreg %v2) {
  %v1c = icmp ult i32 %v1, 12
  %v2c = icmp ugt i32 %v2, 34
  %c = and i1 %v1c, %v2c
  %ballot = call i64 @llvm.amdgcn.icmp.i64.i1(i1 %c, i1 0, i32 32)
  %ballot_ne_zero = icmp ne i64 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}
