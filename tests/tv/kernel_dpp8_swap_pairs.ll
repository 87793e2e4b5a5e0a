; a kernel: out[id] = mov.dpp8 [1,0,3,2,5,4,7,6] then add (GFX10+) of in[id]
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)

define amdgpu_kernel void @kernel_dpp8_swap_pairs(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %d = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %var, i32 14570689)
  %r = add i32 %var, %d
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
