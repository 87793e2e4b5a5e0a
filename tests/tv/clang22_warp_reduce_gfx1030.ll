; HIP's warp sum (__shfl_xor butterfly) and inclusive scan (__shfl_up ladder) compiled by
; clang-22 -x hip --offload-arch=gfx1030  -D__AMDGCN_WAVEFRONT_SIZE=32 -nogpulib --cuda-device-only -fgpu-rdc -emit-llvm -O2
; | llvm-extract-22 --func=warp_sum --func=warp_scan | llvm-dis-22
; from tests/tv/hip/warp_reduce.hip (regenerate: tests/tv/hip/regen_reduce.sh)
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define hidden i32 @warp_sum(i32 noundef %0) local_unnamed_addr #0 {
  %2 = tail call noundef i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %3 = and i32 %2, -32
  %4 = add nsw i32 %3, 32
  %5 = xor i32 %2, 16
  %6 = icmp slt i32 %5, %4
  %7 = select i1 %6, i32 %5, i32 %2
  %8 = shl i32 %7, 2
  %9 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %8, i32 %0)
  %10 = add nsw i32 %9, %0
  %11 = xor i32 %2, 8
  %12 = icmp slt i32 %11, %4
  %13 = select i1 %12, i32 %11, i32 %2
  %14 = shl i32 %13, 2
  %15 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %14, i32 %10)
  %16 = add nsw i32 %15, %10
  %17 = xor i32 %2, 4
  %18 = icmp slt i32 %17, %4
  %19 = select i1 %18, i32 %17, i32 %2
  %20 = shl i32 %19, 2
  %21 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %20, i32 %16)
  %22 = add nsw i32 %21, %16
  %23 = xor i32 %2, 2
  %24 = icmp slt i32 %23, %4
  %25 = select i1 %24, i32 %23, i32 %2
  %26 = shl i32 %25, 2
  %27 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %26, i32 %22)
  %28 = add nsw i32 %27, %22
  %29 = xor i32 %2, 1
  %30 = icmp slt i32 %29, %4
  %31 = select i1 %30, i32 %29, i32 %2
  %32 = shl i32 %31, 2
  %33 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %32, i32 %28)
  %34 = add nsw i32 %33, %28
  ret i32 %34
}

define hidden i32 @warp_scan(i32 noundef %0) local_unnamed_addr #0 {
  %2 = tail call noundef i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %3 = and i32 %2, -32
  %4 = add i32 %2, -1
  %5 = icmp slt i32 %4, %3
  %6 = select i1 %5, i32 %2, i32 %4
  %7 = shl i32 %6, 2
  %8 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %7, i32 %0)
  %9 = icmp eq i32 %2, 0
  %10 = select i1 %9, i32 0, i32 %8
  %11 = add nsw i32 %10, %0
  %12 = add i32 %2, -2
  %13 = icmp slt i32 %12, %3
  %14 = select i1 %13, i32 %2, i32 %12
  %15 = shl i32 %14, 2
  %16 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %15, i32 %11)
  %17 = icmp ult i32 %2, 2
  %18 = select i1 %17, i32 0, i32 %16
  %19 = add nsw i32 %18, %11
  %20 = add i32 %2, -4
  %21 = icmp slt i32 %20, %3
  %22 = select i1 %21, i32 %2, i32 %20
  %23 = shl i32 %22, 2
  %24 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %23, i32 %19)
  %25 = icmp ult i32 %2, 4
  %26 = select i1 %25, i32 0, i32 %24
  %27 = add nsw i32 %26, %19
  %28 = add i32 %2, -8
  %29 = icmp slt i32 %28, %3
  %30 = select i1 %29, i32 %2, i32 %28
  %31 = shl i32 %30, 2
  %32 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %31, i32 %27)
  %33 = icmp ult i32 %2, 8
  %34 = select i1 %33, i32 0, i32 %32
  %35 = add nsw i32 %34, %27
  %36 = add i32 %2, -16
  %37 = icmp slt i32 %36, %3
  %38 = select i1 %37, i32 %2, i32 %36
  %39 = shl i32 %38, 2
  %40 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %39, i32 %35)
  %41 = icmp ult i32 %2, 16
  %42 = select i1 %41, i32 0, i32 %40
  %43 = add nsw i32 %42, %35
  ret i32 %43
}

declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #1

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #2

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(none) "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx1030" "target-features"="+16-bit-insts,+atomic-fmin-fmax-global-f32,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx10-3-insts,+gfx10-insts,+gfx8-insts,+gfx9-insts,+lerp-inst,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize32" "uniform-work-group-size"="false" }
attributes #1 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
