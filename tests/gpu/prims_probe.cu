// prims_probe.cu -- record ground truth for issue #33's CUDA/PTX primitives on
// real NVIDIA hardware (specs/cuda_prims.spec is checked against the
// recording by tests/gpu/test_cuda_h100_prims.py; tests/gpu/check_prims.py
// checks it against a plain-Python model of NVIDIA's documentation).
//
// Build:  nvcc -O2 -arch=sm_90 -o prims_probe prims_probe.cu
// Run:    ./prims_probe [out.json]      (JSON goes to stdout if no path given)
//
// Every case is one 32-thread block (one warp); parameters and inputs are
// read from device memory, so nothing is constant-folded.  A lane outside a
// case's `callers` returns at once (it has exited); lanes that did not
// produce a value are null.  All values are unsigned 32-bit bit patterns.
//
// Output structure:
// {"device": str, "cuda_runtime": int, "driver": int, "sm": str,
//  "shflp":   [{"mode": "idx|up|down|bfly", "b": int, "c": int, "input": [32],
//               "out": [32], "pred": [32]}],                (inline PTX shfl.sync d|p, full mask)
//  "fns":     [{"mask": [32], "base": [32], "offset": [32], "out": [32]}],   (__fns per thread)
//  "rank":    [{"mask": "0x........", "callers": "0x........", "pred": [32],
//               "out": [32|null]}],         (popc(__ballot_sync(mask, p) & %lanemask_lt))
//  "coalesced": [{"callers": "0x........", "delta": int, "input": [32], "src": [32],
//                 "rank": [..], "size": [..], "shfl": [..], "down": [..], "up": [..]}],
//  "coalesced_far": [ as "coalesced", deltas 0x7ffffffe..0xffffffff ], (written last)
//  "labeled": [{"callers": "0x........", "input": [32], "label": [32],
//               "rank": [..], "size": [..], "reduce": [..], "inclusive": [..], "exclusive": [..],
//               "b_reduce": [..], "b_inclusive": [..], "b_exclusive": [..]}],
//               (labeled_partition(coalesced_threads(), label), binary_partition(.., label & 1),
//                int plus)
//  "match64": [{"type": "u64|f64|f32", "mask": "0x........", "callers": "0x........",
//               "lo": [32], "hi": [32], "any": [..], "all": [..], "all_pred": [..]}],
//  "typed":   [{"type": "i8|u8|i16|u16|f16|bf16|half2", "mode": "idx|up|down|xor",
//               "param": int, "width": int, "input": [32], "out": [32]}]}
//  (typed: input is the 32-bit lane value whose low 8/16 bits are the value;
//   out is the int result of the short/char overload, the 16-bit pattern of
//   a half/bf16 zero-extended, the 32 bits of a half2.)

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t err__ = (x);                                                  \
    if (err__ != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, \
              cudaGetErrorString(err__));                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

static uint32_t g_lcg = 33u;
static uint32_t lcg() {
  g_lcg = g_lcg * 1664525u + 1013904223u;
  return g_lcg;
}

static FILE *g_out;
static void put_u32s(const char *key, const unsigned *v, const unsigned *flag) {
  fprintf(g_out, "\"%s\": [", key);
  for (int i = 0; i < 32; i++) {
    if (flag && !flag[i]) fprintf(g_out, "%snull", i ? ", " : "");
    else fprintf(g_out, "%s%u", i ? ", " : "", v[i]);
  }
  fprintf(g_out, "]");
}

template <typename T>
static T *dev(const std::vector<T> &h) {
  T *d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 4));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static T *dev_zero(size_t n) {
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T) + 4));
  CHECK(cudaMemset(d, 0, n * sizeof(T) + 4));
  return d;
}
template <typename T>
static std::vector<T> host(const T *d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// ---------------------------------------------------------------- shfl.sync d|p
__global__ void k_shflp(const int *modes, const unsigned *bs, const unsigned *cs, const unsigned *in,
                        unsigned *out, unsigned *pred) {
  int k = blockIdx.x, lane = threadIdx.x, t = k * 32 + lane;
  unsigned a = in[t], b = bs[k], c = cs[k], d = 0, p = 0, m = 0xffffffffu;
  switch (modes[k]) {
    case 0: asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                         : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c), "r"(m)); break;
    case 1: asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                         : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c), "r"(m)); break;
    case 2: asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                         : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c), "r"(m)); break;
    default: asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                          : "=r"(d), "=r"(p) : "r"(a), "r"(b), "r"(c), "r"(m)); break;
  }
  out[t] = d;
  pred[t] = p;
}

static void run_shflp() {
  static const char *names[] = {"idx", "up", "down", "bfly"};
  static const unsigned bvals[] = {0, 1, 2, 3, 5, 9, 17, 31, 33, 0xffffffffu};
  static const unsigned cvals[] = {0x1f, 0x181f, 0x1c1f, 0x1e1f, 0x1f1f, 0, 0x1800, 0x1c00, 3, 0x1807};
  std::vector<int> ms;
  std::vector<unsigned> bs, cs, in;
  for (int mode = 0; mode < 4; mode++)
    for (unsigned b : bvals)
      for (unsigned c : cvals) {
        ms.push_back(mode); bs.push_back(b); cs.push_back(c);
        for (int i = 0; i < 32; i++) in.push_back(0xA0000000u | (unsigned)(i << 8) | (lcg() & 0xff));
      }
  int n = (int)ms.size();
  int *dm = dev(ms);
  unsigned *db = dev(bs), *dc = dev(cs), *din = dev(in), *dout = dev_zero<unsigned>(n * 32), *dp = dev_zero<unsigned>(n * 32);
  k_shflp<<<n, 32>>>(dm, db, dc, din, dout, dp);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32), p = host(dp, n * 32);
  fprintf(g_out, ",\n\"shflp\": [");
  for (int k = 0; k < n; k++) {
    fprintf(g_out, "%s\n{\"mode\": \"%s\", \"b\": %u, \"c\": %u, ", k ? "," : "", names[ms[k]], bs[k], cs[k]);
    put_u32s("input", &in[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("out", &out[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("pred", &p[k * 32], nullptr); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- __fns
__global__ void k_fns(const unsigned *masks, const unsigned *bases, const int *offsets, unsigned *out) {
  int t = blockIdx.x * 32 + threadIdx.x;
  out[t] = __fns(masks[t], bases[t], offsets[t]);
}

static void run_fns() {
  std::vector<unsigned> ms, bs;
  std::vector<int> os;
  static const unsigned fixed[] = {0xaaaaaaaau, 0u, 0xffffffffu, 0x80000001u, 0x00010000u, 0x12345678u};
  for (int k = 0; k < 16; k++)
    for (int i = 0; i < 32; i++) {
      ms.push_back(k < 6 ? fixed[k] : lcg());
      bs.push_back(k % 3 == 2 ? (unsigned)i : (lcg() % 32));
      int o = (int)(lcg() % 71) - 35;  // -35 .. 35
      static const int isa_offsets[] = {1, -1, 1, -1};
      os.push_back(k == 0 && i < 4 ? isa_offsets[i] : o);
    }
  // the PTX ISA's examples: (0xaaaaaaaa, 3, 1), (.., 3, -1), (.., 2, 1), (.., 2, -1)
  bs[0] = 3; bs[1] = 3; bs[2] = 2; bs[3] = 2;
  int n = (int)ms.size() / 32;
  unsigned *dm = dev(ms), *db = dev(bs), *dout = dev_zero<unsigned>(n * 32);
  int *dofs = dev(os);
  k_fns<<<n, 32>>>(dm, db, dofs, dout);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32);
  fprintf(g_out, ",\n\"fns\": [");
  for (int k = 0; k < n; k++) {
    unsigned ofs[32];
    for (int i = 0; i < 32; i++) ofs[i] = (unsigned)os[k * 32 + i];
    fprintf(g_out, "%s\n{", k ? "," : "");
    put_u32s("mask", &ms[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("base", &bs[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("offset", ofs, nullptr); fprintf(g_out, ", ");
    put_u32s("out", &out[k * 32], nullptr); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- ballot rank
__global__ void k_rank(const unsigned *masks, const unsigned *callers, const unsigned *preds, unsigned *out,
                       unsigned *flag) {
  int k = blockIdx.x, lane = threadIdx.x, t = k * 32 + lane;
  unsigned mask = masks[k];
  if (!((callers[k] >> lane) & 1u)) return;
  if ((mask >> lane) & 1u) {
    unsigned lt;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    out[t] = __popc(__ballot_sync(mask, preds[t]) & lt);
    flag[t] = 1;
  }
}

static const unsigned kMasks[] = {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x12345678u, 0xfffffffeu};
static const unsigned kCallers[] = {0xffffffffu, 0xfffffff0u, 0x7fffffffu, 0x0f0f00f1u, 0x00000001u};

static void run_rank() {
  std::vector<unsigned> ms, cs, ps;
  for (unsigned m : kMasks)
    for (unsigned c : kCallers)
      for (int k = 0; k < 3; k++) {
        ms.push_back(m); cs.push_back(c);
        for (int i = 0; i < 32; i++) ps.push_back(k == 0 ? 1u : (k == 1 ? (unsigned)(i % 3) : (lcg() & 0x80000001u)));
      }
  int n = (int)ms.size();
  unsigned *dm = dev(ms), *dc = dev(cs), *dp = dev(ps), *dout = dev_zero<unsigned>(n * 32), *df = dev_zero<unsigned>(n * 32);
  k_rank<<<n, 32>>>(dm, dc, dp, dout, df);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32), f = host(df, n * 32);
  fprintf(g_out, ",\n\"rank\": [");
  for (int k = 0; k < n; k++) {
    fprintf(g_out, "%s\n{\"mask\": \"0x%08x\", \"callers\": \"0x%08x\", ", k ? "," : "", ms[k], cs[k]);
    put_u32s("pred", &ps[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("out", &out[k * 32], &f[k * 32]); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- coalesced groups
enum { C_RANK, C_SIZE, C_SHFL, C_DOWN, C_UP, NC };

__global__ void k_coalesced(const unsigned *callers, const unsigned *deltas, const unsigned *in, const unsigned *src,
                            unsigned *out, unsigned *flag) {
  int k = blockIdx.x, lane = threadIdx.x, t = k * 32 + lane;
  if (!((callers[k] >> lane) & 1u)) return;
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned v = in[t], d = deltas[k];
  unsigned *o = out + t * NC;
  o[C_RANK] = g.thread_rank();
  o[C_SIZE] = g.num_threads();
  o[C_SHFL] = g.shfl(v, src[t]);
  o[C_DOWN] = g.shfl_down(v, d);
  o[C_UP] = g.shfl_up(v, d);
  flag[t] = 1;
}

// deltas near 2^31 and 2^32 ("coalesced_far", recorded last so that the
// other sections' lcg inputs stay as first recorded): where rank + delta
// leaves the group, does the lane keep its own value? ([S:cuda-coalesced-shfl-dir])
static void run_coalesced(const std::vector<unsigned> &deltas, const char *key) {
  std::vector<unsigned> cs, ds, in, src;
  for (unsigned c : kCallers)
    for (unsigned d : deltas) {
      cs.push_back(c); ds.push_back(d);
      int size = __builtin_popcount(c);
      for (int i = 0; i < 32; i++) {
        in.push_back(0xB0000000u | (unsigned)(i << 8) | (lcg() & 0xff));
        src.push_back(lcg() % (unsigned)size);  // a rank of the group: the defined case
      }
    }
  int n = (int)cs.size();
  unsigned *dc = dev(cs), *dd = dev(ds), *din = dev(in), *ds_ = dev(src);
  unsigned *dout = dev_zero<unsigned>(n * 32 * NC), *df = dev_zero<unsigned>(n * 32);
  k_coalesced<<<n, 32>>>(dc, dd, din, ds_, dout, df);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32 * NC), f = host(df, n * 32);
  static const char *keys[] = {"rank", "size", "shfl", "down", "up"};
  fprintf(g_out, ",\n\"%s\": [", key);
  for (int k = 0; k < n; k++) {
    fprintf(g_out, "%s\n{\"callers\": \"0x%08x\", \"delta\": %u, ", k ? "," : "", cs[k], ds[k]);
    put_u32s("input", &in[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("src", &src[k * 32], nullptr);
    for (int q = 0; q < NC; q++) {
      unsigned tmp[32];
      for (int i = 0; i < 32; i++) tmp[i] = out[(k * 32 + i) * NC + q];
      fprintf(g_out, ", ");
      put_u32s(keys[q], tmp, &f[k * 32]);
    }
    fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- labeled / binary partitions
enum { L_RANK, L_SIZE, L_RED, L_INC, L_EXC, B_RED, B_INC, B_EXC, NL };

__global__ void k_labeled(const unsigned *callers, const int *in, const int *labels, int *out, unsigned *flag) {
  int k = blockIdx.x, lane = threadIdx.x, t = k * 32 + lane;
  if (!((callers[k] >> lane) & 1u)) return;
  int v = in[t], label = labels[t];
  int *o = out + t * NL;
  cg::coalesced_group parent = cg::coalesced_threads();
  cg::coalesced_group g = cg::labeled_partition(parent, label);
  o[L_RANK] = (int)g.thread_rank();
  o[L_SIZE] = (int)g.num_threads();
  o[L_RED] = cg::reduce(g, v, cg::plus<int>());
  o[L_INC] = cg::inclusive_scan(g, v, cg::plus<int>());
  o[L_EXC] = cg::exclusive_scan(g, v, cg::plus<int>());
  cg::coalesced_group parent2 = cg::coalesced_threads();
  cg::coalesced_group b = cg::binary_partition(parent2, (label & 1) != 0);
  o[B_RED] = cg::reduce(b, v, cg::plus<int>());
  o[B_INC] = cg::inclusive_scan(b, v, cg::plus<int>());
  o[B_EXC] = cg::exclusive_scan(b, v, cg::plus<int>());
  flag[t] = 1;
}

static void run_labeled() {
  std::vector<unsigned> cs;
  std::vector<int> in, lab;
  for (unsigned c : kCallers)
    for (int k = 0; k < 4; k++) {
      cs.push_back(c);
      for (int i = 0; i < 32; i++) {
        in.push_back(k == 0 ? 1 : (int)(lcg() >> 4));
        lab.push_back(k == 0 ? i % 3 : (k == 1 ? 7 : (k == 2 ? (int)(lcg() % 4) - 1 : (i < 16 ? i : -i))));
      }
    }
  int n = (int)cs.size();
  unsigned *dc = dev(cs), *df = dev_zero<unsigned>(n * 32);
  int *din = dev(in), *dl = dev(lab), *dout = dev_zero<int>(n * 32 * NL);
  k_labeled<<<n, 32>>>(dc, din, dl, dout, df);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<int> out = host(dout, n * 32 * NL);
  std::vector<unsigned> f = host(df, n * 32);
  static const char *keys[] = {"rank", "size", "reduce", "inclusive", "exclusive", "b_reduce", "b_inclusive",
                               "b_exclusive"};
  fprintf(g_out, ",\n\"labeled\": [");
  for (int k = 0; k < n; k++) {
    unsigned a[32], l[32];
    for (int i = 0; i < 32; i++) { a[i] = (unsigned)in[k * 32 + i]; l[i] = (unsigned)lab[k * 32 + i]; }
    fprintf(g_out, "%s\n{\"callers\": \"0x%08x\", ", k ? "," : "", cs[k]);
    put_u32s("input", a, nullptr); fprintf(g_out, ", ");
    put_u32s("label", l, nullptr);
    for (int q = 0; q < NL; q++) {
      unsigned tmp[32];
      for (int i = 0; i < 32; i++) tmp[i] = (unsigned)out[(k * 32 + i) * NL + q];
      fprintf(g_out, ", ");
      put_u32s(keys[q], tmp, &f[k * 32]);
    }
    fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- matches on 64-bit and float
enum { M_ANY, M_ALL, M_PRED, NM };

__global__ void k_match64(const int *types, const unsigned *masks, const unsigned *callers,
                          const unsigned long long *vals, unsigned *out, unsigned *flag) {
  int k = blockIdx.x, lane = threadIdx.x, t = k * 32 + lane;
  unsigned mask = masks[k];
  if (!((callers[k] >> lane) & 1u)) return;
  if (!((mask >> lane) & 1u)) return;
  unsigned long long v = vals[t];
  unsigned *o = out + t * NM;
  int pred = 0;
  if (types[k] == 0) {
    o[M_ANY] = __match_any_sync(mask, v);
    o[M_ALL] = __match_all_sync(mask, v, &pred);
  } else if (types[k] == 1) {
    double d = __longlong_as_double((long long)v);
    o[M_ANY] = __match_any_sync(mask, d);
    o[M_ALL] = __match_all_sync(mask, d, &pred);
  } else {
    float f = __uint_as_float((unsigned)v);
    o[M_ANY] = __match_any_sync(mask, f);
    o[M_ALL] = __match_all_sync(mask, f, &pred);
  }
  o[M_PRED] = pred ? 1u : 0u;
  flag[t] = 1;
}

static unsigned long long match_value(int ty, int k, int i) {
  unsigned long long hi = (unsigned long long)(i % 3) << 32;
  switch (k) {
    case 0: return 0x4045000000000000ull;                   // every lane 42.0 (as a double)
    case 1: return hi | 7u;                                 // equal low halves, high halves differ
    case 2: return (i & 1) ? 0x8000000080000000ull : 0;     // -0.0 and +0.0 (f64 and f32)
    case 3: return ty == 2 ? 0x7fc00000u : 0x7ff8000000000000ull;  // the same NaN bits
    case 4: return (unsigned long long)(lcg() & 3) << (ty == 2 ? 0 : 32);
    default: return i == 9 ? 0x100000000ull : 0;            // one lane differs in its high half only
  }
}

static void run_match64() {
  static const char *names[] = {"u64", "f64", "f32"};
  std::vector<int> ts;
  std::vector<unsigned> ms, cs;
  std::vector<unsigned long long> vs;
  for (int ty = 0; ty < 3; ty++)
    for (unsigned m : kMasks)
      for (unsigned c : kCallers)
        for (int k = 0; k < 6; k++) {
          ts.push_back(ty); ms.push_back(m); cs.push_back(c);
          for (int i = 0; i < 32; i++) {
            unsigned long long v = match_value(ty, k, i);
            vs.push_back(ty == 2 ? (v & 0xffffffffu) : v);
          }
        }
  int n = (int)ts.size();
  int *dt = dev(ts);
  unsigned *dm = dev(ms), *dc = dev(cs), *dout = dev_zero<unsigned>(n * 32 * NM), *df = dev_zero<unsigned>(n * 32);
  unsigned long long *dv = dev(vs);
  k_match64<<<n, 32>>>(dt, dm, dc, dv, dout, df);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32 * NM), f = host(df, n * 32);
  static const char *keys[] = {"any", "all", "all_pred"};
  fprintf(g_out, ",\n\"match64\": [");
  for (int k = 0; k < n; k++) {
    unsigned lo[32], hi[32];
    for (int i = 0; i < 32; i++) { lo[i] = (unsigned)vs[k * 32 + i]; hi[i] = (unsigned)(vs[k * 32 + i] >> 32); }
    fprintf(g_out, "%s\n{\"type\": \"%s\", \"mask\": \"0x%08x\", \"callers\": \"0x%08x\", ", k ? "," : "",
            names[ts[k]], ms[k], cs[k]);
    put_u32s("lo", lo, nullptr); fprintf(g_out, ", ");
    put_u32s("hi", hi, nullptr);
    for (int q = 0; q < NM; q++) {
      unsigned tmp[32];
      for (int i = 0; i < 32; i++) tmp[i] = out[(k * 32 + i) * NM + q];
      fprintf(g_out, ", ");
      put_u32s(keys[q], tmp, &f[k * 32]);
    }
    fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

// ---------------------------------------------------------------- typed shuffles
template <typename T>
__device__ auto shfl_mode(int mode, T v, int p, int w) {
  const unsigned m = 0xffffffffu;
  switch (mode) {
    case 0: return __shfl_sync(m, v, p, w);
    case 1: return __shfl_up_sync(m, v, (unsigned)p, w);
    case 2: return __shfl_down_sync(m, v, (unsigned)p, w);
    default: return __shfl_xor_sync(m, v, p, w);
  }
}

__global__ void k_typed(const int *types, const int *modes, const int *params, const int *widths,
                        const unsigned *in, unsigned *out) {
  int k = blockIdx.x, t = k * 32 + threadIdx.x;
  unsigned x = in[t], r = 0;
  int mode = modes[k], p = params[k], w = widths[k];
  switch (types[k]) {
    case 0: { signed char c = (signed char)x; int y = shfl_mode(mode, c, p, w); r = (unsigned)y; break; }
    case 1: { unsigned char c = (unsigned char)x; int y = shfl_mode(mode, c, p, w); r = (unsigned)y; break; }
    case 2: { short s = (short)x; int y = shfl_mode(mode, s, p, w); r = (unsigned)y; break; }
    case 3: { unsigned short s = (unsigned short)x; int y = shfl_mode(mode, s, p, w); r = (unsigned)y; break; }
    case 4: { __half h = __ushort_as_half((unsigned short)x); __half y = shfl_mode(mode, h, p, w);
              r = __half_as_ushort(y); break; }
    case 5: { __nv_bfloat16 h = __ushort_as_bfloat16((unsigned short)x); __nv_bfloat16 y = shfl_mode(mode, h, p, w);
              r = __bfloat16_as_ushort(y); break; }
    default: { __half2 h = *reinterpret_cast<__half2 *>(&x); __half2 y = shfl_mode(mode, h, p, w);
               r = *reinterpret_cast<unsigned *>(&y); break; }
  }
  out[t] = r;
}

static void run_typed() {
  static const char *tnames[] = {"i8", "u8", "i16", "u16", "f16", "bf16", "half2"};
  static const char *mnames[] = {"idx", "up", "down", "xor"};
  static const int params[] = {1, 3, 17, -1};
  static const int widths[] = {32, 8};
  std::vector<int> ts, ms, ps, ws;
  std::vector<unsigned> in;
  for (int ty = 0; ty < 7; ty++)
    for (int mode = 0; mode < 4; mode++)
      for (int p : params)
        for (int w : widths) {
          ts.push_back(ty); ms.push_back(mode); ps.push_back(p); ws.push_back(w);
          for (int i = 0; i < 32; i++)  // sign bits of the 8- and 16-bit fields vary; a NaN half in lane 5
            in.push_back(i == 5 ? 0x7e017e01u : ((lcg() & 0xffff0000u) | (unsigned)((i & 1) ? 0x8000 : 0) |
                                                 (unsigned)((i & 2) ? 0x80 : 0) | (unsigned)i));
        }
  int n = (int)ts.size();
  int *dt = dev(ts), *dm = dev(ms), *dp = dev(ps), *dw = dev(ws);
  unsigned *din = dev(in), *dout = dev_zero<unsigned>(n * 32);
  k_typed<<<n, 32>>>(dt, dm, dp, dw, din, dout);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out = host(dout, n * 32);
  fprintf(g_out, ",\n\"typed\": [");
  for (int k = 0; k < n; k++) {
    fprintf(g_out, "%s\n{\"type\": \"%s\", \"mode\": \"%s\", \"param\": %d, \"width\": %d, ", k ? "," : "",
            tnames[ts[k]], mnames[ms[k]], ps[k], ws[k]);
    put_u32s("input", &in[k * 32], nullptr); fprintf(g_out, ", ");
    put_u32s("out", &out[k * 32], nullptr); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
}

int main(int argc, char **argv) {
  g_out = argc > 1 ? fopen(argv[1], "w") : stdout;
  if (!g_out) { perror(argv[1]); return 1; }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int rt = 0, drv = 0;
  CHECK(cudaRuntimeGetVersion(&rt));
  CHECK(cudaDriverGetVersion(&drv));
  fprintf(g_out, "{\"device\": \"%s\", \"cuda_runtime\": %d, \"driver\": %d, \"sm\": \"%d%d\"",
          prop.name, rt, drv, prop.major, prop.minor);
  run_shflp();
  run_fns();
  run_rank();
  run_coalesced({0, 1, 2, 5, 33}, "coalesced");
  run_labeled();
  run_match64();
  run_typed();
  run_coalesced({0x7FFFFFFEu, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu}, "coalesced_far");
  fprintf(g_out, "\n}\n");
  if (g_out != stdout) fclose(g_out);
  return 0;
}
