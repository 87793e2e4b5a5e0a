// HIP vote functions of <hip/hip_runtime.h> (amd_warp_functions.h) compiled by clang-22
// into tests/tv/hip/clang22_vote_<target>.ll: see regen_vote.sh.  __any/__all/__lanemask_*
// call the device libraries (__ockl_*), which -nogpulib leaves undefined: only
// __ballot, and float ops around a shuffle, are here.
#include <hip/hip_runtime.h>

#define TID __builtin_amdgcn_workitem_id_x()

extern "C" __global__ void ballot_int(const int* in, unsigned long long* out) {
  unsigned i = TID;
  out[i] = __ballot(in[i] > 3);
}
extern "C" __global__ void ballot_float(const float* in, unsigned long long* out) {
  unsigned i = TID;
  out[i] = __ballot(in[i] < 0.5f);
}
extern "C" __global__ void ballot_popc(const float* in, int* out) {
  unsigned i = TID;
  out[i] = __popcll(__ballot(in[i] >= 1.0f));
}
extern "C" __global__ void fmin_shfl_xor(const float* in, float* out) {
  unsigned i = TID;
  float v = in[i];
  out[i] = fminf(v, __shfl_xor(v, 1));
}
extern "C" __global__ void ceil_to_int(const float* in, int* out) {
  unsigned i = TID;
  out[i] = (int)ceilf(in[i]);
}
