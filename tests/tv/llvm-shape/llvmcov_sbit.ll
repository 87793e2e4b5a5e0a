; Scalar bit tests and 16-bit scalar moves as LLVM emits them: a uniform
; ballot of an i1 truncated from an inreg argument (llvm.amdgcn.ballot.i32.ll's
; branch_uniform_ballot_*_non_compare: s_bitcmp0/1_b32), and 64-bit DPP
; moves of constants (llvm.amdgcn.mov.dpp.ll's mov_dpp64_imm_test: s_movk_i32).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX10 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -amdgpu-enable-delay-alu=0 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX11 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck -check-prefixes=CHECK,GFX12 %s

define amdgpu_cs i32 @branch_uniform_ballot_ne_zero_non_compare(i32 inreg %v) {
  %c = trunc i32 %v to i1
  %ballot = call i32 @llvm.amdgcn.ballot.i32(i1 %c)
  %ballot_ne_zero = icmp ne i32 %ballot, 0
  br i1 %ballot_ne_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @branch_uniform_ballot_eq_zero_non_compare(i32 inreg %v) {
  %c = trunc i32 %v to i1
  %ballot = call i32 @llvm.amdgcn.ballot.i32(i1 %c)
  %ballot_eq_zero = icmp eq i32 %ballot, 0
  br i1 %ballot_eq_zero, label %true, label %false
true:
  ret i32 42
false:
  ret i32 33
}

define amdgpu_cs i32 @uniform_bit_select(i32 inreg %v, i32 inreg %k) {
  %s = lshr i32 %v, 3
  %c = trunc i32 %s to i1
  %r = select i1 %c, i32 %k, i32 7
  ret i32 %r
}

define amdgpu_kernel void @mov_dpp64_imm_test(ptr addrspace(1) %out) {
  %tmp0 = call i64 @llvm.amdgcn.mov.dpp.i64(i64 123451234512345, i32 1, i32 15, i32 15, i1 true)
  store i64 %tmp0, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @mov_dpp64_imm_negative_hi(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %tmp0 = call i64 @llvm.amdgcn.mov.dpp.i64(i64 -140732887968136, i32 1, i32 15, i32 15, i1 true)
  %p = getelementptr i64, ptr addrspace(1) %out, i32 %id
  store i64 %tmp0, ptr addrspace(1) %p
  ret void
}

define amdgpu_cs i32 @uniform_select_movk(i32 inreg %v) {
  %c = trunc i32 %v to i1
  %r = select i1 %c, i32 -32767, i32 4660
  ret i32 %r
}
