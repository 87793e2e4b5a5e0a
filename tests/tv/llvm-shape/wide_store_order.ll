; A wide store LLVM splits into two store instructions and issues the higher
; one first (global_store_b96 ... offset:16, then global_store_b128): the
; IR's one store of 7 or 16 dwords per lane, the GPU's dwords in another
; order [S:tv-store-order].  Each lane's pointer is its own, so lanes may
; overlap; where two lanes of the IR's one store meet, the IR's memory is
; free (a race), and nowhere else may the order show.
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
; EXPECT: 18 instances

define void @store_v7i32(ptr addrspace(1) %out, <7 x i32> %src0) {
  store <7 x i32> %src0, ptr addrspace(1) %out
  ret void
}

define void @store_v8f64(ptr addrspace(1) %out, <8 x double> %src0) {
  store <8 x double> %src0, ptr addrspace(1) %out
  ret void
}

define void @store_v4f64(ptr addrspace(1) %out, <4 x double> %src0) {
  store <4 x double> %src0, ptr addrspace(1) %out
  ret void
}

define void @store_v3i64(ptr addrspace(1) %out, <3 x i64> %src0) {
  store <3 x i64> %src0, ptr addrspace(1) %out
  ret void
}

define void @copy_v3f64(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %v = load <3 x double>, ptr addrspace(1) %in
  store <3 x double> %v, ptr addrspace(1) %out
  ret void
}

define void @readfirstlane_v7i32(ptr addrspace(1) %out, <7 x i32> %src0) {
  %v = call <7 x i32> @llvm.amdgcn.readfirstlane.v7i32(<7 x i32> %src0)
  store <7 x i32> %v, ptr addrspace(1) %out
  ret void
}
