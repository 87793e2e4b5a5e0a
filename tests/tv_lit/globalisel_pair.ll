; Two RUN lines that differ only in the instruction selector: two instances.
; LLVM 22.1's GlobalISel miscompiles wave.shuffle in wave64 on GFX11 (docs/tv.md, Findings).
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 -global-isel=0 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64 -global-isel=1 < %s | FileCheck %s

declare i32 @llvm.amdgcn.wave.shuffle.i32(i32, i32)

define i32 @wave_shuffle_var(i32 %var, i32 %i) {
  %r = call i32 @llvm.amdgcn.wave.shuffle.i32(i32 %var, i32 %i)
  ret i32 %r
}
