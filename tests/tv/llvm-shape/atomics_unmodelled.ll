; Atomics verify tv does not model yet, each named by its cause
; (docs/tv.md, "Atomics"): xchg and cmpxchg (the memory after them depends
; on the lanes' order: the last one wins), float atomics (fadd: the atomic
; optimizer folds them by a DPP tree or v * popcount, which no order of f32
; additions need equal); an i64 atomic in a function (EXEC any): unknown.
; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
; EXPECT: 8 instances
; EXPECT: unsupported @xchg_i32_varying "unsupported: atomicrmw 'atomicrmw xchg ptr'"
; EXPECT: unsupported @cmpxchg_i32_varying "unsupported: cmpxchg of type { i32, i1 }"
; EXPECT: unsupported @fadd_f32_varying "unsupported: atomicrmw 'atomicrmw fadd ptr'"
; EXPECT: unknown @add_i64_uniform "on whether the GPU's 64-bit atomics run at addresses that are multiples of 8"

define void @xchg_i32_varying(ptr addrspace(1) inreg %p, i32 %x) {
  %r = atomicrmw xchg ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @cmpxchg_i32_varying(ptr addrspace(1) inreg %p, i32 %c, i32 %x) {
  %r = cmpxchg ptr addrspace(1) %p, i32 %c, i32 %x syncscope("agent") monotonic monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  ret void
}

define void @fadd_f32_varying(ptr addrspace(1) inreg %p, float %x) {
  %r = atomicrmw fadd ptr addrspace(1) %p, float %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0, !amdgpu.ignore.denormal.mode !0
  ret void
}

define void @add_i64_uniform(ptr addrspace(1) inreg %p, i64 inreg %x) {
  %r = atomicrmw add ptr addrspace(1) %p, i64 %x syncscope("agent") monotonic, align 8, !amdgpu.no.fine.grained.memory !0
  ret void
}

!0 = !{}
