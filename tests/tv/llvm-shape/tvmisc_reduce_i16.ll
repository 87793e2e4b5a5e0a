; llvm.amdgcn.wave.reduce.umax.i16, as LLVM's llvm.amdgcn.reduce.umax.ll has
; it (uniform_value_i16, divergent_value_i16): LLVM 22 cannot select the i16
; overload ("Cannot select: intrinsic %llvm.amdgcn.wave.reduce.umax"), so its
; instances are compiler errors, decided, while the module's other functions
; are compiled alone and validated ([S:compile-failure]).  Written for
; verify's tests in the shape of reduce.umax.ll.
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 -global-isel=0 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=0 < %s | FileCheck %s

; EXPECT: 6 instances
; EXPECT: compiler error @uniform_value_i16 "Cannot select"
; EXPECT: compiler error @divergent_value_i16 "Cannot select"

define amdgpu_kernel void @uniform_value_i16(ptr addrspace(1) %out, i16 %in) {
entry:
  %result = call i16 @llvm.amdgcn.wave.reduce.umax.i16(i16 %in, i32 1)
  store i16 %result, ptr addrspace(1) %out
  ret void
}

define void @divergent_value_i16(ptr addrspace(1) %out, i16 %in) {
entry:
  %result = call i16 @llvm.amdgcn.wave.reduce.umax.i16(i16 %in, i32 1)
  store i16 %result, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @uniform_value(ptr addrspace(1) %out, i32 %in) {
entry:
  %result = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %in, i32 1)
  store i32 %result, ptr addrspace(1) %out
  ret void
}

declare i16 @llvm.amdgcn.wave.reduce.umax.i16(i16, i32)
declare i32 @llvm.amdgcn.wave.reduce.umax.i32(i32, i32)
