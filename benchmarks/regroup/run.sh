#!/usr/bin/env bash
# Host time of the regrouping algorithms, with the machine and commit it ran
# on. No GPU needed.
#   benchmarks/regroup/run.sh [BUILD_DIR] [extra Google Benchmark flags]
set -euo pipefail
BUILD=${1:-build}
shift || true
lscpu | head
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- runtime benchmarks 2>/dev/null || echo ' + uncommitted changes')"
echo "command $BUILD/bin/bench-regroup-speed --benchmark_min_time=0.05 $*"
"$BUILD/bin/bench-regroup-speed" --benchmark_min_time=0.05 "$@"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
