#!/bin/sh
# Regenerates tests/tv/clang22_warp_reduce_<target>.ll from warp_reduce.hip (CI has no clang:
# the .ll files are committed).  Needs Debian's clang-22, llvm-22 and libamdhip64-dev
# (`apt-get install -y clang-22 libamdhip64-dev`).  Run from this directory.  The device
# functions are kept by -fgpu-rdc and cut out of the module by llvm-extract-22 (the rest of
# an rdc module is the device library's printf/assert support); __AMDGCN_WAVEFRONT_SIZE is
# given per target as in regen.sh.  The output is cleaned as regen.sh cleans it.
set -e
for tw in gfx1030:32 gfx1100:64 gfx90a:64; do
  t=${tw%:*}; w=${tw#*:}
  out=../clang22_warp_reduce_$t.ll
  attr=" -mattr=+wavefrontsize$w"; copt=""; [ "$w" = 64 ] && copt="-mwavefrontsize64"; case $t in gfx9*) attr=""; copt="";; esac
  {
    echo "; HIP's warp sum (__shfl_xor butterfly) and inclusive scan (__shfl_up ladder) compiled by"
    echo "; clang-22 -x hip --offload-arch=$t $copt -D__AMDGCN_WAVEFRONT_SIZE=$w -nogpulib --cuda-device-only -fgpu-rdc -emit-llvm -O2"
    echo "; | llvm-extract-22 --func=warp_sum --func=warp_scan | llvm-dis-22"
    echo "; from tests/tv/hip/warp_reduce.hip (regenerate: tests/tv/hip/regen_reduce.sh)"
    echo "; RUN: llc -mtriple=amdgcn -mcpu=$t$attr < %s"
    echo
    clang-22 -x hip --offload-arch=$t $copt -D__AMDGCN_WAVEFRONT_SIZE=$w -nogpulib --cuda-device-only -fgpu-rdc \
      -emit-llvm -c -O2 warp_reduce.hip -o - |
      llvm-extract-22 --func=warp_sum --func=warp_scan - -o - | llvm-dis-22 - -o - |
      sed -e '/^; ModuleID/d' -e '/^source_filename/d' -e '/__hip_cuid_/d' -e '/^!llvm.ident/d' \
          -e '/^!llvm.errno.tbaa/d' -e '/^!\([4-9]\|[1-9][0-9]\) = /d' -e 's/, !tbaa ![0-9]*//' \
          -e 's/ "no-trapping-math"="true"//' -e 's/ "stack-protector-buffer-size"="8"//' \
          -e 's/^; Function Attrs:.*$//' | cat -s
  } > "$out"
done
