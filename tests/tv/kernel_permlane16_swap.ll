; a kernel: out[id] = the two results of permlane16.swap(in[id], in2[id]) added
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare { i32, i32 } @llvm.amdgcn.permlane16.swap(i32, i32, i1, i1)

define amdgpu_kernel void @kernel_permlane16_swap(ptr addrspace(1) %in, ptr addrspace(1) %in2, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g, align 4
  %g2 = getelementptr inbounds i32, ptr addrspace(1) %in2, i64 %idx
  %y = load i32, ptr addrspace(1) %g2, align 4
  %p = call { i32, i32 } @llvm.amdgcn.permlane16.swap(i32 %var, i32 %y, i1 false, i1 false)
  %a = extractvalue { i32, i32 } %p, 0
  %b = extractvalue { i32, i32 } %p, 1
  %r = xor i32 %a, %b
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
