#!/usr/bin/env bash
# Seed 001's matrix-power benchmark on a GPU (with and without the group
# synchronization), and the model's mean loss for the same rows to compare
# the measured_mean column with. Needs a GPU and a build.
#   benchmarks/imbalance/run-matrix-power.sh [BUILD_DIR] [GROUPS]
set -euo pipefail
BUILD=${1:-build}
NGROUPS=${2:-262144} # 2^18 groups per row, as in seed 001 (GROUPS is bash's own)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
"$BUILD/bin/bench-imbalance-matrix-power" "$NGROUPS" 5489 1
"$BUILD/bin/bench-imbalance-matrix-power" "$NGROUPS" 5489 0
for D in binomial:40,0.5 geometric:0.05 poisson:30 uniform:20,40 negbinomial:5,0.3; do
  "$BUILD/bin/divopt" imbalance "$D" --n 2,4,8,16,32
done
