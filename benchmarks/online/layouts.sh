#!/usr/bin/env bash
# Each suite app with each online layout forced (DIVOPT_ALGORITHM), and online
# mode's own choice, in the plugin build and in the nvcc build of
# `divopt rewrite`'s output: the median kernel time of R launches and the
# checksum (equal across a row's layouts: the same results), then the guard's
# verbose line. On a GPU, from a build (scripts/pack-gpu-build.sh):
#   benchmarks/online/layouts.sh [BUILD_DIR] [APP...]      (default: build, the suite)
# R: LAYOUT_REPEAT (default 30).
set -uo pipefail
BUILD=${1:-build}
shift || true
APPS=${*:-sm mandelbrot mc walk sw nw sl matpow bfs ec mum spmv}
R=${LAYOUT_REPEAT:-30}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
LOG=$(mktemp)
median() {
  python3 -c 'import json,sys; d=json.loads(sys.stdin.read().strip().splitlines()[-1]); print("%.3f ms  %s" % (d["median_ms"], d["checksum"]))'
}
row() { # label, then env assignments and the command
  local Label=$1
  shift
  printf "%-32s " "$Label"
  timeout 300 env "$@" 2>>"$LOG" | median || echo "failed (rc $?)"
}
for A in $APPS; do
  for Build in plugin nvcc; do
    if [[ $Build == plugin ]]; then
      X=$BUILD/bin/bench-app-$A BASE=$X
    else
      X=$BUILD/bin/rewritten/bench-app-$A BASE=$BUILD/bin/nvcc/bench-app-$A
    fi
    row "$A $Build off" DIVOPT_MODE=off "$BASE" --repeat "$R"
    for L in greedy-max sorting chunked in-block; do
      row "$A $Build $L" DIVOPT_MODE=optimize DIVOPT_MODEL=none DIVOPT_ALGORITHM=$L "$X" --repeat "$R"
    done
    : >"$LOG"
    row "$A $Build online" DIVOPT_MODE=optimize DIVOPT_MODEL=none DIVOPT_VERBOSE=1 "$X" --repeat "$R"
    grep -m1 "^divopt: online _" "$LOG" | sed 's/^.*>>>: /  /'
  done
done
rm -f "$LOG"
