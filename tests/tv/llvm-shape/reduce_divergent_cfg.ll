; llvm.amdgcn.wave.reduce.* inside a branch on the work-item ID: the
; Iterative loop runs over the lanes that took the branch, whose mask is
; symbolic even under a dispatch's EXEC (LLVM's llvm.amdgcn.reduce.umax.ll
; `divergent_cfg` shape: every lane stores the phi of the two branches'
; reductions at one address, a race of lanes storing different values).
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1010 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; EXPECT: 9 instances

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @umax_cfg(ptr addrspace(1) %out, i32 %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %d_cmp = icmp ult i32 %tid, 16
  br i1 %d_cmp, label %if, label %else

if:
  %reducedValTid = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %tid, i32 1)
  br label %endif

else:
  %reducedValIn = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %in, i32 1)
  br label %endif

endif:
  %combine = phi i32 [%reducedValTid, %if], [%reducedValIn, %else]
  store i32 %combine, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @umin_cfg_per_lane(ptr addrspace(1) %out, i32 %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %d_cmp = icmp ult i32 %tid, 24
  br i1 %d_cmp, label %if, label %endif

if:
  %r = call i32 @llvm.amdgcn.wave.reduce.umin.i32(i32 %tid, i32 1)
  br label %endif

endif:
  %combine = phi i32 [%r, %if], [%in, %entry]
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %combine, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @max_cfg_else(ptr addrspace(1) %out, i32 %in) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %d_cmp = icmp ugt i32 %tid, 5
  br i1 %d_cmp, label %if, label %endif

if:
  %r = call i32 @llvm.amdgcn.wave.reduce.max.i32(i32 %tid, i32 1)
  br label %endif

endif:
  %combine = phi i32 [%r, %if], [%in, %entry]
  store i32 %combine, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.amdgcn.wave.reduce.umax.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.umin.i32(i32, i32)
declare i32 @llvm.amdgcn.wave.reduce.max.i32(i32, i32)
