#!/usr/bin/env bash
# Online mode's cost on kernels' first launches, end to end, on a GPU host:
# many_kernels (32 elementwise kernels launched within a millisecond of the
# CUDA context) and varying_shapes (a divergent kernel over many grids),
# each off and online, in two builds side by side, interleaved, REPS times;
# then each suite app's 20 launches issued back to back (--end-to-end: the
# first launches, every divopt overhead included), off and online in both
# builds. One line per run: LABEL and the program's JSON line;
# benchmarks/online/first_launches_table.py summarizes them.
#   benchmarks/online/first-launches.sh BEFORE_BIN NOW_BIN OUT_FILE [REPS=3]
# BEFORE_BIN and NOW_BIN hold bench-online-* and bench-app-* of each build.
set -uo pipefail
BEFORE=${1:?usage: first-launches.sh BEFORE_BIN NOW_BIN OUT_FILE [REPS]}
NOW=${2:?usage: first-launches.sh BEFORE_BIN NOW_BIN OUT_FILE [REPS]}
OUT=${3:?usage: first-launches.sh BEFORE_BIN NOW_BIN OUT_FILE [REPS]}
REPS=${4:-3}
APPS=${APPS:-sm mandelbrot mc walk sw nw sl matpow bfs ec mum spmv}
: >"$OUT"
one() { # LABEL MODE PROGRAM ARGS...
  local Label=$1 Mode=$2
  shift 2
  echo "$Label $(DIVOPT_MODE=$Mode DIVOPT_MODEL=none timeout 120 "$@" 2>/dev/null | tail -n 1)" >>"$OUT"
}
for Rep in $(seq "$REPS"); do
  for Build in before now; do
    Bin=$BEFORE
    [[ $Build == now ]] && Bin=$NOW
    for Mode in off optimize; do
      for Rounds in 20 200; do
        one "$Build $Mode many_kernels $Rounds" $Mode "$Bin/bench-online-many-kernels" "$Rounds"
      done
      # 4096 items: kernels of a few microseconds, the launch loop host-bound.
      one "$Build $Mode many_kernels_small 200" $Mode "$Bin/bench-online-many-kernels" 200 4096
      for Distinct in 0 8 50; do
        one "$Build $Mode varying_shapes 200 $Distinct" $Mode "$Bin/bench-online-varying-shapes" 200 "$Distinct"
      done
    done
  done
done
for Rep in $(seq "$REPS"); do
  for App in $APPS; do
    one "off off $App" off "$NOW/bench-app-$App" --repeat 20 --end-to-end --quiet
    one "before optimize $App" optimize "$BEFORE/bench-app-$App" --repeat 20 --end-to-end --quiet
    one "now optimize $App" optimize "$NOW/bench-app-$App" --repeat 20 --end-to-end --quiet
  done
done
