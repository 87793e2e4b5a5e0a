#!/usr/bin/env bash
# Compile and run prims_probe.cu on an NVIDIA GPU and write the JSON recording
# of issue #33's primitives: shfl.sync's predicate, __fns, the ballot rank,
# coalesced groups, labeled/binary partitions, 64-bit and float matches and
# the typed shuffles (tests/gpu/test_cuda_h100_prims.py checks it, no GPU).
#
# Usage: tests/gpu/run_prims_probe.sh [OUTPUT_JSON] [ARCH]
#   OUTPUT_JSON defaults to $OUT/cuda_h100_prims.json when $OUT is set, else
#   tests/data/cuda_h100_prims.json; ARCH defaults to sm_90.
# Needs nvcc (CUDA 11+: labeled_partition, cuda_bf16.h) and a GPU of compute
# capability >= 7.0 (__match_*_sync).  Takes a few seconds after the build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${OUT:-}" ]; then default="$OUT/cuda_h100_prims.json"; else default="$here/../data/cuda_h100_prims.json"; fi
out="${1:-$default}"
arch="${2:-sm_90}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || true
echo "== nvcc"; nvcc --version | tail -n 2
nvcc -O2 -arch="$arch" -o "$build/prims_probe" "$here/prims_probe.cu"
if command -v cuobjdump >/dev/null; then
  echo "== SASS opcodes used by the probe kernels"
  cuobjdump -sass "$build/prims_probe" | grep -oE '\b(VOTE|MATCH|SHFL|REDUX|FLO|POPC|BREV)[.A-Z0-9]*' | sort | uniq -c || true
fi
mkdir -p "$(dirname "$out")"
timeout 120 "$build/prims_probe" "$out"
echo "== check"
python3 "$here/check_prims.py" "$out"
ls -l "$out"
