#!/usr/bin/env bash
# Instrumentation overhead on the GPU: kernel time in profile mode over kernel
# time in off mode, and counter bytes per launch. Needs a GPU and a build.
#   benchmarks/overhead/run.sh [BUILD_DIR] [THREADS]
set -euo pipefail
BUILD=${1:-build}
N=${2:-1048576}
BIN=$BUILD/bin/bench-instrumentation-overhead
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
DIVOPT_MODE=off "$BIN" "$N" 30
# /dev/null: time the profiled launches, not the disk.
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null "$BIN" "$N" 30
# One real record, for the counter size and the block count.
rm -f /tmp/overhead.divprof
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/tmp/overhead.divprof "$BIN" "$N" 1 >/dev/null
"$BUILD/bin/divopt" report /tmp/overhead.divprof --top 3 | sed -n '1,12p'
echo "profile bytes $(stat -c %s /tmp/overhead.divprof) (3 warm-up + 1 timed launch = 4 records)"
# Kernel-only durations from the profiler, original vs clone.
if command -v ncu >/dev/null; then
  for MODE in off profile; do
    DIVOPT_MODE=$MODE DIVOPT_PROFILE_FILE=/dev/null ncu --clock-control none \
      --metrics gpu__time_duration.sum -k regex:divergentWork "$BIN" "$N" 5 2>/dev/null |
      awk -v m=$MODE '/gpu__time_duration.sum/ {s += $3; n++} END {printf "%s ncu kernel-only mean %.2f us over %d launches\n", m, s / n, n}'
  done
fi
