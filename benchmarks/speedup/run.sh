#!/usr/bin/env bash
# Regrouping speedup on the GPU: for each kernel, the original (off), each
# algorithm in optimize mode from a recorded profile, and auto. Equal
# checksums show equal results. Needs a GPU and a build.
#   benchmarks/speedup/run.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
BIN=$BUILD/bin/bench-regroup-speedup
P=/tmp/divopt-speedup.divprof
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
for K in geometric160 geometric20 mandelbrot uniform; do
  rm -f $P
  DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=$P "$BIN" $K 1 >/dev/null
  DIVOPT_MODE=off "$BIN" $K
  for A in sorting greedy greedy-max auto; do
    DIVOPT_MODE=optimize DIVOPT_PROFILE_USE=$P DIVOPT_ALGORITHM=$A DIVOPT_VERBOSE=1 "$BIN" $K 2>&1 |
      cat
  done
done
