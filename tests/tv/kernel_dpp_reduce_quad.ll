; a kernel: out[id] = rocPRIM-style quad reduction: two quad_perm steps of in[id]
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
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)

define amdgpu_kernel void @kernel_dpp_reduce_quad(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %var, i32 177, i32 15, i32 15, i1 false)
  %s1 = add i32 %var, %a
  %b = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s1, i32 78, i32 15, i32 15, i1 false)
  %s2 = add i32 %s1, %b
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %s2, ptr addrspace(1) %o, align 4
  ret void
}
