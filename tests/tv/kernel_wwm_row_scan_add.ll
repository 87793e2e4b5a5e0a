; a kernel: out[id] = rocPRIM-style inclusive scan within a row: row_shr 1, 2, 4, 8 in strict.wwm of in[id]
; RUN: llc -mtriple=amdgcn -mcpu=gfx90a < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx950 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize32 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 -mattr=+wavefrontsize64 < %s

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.strict.wwm.i32(i32)

define amdgpu_kernel void @kernel_wwm_row_scan_add(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %var = load i32, ptr addrspace(1) %g0, align 4
  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %var, i32 0)
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 273, i32 15, i32 15, i1 false)
  %s1 = add i32 %a, %d1
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s1, i32 274, i32 15, i32 15, i1 false)
  %s2 = add i32 %s1, %d2
  %d4 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s2, i32 276, i32 15, i32 15, i1 false)
  %s4 = add i32 %s2, %d4
  %d8 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s4, i32 280, i32 15, i32 15, i1 false)
  %s8 = add i32 %s4, %d8
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %s8)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %w, ptr addrspace(1) %o, align 4
  ret void
}
