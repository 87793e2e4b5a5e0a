// shfl_probe.cu -- record ground truth for CUDA warp shuffles and warp
// reductions on real NVIDIA hardware.
//
// Build:  nvcc -O2 -arch=sm_90 -o shfl_probe shfl_probe.cu
// Run:    ./shfl_probe [out.json]      (JSON goes to stdout if no path given)
//
// One warp (32 threads), full mask 0xffffffff for the shuffles.  The value of
// lane i is i, so every recorded shuffle result is the source lane id (or the
// lane's own id when the source is out of range).
//
// Shuffle parameters and widths are read from device memory at run time so
// that the compiler cannot constant-fold anything: the results reflect what
// the SHFL instruction does, with the operand encoding produced by the CUDA
// headers (c = ((32 - w) << 8) | 0x1f, or (32 - w) << 8 for shfl.up).
//
// Reductions (__reduce_*_sync, sm_80+) are recorded for several input vectors
// and participation masks; only lanes whose bit is set in the mask call the
// intrinsic (with that mask).  Lanes that do not participate are emitted as
// null.
//
// Output structure:
// {"device": "...", "cuda_runtime": int, "driver": int, "sm": "90",
//  "shfl": {"idx"|"up"|"down"|"xor": {"<w>": {"<p>": [32 ints]}}},
//  "reduce": [{"op": ..., "mask": "0x........", "input": [32 u32],
//              "output": [32 u32 or null]}]}

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t err__ = (x);                                                  \
    if (err__ != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, \
              cudaGetErrorString(err__));                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

#define FULL 0xffffffffu

static const int kWidths[] = {1, 2, 4, 8, 16, 32};
static const int NW = sizeof(kWidths) / sizeof(kWidths[0]);

// Shuffle kinds, in output order.
static const char *kShflNames[] = {"idx", "up", "down", "xor"};
static const int NSHFL = 4;

// Reduction ops, in output order.
enum { R_ADD, R_MIN, R_MAX, R_UMIN, R_UMAX, R_AND, R_OR, R_XOR, NRED };
static const char *kRedNames[] = {"add", "min", "max", "umin", "umax", "and", "or", "xor"};

static const unsigned kMasks[] = {0xffffffffu, 0x0000ffffu, 0x80000001u,
                                  0x12345678u, 0x00000001u, 0xfffffffeu};
static const int NMASK = sizeof(kMasks) / sizeof(kMasks[0]);

static const int NINPUT = 7;

static unsigned input_value(int which, int i) {
  unsigned u = (unsigned)i;
  switch (which) {
    case 0:  // lane id
      return u;
    case 1:  // Knuth multiplicative hash, mod 2^32
      return (unsigned)((uint64_t)u * 2654435761ull);
    case 2:  // mixed negative / positive ints
      return (i % 3 == 0) ? (unsigned)(-(i * 7 + 1)) : (unsigned)(i * 1000003);
    case 3:  // all ones
      return 0xffffffffu;
    case 4:  // straddling 2^31: 0x7ffffff0 .. 0x8000000f
      return 0x80000000u + u - 16u;
    case 5:  // signed extremes: INT_MAX - i (even lanes), INT_MIN + i (odd)
      return (i % 2 == 0) ? 0x7fffffffu - u : 0x80000000u + u;
    case 6:  // one bit per lane
      return 1u << i;
  }
  return 0;
}

__global__ void shfl_kernel(const int *params, int np, const int *widths, int nw,
                            int *out) {
  const int lane = threadIdx.x & 31;
  const int v = lane;
  for (int wi = 0; wi < nw; ++wi) {
    const int w = widths[wi];
    for (int pi = 0; pi < np; ++pi) {
      const int p = params[pi];
      const size_t base = ((size_t)wi * np + pi) * 32 + lane;
      const size_t stride = (size_t)nw * np * 32;
      out[0 * stride + base] = __shfl_sync(FULL, v, p, w);
      out[1 * stride + base] = __shfl_up_sync(FULL, v, (unsigned)p, w);
      out[2 * stride + base] = __shfl_down_sync(FULL, v, (unsigned)p, w);
      out[3 * stride + base] = __shfl_xor_sync(FULL, v, p, w);
    }
  }
}

// inputs: [NINPUT][32]; masks: [nmask]
// out / flag: [NINPUT][nmask][NRED][32]
__global__ void reduce_kernel(const unsigned *inputs, int ninput, const unsigned *masks,
                              int nmask, unsigned *out, int *flag) {
  const int lane = threadIdx.x & 31;
  for (int ii = 0; ii < ninput; ++ii) {
    const unsigned u = inputs[ii * 32 + lane];
    const int s = (int)u;
    for (int mi = 0; mi < nmask; ++mi) {
      const unsigned m = masks[mi];
      const size_t base = ((size_t)ii * nmask + mi) * NRED * 32 + lane;
      if ((m >> lane) & 1u) {
        out[base + R_ADD * 32] = __reduce_add_sync(m, u);
        flag[base + R_ADD * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_MIN * 32] = (unsigned)__reduce_min_sync(m, s);
        flag[base + R_MIN * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_MAX * 32] = (unsigned)__reduce_max_sync(m, s);
        flag[base + R_MAX * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_UMIN * 32] = __reduce_min_sync(m, u);
        flag[base + R_UMIN * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_UMAX * 32] = __reduce_max_sync(m, u);
        flag[base + R_UMAX * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_AND * 32] = __reduce_and_sync(m, u);
        flag[base + R_AND * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_OR * 32] = __reduce_or_sync(m, u);
        flag[base + R_OR * 32] = 1;
      }
      if ((m >> lane) & 1u) {
        out[base + R_XOR * 32] = __reduce_xor_sync(m, u);
        flag[base + R_XOR * 32] = 1;
      }
      __syncwarp();
    }
  }
}

static void print_int_list(FILE *f, const int *a) {
  fputc('[', f);
  for (int i = 0; i < 32; ++i) fprintf(f, i ? ",%d" : "%d", a[i]);
  fputc(']', f);
}

static void print_u32_list(FILE *f, const unsigned *a, const int *flag) {
  fputc('[', f);
  for (int i = 0; i < 32; ++i) {
    if (i) fputc(',', f);
    if (flag && !flag[i])
      fputs("null", f);
    else
      fprintf(f, "%u", a[i]);
  }
  fputc(']', f);
}

static void print_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

int main(int argc, char **argv) {
  FILE *f = stdout;
  if (argc > 1) {
    f = fopen(argv[1], "w");
    if (!f) {
      perror(argv[1]);
      return 1;
    }
  }

  // ---- parameters ------------------------------------------------------
  int params[256];
  int np = 0;
  for (int p = -70; p <= 100; ++p) params[np++] = p;
  const int extras[] = {(int)0x80000000u, -2147483647, 2147483647, 2147483646,
                        1000, -1000, 65535, 65536};
  for (int e : extras) params[np++] = e;

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int rt = 0, drv = 0;
  CHECK(cudaRuntimeGetVersion(&rt));
  CHECK(cudaDriverGetVersion(&drv));

  // ---- shuffles --------------------------------------------------------
  const size_t nshfl = (size_t)NSHFL * NW * np * 32;
  int *d_params, *d_widths, *d_out;
  CHECK(cudaMalloc(&d_params, np * sizeof(int)));
  CHECK(cudaMalloc(&d_widths, NW * sizeof(int)));
  CHECK(cudaMalloc(&d_out, nshfl * sizeof(int)));
  CHECK(cudaMemcpy(d_params, params, np * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_widths, kWidths, NW * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xAB, nshfl * sizeof(int)));
  shfl_kernel<<<1, 32>>>(d_params, np, d_widths, NW, d_out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int *h_out = (int *)malloc(nshfl * sizeof(int));
  CHECK(cudaMemcpy(h_out, d_out, nshfl * sizeof(int), cudaMemcpyDeviceToHost));

  // ---- reductions ------------------------------------------------------
  unsigned h_inputs[NINPUT * 32];
  for (int ii = 0; ii < NINPUT; ++ii)
    for (int i = 0; i < 32; ++i) h_inputs[ii * 32 + i] = input_value(ii, i);
  const size_t nred = (size_t)NINPUT * NMASK * NRED * 32;
  unsigned *d_inputs, *d_masks, *d_rout;
  int *d_flag;
  CHECK(cudaMalloc(&d_inputs, sizeof(h_inputs)));
  CHECK(cudaMalloc(&d_masks, sizeof(kMasks)));
  CHECK(cudaMalloc(&d_rout, nred * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_flag, nred * sizeof(int)));
  CHECK(cudaMemcpy(d_inputs, h_inputs, sizeof(h_inputs), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_masks, kMasks, sizeof(kMasks), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_rout, 0xAB, nred * sizeof(unsigned)));
  CHECK(cudaMemset(d_flag, 0, nred * sizeof(int)));
  reduce_kernel<<<1, 32>>>(d_inputs, NINPUT, d_masks, NMASK, d_rout, d_flag);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned *h_rout = (unsigned *)malloc(nred * sizeof(unsigned));
  int *h_flag = (int *)malloc(nred * sizeof(int));
  CHECK(cudaMemcpy(h_rout, d_rout, nred * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_flag, d_flag, nred * sizeof(int), cudaMemcpyDeviceToHost));

  // ---- JSON --------------------------------------------------------------
  fputs("{\"device\":", f);
  print_json_string(f, prop.name);
  fprintf(f, ",\"cuda_runtime\":%d,\"driver\":%d,\"sm\":\"%d%d\",\n", rt, drv,
          prop.major, prop.minor);
  fputs("\"shfl\":{", f);
  const size_t stride = (size_t)NW * np * 32;
  for (int k = 0; k < NSHFL; ++k) {
    fprintf(f, "%s\"%s\":{", k ? ",\n" : "\n", kShflNames[k]);
    for (int wi = 0; wi < NW; ++wi) {
      fprintf(f, "%s\"%d\":{", wi ? ",\n" : "\n", kWidths[wi]);
      for (int pi = 0; pi < np; ++pi) {
        fprintf(f, "%s\"%d\":", pi ? ",\n" : "\n", params[pi]);
        print_int_list(f, h_out + k * stride + ((size_t)wi * np + pi) * 32);
      }
      fputs("}", f);
    }
    fputs("}", f);
  }
  fputs("},\n\"reduce\":[", f);
  bool first = true;
  for (int ii = 0; ii < NINPUT; ++ii)
    for (int mi = 0; mi < NMASK; ++mi)
      for (int r = 0; r < NRED; ++r) {
        const size_t base = (((size_t)ii * NMASK + mi) * NRED + r) * 32;
        fprintf(f, "%s{\"op\":\"%s\",\"mask\":\"0x%08x\",\"input\":", first ? "\n" : ",\n",
                kRedNames[r], kMasks[mi]);
        print_u32_list(f, h_inputs + ii * 32, nullptr);
        fputs(",\"output\":", f);
        print_u32_list(f, h_rout + base, h_flag + base);
        fputs("}", f);
        first = false;
      }
  fputs("]}\n", f);
  if (f != stdout) fclose(f);

  fprintf(stderr, "shfl_probe: %s, runtime %d, driver %d, sm_%d%d: %zu shfl values, %d reduce records\n",
          prop.name, rt, drv, prop.major, prop.minor, nshfl, NINPUT * NMASK * NRED);
  return 0;
}
