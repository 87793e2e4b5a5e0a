; a kernel: out[id] = ballot (wave32) of var != 0 of in[id]
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ballot.i32(i1)

define amdgpu_kernel void @kernel_ballot_popc(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %c = icmp ne i32 %var, 0
  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %c)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %b, ptr addrspace(1) %o, align 4
  ret void
}
