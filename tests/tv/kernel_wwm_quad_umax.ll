; a kernel: out[id] = set.inactive with the umax identity, quad_perm reduction in strict.wwm of in[id]
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
declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.strict.wwm.i32(i32)

define amdgpu_kernel void @kernel_wwm_quad_umax(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %var, i32 0)
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 177, i32 15, i32 15, i1 false)
  %c1 = icmp ugt i32 %a, %d1
  %m1 = select i1 %c1, i32 %a, i32 %d1
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %m1, i32 78, i32 15, i32 15, i1 false)
  %c2 = icmp ugt i32 %m1, %d2
  %m2 = select i1 %c2, i32 %m1, i32 %d2
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %m2)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %w, ptr addrspace(1) %o, align 4
  ret void
}
