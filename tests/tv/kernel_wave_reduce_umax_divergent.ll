; a kernel: out[id] = wave.reduce.umax(in[id]) (strategy 2: LLVM 22.1 emits a loop)
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
declare i32 @llvm.amdgcn.wave.reduce.umax.i32(i32, i32)

define amdgpu_kernel void @kernel_wave_reduce_umax_divergent(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %r = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %var, i32 2)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
