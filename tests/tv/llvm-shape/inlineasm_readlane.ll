; Inline asm as LLVM's llvm.amdgcn.readlane.ll uses it: `; def $0` makes a
; value in a register LLVM cannot see into, `; use $0` observes one.  The
; compiled code keeps each as an ;;#ASMSTART block with the registers put in
; (verify/tv/inlineasm.py, docs/semantics.md "inline asm").  Written for
; verify's tests in the shape of readlane.ll's functions.
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=fiji -verify-machineinstrs < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=gfx1100 -verify-machineinstrs < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=gfx942 -global-isel < %s | FileCheck %s

; EXPECT: 39 instances
; EXPECT: unsupported @asm_m0_constraint "constraint '={m0}'"
; EXPECT: unsupported @asm_clobber "clobbers ~{v1}"

define amdgpu_kernel void @readlane_sreg_sreg_i32(i32 %src0, i32 %src1) {
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %src0, i32 %src1)
  call void asm sideeffect "; use $0", "s"(i32 %readlane)
  ret void
}

define amdgpu_kernel void @readlane_sreg_sreg_i64(i64 %src0, i32 %src1) {
  %readlane = call i64 @llvm.amdgcn.readlane.i64(i64 %src0, i32 %src1)
  call void asm sideeffect "; use $0", "s"(i64 %readlane)
  ret void
}

define amdgpu_kernel void @readlane_vreg_sreg_i32(i32 %src0, i32 %src1) {
  %vgpr = call i32 asm sideeffect "; def $0", "=v"()
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %vgpr, i32 %src1)
  call void asm sideeffect "; use $0", "s"(i32 %readlane)
  ret void
}

define amdgpu_kernel void @readlane_vreg_sreg_f64(double %src0, i32 %src1) {
  %vgpr = call double asm sideeffect "; def $0", "=v"()
  %readlane = call double @llvm.amdgcn.readlane.f64(double %vgpr, i32 %src1)
  call void asm sideeffect "; use $0", "s"(double %readlane)
  ret void
}

define amdgpu_kernel void @readlane_vgpr_imm_i64(ptr addrspace(1) %out) {
  %vgpr = call i64 asm sideeffect "; def $0", "=v"()
  %readlane = call i64 @llvm.amdgcn.readlane.i64(i64 %vgpr, i32 7)
  store i64 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @sgpr_def_vgpr_use(i32 %a) {
  %s = call i32 asm sideeffect "; def $0", "=s"()
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %x = add i32 %s, %id
  %y = xor i32 %x, %a
  call void asm sideeffect "; use $0", "v"(i32 %y)
  ret void
}

define void @readlane_float(ptr addrspace(1) %out, float %src, i32 %src1) {
  %x = call float @llvm.amdgcn.readlane.f32(float %src, i32 %src1)
  call void asm sideeffect "; use $0", "s"(float %x)
  ret void
}

define void @readlane_v2f16(ptr addrspace(1) %out, <2 x half> %src, i32 %src1) {
  %x = call <2 x half> @llvm.amdgcn.readlane.v2f16(<2 x half> %src, i32 %src1)
  call void asm sideeffect "; use $0", "s"(<2 x half> %x)
  ret void
}

define void @readlane_v2f32(ptr addrspace(1) %out, <2 x float> %src, i32 %src1) {
  %x = call <2 x float> @llvm.amdgcn.readlane.v2f32(<2 x float> %src, i32 %src1)
  call void asm sideeffect "; use $0", "s"(<2 x float> %x)
  ret void
}

define i32 @def_two_uses(i32 %a) {
  %v = call i32 asm sideeffect "; def $0", "=v"()
  %x = add i32 %v, %a
  call void asm sideeffect "; use $0, $1", "v,v"(i32 %x, i32 %v)
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  ret i32 %r
}

define amdgpu_kernel void @asm_instructions(ptr addrspace(1) %out) {
  %sgpr = call i32 asm "s_mov_b32 $0, 0", "=s"()
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %sgpr, i32 5)
  store i32 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_m0_constraint(ptr addrspace(1) %out, i32 %src1) {
  %m0 = call i32 asm sideeffect "; def $0", "={m0}"()
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %m0, i32 %src1)
  store i32 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define i32 @asm_clobber(i32 %a) {
  %v = call i32 asm sideeffect "; def $0", "=v,~{v1}"()
  %x = add i32 %v, %a
  ret i32 %x
}
