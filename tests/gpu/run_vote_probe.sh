#!/usr/bin/env bash
# Compile and run vote_probe.cu on an NVIDIA GPU and write the JSON recording
# of votes, matches, __activemask, 64-bit shuffles and cooperative-groups
# scans/reductions (tests/gpu/test_cuda_h100_votes.py checks it, no GPU).
#
# Usage: tests/gpu/run_vote_probe.sh [OUTPUT_JSON] [ARCH]
#   OUTPUT_JSON defaults to $OUT/cuda_h100_votes.json when $OUT is set, else
#   tests/data/cuda_h100_votes.json; ARCH defaults to sm_90.
# Needs nvcc (CUDA 11+: cooperative_groups/scan.h) and a GPU of compute
# capability >= 7.0 (__match_*_sync).  Takes a few seconds after the build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${OUT:-}" ]; then default="$OUT/cuda_h100_votes.json"; else default="$here/../data/cuda_h100_votes.json"; fi
out="${1:-$default}"
arch="${2:-sm_90}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv || true
echo "== nvcc"; nvcc --version | tail -n 2
nvcc -O2 -arch="$arch" -o "$build/vote_probe" "$here/vote_probe.cu"
if command -v cuobjdump >/dev/null; then
  echo "== SASS opcodes used by the probe kernels"
  cuobjdump -sass "$build/vote_probe" | grep -oE '\b(VOTE|MATCH|SHFL|REDUX)[.A-Z0-9]*' | sort | uniq -c || true
fi
mkdir -p "$(dirname "$out")"
timeout 60 "$build/vote_probe" "$out"
echo "== check"
python3 "$here/check_votes.py" "$out"
ls -l "$out"
