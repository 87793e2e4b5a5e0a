; Divergent branches in kernels (s_and_saveexec + s_cbranch_execz, the else
; through s_xor/s_andn2_saveexec, s_or exec at the join), with stores and
; cross-lane reads inside the regions.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s | FileCheck %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

define amdgpu_kernel void @divergent_store(ptr addrspace(1) %out) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %odd = and i32 %id, 1
  %cmp = icmp eq i32 %odd, 0
  br i1 %cmp, label %then, label %done
then:
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %id, ptr addrspace(1) %gep
  br label %done
done:
  ret void
}

define amdgpu_kernel void @divergent_if_else_first(ptr addrspace(1) %out) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %cmp = icmp ult i32 %id, 5
  br i1 %cmp, label %then, label %else
then:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  br label %join
else:
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  %b2 = xor i32 %b, 100
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b2, %else ]
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %gep
  ret void
}

define amdgpu_kernel void @divergent_swizzle(ptr addrspace(1) %out) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %cmp = icmp ugt i32 %id, 2
  br i1 %cmp, label %then, label %join
then:
  %s = call i32 @llvm.amdgcn.ds.swizzle(i32 %id, i32 31)
  br label %join
join:
  %r = phi i32 [ %s, %then ], [ 7, %entry ]
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %gep
  ret void
}
