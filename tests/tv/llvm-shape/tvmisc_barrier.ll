; llvm.amdgcn.s.barrier between a wave's loads and its cross-lane op, as
; LLVM's llvm.amdgcn.update.dpp.ll (dpp_test1) has it: for one wave an
; ordering point with no effect on values, on both sides (s_barrier;
; GFX12's s_barrier_signal -1 / s_barrier_wait -1)  [S:one-wave-barrier].
; Written for verify's tests in the shape of update.dpp.ll.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -verify-machineinstrs < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -verify-machineinstrs < %s | FileCheck %s

; EXPECT: 6 instances
; EXPECT: unsupported @barrier_in_branch "in a function with branches"

define amdgpu_kernel void @barrier_dpp(ptr addrspace(1) %arg) {
  %id = tail call i32 @llvm.amdgcn.workitem.id.x()
  %gep = getelementptr inbounds i32, ptr addrspace(1) %arg, i32 %id
  %v = load i32, ptr addrspace(1) %gep, align 4
  fence syncscope("workgroup-one-as") release
  tail call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup-one-as") acquire
  %d = tail call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 177, i32 15, i32 15, i1 false)
  %s = add i32 %d, %v
  store i32 %s, ptr addrspace(1) %gep, align 4
  ret void
}

define amdgpu_kernel void @barrier_readlane(ptr addrspace(1) %out, i32 %x) {
  %id = tail call i32 @llvm.amdgcn.workitem.id.x()
  tail call void @llvm.amdgcn.s.barrier()
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %id, i32 5)
  %s = add i32 %r, %x
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @barrier_in_branch(ptr addrspace(1) %out, i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %then, label %done
then:
  tail call void @llvm.amdgcn.s.barrier()
  store i32 1, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
