#!/usr/bin/env bash
# Profiling cost at scale (issue 14), on a GPU host: every suite app, the
# 20M-thread many-block kernel and the 1000-launch program, each in mode off
# and in profile mode, with the runtime's per-launch statistics
# (DIVOPT_PROFILE_STATS) and the profile's size. Profile mode runs with its
# default sampling (DIVOPT_PROFILE_LAUNCHES=1): the first launch of each
# kernel and shape is profiled, as a user's run profiles it. One JSON file per run lands
# in OUT_DIR; benchmarks/profile/table.py turns them into the report.
#   benchmarks/profile/run.sh BIN_DIR OUT_DIR [LABEL=now] [APPS...]
# BIN_DIR holds bench-app-* and bench-profile-*; LABEL names the build (a
# build of an older commit can be run the same way, as "before").
# MANY_BLOCKS_LAUNCHES (default 3) sets the 20M-thread program's launches;
# PROFILE_FILE=/dev/null profiles without keeping the file (for a build whose
# profiles would not fit on the disk).
set -uo pipefail
BIN=${1:?usage: run.sh BIN_DIR OUT_DIR [LABEL] [APPS...]}
OUT=${2:?usage: run.sh BIN_DIR OUT_DIR [LABEL] [APPS...]}
LABEL=${3:-now}
shift 3 2>/dev/null || shift $#
APPS=${*:-bfs ec mandelbrot matpow mc mum nw sl sm spmv sw walk many_blocks repeated_launches}
SCRATCH=${TMPDIR:-/tmp}/divopt-profile-bench
mkdir -p "$OUT" "$SCRATCH"

# run NAME MODE COMMAND...: the program's JSON line, the profile's size and
# records, and the wall time of the whole process, into OUT/LABEL-NAME-MODE.json.
run() {
  local Name=$1 Mode=$2
  shift 2
  local Prof=${PROFILE_FILE:-$SCRATCH/$Name.divprof} Stats=$OUT/$LABEL-$Name-$Mode.stats.json
  [[ -c $Prof ]] || rm -f "$Prof"
  rm -f "$Stats"
  local Start End Line
  Start=$(date +%s%N)
  Line=$(DIVOPT_MODE=$Mode DIVOPT_PROFILE_FILE=$Prof DIVOPT_PROFILE_STATS=$Stats \
         timeout 300 "$@" 2>"$OUT/$LABEL-$Name-$Mode.stderr" | tail -n 1)
  local Rc=$?
  End=$(date +%s%N)
  local Bytes=0
  [[ -f $Prof && ! -c $Prof ]] && Bytes=$(stat -c %s "$Prof")
  printf '{"label":"%s","name":"%s","mode":"%s","rc":%d,"process_ms":%.3f,"profile_bytes":%d,"run":%s}\n' \
    "$LABEL" "$Name" "$Mode" "$Rc" "$(( (End - Start) / 1000 ))e-3" "$Bytes" "${Line:-null}" \
    >"$OUT/$LABEL-$Name-$Mode.json"
  echo "$LABEL $Name $Mode rc=$Rc $(( (End - Start) / 1000000 )) ms, profile $Bytes bytes" >&2
  [[ -c $Prof ]] || rm -f "$Prof"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader \
  >"$OUT/$LABEL-device.txt" 2>&1

for App in $APPS; do
  case $App in
  many_blocks)
    # 20M threads, 203 basic blocks: 1% of the threads distinct, then 4M.
    for Classes in 200000 4000000; do
      run "many_blocks-$Classes" off "$BIN/bench-profile-many-blocks" 20000000 "$Classes" \
        "${MANY_BLOCKS_LAUNCHES:-3}"
      run "many_blocks-$Classes" profile \
        "$BIN/bench-profile-many-blocks" 20000000 "$Classes" "${MANY_BLOCKS_LAUNCHES:-3}"
    done ;;
  repeated_launches)
    # One kernel launched 1000 times, default profiling (the first launch only).
    for Mode in off profile; do
      run repeated_launches "$Mode" "$BIN/bench-profile-repeated-launches" 1000
    done ;;
  *)
    # 3 warm-ups and 5 timed launches; in profile mode the default sampling
    # records the first (a build that records every launch records all 8).
    run "$App" off "$BIN/bench-app-$App" --repeat 5
    run "$App" profile "$BIN/bench-app-$App" --repeat 5 ;;
  esac
done
