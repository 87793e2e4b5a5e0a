; getelementptr over array types and an LDS global variable as the pointer
; (issue 31), in the shape of LLVM's llvm.amdgcn.update.dpp.ll (dpp_test1:
; `getelementptr inbounds [448 x i32], ptr addrspace(3) @0, i32 0, i32 %tmp`)
; without its barrier.
; EXPECT: 6 instances
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck -check-prefix=GFX9 %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=-flat-for-global < %s | FileCheck -check-prefix=GFX11 %s

@lds = internal unnamed_addr addrspace(3) global [448 x i32] undef, align 4

define amdgpu_kernel void @gep_array_global(ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %id to i64
  %p = getelementptr [4 x i32], ptr addrspace(1) %out, i64 %i, i64 2
  store i32 %x, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @gep_array_inner_index(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %id to i64
  %p = getelementptr [64 x i32], ptr addrspace(1) %out, i64 0, i64 %i
  store i32 %id, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @lds_global_dpp(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %id to i64
  %q = getelementptr inbounds [448 x i32], ptr addrspace(3) @lds, i32 0, i32 %id
  %v = load i32, ptr addrspace(3) %q, align 4
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 177, i32 15, i32 15, i1 false)
  %s = add i32 %d, %v
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %s, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
