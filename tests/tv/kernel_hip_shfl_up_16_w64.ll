; a kernel: out[id] = HIP __shfl_up(var, 16, 64) of in[id]
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
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)

define amdgpu_kernel void @kernel_hip_shfl_up_16_w64(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %self = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  %index = sub i32 %self, 16
  %g = and i32 %self, -64
  %c = icmp slt i32 %index, %g
  %sel = select i1 %c, i32 %self, i32 %index
  %addr = shl i32 %sel, 2
  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %var)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
