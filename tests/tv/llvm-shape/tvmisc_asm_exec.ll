; Inline asm whose body has instructions, as LLVM's llvm.amdgcn.readlane.ll
; uses it (`s_mov_b32 m0, -1` into `={m0}`, `s_mov_b64 $0, 0` into `=s`):
; the IR's value is what the lines compute with verify's own semantics, and
; the GPU code runs the same lines (verify/tv/asmexec.py, docs/semantics.md
; [S:ir-asm-exec]).  Written for verify's tests in the shape of readlane.ll.
; asm_lane_mask's `v_cmp_eq_u32_e64 $0` into an i64 on gfx1100 (wave32) is
; `s[2:3]`, which no wave32 code may name (llvm-mc-22 refuses it): a
; compiler error there [S:tv-legality-everywhere].
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=fiji -verify-machineinstrs < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn--amdhsa -mcpu=gfx1100 -verify-machineinstrs < %s | FileCheck %s

; EXPECT: 20 instances
; EXPECT: unsupported @asm_reads_scc "reads scc, which no operand sets"
; EXPECT: unsupported @asm_moves_lanes "moves data across lanes"
; EXPECT: compiler error @asm_lane_mask gfx1100 "a lane mask in wave32 is one SGPR"
; EXPECT: unsupported @asm_lane_mask "writes a scalar from the lanes"
; EXPECT: unsupported @asm_undeclared_write "writes s0, which is neither its output nor a clobber"

define amdgpu_kernel void @asm_m0_readlane(ptr addrspace(1) %out, i32 %src1) {
  %m0 = call i32 asm "s_mov_b32 m0, -1", "={m0}"()
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %m0, i32 %src1)
  store i32 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_sgpr_i32(ptr addrspace(1) %out) {
  %sgpr = call i32 asm "s_mov_b32 $0, 0x1234", "=s"()
  %readlane = call i32 @llvm.amdgcn.readlane.i32(i32 %sgpr, i32 7)
  store i32 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_sgpr_i64(ptr addrspace(1) %out) {
  %sgpr = call i64 asm "s_mov_b64 $0, -2", "=s"()
  %readlane = call i64 @llvm.amdgcn.readlane.i64(i64 %sgpr, i32 7)
  store i64 %readlane, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_valu_xor(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %x = call i32 asm "v_xor_b32 $0, 7, $1", "=v,v"(i32 %tid)
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %x, ptr addrspace(1) %g, align 4
  ret void
}

define amdgpu_kernel void @asm_valu_readlane(ptr addrspace(1) %out, i32 %lane) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %x = call i32 asm "v_lshlrev_b32 $0, 2, $1", "=v,v"(i32 %tid)
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 3)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_reads_scc(ptr addrspace(1) %out) {
  %s = call i32 asm "s_cselect_b32 $0, 1, 0", "=s"()
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_moves_lanes(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %s = call i32 asm "v_readfirstlane_b32 $0, $1", "=s,v"(i32 %tid)
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_lane_mask(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %m = call i64 asm "v_cmp_eq_u32_e64 $0, 0, $1", "=s,v"(i32 %tid)
  store i64 %m, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_undeclared_write(ptr addrspace(1) %out) {
  %s = call i32 asm "s_mov_b32 s0, 3\0As_mov_b32 $0, s0", "=s"()
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @asm_declared_clobber(ptr addrspace(1) %out) {
  %s = call i32 asm "s_mov_b32 s0, 3\0As_mov_b32 $0, s0", "=s,~{s0}"()
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i64 @llvm.amdgcn.readlane.i64(i64, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
