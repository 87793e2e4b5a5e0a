; a kernel: out[id] = ballot.i64(in[id] u< 7) >> 32
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i64 @llvm.amdgcn.ballot.i64(i1)

define amdgpu_kernel void @kernel_ballot_i64_hi(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %c = icmp ult i32 %var, 7
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %h = lshr i64 %b, 32
  %r = trunc i64 %h to i32
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
