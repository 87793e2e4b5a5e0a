; Uniform branches (s_cbranch_scc0/scc1, s_cbranch_vccz/vccnz on a ballot,
; a readfirstlane'd condition) around cross-lane operations, in kernels.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s | FileCheck %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)

define amdgpu_kernel void @uniform_arg_branch(ptr addrspace(1) %out, i32 %c) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %cmp = icmp eq i32 %c, 0
  br i1 %cmp, label %then, label %else
then:
  %a = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %id, i32 273, i32 15, i32 15, i1 true)
  br label %join
else:
  %b = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %id, i32 320, i32 15, i32 15, i1 true)
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b, %else ]
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %gep
  ret void
}

define amdgpu_kernel void @readfirstlane_branch(ptr addrspace(1) %out) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %f = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  %cmp = icmp ult i32 %f, 8
  br i1 %cmp, label %then, label %join
then:
  %a = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %id, i32 177, i32 15, i32 15, i1 true)
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %f, %entry ]
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r, ptr addrspace(1) %gep
  ret void
}

define amdgpu_kernel void @uniform_skip_store(ptr addrspace(1) %out, i32 %c) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %cmp = icmp sgt i32 %c, 5
  br i1 %cmp, label %then, label %done
then:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %id)
  %gep = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %a, ptr addrspace(1) %gep
  br label %done
done:
  ret void
}
