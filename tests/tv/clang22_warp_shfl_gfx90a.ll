; HIP warp functions (__shfl, __shfl_xor, __shfl_up, __shfl_down; int and float) compiled by
; clang-22 -x hip --offload-arch=gfx90a -D__AMDGCN_WAVEFRONT_SIZE=64 -nogpulib --cuda-device-only -emit-llvm -S -O2
; from tests/tv/hip/warp_shfl.hip (regenerate: tests/tv/hip/regen.sh)
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define protected amdgpu_kernel void @shfl_int(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %5
  %7 = load i32, ptr addrspace(1) %6, align 4
  %8 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %9 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %8)
  %10 = and i32 %9, 1073741760
  %11 = add i32 %10, %2
  %12 = shl i32 %11, 2
  %13 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %12, i32 %7)
  %14 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %5
  store i32 %13, ptr addrspace(1) %14, align 4
  ret void
}

declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1

define protected amdgpu_kernel void @shfl_float(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %5
  %7 = load i32, ptr addrspace(1) %6, align 4
  %8 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %9 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %8)
  %10 = and i32 %9, 1073741760
  %11 = add i32 %10, %2
  %12 = shl i32 %11, 2
  %13 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %12, i32 %7)
  %14 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %5
  store i32 %13, ptr addrspace(1) %14, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_xor_int(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = xor i32 %8, 1
  %10 = and i32 %8, -64
  %11 = add nsw i32 %10, 64
  %12 = icmp slt i32 %9, %11
  %13 = select i1 %12, i32 %9, i32 %8
  %14 = shl i32 %13, 2
  %15 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %14, i32 %6)
  %16 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %4
  store i32 %15, ptr addrspace(1) %16, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_xor_float(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = xor i32 %8, 16
  %10 = and i32 %8, -64
  %11 = add nsw i32 %10, 64
  %12 = icmp slt i32 %9, %11
  %13 = select i1 %12, i32 %9, i32 %8
  %14 = shl i32 %13, 2
  %15 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %14, i32 %6)
  %16 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  store i32 %15, ptr addrspace(1) %16, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_up_int(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = add i32 %8, -1
  %10 = and i32 %8, -64
  %11 = icmp slt i32 %9, %10
  %12 = select i1 %11, i32 %8, i32 %9
  %13 = shl i32 %12, 2
  %14 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %13, i32 %6)
  %15 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %4
  store i32 %14, ptr addrspace(1) %15, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_up_float(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = add i32 %8, -4
  %10 = and i32 %8, -64
  %11 = icmp slt i32 %9, %10
  %12 = select i1 %11, i32 %8, i32 %9
  %13 = shl i32 %12, 2
  %14 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %13, i32 %6)
  %15 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  store i32 %14, ptr addrspace(1) %15, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_down_int(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = and i32 %8, 62
  %10 = icmp eq i32 %9, 62
  %11 = select i1 %10, i32 0, i32 2
  %12 = add i32 %11, %8
  %13 = shl i32 %12, 2
  %14 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %13, i32 %6)
  %15 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %4
  store i32 %14, ptr addrspace(1) %15, align 4
  ret void
}

define protected amdgpu_kernel void @shfl_down_float(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) %1) local_unnamed_addr #0 {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
  %6 = load i32, ptr addrspace(1) %5, align 4
  %7 = tail call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %8 = tail call noundef i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %7)
  %9 = shl i32 %8, 2
  %10 = or i32 %9, 32
  %11 = tail call noundef i32 @llvm.amdgcn.ds.bpermute(i32 %10, i32 %6)
  %12 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  store i32 %11, ptr addrspace(1) %12, align 4
  ret void
}

declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #2

declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32) #3

declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32) #3

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,1024" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent mustprogress nocallback nofree nounwind willreturn memory(none) }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
