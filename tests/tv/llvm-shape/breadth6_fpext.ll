; fpext float to double in LLVM's test shape (llvm.amdgcn.permlane64.ll
; test_v_f64): LLVM selects v_cvt_f64_f32, exact, [S:cvt-f64-f32].
; Written for verify's tests.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; EXPECT: 4 instances

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @fpext_tid_bits(ptr addrspace(1) %out) {
  %tidx = call i32 @llvm.amdgcn.workitem.id.x()
  %f = bitcast i32 %tidx to float
  %d = fpext float %f to double
  store double %d, ptr addrspace(1) %out
  ret void
}

define void @fpext_arg(ptr addrspace(1) %out, float %x) {
  %d = fpext float %x to double
  store double %d, ptr addrspace(1) %out
  ret void
}
