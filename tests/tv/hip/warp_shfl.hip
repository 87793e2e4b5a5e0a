// HIP kernels over the warp functions of <hip/hip_runtime.h> (amd_warp_functions.h),
// compiled by clang-22 into tests/tv/clang22_warp_shfl_<target>.ll: see regen.sh.
// The work-item ID is __builtin_amdgcn_workitem_id_x(): threadIdx.x goes through
// __ockl_get_local_id, which -nogpulib leaves undefined.
#include <hip/hip_runtime.h>

#define TID __builtin_amdgcn_workitem_id_x()

extern "C" __global__ void shfl_int(const int* in, int* out, int src) {
  unsigned i = TID;
  out[i] = __shfl(in[i], src);
}
extern "C" __global__ void shfl_float(const float* in, float* out, int src) {
  unsigned i = TID;
  out[i] = __shfl(in[i], src);
}
extern "C" __global__ void shfl_xor_int(const int* in, int* out) {
  unsigned i = TID;
  out[i] = __shfl_xor(in[i], 1);
}
extern "C" __global__ void shfl_xor_float(const float* in, float* out) {
  unsigned i = TID;
  out[i] = __shfl_xor(in[i], 16);
}
extern "C" __global__ void shfl_up_int(const int* in, int* out) {
  unsigned i = TID;
  out[i] = __shfl_up(in[i], 1);
}
extern "C" __global__ void shfl_up_float(const float* in, float* out) {
  unsigned i = TID;
  out[i] = __shfl_up(in[i], 4);
}
extern "C" __global__ void shfl_down_int(const int* in, int* out) {
  unsigned i = TID;
  out[i] = __shfl_down(in[i], 2);
}
extern "C" __global__ void shfl_down_float(const float* in, float* out) {
  unsigned i = TID;
  out[i] = __shfl_down(in[i], 8, 16);
}
