; A hand-written loop over the active lanes (ballot, cttz, readlane,
; M & (M - 1)) in the IR, which LLVM compiles to its s_ff1/v_readlane/s_and/
; s_cbranch_scc1 loop: the IR loop is run once per mask bit, bounded by proof
; (verify/tv/irloop.py).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
declare i32 @llvm.amdgcn.ballot.i32(i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_lane_loop_sum(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %gi
  %mask0 = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  br label %loop
loop:
  %mask = phi i32 [ %mask0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %i = call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %v = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %i)
  %acc2 = add i32 %acc, %v
  %m1 = sub i32 %mask, 1
  %next = and i32 %mask, %m1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %acc2, ptr addrspace(1) %go
  ret void
}

define amdgpu_kernel void @k_lane_loop_or(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %gi
  %mask0 = call i32 @llvm.amdgcn.ballot.i32(i1 true)
  br label %loop
loop:
  %mask = phi i32 [ %mask0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %i = call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %v = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %i)
  %acc2 = or i32 %acc, %v
  %m1 = sub i32 %mask, 1
  %next = and i32 %mask, %m1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %acc2, ptr addrspace(1) %go
  ret void
}
