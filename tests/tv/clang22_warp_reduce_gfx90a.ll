; HIP's warp sum (__shfl_xor butterfly) and inclusive scan (__shfl_up ladder) compiled by
; clang-22 -x hip --offload-arch=gfx90a  -D__AMDGCN_WAVEFRONT_SIZE=64 -nogpulib --cuda-device-only -fgpu-rdc -emit-llvm -O2
; | llvm-extract-22 --func=warp_sum --func=warp_scan | llvm-dis-22
; from tests/tv/hip/warp_reduce.hip (regenerate: tests/tv/hip/regen_reduce.sh)
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define hidden i32 @warp_sum(i32 noundef %0) local_unnamed_addr #0 {
  %2 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %3 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %2)
  %4 = and i32 %3, -64
  %5 = add nsw i32 %4, 64
  %6 = xor i32 %3, 32
  %7 = icmp slt i32 %6, %5
  %8 = select i1 %7, i32 %6, i32 %3
  %9 = shl i32 %8, 2
  %10 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %9, i32 %0)
  %11 = add nsw i32 %10, %0
  %12 = xor i32 %3, 16
  %13 = icmp slt i32 %12, %5
  %14 = select i1 %13, i32 %12, i32 %3
  %15 = shl i32 %14, 2
  %16 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %15, i32 %11)
  %17 = add nsw i32 %16, %11
  %18 = xor i32 %3, 8
  %19 = icmp slt i32 %18, %5
  %20 = select i1 %19, i32 %18, i32 %3
  %21 = shl i32 %20, 2
  %22 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %21, i32 %17)
  %23 = add nsw i32 %22, %17
  %24 = xor i32 %3, 4
  %25 = icmp slt i32 %24, %5
  %26 = select i1 %25, i32 %24, i32 %3
  %27 = shl i32 %26, 2
  %28 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %27, i32 %23)
  %29 = add nsw i32 %28, %23
  %30 = xor i32 %3, 2
  %31 = icmp slt i32 %30, %5
  %32 = select i1 %31, i32 %30, i32 %3
  %33 = shl i32 %32, 2
  %34 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %33, i32 %29)
  %35 = add nsw i32 %34, %29
  %36 = xor i32 %3, 1
  %37 = icmp slt i32 %36, %5
  %38 = select i1 %37, i32 %36, i32 %3
  %39 = shl i32 %38, 2
  %40 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %39, i32 %35)
  %41 = add nsw i32 %40, %35
  ret i32 %41
}

define hidden i32 @warp_scan(i32 noundef %0) local_unnamed_addr #0 {
  %2 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %3 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %2)
  %4 = and i32 %3, -64
  %5 = add i32 %3, -1
  %6 = icmp slt i32 %5, %4
  %7 = select i1 %6, i32 %3, i32 %5
  %8 = shl i32 %7, 2
  %9 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %8, i32 %0)
  %10 = icmp eq i32 %3, 0
  %11 = select i1 %10, i32 0, i32 %9
  %12 = add nsw i32 %11, %0
  %13 = add i32 %3, -2
  %14 = icmp slt i32 %13, %4
  %15 = select i1 %14, i32 %3, i32 %13
  %16 = shl i32 %15, 2
  %17 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %16, i32 %12)
  %18 = icmp ult i32 %3, 2
  %19 = select i1 %18, i32 0, i32 %17
  %20 = add nsw i32 %19, %12
  %21 = add i32 %3, -4
  %22 = icmp slt i32 %21, %4
  %23 = select i1 %22, i32 %3, i32 %21
  %24 = shl i32 %23, 2
  %25 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %24, i32 %20)
  %26 = icmp ult i32 %3, 4
  %27 = select i1 %26, i32 0, i32 %25
  %28 = add nsw i32 %27, %20
  %29 = add i32 %3, -8
  %30 = icmp slt i32 %29, %4
  %31 = select i1 %30, i32 %3, i32 %29
  %32 = shl i32 %31, 2
  %33 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %32, i32 %28)
  %34 = icmp ult i32 %3, 8
  %35 = select i1 %34, i32 0, i32 %33
  %36 = add nsw i32 %35, %28
  %37 = add i32 %3, -16
  %38 = icmp slt i32 %37, %4
  %39 = select i1 %38, i32 %3, i32 %37
  %40 = shl i32 %39, 2
  %41 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %40, i32 %36)
  %42 = icmp ult i32 %3, 16
  %43 = select i1 %42, i32 0, i32 %41
  %44 = add nsw i32 %43, %36
  %45 = add i32 %3, -32
  %46 = icmp slt i32 %45, %4
  %47 = select i1 %46, i32 %3, i32 %45
  %48 = shl i32 %47, 2
  %49 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %48, i32 %44)
  %50 = icmp ult i32 %3, 32
  %51 = select i1 %50, i32 0, i32 %49
  %52 = add nsw i32 %51, %44
  ret i32 %52
}

declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #1

declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #2

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #2

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(none) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="false" }
attributes #1 = { convergent nocallback nofree nounwind willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
