#!/usr/bin/env bash
# Device call: staged packing (issue 14). bc0c38f, ef0b04a, this tree.
set -u
R=$OUT/res; mkdir -p $R/mb
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
tar -xJf build-gpu/build.tar.xz
for C in 200000 4000000; do
  DIVOPT_MODE=off timeout 120 build/bin/bench-profile-many-blocks 20000000 $C 3 > $R/mb/off-$C.out 2>&1
done
for r in 1 2 3; do for b in bc0c38f ef0b04a now; do
  case $b in bc0c38f) BIN=.devrun/before/bench-profile-many-blocks;; ef0b04a) BIN=.devrun/ef0b04a/bench-profile-many-blocks;; now) BIN=build/bin/bench-profile-many-blocks;; esac
  for C in 200000 4000000; do
    DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null DIVOPT_PROFILE_STATS=$R/mb/$b-$C-$r.stats.json \
      timeout 120 $BIN 20000000 $C 3 > $R/mb/$b-$C-$r.out 2>&1
  done
done; done
# the copy with no launch of the user's behind it
for r in 1 2; do
  DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null DIVOPT_PROFILE_STATS=$R/mb/now-4000000-one-$r.stats.json \
    timeout 120 build/bin/bench-profile-many-blocks 20000000 4000000 1 > $R/mb/now-4000000-one-$r.out 2>&1
done
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
for C in 200000 4000000; do
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null timeout 300 ncu --metrics gpu__time_duration.sum -k regex:'pack|finish|number|insert|gather' \
  build/bin/bench-profile-many-blocks 20000000 $C 1 > $R/ncu-now-$C.txt 2>&1
done
timeout 420 scripts/gpu-tests.sh build > $R/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $R/gpu-tests.txt
tail -3 $R/gpu-tests.txt
cd $OUT && tar -cJf res.tar.xz res && rm -rf res
