#!/usr/bin/env bash
# Device call: counts bounded by the loops' trip counts (fields of the hash words, no escape), issue 14.
# 81bfce0, 104d3af and this tree; records against bc0c38f's; then the issue-14 table of the whole suite.
set -u
R=$OUT/res; mkdir -p $R/mb
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
tar -xJf build-gpu/build.tar.xz
for b in 81bfce0 104d3af before; do xz -dk .devrun/$b/bench-profile-many-blocks.xz; chmod +x .devrun/$b/bench-profile-many-blocks; done
timeout 420 scripts/gpu-tests.sh build > $R/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $R/gpu-tests.txt
tail -3 $R/gpu-tests.txt
for C in 200000 4000000; do
  DIVOPT_MODE=off timeout 120 build/bin/bench-profile-many-blocks 20000000 $C 3 > $R/mb/off-$C.out 2>&1
done
for r in 1 2 3; do for b in 81bfce0 104d3af now; do
  case $b in now) BIN=build/bin/bench-profile-many-blocks;; *) BIN=.devrun/$b/bench-profile-many-blocks;; esac
  for C in 200000 4000000; do
    DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null DIVOPT_PROFILE_STATS=$R/mb/$b-$C-$r.stats.json \
      timeout 120 $BIN 20000000 $C 3 > $R/mb/$b-$C-$r.out 2>&1
  done
done; done
for C in 200000 4000000; do
  for b in before now; do
    if [[ $b == before ]]; then BIN=.devrun/before/bench-profile-many-blocks; else BIN=build/bin/bench-profile-many-blocks; fi
    rm -f /tmp/$b.divprof
    DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/tmp/$b.divprof timeout 120 $BIN 20000000 $C 1 > /dev/null 2>&1
  done
  ls -l /tmp/before.divprof /tmp/now.divprof >> $R/compare.txt
  timeout 300 build/bin/bench-profile-compare /tmp/before.divprof /tmp/now.divprof >> $R/compare.txt 2>&1
  echo "compare $C rc $?" >> $R/compare.txt
done
rm -f /tmp/now.divprof; DIVOPT_MODE=profile DIVOPT_PROFILE_COUNTERS=32 DIVOPT_PROFILE_FILE=/tmp/now.divprof timeout 120 build/bin/bench-profile-many-blocks 20000000 4000000 1 > /dev/null 2>&1
timeout 300 build/bin/bench-profile-compare /tmp/before.divprof /tmp/now.divprof >> $R/compare.txt 2>&1
echo "compare wide 4000000 rc $?" >> $R/compare.txt
M=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__inst_executed_pipe_lsu.sum
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null timeout 300 ncu --metrics $M -k regex:divopt_profile -c 1 \
  build/bin/bench-profile-many-blocks 20000000 200000 1 > $R/ncu-clone-now.txt 2>&1
cd $OUT && tar -cJf res.tar.xz res
cd - > /dev/null
timeout 240 benchmarks/profile/run.sh build/bin $R/suite now > $R/suite.log 2>&1
echo "suite rc $?" >> $R/suite.log
tail -2 $R/suite.log
cd $OUT && rm -f res.tar.xz && tar -cJf res.tar.xz res && rm -rf res
