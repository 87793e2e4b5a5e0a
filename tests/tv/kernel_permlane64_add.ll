; a kernel: out[id] = permlane64 then add: the other half's value (GFX11+) of in[id]
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.permlane64.i32(i32)

define amdgpu_kernel void @kernel_permlane64_add(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %r = call i32 @llvm.amdgcn.permlane64.i32(i32 %var)
  %s = add i32 %r, %var
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %s, ptr addrspace(1) %o, align 4
  ret void
}
