#!/bin/bash
# ncu of compute apps as written and hand-sorted: local memory, L1 hits, stalls.
set -u
R=$OUT/ncu; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt 2>/dev/null
date -u >> $R/device.txt
mkdir -p /tmp/b && tar -xJf build-gpu/build.tar.xz -C /tmp/b 2>/dev/null || tar -xJf build-gpu/build.tar.xz
B=build; [ -d /tmp/b/build/bin ] && B=/tmp/b/build
start=$(date +%s)
while read app k; do
  for v in original handwritten; do
    now=$(date +%s); [ $((now-start)) -gt 500 ] && break 2
    timeout 60 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section Occupancy \
      --section LaunchStats --section ComputeWorkloadAnalysis --section WarpStateStats --section InstructionStats \
      --page raw --csv -k regex:"^$k" --launch-count 1 $B/bin/bench-app-$app --variant $v --repeat 1 --quiet \
      > $R/$app-$v.csv 2> $R/$app-$v.err
    echo "$app $v rc=$? $(( $(date +%s)-now ))s" >> $R/log.txt
  done
done <<'LIST'
nw nwScores
matpow matrixPowers
sm smDisparity
sw swScores
sl slLocalize
roots rootsAberth
huff huffDecodeBlocks
kepler keplerPositions
queens queensCompletions
jacobi jacobiEigenvalues
sat satSolve
quad quadIntegrals
flatten flattenCurves
tsp tspImprove
lpm lpmLookup
join joinProbe
binomial binomialPrices
mc mcPolygonize
walk randomWalks
rho rhoFactor
LIST
cd $OUT && tar -czf ncu.tgz ncu && rm -rf ncu
