// vote_probe.cu -- record ground truth for CUDA warp votes, matches,
// __activemask, 64-bit shuffles and cooperative-groups scans/reductions on
// real NVIDIA hardware (the specs in specs/cuda_vote.spec and specs/cuda.spec
// are checked against the recording by tests/gpu/test_cuda_h100_votes.py).
//
// Build:  nvcc -O2 -arch=sm_90 -o vote_probe vote_probe.cu
// Run:    ./vote_probe [out.json]      (JSON goes to stdout if no path given)
//
// Every case is one 32-thread block (one warp).  Case parameters and inputs
// are read from device memory, so nothing is constant-folded.
//
// Votes and matches: lanes outside `callers` return at once (they have
// exited); of the others, the lanes in `mask` call the intrinsic with that
// mask and the rest branch around it.  `entry` is __activemask() before the
// branch (every caller).  Lanes that did not call are null.
//
// Output structure (all values unsigned bit patterns; u64 as JSON integers):
// {"device": str, "cuda_runtime": int, "driver": int, "sm": str,
//  "votes": [{"mask": "0x........", "callers": "0x........", "pred": [32],
//             "entry": [32|null], "ballot": [32|null], "any": [..], "all": [..],
//             "activemask": [..]}],
//  "match": [{"mask", "callers", "value": [32], "any": [..], "all": [..], "all_pred": [..]}],
//  "shfl64": [{"kind": "idx|up|down|xor", "type": "ll|double", "width": w,
//              "param": p, "mask": "0x........", "input": [32 u64], "output": [32 u64|null]}],
//  "cg": [{"type": "f32|i32", "op": "plus|less|greater", "width": w,
//          "input": [32 u32], "reduce": [32], "inclusive": [32], "exclusive": [32]}]}

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cmath>
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

static uint32_t g_lcg = 12345u;
static uint32_t lcg() {
  g_lcg = g_lcg * 1664525u + 1013904223u;
  return g_lcg;
}

// ---------------------------------------------------------------- votes
enum { V_ENTRY, V_BALLOT, V_ANY, V_ALL, V_ACT, NV };

__global__ void k_votes(const unsigned *masks, const unsigned *callers, const unsigned *preds,
                        unsigned *out, unsigned *flags) {
  int c = blockIdx.x, lane = threadIdx.x;
  unsigned mask = masks[c], call = callers[c];
  if (!((call >> lane) & 1u)) return;  // exited
  unsigned *o = out + (c * 32 + lane) * NV;
  o[V_ENTRY] = __activemask();
  flags[(c * 32 + lane) * 2] = 1;
  unsigned p = preds[c * 32 + lane];
  if ((mask >> lane) & 1u) {
    o[V_BALLOT] = __ballot_sync(mask, p);
    o[V_ANY] = __any_sync(mask, p);
    o[V_ALL] = __all_sync(mask, p);
    o[V_ACT] = __activemask();
    flags[(c * 32 + lane) * 2 + 1] = 1;
  }
}

enum { M_ANY, M_ALL, M_PRED, NM };

__global__ void k_match(const unsigned *masks, const unsigned *callers, const unsigned *vals,
                        unsigned *out, unsigned *flags) {
  int c = blockIdx.x, lane = threadIdx.x;
  unsigned mask = masks[c], call = callers[c];
  if (!((call >> lane) & 1u)) return;
  unsigned v = vals[c * 32 + lane];
  if ((mask >> lane) & 1u) {
    unsigned *o = out + (c * 32 + lane) * NM;
    int pred = 0;
    o[M_ANY] = __match_any_sync(mask, v);
    o[M_ALL] = __match_all_sync(mask, v, &pred);
    o[M_PRED] = pred ? 1u : 0u;
    flags[c * 32 + lane] = 1;
  }
}

// ---------------------------------------------------------------- 64-bit shuffles
__global__ void k_shfl64(const int *kinds, const int *types, const int *widths, const int *params,
                         const unsigned *masks, const unsigned long long *in,
                         unsigned long long *out, unsigned *flags) {
  int c = blockIdx.x, lane = threadIdx.x;
  unsigned mask = masks[c];
  if (!((mask >> lane) & 1u)) return;
  int kind = kinds[c], w = widths[c], p = params[c];
  unsigned long long v = in[c * 32 + lane], r = 0;
  if (types[c] == 0) {
    long long x = (long long)v, y = 0;
    switch (kind) {
      case 0: y = __shfl_sync(mask, x, p, w); break;
      case 1: y = __shfl_up_sync(mask, x, (unsigned)p, w); break;
      case 2: y = __shfl_down_sync(mask, x, (unsigned)p, w); break;
      default: y = __shfl_xor_sync(mask, x, p, w); break;
    }
    r = (unsigned long long)y;
  } else {
    double x = __longlong_as_double((long long)v), y = 0;
    switch (kind) {
      case 0: y = __shfl_sync(mask, x, p, w); break;
      case 1: y = __shfl_up_sync(mask, x, (unsigned)p, w); break;
      case 2: y = __shfl_down_sync(mask, x, (unsigned)p, w); break;
      default: y = __shfl_xor_sync(mask, x, p, w); break;
    }
    r = (unsigned long long)__double_as_longlong(y);
  }
  out[c * 32 + lane] = r;
  flags[c * 32 + lane] = 1;
}

// ---------------------------------------------------------------- cooperative groups
template <int W, typename T, typename Op>
__global__ void k_cg(const T *in, T *red, T *inc, T *exc) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  int k = blockIdx.x * 32 + threadIdx.x;
  T v = in[k];
  red[k] = cg::reduce(tile, v, Op());
  inc[k] = cg::inclusive_scan(tile, v, Op());
  exc[k] = cg::exclusive_scan(tile, v, Op());
}

// ---------------------------------------------------------------- JSON helpers
static FILE *g_out;
static void put_u32s(const char *key, const unsigned *v, const unsigned *flag, int stride) {
  fprintf(g_out, "\"%s\": [", key);
  for (int i = 0; i < 32; i++) {
    if (flag && !flag[i * stride]) fprintf(g_out, "%snull", i ? ", " : "");
    else fprintf(g_out, "%s%u", i ? ", " : "", v[i]);
  }
  fprintf(g_out, "]");
}
static void put_field(const char *key, const unsigned *rows, int nf, int f, const unsigned *flag, int stride) {
  unsigned tmp[32];
  for (int i = 0; i < 32; i++) tmp[i] = rows[i * nf + f];
  put_u32s(key, tmp, flag, stride);
}

static std::vector<unsigned> pred_patterns() {
  std::vector<unsigned> p;  // 32 per pattern
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < 32; i++) {
      unsigned v = 0;
      switch (k) {
        case 0: v = 0; break;
        case 1: v = 1; break;
        case 2: v = i & 1; break;
        case 3: v = i < 5 ? 0x80000000u : 0; break;
        case 4: v = i == 17 ? 7 : 0; break;
        case 5: v = i == 17 ? 0 : 0xffffffffu; break;
        default: v = (lcg() >> 7) & 1 ? lcg() : 0; break;
      }
      p.push_back(v);
    }
  return p;
}

static const unsigned kMasks[] = {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x12345678u, 0x00000001u, 0xfffffffeu};
static const unsigned kCallers[] = {0xffffffffu, 0xfffffff0u, 0x7fffffffu};

static void run_votes() {
  std::vector<unsigned> pats = pred_patterns();
  int npat = (int)pats.size() / 32;
  std::vector<unsigned> ms, cs, ps;
  for (unsigned m : kMasks)
    for (unsigned c : kCallers)
      for (int k = 0; k < npat; k++) {
        ms.push_back(m);
        cs.push_back(c);  // a lane outside `c` has exited (in the mask or not)
        ps.insert(ps.end(), pats.begin() + 32 * k, pats.begin() + 32 * (k + 1));
      }
  int n = (int)ms.size();
  unsigned *dm, *dc, *dp, *dout, *dflag;
  CHECK(cudaMalloc(&dm, n * 4)); CHECK(cudaMalloc(&dc, n * 4)); CHECK(cudaMalloc(&dp, n * 128));
  CHECK(cudaMalloc(&dout, n * 32 * NV * 4)); CHECK(cudaMalloc(&dflag, n * 32 * 2 * 4));
  CHECK(cudaMemcpy(dm, ms.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, cs.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, ps.data(), n * 128, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, n * 32 * NV * 4)); CHECK(cudaMemset(dflag, 0, n * 32 * 2 * 4));
  k_votes<<<n, 32>>>(dm, dc, dp, dout, dflag);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(n * 32 * NV), flag(n * 32 * 2);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(flag.data(), dflag, flag.size() * 4, cudaMemcpyDeviceToHost));
  fprintf(g_out, ",\n\"votes\": [");
  for (int c = 0; c < n; c++) {
    const unsigned *o = &out[c * 32 * NV], *f = &flag[c * 64];
    fprintf(g_out, "%s\n{\"mask\": \"0x%08x\", \"callers\": \"0x%08x\", ", c ? "," : "", ms[c], cs[c]);
    put_u32s("pred", &ps[c * 32], nullptr, 1); fprintf(g_out, ", ");
    put_field("entry", o, NV, V_ENTRY, f, 2); fprintf(g_out, ", ");
    put_field("ballot", o, NV, V_BALLOT, f + 1, 2); fprintf(g_out, ", ");
    put_field("any", o, NV, V_ANY, f + 1, 2); fprintf(g_out, ", ");
    put_field("all", o, NV, V_ALL, f + 1, 2); fprintf(g_out, ", ");
    put_field("activemask", o, NV, V_ACT, f + 1, 2); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
  cudaFree(dm); cudaFree(dc); cudaFree(dp); cudaFree(dout); cudaFree(dflag);
}

static void run_match() {
  std::vector<unsigned> ms, cs, vs;
  for (unsigned m : kMasks)
    for (unsigned c : kCallers)
      for (int k = 0; k < 6; k++) {
        ms.push_back(m);
        cs.push_back(c);
        for (int i = 0; i < 32; i++) {
          unsigned v = 0;
          switch (k) {
            case 0: v = 42; break;
            case 1: v = i % 3; break;
            case 2: v = i == 9 ? 1 : 0; break;
            case 3: v = (i & 8) ? 0x80000000u : 0x7fffffffu; break;
            case 4: v = lcg() & 3; break;
            default: v = (i == 0 || i == 31) ? 5 : 42; break;
          }
          vs.push_back(v);
        }
      }
  int n = (int)ms.size();
  unsigned *dm, *dc, *dv, *dout, *dflag;
  CHECK(cudaMalloc(&dm, n * 4)); CHECK(cudaMalloc(&dc, n * 4)); CHECK(cudaMalloc(&dv, n * 128));
  CHECK(cudaMalloc(&dout, n * 32 * NM * 4)); CHECK(cudaMalloc(&dflag, n * 32 * 4));
  CHECK(cudaMemcpy(dm, ms.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, cs.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vs.data(), n * 128, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, n * 32 * NM * 4)); CHECK(cudaMemset(dflag, 0, n * 32 * 4));
  k_match<<<n, 32>>>(dm, dc, dv, dout, dflag);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned> out(n * 32 * NM), flag(n * 32);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(flag.data(), dflag, flag.size() * 4, cudaMemcpyDeviceToHost));
  fprintf(g_out, ",\n\"match\": [");
  for (int c = 0; c < n; c++) {
    const unsigned *o = &out[c * 32 * NM], *f = &flag[c * 32];
    fprintf(g_out, "%s\n{\"mask\": \"0x%08x\", \"callers\": \"0x%08x\", ", c ? "," : "", ms[c], cs[c]);
    put_u32s("value", &vs[c * 32], nullptr, 1); fprintf(g_out, ", ");
    put_field("any", o, NM, M_ANY, f, 1); fprintf(g_out, ", ");
    put_field("all", o, NM, M_ALL, f, 1); fprintf(g_out, ", ");
    put_field("all_pred", o, NM, M_PRED, f, 1); fprintf(g_out, "}");
  }
  fprintf(g_out, "]");
  cudaFree(dm); cudaFree(dc); cudaFree(dv); cudaFree(dout); cudaFree(dflag);
}

static void run_shfl64() {
  static const char *kinds[] = {"idx", "up", "down", "xor"};
  static const int params[] = {0, 1, 3, 5, 17, 31, 33, -1};
  static const int widths[] = {4, 16, 32};
  static const unsigned masks[] = {0xffffffffu, 0x0000ffffu};
  std::vector<int> ks, ts, ws, pars;
  std::vector<unsigned> ms;
  std::vector<unsigned long long> in;
  for (int kind = 0; kind < 4; kind++)
    for (int ty = 0; ty < 2; ty++)
      for (int w : widths)
        for (int p : params)
          for (unsigned m : masks) {
            ks.push_back(kind); ts.push_back(ty); ws.push_back(w); pars.push_back(p); ms.push_back(m);
            for (int i = 0; i < 32; i++)  // distinct halves: high word 0xA000_00ii, low word from the LCG
              in.push_back(((unsigned long long)(0xA0000000u | (unsigned)(i << 8) | (unsigned)i) << 32) | lcg());
          }
  int n = (int)ks.size();
  int *dk, *dt, *dw, *dpar;
  unsigned *dm, *dflag;
  unsigned long long *din, *dout;
  CHECK(cudaMalloc(&dk, n * 4)); CHECK(cudaMalloc(&dt, n * 4)); CHECK(cudaMalloc(&dw, n * 4));
  CHECK(cudaMalloc(&dpar, n * 4)); CHECK(cudaMalloc(&dm, n * 4)); CHECK(cudaMalloc(&dflag, n * 128));
  CHECK(cudaMalloc(&din, n * 256)); CHECK(cudaMalloc(&dout, n * 256));
  CHECK(cudaMemcpy(dk, ks.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dt, ts.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, ws.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dpar, pars.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dm, ms.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(din, in.data(), n * 256, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, n * 256)); CHECK(cudaMemset(dflag, 0, n * 128));
  k_shfl64<<<n, 32>>>(dk, dt, dw, dpar, dm, din, dout, dflag);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> out(n * 32);
  std::vector<unsigned> flag(n * 32);
  CHECK(cudaMemcpy(out.data(), dout, n * 256, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(flag.data(), dflag, n * 128, cudaMemcpyDeviceToHost));
  fprintf(g_out, ",\n\"shfl64\": [");
  for (int c = 0; c < n; c++) {
    fprintf(g_out, "%s\n{\"kind\": \"%s\", \"type\": \"%s\", \"width\": %d, \"param\": %d, \"mask\": \"0x%08x\", \"input\": [",
            c ? "," : "", kinds[ks[c]], ts[c] ? "double" : "ll", ws[c], pars[c], ms[c]);
    for (int i = 0; i < 32; i++) fprintf(g_out, "%s%llu", i ? ", " : "", in[c * 32 + i]);
    fprintf(g_out, "], \"output\": [");
    for (int i = 0; i < 32; i++) {
      if (flag[c * 32 + i]) fprintf(g_out, "%s%llu", i ? ", " : "", out[c * 32 + i]);
      else fprintf(g_out, "%snull", i ? ", " : "");
    }
    fprintf(g_out, "]}");
  }
  fprintf(g_out, "]");
  cudaFree(dk); cudaFree(dt); cudaFree(dw); cudaFree(dpar); cudaFree(dm); cudaFree(dflag);
  cudaFree(din); cudaFree(dout);
}

static float rand_float(int k, int i) {
  switch (k) {
    case 0: { static const float pat[] = {1e8f, 1.0f, -1e8f, 1.0f}; return pat[i & 3] * (float)(1 + (i >> 2)); }
    case 1: return ((lcg() & 1) ? -1.0f : 1.0f) * ldexpf((float)(lcg() & 0xffffff) / 16777216.0f + 0.5f, (int)(lcg() % 40) - 10);
    case 2: return (i % 3 == 0) ? -0.0f : ((i % 3 == 1) ? 0.0f : ((i & 1) ? 1e-45f : -1e-45f));
    case 3: return 0.1f * (float)(i + 1) + 1e7f * (float)((i % 5) - 2);
    default: return (i == 7) ? __builtin_inff() : ((i == 20) ? -__builtin_inff() : (float)i * 0.5f);
  }
}

template <int W, typename T, typename Op>
static void cg_case(const char *ty, const char *opname, const std::vector<T> &vin, bool *first) {
  int nvec = (int)vin.size() / 32;
  T *din, *dr, *di, *de;
  size_t bytes = vin.size() * sizeof(T);
  CHECK(cudaMalloc(&din, bytes)); CHECK(cudaMalloc(&dr, bytes)); CHECK(cudaMalloc(&di, bytes)); CHECK(cudaMalloc(&de, bytes));
  CHECK(cudaMemcpy(din, vin.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dr, 0, bytes)); CHECK(cudaMemset(di, 0, bytes)); CHECK(cudaMemset(de, 0, bytes));
  k_cg<W, T, Op><<<nvec, 32>>>(din, dr, di, de);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<T> r(vin.size()), inc(vin.size()), exc(vin.size());
  CHECK(cudaMemcpy(r.data(), dr, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(inc.data(), di, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(exc.data(), de, bytes, cudaMemcpyDeviceToHost));
  for (int c = 0; c < nvec; c++) {
    unsigned a[32], b[32], d[32], e[32];
    memcpy(a, &vin[c * 32], 128); memcpy(b, &r[c * 32], 128); memcpy(d, &inc[c * 32], 128); memcpy(e, &exc[c * 32], 128);
    fprintf(g_out, "%s\n{\"type\": \"%s\", \"op\": \"%s\", \"width\": %d, ", *first ? "" : ",", ty, opname, W);
    *first = false;
    put_u32s("input", a, nullptr, 1); fprintf(g_out, ", ");
    put_u32s("reduce", b, nullptr, 1); fprintf(g_out, ", ");
    put_u32s("inclusive", d, nullptr, 1); fprintf(g_out, ", ");
    put_u32s("exclusive", e, nullptr, 1); fprintf(g_out, "}");
  }
  cudaFree(din); cudaFree(dr); cudaFree(di); cudaFree(de);
}

template <int W>
static void cg_width(const std::vector<float> &vf, const std::vector<int> &vi, bool *first) {
  cg_case<W, float, cg::plus<float>>("f32", "plus", vf, first);
  cg_case<W, float, cg::less<float>>("f32", "less", vf, first);
  cg_case<W, float, cg::greater<float>>("f32", "greater", vf, first);
  cg_case<W, int, cg::plus<int>>("i32", "plus", vi, first);
  cg_case<W, int, cg::less<int>>("i32", "less", vi, first);
  cg_case<W, int, cg::bit_xor<int>>("i32", "bit_xor", vi, first);
}

static void run_cg() {
  std::vector<float> vf;
  std::vector<int> vi;
  for (int k = 0; k < 5; k++)
    for (int i = 0; i < 32; i++) vf.push_back(rand_float(k, i));
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 32; i++) vi.push_back(k == 0 ? i : (k == 1 ? (int)lcg() : (i & 1 ? -i : 0x7fffffff)));
  bool first = true;
  fprintf(g_out, ",\n\"cg\": [");
  cg_width<4>(vf, vi, &first);
  cg_width<8>(vf, vi, &first);
  cg_width<16>(vf, vi, &first);
  cg_width<32>(vf, vi, &first);
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
  run_votes();
  run_match();
  run_shfl64();
  run_cg();
  fprintf(g_out, "\n}\n");
  if (g_out != stdout) fclose(g_out);
  return 0;
}
