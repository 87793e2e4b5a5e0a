#!/usr/bin/env bash
# Compile and run shfl_probe.cu on an NVIDIA GPU, write the JSON recording and
# check it against the PTX pseudo-code / Python reductions.
#
# Usage: tests/gpu/run_probe.sh [OUTPUT_JSON] [ARCH]
#   OUTPUT_JSON defaults to tests/data/cuda_h100.json, ARCH to sm_90.
# Needs nvcc and a GPU of compute capability >= 8.0 (for __reduce_*_sync).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/../data/cuda_h100.json}"
arch="${2:-sm_90}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || true
echo "== nvcc"; nvcc --version | tail -n 2
nvcc -O2 -arch="$arch" -o "$build/shfl_probe" "$here/shfl_probe.cu"
if command -v cuobjdump >/dev/null; then
  echo "== SASS opcodes used by the probe kernels"
  cuobjdump -sass "$build/shfl_probe" | grep -oE '\b(SHFL|REDUX|CREDUX)[.A-Z0-9]*' | sort | uniq -c || true
fi
mkdir -p "$(dirname "$out")"
"$build/shfl_probe" "$out"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out"
ls -l "$out"
echo "== check"
python3 "$here/check_probe.py" "$out"
