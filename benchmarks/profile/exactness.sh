#!/usr/bin/env bash
# Exactness of version-3 profiles on the suite (issue 14): each app profiled
# by an older build that writes version 2 (every block counted, dense) and by
# this build (edge counters, compacted on the GPU), every launch recorded, and
# the two profiles compared block count by block count for every thread
# (bench-profile-compare). OLD_BIN_DIR may also be a build that writes
# version 3 (one layout against another); both record every launch. Needs a
# GPU.
#   benchmarks/profile/exactness.sh OLD_BIN_DIR NEW_BIN_DIR [APPS...]
set -uo pipefail
OLD=${1:?usage: exactness.sh OLD_BIN_DIR NEW_BIN_DIR [APPS...]}
NEW=${2:?usage: exactness.sh OLD_BIN_DIR NEW_BIN_DIR [APPS...]}
shift 2
APPS=${*:-bfs ec mandelbrot matpow mc mum nw sl sm spmv sw walk}
SCRATCH=${TMPDIR:-/tmp}/divopt-exactness
mkdir -p "$SCRATCH"
Failed=0
for App in $APPS; do
  rm -f "$SCRATCH"/old.divprof "$SCRATCH"/new.divprof
  DIVOPT_MODE=profile DIVOPT_PROFILE_LAUNCHES=all DIVOPT_PROFILE_FILE=$SCRATCH/old.divprof \
    timeout 300 "$OLD/bench-app-$App" --repeat 1 >/dev/null 2>&1
  DIVOPT_MODE=profile DIVOPT_PROFILE_LAUNCHES=all DIVOPT_PROFILE_FILE=$SCRATCH/new.divprof \
    timeout 300 "$NEW/bench-app-$App" --repeat 1 >/dev/null 2>&1
  echo "== $App: version 2 $(stat -c %s "$SCRATCH/old.divprof" 2>/dev/null) bytes," \
       "version 3 $(stat -c %s "$SCRATCH/new.divprof" 2>/dev/null) bytes"
  "$NEW/bench-profile-compare" "$SCRATCH/old.divprof" "$SCRATCH/new.divprof" || Failed=1
done
rm -f "$SCRATCH"/old.divprof "$SCRATCH"/new.divprof
exit $Failed
