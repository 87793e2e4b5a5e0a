// HIP's warp reduction and inclusive scan as HIP code writes them (a __shfl_xor
// butterfly; a __shfl_up ladder with the lane test), compiled by clang-22 into
// tests/tv/clang22_warp_reduce_<target>.ll: see regen_reduce.sh.  Device functions, so
// that verify tv checks each as a function of its lane's value.
#include <hip/hip_runtime.h>

extern "C" __device__ int warp_sum(int v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_xor(v, off);
  return v;
}

extern "C" __device__ int warp_scan(int v) {
  unsigned lane = __lane_id();
  for (int off = 1; off < warpSize; off *= 2) {
    int t = __shfl_up(v, off);
    if (lane >= (unsigned)off) v += t;
  }
  return v;
}
