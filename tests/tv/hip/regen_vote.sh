#!/bin/sh
# Regenerates tests/tv/hip/clang22_vote_<target>.ll from vote.hip (CI has no clang:
# the .ll files are committed).  Needs Debian's clang-22 and libamdhip64-dev (HIP 5.2
# headers): `apt-get install -y clang-22 libamdhip64-dev`.  Run from this directory.
# clang-22 no longer predefines __AMDGCN_WAVEFRONT_SIZE, which the 5.2 headers read
# for warpSize: it is given here, per target.  The output is cleaned of what does not
# reach code generation (TBAA, the HIP CUID global, the ident); every amdgpu-*
# attribute clang and its AMDGPU attributor put on the kernels is kept.
set -e
for tw in gfx942:64 gfx1100:32; do
  t=${tw%:*}; w=${tw#*:}
  out=clang22_vote_$t.ll
  attr=""; [ "$w" = 32 ] && attr=" -mattr=+wavefrontsize32"
  {
    echo "; HIP vote functions (__ballot; fminf, ceilf around a shuffle) compiled by"
    echo "; clang-22 -x hip --offload-arch=$t -D__AMDGCN_WAVEFRONT_SIZE=$w -nogpulib --cuda-device-only -emit-llvm -S -O2"
    echo "; from tests/tv/hip/vote.hip (regenerate: tests/tv/hip/regen_vote.sh)"
    echo "; RUN: llc -mtriple=amdgcn -mcpu=$t$attr < %s"
    echo
    clang-22 -x hip --offload-arch=$t -D__AMDGCN_WAVEFRONT_SIZE=$w -nogpulib --cuda-device-only \
      -emit-llvm -S -O2 vote.hip -o - |
      sed -e '/^; ModuleID/d' -e '/^source_filename/d' -e '/__hip_cuid_/d' -e '/^!llvm.ident/d' \
          -e '/^!llvm.errno.tbaa/d' -e '/^!\([4-9]\|[1-9][0-9]\) = /d' -e 's/, !tbaa ![0-9]*//' \
          -e 's/ "no-trapping-math"="true"//' -e 's/ "stack-protector-buffer-size"="8"//' \
          -e 's/^; Function Attrs:.*$//' | cat -s
  } > "$out"
done
